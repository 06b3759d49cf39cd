"""The analysis of a record as text (a per-turn table that fits 80 columns) or JSON (one
object per line).

The text of one record: its path, a table with a row per turn (event number, player,
the move played, its equity, the equity lost against the best legal move, its rank among
the legal moves, the best move and its equity), a note line under a turn for a phony, a
withdrawn play or a missed bingo (naming the bingo), the ``--top`` best moves under each
turn when asked for, the W8xx findings, a hint when so many plays are phonies that the
lexicon may not be the game's (:func:`lexicon_hint`), and a per-player summary table.
Which lexicon and leaves were used (with a W804 warning when the lexicon does not fit the
record) is said by :func:`used_lines`, once per run when it does not change.
"""

from __future__ import annotations

import json
import textwrap

from gcgtools.analysis.analyse import (
    AFTER_LOST_LINE,
    LOST_TURN,
    NO_LEXICON,
    PARTIAL_RACK,
    UNKNOWN_RACK,
    Candidate,
    RecordAnalysis,
    TurnAnalysis,
)
from gcgtools.analysis.results import JudgedMove
from gcgtools.findings import Code
from gcgtools.render import WIDTH
from gcgtools.wording import plural_form

__all__ = [
    "WIDTH",
    "analysis_json",
    "analysis_lines",
    "analysis_notes",
    "judged_notes",
    "lexicon_hint",
    "summary_lines",
    "used_lines",
]

# The text fits WIDTH columns (a long move may push its best move to a line of its own).
_HEAD = ("#", "player", "played", "equity", "lost", "rank", "best")
_RIGHT = {0, 3, 4, 5}
_NICK = 12  # a longer nickname is cut (the summary below the table has it in full)
# why a turn was not judged, as the table says it
_SHORT = {
    UNKNOWN_RACK: "(rack unknown)",
    PARTIAL_RACK: "(partial rack)",
    LOST_TURN: "(turn lost to a challenge)",
    AFTER_LOST_LINE: "(after an unreadable line)",
    NO_LEXICON: "",
}


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _cells(t: TurnAnalysis) -> tuple[str, ...]:
    if t.analysed:
        best = f"{t.best_move} {_num(t.best_equity)}" if t.best_move else ""
        if t.rank is not None:
            rank = str(t.rank)
        else:
            rank = "phony" if t.phony_words else ("-" if t.legal is False else "")
        lost = _num(t.equity_lost)
    else:
        best = _SHORT.get(t.status, f"({t.status})")
        lost = rank = ""
    return (str(t.event), _cut(t.player, _NICK), t.played, _num(t.equity), lost, rank, best)


def _notes(t: TurnAnalysis) -> list[str]:
    """What the row cannot say: a withdrawn play, a phony, a missed bingo."""
    notes: list[str] = []
    if t.withdrawn:
        notes.append("withdrawn (--): judged as the pass the turn became")
    if t.phony_words:
        words = f"{plural_form('phony', len(t.phony_words))} {', '.join(t.phony_words)}"
        if t.withdrawn:
            notes.append(words)
        elif t.analysed and t.legal is False:
            notes.append(f"{words} stood: not a legal move, no rank")
        else:
            notes.append(f"{words} stood")
    elif t.legal is False and t.analysed:
        notes.append("not a legal move: no rank")
    if t.missed_bingo and t.best_bingo is not None:
        notes.append(f"missed bingo {t.best_bingo.notation} {t.best_bingo.score}")
    return notes


def _alternatives(best: list[Candidate], indent: int) -> list[str]:
    """The best moves of a turn, one a line: rank, move, score, leave, equity."""
    if not best:
        return []
    width = max(len(c.notation) for c in best)
    keep = max(len(c.leave) for c in best) or 1
    number = len(str(len(best)))
    pad = " " * indent
    return [
        f"{pad}{i:>{number}}. {c.notation:<{width}}  score {c.score:>3}  leave "
        f"{c.leave or '-':<{keep}}  equity {c.equity:.1f}"
        for i, c in enumerate(best, 1)
    ]


