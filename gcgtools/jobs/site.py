"""A static site of many games: ``gcgtools report PATH... -o SITE/``.

::

    SITE/index.html          the games in a sortable table, and the archive charts
    SITE/games/NAME.html     one report per game (gcgtools.render.html), linking back

Everything is self-contained: no network, no external script, style sheet or font; the
table sorts by clicking a column header (a few lines of inline JavaScript; without it the
table is in the order of the files). The archive charts are
:func:`gcgtools.jobs.charts.archive_figure` drawn as inline SVG (text as paths, so no
font is needed). Game pages are written through the one batch mechanism (in parallel, with
the progress bar, going on past a bad file); a record that cannot be read gets no page
and is listed, with its reason, under the table.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from gcgtools.batch.run import open_scheduler
from gcgtools.jobs.judged import is_judged, judged_pages
from gcgtools.jobs.kinds import ReportJob
from gcgtools.jobs.outputs import Outcome, naming_for, write_outputs
from gcgtools.render.html import BASE_STYLE
from gcgtools.render.markup import escape
from gcgtools.render.palette import player_colour
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.sources.atomic import write_atomic
from gcgtools.sources.paths import expand_paths
from gcgtools.wording import plural

__all__ = ["GAMES_FOLDER", "SiteResult", "index_html", "write_site"]

GAMES_FOLDER = "games"
"""The game pages' folder inside the site."""

_STYLE = (
    BASE_STYLE
    + """
main { padding: 16px 20px; }
table.games { border-collapse: collapse; background: #fff; border: 1px solid #ddd;
              font-size: 0.92em; }
table.games th { background: #e9e3cc; text-align: left; padding: 5px 6px; cursor: pointer;
                 user-select: none; white-space: nowrap; position: sticky; top: 0; }
table.games th::after { content: " \\2195"; color: #9a8f6a; }
table.games th[aria-sort="ascending"]::after { content: " \\25B2"; color: #20364f; }
table.games th[aria-sort="descending"]::after { content: " \\25BC"; color: #20364f; }
table.games td { padding: 4px 6px; border-top: 1px solid #eee; vertical-align: top; }
table.games td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.games td.scores { white-space: nowrap; }
table.games td.players { max-width: 16em; }
table.games td.players span { white-space: nowrap; }
table.games td.game { max-width: 18em; overflow-wrap: anywhere; }
table.games td.analysis { white-space: nowrap; }
table.games th.wrap { white-space: normal; }
table.games td.findings { max-width: 9em; }
table.games tr:hover td { background: #f3efe0; }
td.findings.errors { color: #b00020; font-weight: bold; }
/* the table scrolls sideways in its own box: the page is never wider than the screen;
   on a wide screen the box is at most the window's height, so the header stays in view */
.games-box { max-width: 100%; overflow-x: auto; }
@media (min-width: 641px) { .games-box { max-height: 88vh; overflow-y: auto; } }
@media (max-width: 640px) {
  main { padding: 10px 8px; }
  table.games { font-size: 0.8em; }
  table.games td.game { min-width: 9em; overflow-wrap: break-word; }
  .charts { overflow-x: auto; }
  .charts svg { min-width: 900px; }  /* its labels stay readable: the box scrolls */
}
.charts svg { width: 100%; max-width: 1300px; height: auto; background: #fff;
              border: 1px solid #ddd; }
.unreadable { color: #b00020; }
"""
)

