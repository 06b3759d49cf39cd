"""Analysing records through the batch layer and the result cache.

:func:`analyse_with` analyses one game with a loaded lexicon, or with the lexicon and leaves a
:class:`~gcgtools.lexicon.choice.LexiconChoice` picks for it, its result kept in the result
cache (:class:`gcgtools.batch.cache.ResultCache`, kind ``analysis``); :func:`analyse_paths`
analyses every record of an archive on the local pool or a Dask cluster
(:func:`gcgtools.batch.run.map_files`). The analysis itself is
:func:`gcgtools.analysis.analyse.analyse_record`; how it is run (best moves kept, cache,
rule options, depth, judge settings, progress) is one
:class:`~gcgtools.batch.settings.AnalysisSettings`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from gcgtools.analysis.analyse import DEFAULT_TOP, RecordAnalysis, analyse_record
from gcgtools.analysis.judge import Depth, JudgeSettings, judge_record
from gcgtools.batch.run import Scheduler, map_files
from gcgtools.batch.settings import DEFAULT_SETTINGS, AnalysisSettings
from gcgtools.console import track
from gcgtools.lexicon.choice import LexiconChoice, choose
from gcgtools.lexicon.leaves import LeavesError
from gcgtools.lexicon.lexicon import LexiconError
from gcgtools.model.game import Game
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.rules.resolve import resolve
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import expand_paths

if TYPE_CHECKING:
    from gcgtools.lexicon import Leaves, Lexicon

__all__ = [
    "AnalysisSettings",
    "analyse_file",
    "analyse_game_with",
    "analyse_paths",
    "analyse_with",
    "record_digest",
]


def analyse_with(
    game: Game,
    lexicon: LexiconChoice | Lexicon | None,
    leaves: Leaves | None = None,
    *,
    top: int = DEFAULT_TOP,
    options: RuleOptions = NO_OPTIONS,
    depth: Depth | str = Depth.STATIC,
    judge: JudgeSettings | None = None,
) -> RecordAnalysis:
    """:func:`analyse_record` with ``lexicon`` a loaded lexicon (and ``leaves``), or a
    :class:`LexiconChoice` that picks the lexicon and leaves for ``game`` (loaded once per
    process), or None (no lexicon: the turns only); judged at ``depth`` (sim, full) with
    the ``judge`` settings (:mod:`gcgtools.analysis.judge`)."""
    settings = AnalysisSettings(top=top, options=options, depth=Depth(depth), judge=judge)
    if lexicon is None or not isinstance(lexicon, LexiconChoice):
        message = None if lexicon is not None else "no lexicon"
        result = analyse_record(
            game, lexicon=lexicon, leaves=leaves, top=top, message=message, options=options
        )
        return _judged(game, result, lexicon, leaves, settings)
    return analyse_game_with(game, lexicon, settings)


def record_digest(game: Game) -> str:
    """The SHA-256 of a record's text (every line with its ending, and the encoding it
    was read in): what identifies the record in the result cache."""
    digest = hashlib.sha256((game.encoding or "").encode() + b"\0")
    for line in game.lines:
        digest.update(line.text.encode("utf-8", "surrogatepass"))
        digest.update(line.ending.encode())
    return digest.hexdigest()


def analyse_game_with(
    game: Game, choice: LexiconChoice, settings: AnalysisSettings = DEFAULT_SETTINGS
) -> RecordAnalysis:
    """:func:`analyse_record` with the lexicon and leaves ``choice`` picks for ``game``
    (loaded once per process), run by ``settings`` (see :func:`analyse_with`).

    With ``settings.cache`` (and a lexicon to use) the result is kept in the result cache
    (:class:`gcgtools.batch.cache.ResultCache`, kind ``analysis``) keyed by the record's
    content and :meth:`AnalysisSettings.cache_params` (the lexicon and leave files, the
    rule options, the analysis version, the depth and judge settings); a record seen
    before is not analysed again, whatever ``top`` each time (up to ``DEFAULT_TOP``: more
    best moves than that are a new entry)."""
    if game.unreadable:
        return analyse_record(game, lexicon=None)
    if not settings.cache or not choice.wanted:
        return _analyse_chosen(game, choice, settings)
    from gcgtools.batch.cache import ResultCache

    # one entry serves every command: stored with at least DEFAULT_TOP best moves a
    # turn, and cut to ``top`` here
    stored = replace(settings, top=settings.stored_top())
    with ResultCache("analysis", settings.cache_params(choice), expect=RecordAnalysis) as results:
        result: RecordAnalysis = results.fetch(
            record_digest(game), lambda: _analyse_chosen(game, choice, stored)
        )
    # the same record may be cached under another name
    turns = [replace(turn, best=turn.best[: settings.top]) for turn in result.turns]
    result = replace(result, turns=turns, path=game.path or "<gcg>")
    for f in result.findings:
        f.path = game.path
    return result


def _analyse_chosen(
    game: Game, choice: LexiconChoice, settings: AnalysisSettings
) -> RecordAnalysis:
    options = settings.options
    rules = resolve(game, options)
    chosen = choose(choice, game.lexicon, rules.tiles)
    result = analyse_record(
        game,
        lexicon=chosen.lexicon,
        leaves=chosen.leaves,
        top=settings.top,
        message=chosen.message,
        options=options,
    )
    return _judged(game, result, chosen.lexicon, chosen.leaves, settings)


def _judged(
    game: Game,
    result: RecordAnalysis,
    lexicon: Lexicon | None,
    leaves: Leaves | None,
    settings: AnalysisSettings,
) -> RecordAnalysis:
    """``result`` with its turns judged at ``settings.depth`` (nothing to do for the
    static depth or without a lexicon)."""
    deep = settings.deep()
    if deep is None or lexicon is None or result.unreadable:
        return result
    options = settings.options
    if leaves is None:
        from gcgtools.lexicon import builtin_leaves

        leaves = builtin_leaves(resolve(game, options).tiles)
    bar = partial(_turn_bar, enabled=settings.progress)
    return judge_record(
        game, result, lexicon, leaves, deep[1], depth=deep[0], key=record_digest(game),
        track=bar, options=options,
    )  # fmt: skip


def _turn_bar(turns: Iterator[Any], total: int, *, enabled: bool) -> Iterator[Any]:
    return track(turns, total, label="turns", enabled=enabled)


def analyse_file(
    path: str, choice: LexiconChoice, settings: AnalysisSettings = DEFAULT_SETTINGS
) -> RecordAnalysis:
    """Worker: read and analyse one file. Never raises for a bad file."""
    try:
        game = load_game(path)
        return analyse_game_with(game, choice, settings)
    except (LexiconError, LeavesError) as exc:  # a lexicon or leave file it cannot use
        return RecordAnalysis(path, unreadable=True, reason=exc.message)
    except (KeyError, ValueError) as exc:  # a tile or board file gone bad since parsed
        return RecordAnalysis(path, unreadable=True, reason=f"cannot set up the rules: {exc}")
    except Exception as exc:  # noqa: BLE001 - a batch must go on past any bad file
        return RecordAnalysis(path, unreadable=True, reason=f"{type(exc).__name__}: {exc}")


def analyse_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    lexicon: str | os.PathLike[str] | LexiconChoice | None = None,
    lexica: str | os.PathLike[str] | None = None,
    leaves: str | os.PathLike[str] | None = None,
    top: int | None = None,
    jobs: int | None = None,
    progress: bool | None = None,
    cache: bool | None = None,
    scheduler: Scheduler = None,
    options: RuleOptions | None = None,
    depth: Depth | str | None = None,
    judge: JudgeSettings | None = None,
    settings: AnalysisSettings | None = None,
) -> Iterator[RecordAnalysis]:
    """Analyse every file named by ``paths`` (files, folders, globs), in order, on
    ``jobs`` worker processes or the Dask cluster ``scheduler`` names
    (:func:`gcgtools.batch.run.map_files`), run by ``settings`` (or the
    :class:`AnalysisSettings` that ``top``, ``cache``, ``options``, ``depth``, ``judge``
    and ``progress`` make, those not given at its defaults; TypeError for both): judged at
    its depth, cached unless its ``cache`` is False (see :func:`analyse_game_with`). One
    record judged at a depth runs in this process, with a progress bar per turn.
    ``lexicon`` may also be the whole :class:`~gcgtools.lexicon.choice.LexiconChoice`
    (``lexica`` and ``leaves`` unused)."""
    given = {"top": top, "cache": cache, "options": options, "depth": depth, "judge": judge,
             "progress": progress}  # fmt: skip
    loose = {k: v for k, v in given.items() if v is not None}
    if settings is None:
        settings = AnalysisSettings(**loose)
    elif loose:
        raise TypeError("give either settings= or top=, cache=, options=, ..., not both")
    choice = LexiconChoice.of(lexicon, lexica, leaves)
    names = [os.fspath(p) for p in paths]
    if settings.depth is not Depth.STATIC and scheduler is None:
        files = list(expand_paths(names))
        if len(files) == 1:
            yield analyse_file(files[0], choice, settings)
            return
    worker = partial(analyse_file, choice=choice, settings=replace(settings, progress=False))
    yield from map_files(
        worker,
        names,
        jobs=jobs,
        progress=settings.progress,
        label="analysing",
        unit="games",
        scheduler=scheduler,
    )
