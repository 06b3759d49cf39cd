"""Study sets: the mistakes of an archive's records, judged and turned into puzzles.

:func:`study_records` analyses every record at a depth (``sim`` or ``full``: a puzzle
needs a graded mistake) through the batch layer and the result cache
(:func:`gcgtools.batch.analyses.analyse_paths`: the local pool or a Dask cluster, records
judged before are not judged again), and gives each record's puzzles
(:func:`gcgtools.analysis.puzzles.puzzles_of`) as soon as it is judged, in input order.
:func:`study_page` makes the self-contained HTML quiz of them.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field

from gcgtools.analysis.grading import Mistake
from gcgtools.analysis.judge import Depth
from gcgtools.analysis.puzzles import Puzzle, Tag, puzzles_of
from gcgtools.analysis.results import RecordAnalysis
from gcgtools.batch.analyses import analyse_paths
from gcgtools.batch.run import Scheduler
from gcgtools.batch.settings import AnalysisSettings
from gcgtools.lexicon.choice import LexiconChoice, choose
from gcgtools.lexicon.leaves import LeavesError
from gcgtools.lexicon.lexicon import LexiconError
from gcgtools.render.study_html import study_html
from gcgtools.rules.resolve import resolve
from gcgtools.sources.load import load_game

__all__ = ["PuzzleFilter", "RecordPuzzles", "study_page", "study_records"]


@dataclass(frozen=True, slots=True)
class PuzzleFilter:
    """Which judged turns become puzzles: a mistake of at least ``min_mistake``, played by
    ``player`` (a nick, any case; None: every player), with every tag of ``tags``."""

    player: str | None = None
    min_mistake: Mistake = Mistake.SMALL
    tags: tuple[Tag, ...] = ()


@dataclass(frozen=True, slots=True)
class RecordPuzzles:
    """One record's puzzles, with its analysis (``analysis.unreadable`` and
    ``analysis.reason`` say when it could not be read)."""

    analysis: RecordAnalysis
    puzzles: list[Puzzle] = field(default_factory=list)


def study_records(
    paths: Iterable[str | os.PathLike[str]],
    *,
    lexicon: LexiconChoice,
    settings: AnalysisSettings,
    wanted: PuzzleFilter = PuzzleFilter(),
    jobs: int | None = None,
    scheduler: Scheduler = None,
) -> Iterator[RecordPuzzles]:
    """Every record of ``paths`` judged by ``settings`` (at a depth: ValueError for the
    static one), with the puzzles ``wanted`` selects, record by record in input order."""
    if settings.depth is Depth.STATIC:
        raise ValueError("a study set needs judged turns: depth sim or full")
    for analysis in analyse_paths(
        paths, lexicon=lexicon, jobs=jobs, scheduler=scheduler, settings=settings
    ):
        if analysis.unreadable or analysis.lexicon is None:
            yield RecordPuzzles(analysis)
            continue
        yield RecordPuzzles(analysis, _puzzles(analysis, lexicon, settings, wanted))


def _puzzles(
    analysis: RecordAnalysis,
    choice: LexiconChoice,
    settings: AnalysisSettings,
    wanted: PuzzleFilter,
) -> list[Puzzle]:
    game = load_game(analysis.path)
    if game.unreadable:
        return []
    try:
        lexicon = choose(choice, game.lexicon, resolve(game, settings.options).tiles).lexicon
    except (LexiconError, LeavesError, ValueError):
        lexicon = None  # no only-bingo tags, the rest as judged
    return puzzles_of(
        game,
        analysis,
        lexicon=lexicon,
        player=wanted.player,
        min_mistake=wanted.min_mistake,
        tags=wanted.tags,
        options=settings.options,
    )


def study_page(puzzles: Collection[Puzzle], *, title: str = "Study set") -> str:
    """The HTML quiz of ``puzzles`` (one self-contained page)."""
    return study_html(list(puzzles), title=title)