_SCRIPT = """
(function () {
  "use strict";
  var table = document.getElementById("games");
  var heads = table.querySelectorAll("thead th");
  var body = table.tBodies[0];
  function key(row, column, numeric) {
    var cell = row.cells[column];
    var value = cell.getAttribute("data-value");
    if (value === null) { value = cell.textContent; }
    if (numeric) { return value === "" ? -Infinity : Number(value); }
    return value.toLowerCase();
  }
  function sortBy(column) {
    var head = heads[column];
    var numeric = head.getAttribute("data-type") === "number";
    var order = head.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
    var sign = order === "ascending" ? 1 : -1;
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row, i) { row.setAttribute("data-order", String(i)); });
    rows.sort(function (a, b) {
      var x = key(a, column, numeric), y = key(b, column, numeric);
      if (x < y) { return -sign; }
      if (x > y) { return sign; }
      return Number(a.getAttribute("data-order")) - Number(b.getAttribute("data-order"));
    });
    rows.forEach(function (row) { body.appendChild(row); });
    for (var i = 0; i < heads.length; i++) { heads[i].removeAttribute("aria-sort"); }
    head.setAttribute("aria-sort", order);
  }
  for (var i = 0; i < heads.length; i++) {
    heads[i].addEventListener("click", sortBy.bind(null, i));
    heads[i].addEventListener("keydown", function (column, e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(column); }
    }.bind(null, i));
  }
})();
"""


@dataclass(slots=True)
class SiteResult:
    """What :func:`write_site` did: the index written, the game pages (one
    :class:`~gcgtools.jobs.outputs.Outcome` per file, in order) and whether the archive
    charts could be drawn."""

    index: Path
    outcomes: list[Outcome] = field(default_factory=list)
    charts: bool = False

    @property
    def pages(self) -> int:
        return sum(1 for o in self.outcomes if o.target is not None)

    @property
    def failed(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.target is None]


def _cell(text: str, value: Any = None, cls: str = "") -> str:
    attrs = f' class="{cls}"' if cls else ""
    if value is not None:
        attrs += f' data-value="{escape(str(value))}"'
    return f"<td{attrs}>{text}</td>"


def _per_player(values: list[Any], fmt: str = "{}") -> tuple[str, Any]:
    """``2.33 - 6.63`` and the value to sort by (the total, or the mean of an average)."""
    shown = [v for v in values if v is not None]
    text = " - ".join("-" if v is None else fmt.format(v) for v in values)
    if not shown:
        return "", ""
    return text, round(sum(shown) / len(shown), 2) if "." in fmt else sum(shown)


def _analysis_cells(s: dict[str, Any]) -> str:
    """The index's analysis columns of a game: average equity lost, phonies played and
    missed bingos, per player."""
    a = s.get("analysed") or {}
    avg, avg_key = _per_player(a.get("avg_equity_lost", []), "{:.2f}")
    phonies, phony_key = _per_player(a.get("phonies", []))
    missed, missed_key = _per_player(a.get("missed_bingos", []))
    return (
        _cell(avg, avg_key, "num analysis")
        + _cell(phonies, phony_key, "num analysis")
        + _cell(missed, missed_key, "num analysis")
    )


def _mistake_cell(s: dict[str, Any]) -> str:
    """The Mistake Index of each seat (``1.2 - 0.4``), sorted by their sum."""
    index = s.get("mistake_index")
    if not index:
        return _cell("")
    return _cell(" - ".join(f"{v:.1f}" for v in index), round(sum(index), 3), "num")


def _row(
    number: int, outcome: Outcome, site: Path, dated: bool, analysed: bool, judged: bool = False
) -> str:
    s = outcome.summary or {}
    assert outcome.target is not None
    # a URL path: '%', '#', '?' and spaces in a page's name quoted (a file name is not a URL)
    link = quote(Path(os.path.relpath(outcome.target, site)).as_posix(), safe="/")
    players: list[str] = s.get("players", [])
    scores: list[int] = s.get("scores", [])
    bingos: list[int] = s.get("bingos", [])
    names = ", ".join(
        f'<span style="color:{player_colour(k)}">{escape(n)}</span>' for k, n in enumerate(players)
    )
    score_text = " - ".join(str(x) for x in scores)
    spread = s.get("spread")
    winner = s.get("winner") or ("" if s.get("finished") else "not over")
    errors, warnings = s.get("errors", 0), s.get("warnings", 0)
    findings = errors + warnings
    finding_text = (
        f"{plural(errors, 'error')}, {plural(warnings, 'warning')}" if findings else "none"
    )
    return (
        f'<tr data-file="{escape(outcome.path)}">'
        + _cell(str(number), number, "num")
        + _cell(
            f'<a href="{escape(link)}" title="{escape(outcome.path)}">'
            f"{escape(s.get('title') or outcome.path)}</a>",
            cls="game",
        )
        + (_cell(escape(s.get("date") or "")) if dated else "")
        + _cell(names, ", ".join(players), "players")
        + _cell(escape(score_text), max(scores, default=""), "num scores")
        + _cell("" if spread is None else str(spread), "" if spread is None else spread, "num")
        + _cell(escape(winner))
        + _cell(" - ".join(map(str, bingos)), sum(bingos), "num")
        + (_analysis_cells(s) if analysed else "")
        + _cell(finding_text, errors * 100000 + warnings, "findings" + " errors" * bool(errors))
        + _cell(str(s.get("events", "")), s.get("events", ""), "num")
        + (_mistake_cell(s) if judged else "")
        + "</tr>"
    )


