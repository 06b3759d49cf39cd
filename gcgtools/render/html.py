"""A game report as ONE self-contained HTML file: no network, no external script or font.

The page has a header (players, result, what the validator found), the board after each
move with a slider and first/previous/next/last buttons (arrow keys work too), the move list
with notes and findings (clicking a move shows the board after it), and a score-progression
chart drawn as inline SVG (clicking the chart jumps to that move as well).

The board's squares are drawn once by :func:`gcgtools.render.svg.board_svg`; each tile's
drawing (:func:`~gcgtools.render.svg.tile_svg`, as in the ``tiles`` layer) is stored once
as JSON in the page with, for every position, the list of tiles it shows, and a few lines
of inline JavaScript rebuild the layer. Without JavaScript the
page still shows the final position and the whole move list.

The page is drawn from a :class:`GameReportData` (the record, its replay and its analysis)
that :mod:`gcgtools.jobs.report` computes: :func:`render_report` only formats it.

    >>> html = render_report(report_data(read_game("game.gcg"))).html  # doctest: +SKIP
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from gcgtools.analysis.analyse import RecordAnalysis, TurnAnalysis
from gcgtools.model.game import Game
from gcgtools.render.judgement_html import JUDGEMENT_CSS, judgement_extras, judgement_sections
from gcgtools.render.markup import escape, xml_text
from gcgtools.render.palette import player_colour
from gcgtools.render.svg import CELL, MARGIN, board_svg, rack_tiles, tile_marks, tile_svg
from gcgtools.replay.info import ReplayInfo
from gcgtools.replay.notation import counts_text, event_notation, study_view, vowels_text
from gcgtools.replay.walk import Position
from gcgtools.rules.boards import BoardLayout
from gcgtools.rules.tiles import TileSet
from gcgtools.syntax.records import Event
from gcgtools.wording import plural

__all__ = [
    "GameReportData",
    "Report",
    "analysis_html",
    "board_label",
    "player_analysis_html",
    "render_report",
    "score_chart_svg",
    "used_html",
    "used_label",
]

#: The page, its header and fonts: shared by the game report and the site's index.
BASE_STYLE = """
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0; color: #222;
       background: #f7f5ef; }
