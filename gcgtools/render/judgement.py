"""The judgement of a record (``gcgtools analyse --depth sim|full``) as text that fits
80 columns: a header naming the depth and the win model, then per turn (under a line
naming each phase as it begins) the move played and the best move with their win% (or
endgame value), the win% or spread lost with the mistake badge (with ``why``, the facts
that separate the move played from the best under it, one line each); then the badges'
legend and the Mistake Index per player."""

from __future__ import annotations

import unicodedata

from gcgtools.analysis.analyse import RecordAnalysis, TurnAnalysis
from gcgtools.analysis.judge import JudgedMove, Judgement
from gcgtools.console import safe_text
from gcgtools.render.analysis import WIDTH, wrapped

__all__ = [
    "BADGES",
    "badge",
    "display_width",
    "fact_lines",
    "judgement_lines",
    "mistake_index_line",
]

#: the badge of each mistake size (text output and the HTML report)
BADGES = {"none": "", "small": "?", "medium": "??", "large": "???"}

_HEAD = ("#", "player", "played", "best", "lost")
_NICK = 10  # a longer nickname is cut (the summary of the static table has it in full)
LEGEND = "  mistakes: ? small, ?? medium, ??? large"
#: before a solver's value it did not prove (its budget ran out first), as in ``moves``
UNPROVED = "~"
UNPROVED_LEGEND = "  ~ not proved: the solver's budget ran out first"
FACTS_LEGEND = "  facts: + in favour of the best move, - of the move played, · of neither"


def badge(mistake: str | None) -> str:
    """``?`` small, ``??`` medium, ``???`` large, empty for none or not graded."""
    return BADGES.get(mistake or "none", "")