_COLUMNS = (
    ("#", "number"),
    ("game", "text"),
    ("date", "text"),
    ("players", "text"),
    ("scores", "number"),
    ("spread", "number"),
    ("winner", "text"),
    ("bingos", "number"),
    ("avg equity lost", "number"),
    ("phonies", "number"),
    ("missed bingos", "number"),
    ("findings", "number"),
    ("events", "number"),
    ("Mistake Index", "number"),  # only when a page was judged (report --depth sim/full)
)
#: The columns a site run with a lexicon adds, with what their header's tooltip says.
_ANALYSIS_COLUMNS = {
    "avg equity lost": "average equity lost per analysed turn, per player",
    "phonies": "plays forming a word not in the lexicon, per player",
    "missed bingos": "turns where a bingo was possible and not played, per player",
}


def index_html(outcomes: list[Outcome], site: Path, charts_svg: str = "", title: str = "") -> str:
    """The index page of a site: the games of ``outcomes`` (those with a page) in a
    sortable table linking to their pages (paths relative to ``site``), the records that
    could not be read, and ``charts_svg`` (inline SVG) under the table."""
    done = [o for o in outcomes if o.target is not None]
    failed = [o for o in outcomes if o.target is None]
    heading = title or plural(len(done), "game")
    dated = any((o.summary or {}).get("date") for o in done)
    analysed = [(o.summary or {}).get("analysed") for o in done]
    used = sorted({a["used"] for a in analysed if a})
    judged = any((o.summary or {}).get("mistake_index") for o in done)
    rows = [_row(i, o, site, dated, bool(used), judged) for i, o in enumerate(done, start=1)]
    heads = "".join(
        f'<th scope="col" tabindex="0" data-type="{kind}"'
        + (f' class="wrap" title="{_ANALYSIS_COLUMNS[name]}"' if name in _ANALYSIS_COLUMNS else "")
        + f">{name}</th>"
        for name, kind in _COLUMNS
        if (dated or name != "date")
        and (used or name not in _ANALYSIS_COLUMNS)
        and (judged or name != "Mistake Index")
    )
    note = f"<p>Analysis with {escape('; '.join(used))}.</p>" if used else ""
    failed_html = ""
    if failed:
        items = "".join(
            f"<li>{escape(o.path)}: {escape(o.reason or 'unreadable')}</li>" for o in failed
        )
        failed_html = (
            f'<section class="unreadable"><h2>{plural(len(failed), "record")} without a page</h2>'
            f"<ul>{items}</ul></section>"
        )
    charts = (
        f'<section class="charts"><h2>The archive</h2>{charts_svg}</section>' if charts_svg else ""
    )
    return (
        "\n".join(
            [
                "<!DOCTYPE html>",
                '<html lang="en">',
                '<head><meta charset="utf-8">',
                '<meta name="viewport" content="width=device-width, initial-scale=1">',
                f"<title>{escape(heading)}</title>",
                f"<style>{_STYLE}</style></head>",
                "<body>",
                f"<header><h1>{escape(heading)}</h1>",
                "<p>Click a column header to sort; click a game to open its report.</p>",
                f"{note}</header>",
                "<main>",
                '<div class="games-box">',
                f'<table class="games" id="games"><thead><tr>{heads}</tr></thead><tbody>',
                *rows,
                "</tbody></table></div>",
                failed_html,
                charts,
                "</main>",
                f"<script>{_SCRIPT}</script>",
                "</body></html>",
            ]
        )
        + "\n"
    )


