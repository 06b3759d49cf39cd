"""The game report's data: the replay and the analysis a page shows, computed here, then
drawn by :func:`gcgtools.render.html.render_report` (which computes nothing).

    >>> page = game_report_html(gcgtools.read_game("game.gcg"))  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gcgtools.batch.analyses import analyse_with
from gcgtools.model.game import Game
from gcgtools.render.html import GameReportData, Report, render_report
from gcgtools.replay.info import ReplayInfo
from gcgtools.rules.options import NO_OPTIONS, RuleOptions

if TYPE_CHECKING:
    from gcgtools.lexicon import Leaves, Lexicon
    from gcgtools.lexicon.choice import LexiconChoice

__all__ = ["GameReportData", "game_report", "game_report_html", "report_data"]


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
) -> GameReportData:
    """What the report of ``game`` shows: its replay under the rule ``options`` and, with
    ``lexicon`` (a loaded lexicon, or a :class:`~gcgtools.lexicon.choice.LexiconChoice`),
    its analysis with the ``top`` moves per turn, judged at ``depth`` sim or full (with
    ``judge`` settings); ``back`` is the address of a site's index."""
    info = ReplayInfo.of(game, options)
    analysis = None
    if lexicon is not None:
        analysis = analyse_with(
            game, lexicon, leaves, top=top, options=options, depth=depth, judge=judge
        )
    return GameReportData(game, info, analysis, back)


def game_report(game: Game, **settings: Any) -> Report:
    """The report of one game and its summary (the settings of :func:`report_data`)."""
    return render_report(report_data(game, **settings))


def game_report_html(game: Game, **settings: Any) -> str:
    """The report of one game as a self-contained HTML page (the settings of
    :func:`report_data`). With a lexicon each turn whose full rack is known also shows the
    top moves beside the recorded one."""
    return game_report(game, **settings).html