header { padding: 12px 20px; background: #20364f; color: #fff; }
header h1 { margin: 0 0 4px 0; font-size: 1.35em; overflow-wrap: anywhere; }
header p { margin: 2px 0; overflow-wrap: anywhere; }
@media (max-width: 480px) { header { padding: 10px 12px; } header h1 { font-size: 1.15em; } }
"""

_STYLE = (
    BASE_STYLE
    + """
header .findings { color: #ffd0a0; }
main { display: flex; flex-wrap: wrap; gap: 16px; padding: 16px 20px; align-items: flex-start; }
.board-pane { flex: 0 1 560px; min-width: 300px; }
.board-pane svg { width: 100%; height: auto; display: block; }
.controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 8px 0; }
.controls input { flex: 1; min-width: 120px; }
header .used details { display: inline; }
header .used summary { display: inline; cursor: pointer; color: #cfe3ff; }
header .used details[open] div { font-size: 0.85em; color: #dde6f0; }
table.player-analysis { border-collapse: collapse; margin: 8px 0; font-size: 0.85em;
                        background: #fff; border: 1px solid #ddd; display: block;
                        max-width: 100%; overflow-x: auto; }
table.player-analysis th { background: #e9e3cc; text-align: left; padding: 3px 6px;
                           font-weight: bold; vertical-align: bottom; }
table.player-analysis td { padding: 2px 6px; border-top: 1px solid #eee; }
table.player-analysis td.n { text-align: right; font-variant-numeric: tabular-nums; }
.controls button { font-size: 1em; padding: 4px 10px; cursor: pointer; }
#caption { font-weight: bold; min-height: 1.3em; margin: 4px 0; }
#tomove { font-weight: bold; margin: 4px 0; }
#rack { display: flex; gap: 4px; min-height: 0; margin: 2px 0 6px 0; }
#rack span { position: relative; display: inline-block; width: 30px; height: 30px;
             line-height: 30px; text-align: center; font-weight: bold; font-size: 18px;
             background: #f3deaa; border: 1px solid #a88a4a; border-radius: 4px; }
#rack span.blank { color: #c0262d; }
#rack span small { position: absolute; right: 3px; bottom: 1px; line-height: 1;
                   font-size: 8px; font-weight: normal; }
#unseen { margin: 4px 0 0 0; color: #444; }
#tracking { font-family: "DejaVu Sans Mono", monospace; font-size: 0.85em; color: #444;
            margin: 2px 0; line-height: 1.5; }
header a.back { color: #cfe3ff; }
table.scores { border-collapse: collapse; margin: 6px 0; }
table.scores td { padding: 2px 10px 2px 0; }
.moves-pane { flex: 1 1 420px; max-height: 760px; overflow-y: auto; background: #fff;
              border: 1px solid #ddd; }
table.moves { border-collapse: collapse; width: 100%; font-size: 0.9em; }
table.moves th { position: sticky; top: 0; background: #e9e3cc; text-align: left; padding: 4px; }
table.moves td { padding: 3px 4px; border-top: 1px solid #eee; vertical-align: top; }
tr.move { cursor: pointer; }
tr.move:hover { background: #f3efe0; }
tr.move.current { background: #ffe680; }
td.num, td.score, td.total { text-align: right; font-variant-numeric: tabular-nums; }
.note { white-space: pre-wrap; color: #355; font-style: italic; margin-top: 2px; }
.finding { margin-top: 2px; font-size: 0.92em; }
.finding.error { color: #b00020; }
.finding.warning { color: #9a5b00; }
.finding.info { color: #555; }
.chart-pane { padding: 0 20px 20px 20px; }
.chart-pane svg { width: 100%; max-width: 900px; height: auto; background: #fff;
                  border: 1px solid #ddd; }
.chart-pane rect.hit { cursor: pointer; }
.analysis { margin-top: 3px; font-size: 0.88em; color: #333; }
.analysis .phony { color: #b00020; }
table.top-moves { border-collapse: collapse; margin-top: 2px; }
table.top-moves td { padding: 0 6px 0 0; border: none; font-variant-numeric: tabular-nums; }
table.top-moves th { padding: 0 6px 0 0; border: none; font-weight: normal; color: #666;
                     text-align: left; position: static; background: none; }
table.top-moves tr.recorded { font-weight: bold; }
/* a phone: the page is never wider than the screen; each move is two lines, its number,
   player, rack, score and total over the move with its notes and analysis */
@media (max-width: 640px) {
  .board-pane { min-width: 0; flex-basis: 100%; }
  .moves-pane { flex-basis: 100%; min-width: 0; }
  .chart-pane { padding: 0 8px 16px 8px; overflow-x: auto; }
  .chart-pane svg { min-width: 600px; }  /* its labels stay readable: the pane scrolls */
  table.moves > thead { display: none; }
  table.moves tr.move { display: grid; grid-template-columns: auto minmax(0, 1fr) auto auto auto;
                        column-gap: 6px; border-top: 1px solid #eee; }
  table.moves tr.move > td { border-top: none; overflow-wrap: anywhere; }
  table.moves td.play { grid-column: 1 / -1; grid-row: 2; padding-left: 1.6em; }
}
/* a small phone: smaller tables */
@media (max-width: 480px) {
  main { padding: 10px 8px; }
  table.moves { font-size: 0.78em; }
  table.top-moves td, table.top-moves th { padding-right: 3px; }
  table.player-analysis { font-size: 0.7em; }
  table.player-analysis th, table.player-analysis td { padding: 2px 2px; }
}
"""
)

_SCRIPT = """
(function () {
  "use strict";
  var doc = JSON.parse(document.getElementById("positions").textContent);
  var marks = doc.marks;
  var data = doc.positions;
  var board = document.getElementById("board");
  var tiles = board.querySelector("g.tiles");
  var slider = document.getElementById("slider");
  var caption = document.getElementById("caption");
  var tracking = document.getElementById("tracking");
  var marker = document.getElementById("chart-marker");
  var rows = document.querySelectorAll("tr.move");
  var scoreCells = document.querySelectorAll("td.player-score");
  var pane = document.querySelector(".moves-pane");
  var head = pane.querySelector("thead");
  var current = data.length - 1;
  function reveal(row) {
    // scroll the move list only, never the page
    var box = pane.getBoundingClientRect();
    var r = row.getBoundingClientRect();
    var top = box.top + (head ? head.offsetHeight : 0);
    if (r.top < top) { pane.scrollTop -= top - r.top; }
    else if (r.bottom > box.bottom) { pane.scrollTop += r.bottom - box.bottom; }
  }
  var picked = null;  // the judged move shown on the board (a row of a .judged table)
  function unpick() {
    if (picked) {
      picked.setAttribute("aria-pressed", "false");
      picked.classList.remove("picked");
      picked = null;
    }
  }
  function show(index) {
    unpick();
    index = Math.max(0, Math.min(data.length - 1, index));
    current = index;
    var p = data[index];
    var shown = [];
    for (var t = 0; t < p.tiles.length; t++) { shown.push(marks[p.tiles[t]]); }
    tiles.innerHTML = shown.join("");
    slider.value = String(index);
    caption.textContent = p.caption;
    tracking.textContent = p.tracking;
    unseen.textContent = p.unseen;
    tomove.textContent = p.tomove;
    tomove.style.color = p.colour;
    rack.textContent = "";
    for (var q = 0; q < p.rack.length; q++) {
      var tile = document.createElement("span");
      tile.textContent = p.rack[q][0];
      if (p.rack[q][1] === null) { tile.className = "blank"; }
      else {
        var value = document.createElement("small");
        value.textContent = String(p.rack[q][1]);
        tile.appendChild(value);
      }
      rack.appendChild(tile);
    }
    for (var i = 0; i < scoreCells.length; i++) {
      var k = Number(scoreCells[i].getAttribute("data-player"));
      scoreCells[i].textContent = p.scores[k] === undefined ? "" : String(p.scores[k]);
    }
    for (var j = 0; j < rows.length; j++) {
      var on = Number(rows[j].getAttribute("data-position")) === index;
      rows[j].classList.toggle("current", on);
      if (on) { reveal(rows[j]); }
    }
    if (marker) {
      var x = marker.getAttribute("data-x0") * 1 + index * marker.getAttribute("data-step");
      marker.setAttribute("x1", x);
      marker.setAttribute("x2", x);
    }
    document.body.setAttribute("data-position", String(index));
  }
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  document.getElementById("last").addEventListener("click", function () {
    show(data.length - 1);
  });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  function jump(event) {
    var target = event.currentTarget.getAttribute("data-position");
    if (target !== null) { show(Number(target)); }
  }
  for (var r = 0; r < rows.length; r++) { rows[r].addEventListener("click", jump); }
  function svg(name, attrs, text) {
    var node = document.createElementNS(tiles.namespaceURI, name);
    for (var a in attrs) { node.setAttribute(a, String(attrs[a])); }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function candidate(t) {
    // a tile the judged move would put down: drawn apart from the tiles on the board
    var x = doc.margin + t[1] * doc.cell, y = doc.margin + t[0] * doc.cell;
    var g = svg("g", { "class": "tile candidate" + (t[5] ? " blank" : ""),
                       "data-square": t[4], "data-letter": t[2] });
    g.appendChild(svg("rect", { x: x + 1, y: y + 1, width: doc.cell - 2,
                                height: doc.cell - 2, rx: 4 }));
    var size = t[2].length > 1 ? 30 / t[2].length : 22;
    g.appendChild(svg("text", { "class": "letter", x: x + doc.cell / 2 - (t[3] === null ? 0 : 3),
                                y: y + doc.cell / 2 + 1, "font-size": size, "font-weight": "bold",
                                "text-anchor": "middle", "dominant-baseline": "central" }, t[2]));
    if (t[3] !== null) {
      g.appendChild(svg("text", { "class": "value", x: x + doc.cell - 5, y: y + doc.cell - 5,
                                  "font-size": 9, "text-anchor": "end" }, String(t[3])));
    }
    return g;
  }
  function pick(row) {
    if (picked === row) { show(current); return; }  // a second click: the board as it was
    show(Number(row.getAttribute("data-before")));
    var put = JSON.parse(row.getAttribute("data-tiles"));
    for (var p = 0; p < put.length; p++) { tiles.appendChild(candidate(put[p])); }
    caption.textContent = row.getAttribute("data-caption");
    var box = board.getBoundingClientRect();  // a phone: the board may be far above
    if (box.bottom < 0 || box.top > window.innerHeight) { board.scrollIntoView(); }
    row.setAttribute("aria-pressed", "true");
    row.classList.add("picked");
    picked = row;
  }
  var judged = document.querySelectorAll('.judged tr[role="button"]');
  for (var c = 0; c < judged.length; c++) {
    judged[c].addEventListener("click", function (e) {
      e.stopPropagation();  // not the move's row: that would show the position after it
      pick(e.currentTarget);
    });
    judged[c].addEventListener("keydown", function (e) {
      if (e.key !== "Enter" && e.key !== " ") { return; }
      e.preventDefault();
      e.stopPropagation();
      pick(e.currentTarget);
    });
  }
  var hits = document.querySelectorAll("rect.hit, g.mistake[data-position]");
  for (var h = 0; h < hits.length; h++) {
    hits[h].addEventListener("click", jump);
    hits[h].addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); jump(e); }
    });
  }
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT") { return; }
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var steps = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0,
                  End: data.length - 1 };
    if (!Object.prototype.hasOwnProperty.call(steps, e.key)) { return; }
    e.preventDefault();  // the keys step through the game; they do not scroll the page
    show(steps[e.key]);
  });
  show(current);
})();
"""


def _nick(game: Game, index: int | None, fallback: str) -> str:
    player = game.player(index)
    return player.nick if player is not None else fallback


def _nice_step(span: int) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 8:
            return step
    return 1000 * (span // 8000 + 1)


def score_chart_svg(game: Game, positions: list[Position], width: int = 860) -> str:
    """An inline SVG line chart of each player's recorded total after every position.

    ``positions`` starts with the start position; the chart has a vertical marker line
    (``id="chart-marker"``) and one clickable column (``rect.hit``) per position."""
    count = game.player_count()  # players shown
    height, left, right, top, bottom = 260, 48, 16, 16, 34
    n = max(len(positions) - 1, 1)
    values = [v for pos in positions for v in pos.recorded[:count]] or [0]
    low, high = min(0, *values), max(50, *values)
    step = _nice_step(high - low)
    low = (low // step) * step
    high = -((-high) // step) * step
    plot_w, plot_h = width - left - right, height - top - bottom
    dx = plot_w / n

    def x(i: int) -> float:
        return left + i * dx

    def y(v: float) -> float:
        return top + plot_h - (v - low) / (high - low) * plot_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="score-chart" viewBox="0 0 {width}'
        f' {height}" width="{width}" height="{height}" font-family="DejaVu Sans, Arial,'
        ' sans-serif" role="img" aria-label="score progression">',
        "<title>Score progression</title>",
        '<g class="grid">',
    ]
    for v in range(low, high + 1, step):
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}"'
            f' stroke="{"#999" if v == 0 else "#e2e2e2"}" stroke-width="1"/>'
            f'<text x="{left - 6}" y="{y(v):.1f}" font-size="11" text-anchor="end"'
            f' dominant-baseline="central" fill="#555">{v}</text>'
        )
    tick = max(1, round(n / 15))
    for i in range(0, len(positions), tick):
        parts.append(
            f'<text x="{x(i):.1f}" y="{height - bottom + 14}" font-size="11"'
            f' text-anchor="middle" fill="#555">{i}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" font-size="11"'
        ' text-anchor="middle" fill="#555">event</text></g>'
    )
    for k in range(count):
        colour = player_colour(k)
        points = " ".join(
            f"{x(i):.1f},{y(pos.recorded[k] if k < len(pos.recorded) else 0):.1f}"
            for i, pos in enumerate(positions)
        )
        name = escape(_nick(game, k, f"player {k + 1}"))
        parts.append(
            f'<polyline class="score-line" data-player="{k + 1}" points="{points}" fill="none"'
            f' stroke="{colour}" stroke-width="2.5"><title>{name}</title></polyline>'
        )
        parts.append(
            f'<text class="legend" x="{left + 10 + 150 * k}" y="{top + 6}" font-size="13"'
            f' font-weight="bold" fill="{colour}">{name}</text>'
        )
    last = len(positions) - 1
    parts.append(
        f'<line id="chart-marker" data-x0="{left}" data-step="{dx:.4f}" x1="{x(last):.1f}"'
        f' x2="{x(last):.1f}" y1="{top}" y2="{top + plot_h}" stroke="#d9480f"'
        ' stroke-width="1.5" stroke-dasharray="4 3"/>'
    )
    parts.append('<g class="hits">')
    for i in range(len(positions)):
        parts.append(
            f'<rect class="hit" data-position="{i}" x="{x(i) - dx / 2:.1f}" y="{top}"'
            f' width="{dx:.1f}" height="{plot_h}" fill="transparent"/>'
        )
    parts.append("</g></svg>")
    return "".join(parts)


def _caption(game: Game, pos: Position) -> str:
    e = pos.event
    if e is None:
        return "Start of the game (event 0)"
    who = _nick(game, e.player, e.nick)
    text = f"{pos.number}. {who}: {event_notation(e, pos)} {e.score:+d}"
    if pos.computed is not None and pos.computed != e.score:
        text += f" (computed {pos.computed:+d})"
    if pos.bingo:
        text += " bingo"
    if pos.game_over and pos.end_reason:
        text += f" - game over ({pos.end_reason})"
    return text


@dataclass(slots=True)
class Report:
    """A game report: the page, and the summary of the game a site's index lists
    (``title``, ``date``, ``players``, ``scores``, ``winner``, ``spread``, ``bingos``,
    ``errors``, ``warnings``, ``events``, ``finished``)."""

    html: str
    summary: dict[str, Any] = field(default_factory=dict)


def _study(game: Game, pos: Position, names: list[str], tiles: TileSet) -> dict[str, Any]:
    """The study view of a position as the page shows it: who is to move and their rack,
    the unseen tiles (count, whose view, bag, vowels/consonants) and their counts."""
    view = study_view(game, pos, tiles)
    if view.to_move is not None:
        rack = f" · rack {view.rack}" if view.rack else " · rack not recorded"
        tomove, colour = f"{names[view.to_move]} to move{rack}", player_colour(view.to_move)
    else:
        tomove = f"Game over ({pos.end_reason})" if pos.end_reason else "Game over"
        colour = "#222"
    whose = f" ({names[view.view]}'s view)" if view.view is not None else ""
    vowels = vowels_text(view.unseen, tiles)
    unseen = f"unseen {view.count}{whose} · bag {pos.bag}" + (f" · {vowels}" if vowels else "")
    rack = [(xml_text(t), v) for t, v in rack_tiles(view.rack, tiles)] if view.rack else []
    # the page shows these as text (textContent): written out as escape() would, unquoted
    return {"tomove": xml_text(tomove), "colour": colour, "rack": rack,
            "unseen": xml_text(unseen), "tracking": xml_text(counts_text(view.unseen))}  # fmt: skip


def _rack_html(rack: list[tuple[str, int | None]]) -> str:
    return "".join(
        f'<span class="blank">{escape(tile)}</span>'
        if value is None
        else f"<span>{escape(tile)}<small>{value}</small></span>"
        for tile, value in rack
    )


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """How a game came out, as a report and a site's index show it: the seats with the
    highest total (``leaders``; None: the record ends before the game is over), the
    spread of the first over the next, each seat's bingos that stood (a ``--`` takes one
    back), and the numbers of errors and warnings."""

    leaders: list[int] | None
    spread: int | None
    bingos: list[int]
    errors: int
    warnings: int


@dataclass(frozen=True, slots=True)
class GameReportData:
    """What a game report shows, all of it computed before the page is drawn (by
    :func:`gcgtools.jobs.report.report_data`): the record, its replay (every position and
    finding, :class:`~gcgtools.replay.info.ReplayInfo`), how it came out, its analysis
    (None: no lexicon was given) and ``back``, the address of a site's index (None: no
    site)."""

    game: Game
    info: ReplayInfo
    outcome: GameOutcome
    analysis: RecordAnalysis | None = None
    back: str | None = None


@dataclass(slots=True)
class _Page:
    """What the parts of one page share: the data, the positions in order, the tile
    values, the players shown, their names and final recorded totals."""

    data: GameReportData
    positions: list[Position]
    values: TileSet
    count: int
    names: list[str]
    totals: list[int]

    @classmethod
    def from_data(cls, data: GameReportData) -> _Page:
        game, positions = data.game, data.info.ordered
        count = game.player_count()
        names = [_nick(game, k, f"player {k + 1}") for k in range(count)]
        totals = list(positions[-1].recorded[:count])
        return cls(data, positions, data.info.rules.tiles, count, names, totals)

    @property
    def final(self) -> Position:
        return self.positions[-1]

    @property
    def after_event(self) -> dict[int, int]:
        """The index of the position after each event number (the events replayed)."""
        return {p.number: i for i, p in enumerate(self.positions) if p.event is not None}


def _positions_json(page: _Page) -> tuple[str, list[dict[str, Any]]]:
    """The positions as the page's JSON (a tile's drawing is stored once, as a "mark";
    each position lists the marks it shows, so the page grows with the tiles played, not
    with moves x tiles on the board), and each position's entry."""
    game, values = page.data.game, page.values
    marks: dict[str, int] = {}
    data: list[dict[str, Any]] = []
    for pos in page.positions:
        shown = [
            marks.setdefault(mark, len(marks))
            for mark in map(tile_svg, tile_marks(pos.board, values))
        ]
        data.append(
            {
                "tiles": shown,
                "caption": xml_text(_caption(game, pos)),
                "scores": pos.recorded[: page.count],
                **_study(game, pos, page.names, values),
            }
        )
    document = {"marks": list(marks), "positions": data, "cell": CELL, "margin": MARGIN}
    return _script_json(document), data


def _script_json(document: Any) -> str:
    """``document`` as JSON for a ``<script type="application/json">`` element: ``<``,
    ``>`` and ``&`` as JSON escapes, so that no text of a record (``</script>``,
    ``<!--``) can end the element or change how the page is read."""
    text = json.dumps(document, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _result(page: _Page) -> tuple[str, str | None]:
    """The result line (escaped) and the winner (``tie``; None: not over)."""
    names, totals, count, final = page.names, page.totals, page.count, page.final
    result = " - ".join(f"{escape(names[k])} {totals[k]}" for k in range(count))
    leaders, spread = page.data.outcome.leaders, page.data.outcome.spread
    winner = None
    if leaders is not None:
        winner = "tie" if len(leaders) > 1 else names[leaders[0]]
    if count == 2 and final.game_over:
        if totals[0] == totals[1]:
            result += ": a tie"
        else:
            result += f": {escape(names[0 if totals[0] > totals[1] else 1])} wins by {spread}"
    elif not final.game_over:
        result += " (the record ends before the game is over)"
    return result, winner


def _move_extras(page: _Page, e: Event, before: int | None = None) -> str:
    """Under a move: its notes, its findings, and its analysis and judgement (its judged
    plays shown on the board of position ``before`` when clicked)."""
    info, analysis = page.data.info, page.data.analysis
    extras = [f'<div class="note">{escape(note.text)}</div>' for note in e.notes]
    for f in info.findings_at(e.line):
        extras.append(
            f'<div class="finding {f.severity}" data-code="{f.code}">'
            f"{f.code} {escape(f.message)}</div>"
        )
    if analysis is not None:
        extras.extend(analysis_html(analysis, e.line))
        extras.extend(judgement_extras(analysis, e.line, before, page.values))
    return "".join(extras)


def _move_rows(page: _Page) -> list[str]:
    """The move list's rows (clicking one shows the position after it)."""
    game, info = page.data.game, page.data.info
    index_of = {id(p.event): i for i, p in enumerate(page.positions) if p.event is not None}
    rows = []
    for number, e in enumerate(game.events, start=1):
        target = index_of.get(id(e))
        if target is None:  # an event the replay ignored: show the position before it
            earlier = game.events[: number - 1]
            target = max((index_of[id(x)] for x in earlier if id(x) in index_of), default=0)
        after = info.position(e)
        computed = ""
        if after is not None and after.computed is not None and after.computed != e.score:
            computed = f' <span class="computed">({after.computed:+d})</span>'
        bingo = ' <span class="bingo">bingo</span>' if after is not None and after.bingo else ""
        rows.append(
            f'<tr class="move" data-position="{target}" data-line="{e.line}">'
            f'<td class="num">{number}</td><td class="player">{escape(e.nick)}</td>'
            f'<td class="rack">{escape(e.rack or "")}</td>'
            f'<td class="play">{escape(event_notation(e, after))}{bingo}'
            f"{_move_extras(page, e, target - 1 if id(e) in index_of else None)}</td>"
            f'<td class="score">{e.score:+d}{computed}</td>'
            f'<td class="total">{e.cumulative}</td></tr>'
        )
    return rows


def _title(game: Game) -> tuple[str, str]:
    """The page's title and the record's file name (``GCG game`` without one)."""
    stem = (game.path or "GCG game").replace("\\", "/").rsplit("/", 1)[-1]
    return game.title or stem, stem


def _head(page: _Page, result: str, errors: int, warnings: int) -> list[str]:
    """The document's head and the page's header: title, players, result, what the
    validator found, the analysis used and the findings outside any move."""
    game, info, analysis = page.data.game, page.data.info, page.data.analysis
    title, _ = _title(game)
    players = " vs ".join(
        escape(f"{p.name} ({p.nick})" if p.name != p.nick else p.nick) for p in game.players
    )
    judged = analysis is not None and analysis.depth != "static"
    meta = [plural(len(game.events), "event")]
    if game.lexicon:
        meta.append(f"lexicon {escape(game.lexicon)}")
    meta.append(f"tiles {escape(page.values.name)}, board {escape(board_label(info.rules.board))}")
    event_lines = {e.line for e in game.events}
    loose_html = "".join(
        f'<p class="findings">line {f.line}: {f.code} {escape(f.message)}</p>'
        for fs in info.findings.values()
        for f in fs
        if f.line not in event_lines
    )
    back = page.data.back
    back_html = ""
    if back:
        back_html = f'<p><a class="back" href="{escape(back)}">&#x2190; all games</a></p>'
    return [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        f"<style>{_STYLE}{JUDGEMENT_CSS if judged else ''}</style></head>",
        f'<body data-position="{len(page.positions) - 1}">',
        f"<header>{back_html}<h1>{escape(title)}</h1>",
        f'<p class="players">{players}</p>',
        f'<p class="result">{result}</p>',
        f'<p class="meta">{", ".join(meta)}; {plural(errors, "error")}, '
        f"{plural(warnings, 'warning')}</p>",
        used_html(analysis),
        loose_html,
        "</header>",
    ]


#: The built-in layouts as a player names them.
_BOARD_WORDS = {"CrosswordGame": "standard", "SuperCrosswordGame": "super",
                "WordsWithFriends": "Words With Friends"}  # fmt: skip


def board_label(layout: BoardLayout) -> str:
    """A board as the header names it: ``standard 15x15``, ``super 21x21``, ``Words With
    Friends 15x15``; a layout read from a file by its file's name (``club 15x15``)."""
    return f"{_BOARD_WORDS.get(layout.name, layout.name)} {layout.size}x{layout.size}"


def _board_pane(page: _Page, study: dict[str, Any]) -> list[str]:
    """The board (the final position), the controls, the caption, the scores and the
    study view of the position shown, and the per-player analysis."""
    last = len(page.positions) - 1
    start_svg = board_svg(page.final.board, size=560, tiles=page.values)
    start_svg = start_svg.replace('class="gcg-board"', 'class="gcg-board" id="board"', 1)
    score_rows = "".join(
        f'<tr><td style="color:{player_colour(k)};font-weight:bold">'
        f"{escape(page.names[k])}</td>"
        f'<td class="player-score" data-player="{k}">{page.totals[k]}</td></tr>'
        for k in range(page.count)
    )
    return [
        '<section class="board-pane">',
        start_svg,
        '<div class="controls">',
        '<button id="first" type="button" title="first (Home)">&#x00AB; First</button>',
        '<button id="prev" type="button" title="previous (Left)">&#x25C0; Previous</button>',
        f'<input id="slider" type="range" min="0" max="{last}" value="{last}" aria-label="event">',
        '<button id="next" type="button" title="next (Right)">Next &#x25B6;</button>',
        '<button id="last" type="button" title="last (End)">Last &#x00BB;</button>',
        "</div>",
        f'<p id="caption">{escape(study["caption"])}</p>',
        f'<table class="scores">{score_rows}</table>',
        f'<p id="tomove" style="color:{study["colour"]}">{escape(str(study["tomove"]))}</p>',
        f'<div id="rack">{_rack_html(study["rack"])}</div>',
        f'<p id="unseen">{escape(str(study["unseen"]))}</p>',
        f'<p id="tracking">{escape(str(study["tracking"]))}</p>',
        player_analysis_html(page.data.analysis),
        "</section>",
    ]


def _body(page: _Page, rows: list[str], study: dict[str, Any], payload: str) -> list[str]:
    """The page's body: the board pane, the move list, the score chart, the judgement
    and the positions' JSON with the script that shows them."""
    return [
        "<main>",
        *_board_pane(page, study),
        '<section class="moves-pane"><table class="moves">',
        "<thead><tr><th>#</th><th>player</th><th>rack</th><th>move</th><th>score</th>"
        "<th>total</th></tr></thead><tbody>",
        *rows,
        "</tbody></table></section>",
        "</main>",
        '<section class="chart-pane"><h2>Score progression</h2>',
        score_chart_svg(page.data.game, page.positions),
        "</section>",
        *judgement_sections(page.data.analysis, page.names, page.after_event),
        f'<script type="application/json" id="positions">{payload}</script>',
        f"<script>{_SCRIPT}</script>",
        "</body></html>",
    ]


def render_report(data: GameReportData) -> Report:
    """The page of one game (see the module doc) and its summary for a site's index,
    drawn from ``data``: nothing is replayed or analysed here."""
    page = _Page.from_data(data)
    game, analysis, names = data.game, data.analysis, page.names
    payload, entries = _positions_json(page)
    outcome = data.outcome
    result, winner = _result(page)
    rows = _move_rows(page)
    head = _head(page, result, outcome.errors, outcome.warnings)
    body = _body(page, rows, entries[-1], payload)
    title, stem = _title(game)
    summary = {
        "title": title,
        "file": stem,
        "date": game.pragma("date"),
        "players": names,
        "scores": page.totals,
        "finished": page.final.game_over,
        "winner": winner,
        "spread": outcome.spread,
        "bingos": outcome.bingos,
        "errors": outcome.errors,
        "warnings": outcome.warnings,
        "events": len(game.events),
        # per seat, when judged (depth sim/full): the site's index shows them
        "mistake_index": _mistake_indices(analysis, names),
    }
    if analysis is not None and analysis.lexicon is not None:
        summary["analysed"] = _analysed_summary(analysis, names)
    return Report("\n".join(head + body) + "\n", summary)


def _mistake_indices(analysis: RecordAnalysis | None, names: list[str]) -> list[float] | None:
    if analysis is None or analysis.depth == "static":
        return None
    return [analysis.mistake_index.get(n, 0.0) for n in names]


# ------------------------------------------------------------------------ analysis
def used_label(analysis: RecordAnalysis) -> str:
    """Which lexicon and leaves, as a player says it: ``ENABLE, leaves CSW21``
    (``ENABLE, built-in leaves`` without a leave file)."""
    if analysis.lexicon is None:
        return analysis.message or "no lexicon"
    if analysis.leaves is None or analysis.leaves == "builtin":
        return f"{analysis.lexicon}, built-in leaves"
    return f"{analysis.lexicon}, leaves {analysis.leaves}"


def used_html(analysis: RecordAnalysis | None) -> str:
    """The header's line on the analysis: the lexicon and leaves by name, their files in
    a ``<details>`` element."""
    if analysis is None:
        return ""
    if analysis.lexicon is None:
        return f'<p class="used">analysis: {escape(analysis.message or "no lexicon")}</p>'
    files = [f"lexicon {analysis.lexicon}: {analysis.lexicon_source}"]
    if analysis.leaves is not None:
        files.append(f"leaves {analysis.leaves}: {analysis.leaves_source}")
    listed = "".join(f"<div>{escape(f)}</div>" for f in files)
    return (
        f'<div class="used">analysis with {escape(used_label(analysis))} '
        f"<details><summary>files</summary>{listed}</details></div>"
    )


_PLAYER_HEADS = ("player", "turns analysed", "average equity lost", "best moves found",
                 "phonies (stood)", "missed bingos")  # fmt: skip


def player_analysis_html(analysis: RecordAnalysis | None) -> str:
    """Per player: turns analysed, average equity lost, best moves found, phonies played
    (of them stood), missed bingos; empty without an analysis."""
    if analysis is None or analysis.lexicon is None:
        return ""
    heads = "".join(f"<th>{h}</th>" for h in _PLAYER_HEADS)
    rows = []
    for k, (nick, s) in enumerate(analysis.player_summary().items()):
        avg = s["avg_equity_lost"]
        cells = [
            s["analysed_turns"],
            "-" if avg is None else f"{avg:.2f}",
            s["best_moves"],
            f"{s['phonies_played']} ({s['phonies_stood']})",
            s["missed_bingos"],
        ]
        rows.append(
            f'<tr><td style="color:{player_colour(k)};font-weight:bold">{escape(nick)}</td>'
            + "".join(f'<td class="n">{c}</td>' for c in cells)
            + "</tr>"
        )
    return (
        f'<table class="player-analysis"><thead><tr>{heads}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _analysed_summary(analysis: RecordAnalysis, names: list[str]) -> dict[str, Any]:
    """For the site's index: who was analysed with what, and per player (in seat order)
    the average equity lost, phonies played and missed bingos."""
    summary = analysis.player_summary()
    per = [summary.get(n, {}) for n in names]
    return {
        "used": used_label(analysis),
        "avg_equity_lost": [s.get("avg_equity_lost") for s in per],
        "phonies": [s.get("phonies_played") for s in per],
        "missed_bingos": [s.get("missed_bingos") for s in per],
    }


def _judgement(t: TurnAnalysis) -> str:
    """One line on the recorded move: its equity, the equity lost against the best legal
    move and its rank (a phony has none: it is not a legal move)."""
    rank = f"rank {t.rank} of {t.moves}" if t.rank is not None else ""
    if t.equity is None:
        return f"best {escape(t.best_move or '')}, equity {_eq(t.best_equity)}"
    played = "withdrawn, judged as a pass: " if t.withdrawn else ""
    if t.rank == 1 and not t.withdrawn:
        return f"the best move: equity {_eq(t.equity)} ({rank})"
    text = f"{played}equity {_eq(t.equity)}, equity lost {_eq(t.equity_lost)}"
    if t.legal is False:
        what = "a phony" if t.phony_words else "not a legal move"
        text += f" ({what}: not among the {t.moves} legal moves)"
    elif rank:
        text += f" ({rank})"
    return text + f"; best {escape(t.best_move or '')}, equity {_eq(t.best_equity)}"


def _eq(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _top_moves(t: TurnAnalysis) -> str:
    """The top moves with the recorded one beside them: move, score, leave, equity."""
    rows = []
    recorded_key = t.found.notation if t.found is not None else None
    for c in t.best:
        mark = ' class="recorded"' if c.notation == recorded_key else ""
        rows.append(
            f"<tr{mark}><td>{escape(c.notation)}</td><td>{c.score}</td>"
            f"<td>{escape(c.leave)}</td><td>{c.equity:.1f}</td></tr>"
        )
    if t.found is not None and recorded_key not in {c.notation for c in t.best}:
        # below the best: the move the turn was (a withdrawn play: the pass it became)
        c = t.found
        name = f"{t.played} withdrawn: {c.notation}" if t.withdrawn else c.notation
        rows.append(
            f'<tr class="recorded"><td>{escape(name)}</td><td>{c.score}</td>'
            f"<td>{escape(c.leave)}</td><td>{c.equity:.1f}</td></tr>"
        )
    elif t.found is None:  # not a legal move: its own score and leave
        equity = "" if t.equity is None else f"{t.equity:.1f}"
        rows.append(
            f'<tr class="recorded"><td>{escape(t.played)}</td>'
            f"<td>{t.computed if t.computed is not None else t.score}</td>"
            f"<td>{escape(t.leave or '')}</td>"
            f"<td>{equity}</td></tr>"
        )
    head = "<thead><tr><th>move</th><th>score</th><th>leave</th><th>equity</th></tr></thead>"
    return f'<table class="top-moves">{head}<tbody>{"".join(rows)}</tbody></table>'


def analysis_html(analysis: RecordAnalysis, line: int) -> list[str]:
    """The analysis of the turn at ``line``: the top moves with the recorded one beside
    them (a table of move, score, leave and equity; the recorded move in bold), a line
    with its equity, the equity lost and its rank, its phony words, a missed bingo, and
    the W8xx findings there."""
    out: list[str] = []
    for t in analysis.turns:
        if t.line != line:
            continue
        parts: list[str] = []
        if t.analysed and t.best:
            parts.append(f"<div>{_judgement(t)}</div>{_top_moves(t)}")
        elif t.status != "no lexicon" and not t.analysed:
            parts.append(f"<div>{escape(t.status)}</div>")
        if t.phony_words:
            parts.append(f'<div class="phony">phony: {escape(", ".join(t.phony_words))}</div>')
        if t.missed_bingo and t.best_bingo is not None:
            parts.append(
                f"<div>missed bingo: {escape(t.best_bingo.notation)} {t.best_bingo.score}</div>"
            )
        if parts:
            out.append(f'<div class="analysis">{"".join(parts)}</div>')
    for f in analysis.findings:
        if f.line == line:
            out.append(
                f'<div class="finding {f.severity}" data-code="{f.code}">'
                f"{f.code} {escape(f.message)}</div>"
            )
    return out