def _inline_svg(fig: Any) -> str:
    """A matplotlib figure as an inline ``<svg>`` element (no XML prolog, no metadata)."""
    from matplotlib import rc_context

    from gcgtools.render.charts import REPRODUCIBLE

    out = io.StringIO()
    with rc_context(REPRODUCIBLE):  # the same ids every time: the same page
        fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None,
                                                 "Format": None, "Type": None})  # fmt: skip
    text = out.getvalue()
    text = text[text.index("<svg") :]
    # inline SVG in HTML needs no xlink namespace: plain href is SVG 2
    text = text.replace(' xmlns:xlink="http://www.w3.org/1999/xlink"', "", 1)
    return text.replace("xlink:href=", "href=").replace("<svg ", '<svg class="archive" ', 1)


def _archive_charts(
    files: list[str],
    jobs: int | None,
    progress: bool,
    options: RuleOptions,
    scheduler: Any = None,
) -> str:
    from gcgtools.jobs.charts import archive_figure
    from gcgtools.tables.frames import load_frames

    frames = load_frames(files, jobs=jobs, progress=progress, scheduler=scheduler, rules=options)
    assert frames.moves is not None
    if len(frames.games) - len(frames.unreadable) == 0:
        return ""
    return _inline_svg(archive_figure(frames.games, frames.moves))


def write_site(
    paths: Iterable[str],
    folder: str | os.PathLike[str],
    *,
    options: RuleOptions = NO_OPTIONS,
    jobs: int | None = None,
    progress: bool = False,
    title: str = "",
    lexicon: Any = None,
    top: int = 5,
    scheduler: Any = None,
    depth: str = "static",
    judge: Any = None,
    job: ReportJob | None = None,
) -> SiteResult:
    """Write the site of the records named by ``paths`` into ``folder`` (see the module
    doc). Bad records get no page and are listed; the index is always written. With
    ``lexicon`` (a :class:`~gcgtools.lexicon.choice.LexiconChoice`) each page shows the
    ``top`` moves beside the recorded ones. The pages and the charts are made on the
    Dask cluster ``scheduler`` names, if any (see :func:`write_outputs`). ``depth`` sim
    or full (with ``judge`` settings) judges every page's turns, and the index gets a
    Mistake Index column. ``job``: the pages' :class:`~gcgtools.jobs.kinds.ReportJob`
    already made (a command's), instead of ``options``, ``lexicon``, ``top``, ``depth`` and
    ``judge``."""
    site = Path(folder)
    games = site / GAMES_FOLDER
    games.mkdir(parents=True, exist_ok=True)
    index = site / "index.html"
    if job is None:
        job = ReportJob(options, lexicon, top, depth, judge)
    job = replace(job, index=str(index))
    options = job.rules
    with open_scheduler(scheduler, jobs) as opened:  # a Dask cluster started once
        outcomes = list(_pages(job, paths, str(games), jobs, progress, opened))
        done = [o.path for o in outcomes if o.target is not None]
        charts = _archive_charts(done, jobs, progress, options, opened) if done else ""
    write_atomic(index, index_html(outcomes, site, charts, title).encode("utf-8"))
    return SiteResult(index, outcomes, bool(charts))


def _pages(
    job: ReportJob, paths: Iterable[str], games: str, jobs: int | None, progress: bool,
    scheduler: Any,
) -> Iterator[Outcome]:  # fmt: skip
    """The pages of ``paths`` written into ``games``: one record per worker, or, judged
    (depth sim or full), every record's turns over the workers (:mod:`gcgtools.jobs.judged`)."""
    if not is_judged(job):
        return write_outputs(job, paths, games, jobs=jobs, progress=progress, scheduler=scheduler)
    files = list(expand_paths(paths))
    naming = naming_for(files, games, job.suffix)
    return judged_pages(job, files, naming, jobs=jobs, progress=progress, scheduler=scheduler)