def display_width(text: str) -> int:
    """The columns ``text`` takes on a terminal (wide and full-width characters 2,
    combining marks 0)."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def _pad(text: str, width: int, *, right: bool = False) -> str:
    gap = " " * max(0, width - display_width(text))
    return gap + text if right else text + gap


def _cut(text: str, width: int) -> str:
    while display_width(text) > width:
        text = text[:-2] + "…"
    return text


def _judged(m: JudgedMove | None, endgame: bool) -> str:
    if m is None:
        return ""
    mark = UNPROVED if m.proved is False else ""  # a solver's value it did not prove
    if endgame and m.value is not None:
        return f"{m.move} {mark}{m.value:+d}"
    return f"{m.move} {mark}{m.win_pct:.1f}%"


def _lost(j: Judgement) -> str:
    if j.spread_lost is not None:
        points = round(j.spread_lost)
        lost = f"{points} {'pt' if points == 1 else 'pts'}"
    elif j.win_pct_lost is not None:
        lost = f"{j.win_pct_lost:.1f}%"
    else:
        return ""
    return f"{lost} {badge(j.mistake)}".rstrip()


def _cells(t: TurnAnalysis) -> tuple[str, ...] | None:
    j = t.judgement
    if j is None:
        return None
    endgame = j.method == "endgame"
    short = (j.note or "not graded").split(":")[0]  # "phony (KI)"
    played = _judged(j.played, endgame) if j.played is not None else f"{t.played} ({short})"
    cells = (str(t.event), _cut(safe_text(t.player), _NICK), played, _judged(j.best, endgame))
    return (*(safe_text(c) for c in cells), _lost(j))


def _widths(rows: list[tuple[str, ...]]) -> list[int]:
    """Column widths that fit :data:`WIDTH`: the played and best moves share what the
    others leave (a row with a longer move is split, see :func:`_row`)."""
    widths = [max(display_width(r[i]) for r in rows) for i in range(len(_HEAD))]
    room = WIDTH - 2 - 2 * (len(_HEAD) - 1) - widths[0] - widths[1] - widths[4]
    played, best = widths[2], widths[3]
    if played + best > room:
        played = min(played, max(room - best, room // 2))
        best = min(best, room - played)
    return [widths[0], widths[1], played, best, widths[4]]


def _row(row: tuple[str, ...], widths: list[int]) -> list[str]:
    """One line, or two when a move is longer than its column: the played move ends the
    first, the best move and the loss go on the second (under their columns when they fit
    there, else against the right margin)."""
    first = ["  " + _pad(row[0], widths[0], right=True), _pad(row[1], widths[1])]
    rest = [_pad(row[3], widths[3]), row[4]]
    line = "  ".join([*first, _pad(row[2], widths[2]), *rest]).rstrip()
    if display_width(line) <= WIDTH:
        return [line]
    head = "  ".join([*first, row[2]]).rstrip()
    tail = "  ".join([row[3], row[4]]).rstrip()
    column = 2 + widths[0] + 2 + widths[1] + 2 + widths[2] + 2
    if column + display_width(tail) > WIDTH:
        column = max(2, WIDTH - display_width(tail))
    return [head, " " * column + tail]


def _unproved(j: Judgement | None) -> bool:
    return j is not None and any(m is not None and m.proved is False for m in (j.best, j.played))


#: before a fact's sentence: which move it favours
FACT_MARKS = {"best": "+", "played": "-", "neither": "·"}
_FACT_INDENT = 6


def fact_lines(j: Judgement) -> list[str]:
    """The facts of a judgement, one per line under its turn (a sentence longer than the
    line goes on, indented, on the next): ``+`` before a fact in favour of the best
    move, ``-`` in favour of the move played, ``·`` for neither."""
    import textwrap

    out: list[str] = []
    for fact in j.facts:
        head = " " * _FACT_INDENT + FACT_MARKS.get(fact.favours, " ") + " "
        out += textwrap.wrap(
            safe_text(fact.sentence), WIDTH, initial_indent=head,
            subsequent_indent=" " * (len(head) + 2), break_long_words=False,
            break_on_hyphens=False,
        )  # fmt: skip
    return out


def judgement_lines(result: RecordAnalysis, *, why: bool = False) -> list[str]:
    """The header (the depth and the win model), the judged turns as a table under a
    line per phase (with ``why``, each turn's facts under it: :func:`fact_lines`), the
    badges' legend, then the Mistake Index per player (nothing for a record analysed at
    the static depth). Every line fits 80 columns (a path or a model name longer than
    that excepted)."""
    if result.depth == "static" or result.unreadable:
        return []
    path, judged = f"{safe_text(result.path)}:", f"judged at depth {result.depth}"
    fits = display_width(path) + 1 + len(judged) <= WIDTH
    lines = [f"{path} {judged}"] if fits else [path, f"  {judged}"]  # a long path alone
    lines += wrapped([f"  win model: {safe_text(result.win_model or 'built-in')}"])
    if result.inference is not None:
        lines += wrapped([f"  opponent's rack: {safe_text(result.inference)}"])
    judged = [(t, r) for t, r in ((t, _cells(t)) for t in result.turns) if r is not None]
    rows = [_HEAD, *(r for _, r in judged)]
    widths = _widths(rows)
    lines.extend(_row(_HEAD, widths))
    phase = None
    for turn, row in judged:
        assert turn.judgement is not None
        if turn.judgement.phase != phase:
            phase = turn.judgement.phase
            lines.append(f"  {phase}")
        lines.extend(_row(row, widths))
        if why:
            lines.extend(fact_lines(turn.judgement))
    if any(t.judgement.mistake not in (None, "none") for t, _ in judged if t.judgement):
        lines.append(LEGEND)
    if any(_unproved(t.judgement) for t, _ in judged):
        lines.append(UNPROVED_LEGEND)
    if why and any(t.judgement.facts for t, _ in judged if t.judgement):
        lines.append(FACTS_LEGEND)
    lines.append(mistake_index_line(result))
    return lines


def mistake_index_line(result: RecordAnalysis) -> str:
    """``  Mistake Index: alice 1.7, bob 0.2`` (0.2 small, 0.5 medium, 1.0 large)."""
    parts = [f"{safe_text(nick)} {value:.1f}" for nick, value in result.mistake_index.items()]
    return "  Mistake Index: " + (", ".join(parts) if parts else "-")
