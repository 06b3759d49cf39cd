"""The judgement of a record in the HTML report (``report --depth sim|full``): a mistake
badge and the judged candidates (win% with error bars) per move with the facts that
separate the move played from the best beside them, a win-probability chart
over the game and a per-player Mistake Index summary. Inline SVG and CSS only: the page
needs no network."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from gcgtools.analysis.analyse import RecordAnalysis, TurnAnalysis
from gcgtools.analysis.judge import JudgedMove, Judgement
from gcgtools.render.markup import escape, xml_text
from gcgtools.render.palette import player_colour
from gcgtools.replay.board import square_name
from gcgtools.rules.tiles import TileError, TileSet

__all__ = [
    "JUDGEMENT_CSS",
    "candidate_tiles",
    "judgement_extras",
    "judgement_sections",
    "win_chart_svg",
]

JUDGEMENT_CSS = """
.badge { display: inline-block; padding: 0 5px; border-radius: 3px; font-size: 0.8em;
         font-weight: bold; color: #fff; margin-left: 4px; }
.badge.small { background: #c9a400; } .badge.medium { background: #e07000; }
.badge.large { background: #b00020; } .badge.none { background: #3a7d44; }
.judged { margin-top: 3px; font-size: 0.85em; color: #333; }
.judged table td { padding: 0 6px 0 0; }
.judged tr.played td { font-weight: bold; }
.judged tr.candidate[role="button"] { cursor: pointer; }
.judged tr.candidate[role="button"]:hover td { background: #e3f0fb; }
.judged tr.candidate[role="button"]:focus { outline: 2px solid #1f6fb2; outline-offset: -1px; }
.judged tr.candidate.picked td { background: #cfe6fa; }
.judged table.line { margin-top: 2px; }
.judged .candidates { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: flex-start; }
.judged ul.facts { margin: 0; padding-left: 1.2em; max-width: 40em; }
.judged ul.facts li.best::marker { content: "+ "; color: #3a7d44; }
.judged ul.facts li.played::marker { content: "- "; color: #b00020; }
.judged ul.facts li.neither::marker { content: "· "; color: #555; }
.judged table.line caption { text-align: left; font-style: italic; }
#board g.candidate rect { fill: #cfe6fa; stroke: #1f6fb2; stroke-width: 2.5;
                          stroke-dasharray: 5 3; }
#board g.candidate text { fill: #0d3b66; }
#board g.candidate.blank text.letter { fill: #c0262d; }
.win-chart g.mistake[role="button"] { cursor: pointer; }
.win-chart g.mistake[role="button"]:focus { outline: 2px solid #1f6fb2; }
.mistakes td, .mistakes th { padding: 2px 10px; text-align: left; }
table.mistakes { display: block; max-width: 100%; overflow-x: auto; }
@media (max-width: 640px) {
  .mistakes td, .mistakes th { padding: 2px 5px; font-size: 0.9em; }
  .judged svg { width: 80px; }
}
"""

_BAR_WIDTH = 120


def _badge(mistake: str | None) -> str:
    if mistake is None:
        return ""
    return f'<span class="badge {mistake}" title="mistake: {mistake}">{mistake}</span>'


def _bar(m: JudgedMove) -> str:
    """An inline bar of the move's win% with its error (mean +- one standard error)."""
    w = _BAR_WIDTH
    x = w * max(0.0, min(m.win_pct, 100.0)) / 100
    parts = [
        f'<svg width="{w}" height="10" viewBox="0 0 {w} 10" role="img" '
        f'aria-label="win {m.win_pct:.1f}%">',
        f'<rect x="0" y="2" width="{w}" height="6" fill="#e5e1d6"/>',
        f'<rect x="0" y="2" width="{x:.1f}" height="6" fill="#4a78a8"/>',
    ]
    if m.stderr:
        lo = w * max(0.0, m.win_pct - m.stderr) / 100
        hi = w * min(100.0, m.win_pct + m.stderr) / 100
        parts.append(
            f'<line x1="{lo:.1f}" y1="5" x2="{hi:.1f}" y2="5" stroke="#111" stroke-width="1"/>'
            f'<line x1="{lo:.1f}" y1="1" x2="{lo:.1f}" y2="9" stroke="#111"/>'
            f'<line x1="{hi:.1f}" y1="1" x2="{hi:.1f}" y2="9" stroke="#111"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


#: after a solver's value it did not prove, in a table cell
UNPROVED_CELL = ' <abbr title="not proved: the solver’s budget ran out first">~</abbr>'


def _number(j: Judgement, m: JudgedMove, unproved: str = " ~") -> str:
    """The move's value (endgame) or win%, ``unproved`` after a solver's value it did
    not prove."""
    mark = unproved if m.proved is False else ""
    if j.method == "endgame" and m.value is not None:
        return f"{m.value:+d}{mark}"
    err = f" &#xb1; {m.stderr:.1f}" if m.stderr else ""
    return f"{m.win_pct:.1f}%{err}{mark}"


_PLAY = re.compile(r"(?:(\d{1,2})([A-Z])|([A-Z])(\d{1,2})) (\S+)")


def candidate_tiles(move: str, tiles: TileSet) -> list[tuple[int, int, str, int | None]]:
    """The tiles a judged ``move`` puts down, read from its notation (the inverse of
    :func:`gcgtools.replay.notation.word_notation`: ``8G NASTIER``, ``4A (R)UI(N)``,
    ``8D [CH]E``): ``(row, col, tile, value)`` each, 0-based, a blank's value None; the
    letters in parentheses are on the board already. Nothing for an exchange or a pass."""
    m = _PLAY.fullmatch(move)
    if m is None:
        return []
    across = m.group(1) is not None
    row = int(m.group(1) or m.group(4)) - 1
    col = ord(m.group(2) or m.group(3)) - ord("A")
    word, out, through, i = m.group(5), [], False, 0
    while i < len(word):
        char = word[i]
        i += 1
        if char in "()":
            through = char == "("
            continue
        tile = char
        if char == "[":
            end = word.find("]", i)
            if end < 0:
                return []
            tile, i = word[i:end], end + 1
        if not through:
            blank = tile != tile.upper()
            out.append((row, col, tile, None if blank else _tile_value(tiles, tile)))
        row, col = (row, col + 1) if across else (row + 1, col)
    return out


def _tile_value(tiles: TileSet, tile: str) -> int | None:
    try:
        return tiles.value(tile)
    except TileError:
        return None


def _candidate_row(
    t: TurnAnalysis, m: JudgedMove, j: Judgement, before: int | None, tiles: TileSet
) -> str:
    """The attributes of a judged move's row: with ``before`` (the position the move is
    played from) and a play, clicking it (or Enter, Space) shows it on that board."""
    put = candidate_tiles(m.move, tiles) if before is not None else []
    if not put:
        return ""
    number = _number(j, m).replace("&#xb1;", "±")
    judged = f"value {number}" if j.method == "endgame" else f"win {number}"
    caption = f"candidate {m.move} {m.score:+d} for {t.player}: {judged}"
    return _shows(before, put, caption, "show it on the board")


def _shows(
    before: int | None, put: list[tuple[int, int, str, int | None]], caption: str, title: str
) -> str:
    """The attributes of a row that shows the tiles ``put`` on the board of position
    ``before`` when clicked (or Enter, Space), with ``caption`` under the board."""
    data = [
        [r, c, xml_text(tile.upper()), value, square_name(r, c), tile != tile.upper()]
        for r, c, tile, value in put
    ]
    return (
        f' tabindex="0" role="button" aria-pressed="false" data-before="{before}"'
        f' data-tiles="{escape(json.dumps(data, ensure_ascii=False))}"'
        f' data-caption="{escape(caption)}" title="{escape(title)}"'
    )


def _line_html(t: TurnAnalysis, j: Judgement, before: int | None, tiles: TileSet | None) -> str:
    """The best move's principal variation (endgame), a row a move: clicking the row of
    step k shows the board after the first k moves of the line."""
    pv = j.best.pv
    if len(pv) < 2 or before is None or tiles is None:
        return ""
    rows, put = [], []
    for k, move in enumerate(pv, 1):
        put = put + candidate_tiles(move, tiles)
        who = t.player if k % 2 else "opponent"
        caption = f"the best line, move {k} of {len(pv)}: {move} ({who})"
        shows = _shows(before, put, caption, "show the line to here on the board")
        rows.append(
            f'<tr class="candidate line"{shows}><td>{k}.</td><td>{escape(move)}</td>'
            f"<td>{escape(who)}</td></tr>"
        )
    return f'<table class="line"><caption>the best line</caption>{"".join(rows)}</table>'


def _judged_html(
    t: TurnAnalysis, j: Judgement, before: int | None = None, tiles: TileSet | None = None
) -> str:
    lost = ""
    if j.spread_lost is not None:
        lost = f"; spread lost {j.spread_lost:.0f}"
    elif j.win_pct_lost is not None:
        lost = f"; win% lost {j.win_pct_lost:.1f}"
    head = f"<div>{escape(j.phase)} ({escape(j.method)}): best {escape(j.best.move)}{lost}"
    head += _badge(j.mistake) + "</div>"
    if j.note:
        head += f"<div>{escape(j.note)}</div>"
    rows = []
    played = j.played.move if j.played is not None else None
    for m in j.moves:
        classes = "candidate" + (" played" if m.move == played else "")
        show = _candidate_row(t, m, j, before, tiles) if tiles is not None else ""
        rows.append(
            f'<tr class="{classes}"{show}><td>{escape(m.move)}</td><td>{m.score}</td>'
            f"<td>{_number(j, m, UNPROVED_CELL)}</td><td>{_bar(m)}</td></tr>"
        )
    line = _line_html(t, j, before, tiles)
    table = f"<table>{''.join(rows)}</table>"
    if j.facts:
        table = f'<div class="candidates">{table}{_facts_html(j)}</div>'
    return f'<div class="judged">{head}{table}{line}</div>'


def _facts_html(j: Judgement) -> str:
    """The facts that separate the move played from the best, a list item each (its
    class the move it favours: ``best``, ``played`` or ``neither``)."""
    items = "".join(
        f'<li class="{escape(f.favours)}" data-kind="{escape(f.kind.value)}">'
        f"{escape(f.sentence)}</li>"
        for f in j.facts
    )
    return f'<ul class="facts" aria-label="why the best move is better">{items}</ul>'


def judgement_extras(
    analysis: RecordAnalysis | None,
    line: int,
    before: int | None = None,
    tiles: TileSet | None = None,
) -> list[str]:
    """The judgement of the turn at ``line`` (nothing when not judged); with ``before``,
    the index of the position the turn was played from, and the ``tiles``' values, a
    click on a judged play shows it on that board."""
    if analysis is None:
        return []
    return [
        _judged_html(t, t.judgement, before, tiles)
        for t in analysis.turns
        if t.line == line and t.judgement is not None and t.judgement.best.move
    ]


def _mover_win(t: TurnAnalysis) -> float | None:
    j = t.judgement
    if j is None or not j.best.move:
        return None
    return (j.played or j.best).win_pct


#: The mistake grades, smallest first, with their badge (as the text report writes them)
#: and the colour of their badge and marker.
_GRADES = {"small": ("?", "#c9a400"), "medium": ("??", "#e07000"), "large": ("???", "#b00020")}


@dataclass(frozen=True, slots=True)
class _Frame:
    """The win% chart's plot area: events 0 to ``last`` across, 0 to 100% up."""

    last: int
    width: int
    height: int = 250
    left: int = 40
    right: int = 12
    top: int = 30
    bottom: int = 36

    def x(self, event: int) -> float:
        return self.left + (self.width - self.left - self.right) * (event / max(self.last, 1))

    def y(self, win: float) -> float:
        return self.top + (self.height - self.top - self.bottom) * (1 - win / 100)


def win_chart_svg(
    analysis: RecordAnalysis,
    names: list[str],
    width: int = 860,
    positions: dict[int, int] | None = None,
) -> str:
    """Each player's win% after each judged turn (from the move played, or the best one
    when the move played was not legal) as an inline SVG line chart: a legend naming
    whose line is whose, the event numbers on the x axis and a marker per graded mistake
    on the line of the player who made it (its colour and badge by grade; with
    ``positions``, the page's position index after each event number, a button that
    shows the board after the move)."""
    first = names[0] if names else None
    points: list[tuple[int, float]] = []  # the first player's win% after each event
    mistakes: list[tuple[int, float, TurnAnalysis]] = []  # on the mover's line
    for t in analysis.turns:
        win = _mover_win(t)
        if win is None:
            continue
        points.append((t.event, win if t.player == first else 100.0 - win))
        if t.judgement is not None and t.judgement.mistake in _GRADES:
            mistakes.append((t.event, win, t))
    if not points:
        return ""
    frame = _Frame(max(e for e, _ in points), width)
    return "".join(
        [
            f'<svg class="win-chart" width="100%" viewBox="0 0 {width} {frame.height}" '
            'role="img" aria-label="win probability of each player over the game">',
            "<title>Win probability after each judged turn</title>",
            _win_axes(frame),
            *_win_lines(frame, points, names),
            *_mistake_marks(frame, mistakes, positions or {}),
            "</svg>",
        ]
    )


def _win_axes(frame: _Frame) -> str:
    """The grid, the win% on the y axis, the event numbers on the x axis."""
    f, y = frame, frame.y
    parts = ['<g class="grid">']
    for v in (0, 25, 50, 75, 100):
        parts.append(
            f'<line x1="{f.left}" y1="{y(v):.1f}" x2="{f.width - f.right}" y2="{y(v):.1f}" '
            f'stroke="{"#999" if v == 50 else "#ccc"}"/><text x="{f.left - 4}" '
            f'y="{y(v) + 4:.1f}" font-size="11" text-anchor="end">{v}%</text>'
        )
    for e in range(0, f.last + 1, max(1, round(f.last / 15))):
        parts.append(
            f'<text class="tick" x="{f.x(e):.1f}" y="{f.height - f.bottom + 14}" '
            f'font-size="11" text-anchor="middle" fill="#555">{e}</text>'
        )
    parts.append(
        f'<text x="{f.width - f.right}" y="{f.height - 4}" font-size="11" text-anchor="end" '
        'fill="#555">event</text></g>'
    )
    return "".join(parts)


def _win_lines(frame: _Frame, points: list[tuple[int, float]], names: list[str]) -> list[str]:
    """Each player's line (the second one the mirror image of the first, dashed), its
    points with their tooltips, and its entry of the legend: the name, escaped."""
    x, y = frame.x, frame.y
    parts = []
    legend_x = frame.left + 10
    for k, name in enumerate(names[:2] or ["player 1"]):
        colour = player_colour(k)
        shown = [(e, v if k == 0 else 100.0 - v) for e, v in points]
        line = " ".join(f"{x(e):.1f},{y(v):.1f}" for e, v in shown)
        label = escape(name)
        dashes = "" if k == 0 else ' stroke-dasharray="5 3"'
        parts.append(
            f'<polyline class="win-line" data-player="{k + 1}" points="{line}" fill="none" '
            f'stroke="{colour}" stroke-width="{2 if k == 0 else 1.5}"{dashes}>'
            f"<title>{label}</title></polyline>"
        )
        parts.extend(
            f'<circle cx="{x(e):.1f}" cy="{y(v):.1f}" r="2.5" fill="{colour}">'
            f"<title>event {e}: {label} {v:.1f}%</title></circle>"
            for e, v in shown
        )
        parts.append(
            f'<text class="legend" data-player="{k + 1}" x="{legend_x}" y="{frame.top - 12}" '
            f'font-size="13" font-weight="bold" fill="{colour}">{label} win%</text>'
        )
        legend_x += 40 + 8 * (len(name) + 5)
    return parts


def _mistake_marks(
    frame: _Frame, mistakes: list[tuple[int, float, TurnAnalysis]], positions: dict[int, int]
) -> list[str]:
    """A marker per graded mistake on the mover's line (which shows the mover's win%),
    and the grades' key under the axis."""
    parts = []
    for e, win, t in mistakes:
        j = t.judgement
        assert j is not None
        grade = str(j.mistake)
        badge, colour = _GRADES[grade]
        cx, cy = frame.x(e), frame.y(win)
        target = positions.get(e)
        button = (
            ""
            if target is None
            else f' data-position="{target}" tabindex="0" role="button"'
            f' aria-label="event {e}: {grade} mistake, show the board after it"'
        )
        parts.append(
            f'<g class="mistake {grade}" data-event="{e}"{button}>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{4 + 1.5 * len(badge)}" fill="{colour}" '
            f'stroke="#fff" stroke-width="1.5"/>'
            f'<text x="{cx:.1f}" y="{cy - 9 - 1.5 * len(badge):.1f}" font-size="11" '
            f'font-weight="bold" text-anchor="middle" fill="{colour}">{badge}</text>'
            f"<title>event {e}: {escape(t.player)}, {grade} mistake{_lost_text(j)}</title></g>"
        )
    key_x = frame.left
    for grade, (badge, colour) in _GRADES.items():
        parts.append(
            f'<g class="mistake-key"><circle cx="{key_x + 5}" cy="{frame.height - 8}" r="5" '
            f'fill="{colour}"/><text x="{key_x + 14}" y="{frame.height - 4}" font-size="11">'
            f"{badge} {grade} mistake</text></g>"
        )
        key_x += 135
    return parts


def _lost_text(j: Judgement) -> str:
    if j.spread_lost is not None:
        return f", spread lost {j.spread_lost:.0f}"
    if j.win_pct_lost is not None:
        return f", win% lost {j.win_pct_lost:.1f}"
    return ""


def _summary_html(analysis: RecordAnalysis) -> str:
    sizes = ("small", "medium", "large")
    counts: dict[str, dict[str, int]] = {n: dict.fromkeys(sizes, 0) for n in analysis.players}
    for t in analysis.turns:
        j = t.judgement
        if j is not None and j.mistake in sizes:
            counts.setdefault(t.player, dict.fromkeys(sizes, 0))[j.mistake] += 1
    rows = "".join(
        f"<tr><td>{escape(nick)}</td><td>{analysis.mistake_index.get(nick, 0.0):.1f}</td>"
        + "".join(f"<td>{c[s]}</td>" for s in sizes)
        + "</tr>"
        for nick, c in counts.items()
    )
    return (
        '<table class="mistakes"><thead><tr><th>player</th><th>Mistake Index</th>'
        "<th>small</th><th>medium</th><th>large</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def judgement_sections(
    analysis: RecordAnalysis | None, names: list[str], positions: dict[int, int] | None = None
) -> list[str]:
    """The win-probability chart and the Mistake Index summary (nothing when the
    analysis was not judged); ``positions``: the page's position index after each event
    number, so that a click on a mistake's marker shows the board after it."""
    if analysis is None or analysis.depth == "static":
        return []
    return [
        f'<section class="chart-pane"><h2>Win probability ({escape(analysis.depth)})</h2>',
        f'<p class="used">win model: {escape(analysis.win_model or "built-in")}</p>',
        win_chart_svg(analysis, names, positions=positions),
        "<h2>Mistakes</h2>",
        _summary_html(analysis),
        "<p>Mistake Index: 0.2 per small, 0.5 per medium, 1.0 per large mistake.</p>",
        "</section>",
    ]