def _table(rows: list[tuple[str, ...]]) -> tuple[list[int], int]:
    """Column widths, and where the last column (the best move) starts."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(_HEAD))]
    start = 2 + sum(w + 2 for w in widths[:-1])
    return widths, start


def _row(row: tuple[str, ...], widths: list[int], start: int) -> list[str]:
    cells = [
        cell.rjust(widths[i]) if i in _RIGHT else cell.ljust(widths[i])
        for i, cell in enumerate(row[:-1])
    ]
    line = "  " + "  ".join(cells) + "  "
    if start + len(row[-1]) <= WIDTH:
        return [(line + row[-1]).rstrip()]
    return [line.rstrip(), " " * max(2, WIDTH - len(row[-1])) + row[-1]]


def analysis_lines(
    result: RecordAnalysis, *, used: bool = True, alternatives: bool = False
) -> list[str]:
    """The text report of one record: its path (with the lexicon and leaves used unless
    ``used`` is False: :func:`used_lines` said them already), the per-turn table, the W8xx
    findings and the per-player summary. ``alternatives``: list the turn's best moves
    (as many as the analysis kept) under each turn."""
    if result.unreadable:
        return [f"{result.path}: could not read: {result.reason}"]
    lines = [*used_lines(result), ""] if used else []
    lines.append(result.path)
    rows = [_HEAD, *(_cells(t) for t in result.turns)]
    widths, start = _table(rows)
    indent = 2 + widths[0] + 2 + widths[1] + 2
    lines.extend(_row(rows[0], widths, start))
    for turn, row in zip(result.turns, rows[1:], strict=True):
        lines.extend(_row(row, widths, start))
        lines.extend(" " * indent + note for note in _notes(turn))
        if alternatives and turn.analysed:
            lines.extend(_alternatives(turn.best, indent))
    for f in result.findings:
        text = f"line {f.line}: {f.code} {f.message} ({f.severity})"
        lines.extend(textwrap.wrap(text, WIDTH - 2, initial_indent="  ", subsequent_indent="    "))
    lines.extend("  " + line for line in lexicon_hint(result))
    lines.extend(summary_lines(result))
    return lines


def used_lines(result: RecordAnalysis) -> list[str]:
    """Which lexicon and leaves the analysis used (a line each; a lexicon that does not fit
    the record followed by its W804 warning), or why it had none."""
    if result.lexicon is None:
        return wrapped([result.message or NO_LEXICON])
    lines = [f"lexicon {result.lexicon}: {result.lexicon_source}"]
    lines += [f"  {f.code} {f.message}" for f in result.findings if f.code == Code.LEXICON_MISFIT]
    if result.leaves is not None:
        lines.append(f"leaves {result.leaves}: {result.leaves_source}")
    return wrapped(lines)


#: a game with at least this many phonies ...
HINT_PHONIES = 5
#: ... making more than this share of its plays earns :func:`lexicon_hint`
HINT_SHARE = 0.2


def lexicon_hint(result: RecordAnalysis) -> list[str]:
    """A hint (wrapped lines) that the lexicon may not be the game's, when at least
    :data:`HINT_PHONIES` plays hold a phony and they are more than :data:`HINT_SHARE` of
    the plays (a game played with the lexicon has few); else nothing."""
    if result.lexicon is None:
        return []
    plays = [t for t in result.turns if t.kind == "play"]
    phonies = sum(1 for t in plays if t.phony_words)
    if phonies < HINT_PHONIES or phonies <= HINT_SHARE * len(plays):
        return []
    other = [f.message.split(";")[0] for f in result.findings if f.code == Code.OTHER_LEXICON]
    named = f" ({other[0]})" if other else ""
    text = (
        f"hint: {phonies} of the {len(plays)} plays hold words {result.lexicon} does not "
        f"have: was the game played with another lexicon{named}? Give it with --lexicon "
        "FILE, or --lexica DIR holding it."
    )
    return wrapped([text], WIDTH - 2)


def wrapped(lines: list[str], width: int = 80) -> list[str]:
    """Lines wrapped at spaces to ``width`` columns, continued with an indent (a word
    longer than that, such as a long path, stays whole)."""
    import textwrap

    out: list[str] = []
    for line in lines:
        out += textwrap.wrap(
            line, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
        ) or [""]
    return out


_SUMMARY = ("player", "turns", "best", "avg lost", "phonies", "stood", "missed bingos")


def summary_lines(result: RecordAnalysis) -> list[str]:
    """Per player: turns analysed, best moves found, average equity lost, phonies played
    and stood, missed bingos (a table under the turns)."""
    if result.lexicon is None:
        return []
    rows = [_SUMMARY]
    for nick, s in result.player_summary().items():
        avg = s["avg_equity_lost"]
        rows.append(
            (
                _cut(nick, 2 * _NICK),
                str(s["analysed_turns"]),
                str(s["best_moves"]),
                "-" if avg is None else f"{avg:.2f}",
                str(s["phonies_played"]),
                str(s["phonies_stood"]),
                str(s["missed_bingos"]),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(_SUMMARY))]
    out = []
    for row in rows:
        cells = [c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)]
        out.append("  " + "  ".join(cells).rstrip())
    return out


def analysis_json(result: RecordAnalysis) -> str:
    """One JSON object (one line) for the record."""
    return json.dumps(result.to_dict(), ensure_ascii=False)


#: what begins the note of a fact in ``annotate``, by the move it favours
FACT_NOTES = {"best": "why", "played": "but", "neither": "also"}


def judged_notes(turn: TurnAnalysis) -> list[str]:
    """The notes of a judged turn: the judged best move and the move played with their
    win% (endgame: their final spread) and what was lost, then one note per fact
    (``why:`` a fact in favour of the best move, ``but:`` of the move played, ``also:``
    of neither)."""
    j = turn.judgement
    if j is None or not j.best.move:
        return []
    endgame = j.method == "endgame"
    text = f"judged ({j.method}): best {_judged_text(j.best, endgame)}"
    if j.played is not None and j.played.move == j.best.move:
        text = f"judged ({j.method}): played the best, {_judged_text(j.best, endgame)}"
    elif j.played is not None:
        text += f"; played {_judged_text(j.played, endgame)}"
    if j.spread_lost is not None:
        text += f", lost {j.spread_lost:.0f} pts"
    elif j.win_pct_lost is not None:
        text += f", lost {j.win_pct_lost:.1f}%"
    if j.mistake is not None and j.mistake.value != "none":
        text += f" ({j.mistake.value} mistake)"
    return [text] + [f"{FACT_NOTES.get(f.favours, 'also')}: {f.sentence}" for f in j.facts]


def _judged_text(m: JudgedMove, endgame: bool) -> str:
    """A judged move and its win% (endgame: the final spread)."""
    if endgame and m.spread is not None:
        return f"{m.move} {m.spread:+.0f}"
    return f"{m.move} {m.win_pct:.1f}%"


def analysis_notes(turn: TurnAnalysis) -> list[str]:
    """The texts of the generated notes of one turn (``annotate --only analysis``): the
    best move and the equity lost, the phony words, a missed bingo, and when judged
    (``--depth sim|full``) :func:`judged_notes`."""
    notes: list[str] = []
    if turn.analysed and turn.best:
        text = f"best {turn.best_move} {turn.best_equity:.1f}"
        if turn.equity is not None and turn.equity_lost is not None:
            text += f"; played {turn.equity:.1f}, lost {turn.equity_lost:.1f}"
            if turn.legal is False:
                text += f", not among the {turn.moves} legal moves"
            elif turn.rank is not None:
                text += f", rank {turn.rank} of {turn.moves}"
        notes.append(text)
    elif not turn.analysed and turn.status != NO_LEXICON:
        notes.append(turn.status)
    if turn.phony_words:
        phonies = turn.phony_words
        notes.append(f"{plural_form('phony', len(phonies))} {', '.join(phonies)}")
    if turn.missed_bingo:
        text = "missed bingo"
        if turn.best_bingo is not None:
            text += f": {turn.best_bingo.notation} {turn.best_bingo.score}"
        notes.append(text)
    return notes + judged_notes(turn)
