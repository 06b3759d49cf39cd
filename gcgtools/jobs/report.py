"""The game report's data: the replay and the analysis a page shows, computed here, then
drawn by :func:`gcgtools.render.html.render_report` (which computes nothing).

    >>> page = game_report_html(gcgtools.read_game("game.gcg"))  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gcgtools.analysis.results import RecordAnalysis
from gcgtools.batch.analyses import analyse_with
from gcgtools.model.game import Game
from gcgtools.render.html import GameOutcome, GameReportData, Report, render_report
from gcgtools.replay.info import ReplayInfo
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.syntax.records import EventKind

if TYPE_CHECKING:
    from gcgtools.lexicon import Leaves, Lexicon
    from gcgtools.lexicon.choice import LexiconChoice

__all__ = ["GameOutcome", "GameReportData", "game_outcome", "game_report", "game_report_html",
           "report_data"]  # fmt: skip


def report_data(
    game: Game,
    *,
    options: RuleOptions = NO_OPTIONS,
    lexicon: LexiconChoice | Lexicon | None = None,
    leaves: Leaves | None = None,
    top: int = 5,
    back: str | None = None,
    depth: str = "static",
    judge: Any = None,
    analysis: RecordAnalysis | None = None,
) -> GameReportData:
    """What the report of ``game`` shows: its replay under the rule ``options`` and, with
    ``lexicon`` (a loaded lexicon, or a :class:`~gcgtools.lexicon.choice.LexiconChoice`),
    its analysis with the ``top`` moves per turn, judged at ``depth`` sim or full (with
    ``judge`` settings); ``back`` is the address of a site's index. ``analysis``: the
    record's analysis made already (a deep analysis split per turn over the workers:
    :mod:`gcgtools.jobs.judged`), shown as it is."""
    info = ReplayInfo.of(game, options)
    if analysis is None and lexicon is not None:
        analysis = analyse_with(
            game, lexicon, leaves, top=top, options=options, depth=depth, judge=judge
        )
    return GameReportData(game, info, game_outcome(game, info), analysis, back)


def game_outcome(game: Game, info: ReplayInfo) -> GameOutcome:
    """How ``game`` came out by its replay ``info`` (see
    :class:`~gcgtools.render.html.GameOutcome`)."""
    count = game.player_count()
    final = info.ordered[-1]
    totals = list(final.recorded[:count])
    leaders = spread = None
    if final.game_over:
        best = max(totals)
        leaders = [k for k in range(count) if totals[k] == best]
        spread = best - max([t for k, t in enumerate(totals) if k not in leaders] or [best])
    found = [f for fs in info.findings.values() for f in fs]
    errors = sum(f.severity == "error" for f in found)
    warnings = sum(f.severity == "warning" for f in found)
    return GameOutcome(leaders, spread, _bingos(game, info, count), errors, warnings)


def _bingos(game: Game, info: ReplayInfo, count: int) -> list[int]:
    """Each seat's bingos that stood: a ``--`` takes back the bingo it withdraws."""
    bingos = [0] * count
    for number, e in enumerate(game.events):
        after = info.position(e)
        if after is None or after.player is None or after.player >= count:
            continue
        if e.kind is EventKind.PLAY and after.bingo:
            bingos[after.player] += 1
        elif e.kind is EventKind.WITHDRAWN and bingos[after.player]:
            bingos[after.player] -= _withdrawn_bingo(game, info, number)
    return bingos


def _withdrawn_bingo(game: Game, info: ReplayInfo, index: int) -> int:
    """1 if the play a ``--`` at event ``index`` (0-based) withdraws was a bingo."""
    for e in reversed(game.events[:index]):
        if e.kind is EventKind.PLAY and e.nick == game.events[index].nick:
            pos = info.position(e)
            return int(pos is not None and pos.bingo)
    return 0


def game_report(game: Game, **settings: Any) -> Report:
    """The report of one game and its summary (the settings of :func:`report_data`)."""
    return render_report(report_data(game, **settings))


def game_report_html(game: Game, **settings: Any) -> str:
    """The report of one game as a self-contained HTML page (the settings of
    :func:`report_data`). With a lexicon each turn whose full rack is known also shows the
    top moves beside the recorded one."""
    return game_report(game, **settings).html
