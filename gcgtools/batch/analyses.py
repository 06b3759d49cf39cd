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
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import chain
from typing import TYPE_CHECKING, Any

from gcgtools.analysis.analyse import DEFAULT_TOP, RecordAnalysis, analyse_record, turn_count
from gcgtools.analysis.judge import (
    Depth,
    JudgeSettings,
    TurnTask,
    judge_record,
    judge_task,
    not_judged,
    record_judgements,
    turn_tasks,
    with_judgements,
)
from gcgtools.analysis.results import Judgement
from gcgtools.batch.cores import default_jobs
from gcgtools.batch.run import Scheduler, map_files, map_window
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
from gcgtools.sources.quarantine import CrashedBefore, check_not_crashed

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
    return _as_asked(result, game, settings.top)


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
    except Exception as exc:  # noqa: BLE001 - a batch must go on past any bad file
        return _failed(path, exc)


def _failed(path: str, exc: Exception) -> RecordAnalysis:
    """The result of a file whose analysis raised ``exc``: unreadable, with the reason."""
    if isinstance(exc, (LexiconError, LeavesError)):  # a lexicon or leave file it cannot use
        return RecordAnalysis(path, unreadable=True, reason=exc.message)
    if isinstance(exc, (KeyError, ValueError)):  # a tile or board file gone bad since parsed
        return RecordAnalysis(path, unreadable=True, reason=f"cannot set up the rules: {exc}")
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
    its depth, cached unless its ``cache`` is False (see :func:`analyse_game_with`). At a
    deep depth (sim, full) the work is split per turn, not per record (see
    :func:`_assembled`), with a progress bar that counts turns.
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
    if settings.depth is not Depth.STATIC:
        files = list(expand_paths(names))
        records = _assembled(files, choice, settings, jobs, scheduler)
        # the records counted too (in games: what an interrupt says)
        yield from track(records, len(files), label="analysing", enabled=False, unit="games")
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


@dataclass(frozen=True, eq=False)
class _TurnJob:
    """A turn to judge, as a batch hands it to a worker: the task and what picks the
    lexicon and leaves there (the record's ``#lexicon`` and tiles). Named (``name``: the
    record's path and the event) for the pool's list of work that killed its workers."""

    name: str
    task: TurnTask
    lexicon: str | None
    tiles: Any
    weight: int = 1  # the progress bar's steps for it (see ``_fed``)

    def __hash__(self) -> int:
        return hash(self.name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _TurnJob) and other.name == self.name

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class _Done:
    """The one work item of a record with no turn to judge: nothing to do but count its
    ``weight`` turns, in its place among the others."""

    weight: int


def judge_job(item: _TurnJob | _Done, choice: LexiconChoice) -> tuple[int, Judgement | str | None]:
    """Worker: the item's weight, and the judgement of its turn or why it could not be
    judged (None for a :class:`_Done`). Never raises."""
    if isinstance(item, _Done):
        return item.weight, None
    return item.weight, _judgement(item, choice)


def _judgement(job: _TurnJob, choice: LexiconChoice) -> Judgement | str:
    try:
        check_not_crashed(job)  # a job that killed a worker is named by itself
        chosen = choose(choice, job.lexicon, job.tiles)
        if chosen.lexicon is None:
            return chosen.message or "no lexicon"
        leaves = chosen.leaves
        if leaves is None:
            from gcgtools.lexicon import builtin_leaves

            leaves = builtin_leaves(job.tiles)
        return judge_task(job.task, chosen.lexicon, leaves)
    except CrashedBefore:
        return "judging it kept killing worker processes"
    except Exception as exc:  # noqa: BLE001 - a batch must go on past any bad turn
        return f"{type(exc).__name__}: {exc}"


@dataclass
class _Record:
    """A record of a deep analysis between its preparation and its assembly: the result
    (final if it needs no judging), its game and turn jobs, W806 findings so far."""

    result: RecordAnalysis
    game: Game | None = None
    jobs: list[_TurnJob] = field(default_factory=list)
    findings: list[Any] = field(default_factory=list)
    final: bool = True  # ``result`` is final (read from the cache, unreadable, ...)


def _prepared(path: str, choice: LexiconChoice, settings: AnalysisSettings) -> _Record:
    """Read ``path``, find its result in the cache or analyse it statically and make its
    turn jobs (one replay). Never raises for a bad file."""
    try:
        game = load_game(path)
        if game.unreadable:
            return _Record(analyse_record(game, lexicon=None))
        stored = replace(settings, top=settings.stored_top(), progress=False)
        if settings.cache and choice.wanted:
            found = _cached(game, choice, settings)
            if found is not None:
                return _Record(_as_asked(found, game, settings.top))
        options = settings.options
        rules = resolve(game, options)
        chosen = choose(choice, game.lexicon, rules.tiles)
        result = analyse_record(
            game, lexicon=chosen.lexicon, leaves=chosen.leaves, top=stored.top,
            message=chosen.message, options=options,
        )  # fmt: skip
        deep = settings.deep()
        if deep is None or chosen.lexicon is None or result.unreadable:
            return _Record(_stored(game, choice, settings, result), final=True)
        tasks, findings = turn_tasks(
            game, result, deep[1], key=record_digest(game), options=options
        )
        name = game.path or path
        jobs = [
            _TurnJob(f"{name} event {t.turn.event}", t, game.lexicon, rules.tiles) for t in tasks
        ]
        return _Record(result, game, jobs, findings, final=False)
    except Exception as exc:  # noqa: BLE001 - a batch must go on past any bad file
        return _Record(_failed(path, exc))


def _cached(game: Game, choice: LexiconChoice, settings: AnalysisSettings) -> Any:
    from gcgtools.batch.cache import ResultCache

    with ResultCache("analysis", settings.cache_params(choice), expect=RecordAnalysis) as results:
        return results.get(results.key(record_digest(game)))


def _stored(
    game: Game, choice: LexiconChoice, settings: AnalysisSettings, result: RecordAnalysis
) -> RecordAnalysis:
    """``result`` (made with ``settings.stored_top()`` best moves) kept in the result
    cache as :func:`analyse_game_with` keeps it, and cut to ``settings.top``."""
    if settings.cache and choice.wanted:
        from gcgtools.batch.cache import ResultCache

        params = settings.cache_params(choice)
        with ResultCache("analysis", params, expect=RecordAnalysis) as results:
            results.put(results.key(record_digest(game)), result)
    return _as_asked(result, game, settings.top)


def _as_asked(result: RecordAnalysis, game: Game, top: int) -> RecordAnalysis:
    """``result`` cut to ``top`` best moves a turn, under ``game``'s name (the same record
    may be cached under another)."""
    turns = [replace(turn, best=turn.best[:top]) for turn in result.turns]
    result = replace(result, turns=turns, path=game.path or "<gcg>")
    for f in result.findings:
        f.path = game.path
    return result


#: Turns handed to the workers and not yet assembled into their records, per worker: the
#: results come back in order, so a long turn (an endgame) at the head of the line keeps
#: the others' results waiting; with eight each the other workers go on meanwhile, and
#: the records prepared ahead of the one being assembled (their positions, their static
#: analysis) stay a few however long the archive is.
TURNS_PER_WORKER = 8


def _assembled(
    files: list[str],
    choice: LexiconChoice,
    settings: AnalysisSettings,
    jobs: int | None,
    scheduler: Scheduler,
) -> Iterator[RecordAnalysis]:
    """The deep analysis of ``files``, split per turn: this process reads each record,
    looks it up in the result cache, analyses it statically and replays it once (cheap),
    making a job per turn to judge, as the workers need more work (lazily: see
    :data:`TURNS_PER_WORKER`); the jobs go, in order, to the local pool or the Dask
    cluster (:func:`gcgtools.batch.run.map_window`, one job a batch), so that ``jobs``
    workers judge even one record; each record is assembled, cached and yielded as soon
    as its last turn is judged. The progress bar counts the records' turns (a cached or
    unjudged turn counts when its record is done)."""
    counts = [_turns_in(path) for path in files]  # a first quick read: the bar's total
    prepared: deque[_Record] = deque()  # made by ``_fed``, not yet yielded
    items = _fed(files, counts, choice, settings, prepared)
    worker = partial(judge_job, choice=choice)
    # (capped as the pool caps ``jobs``, without its note: the pool says it)
    window = TURNS_PER_WORKER * min(jobs or default_jobs(), default_jobs())
    done = map_window(
        worker, items, jobs=jobs, scheduler=scheduler, size=1, per_worker=1,
        count=sum(counts) or 1, window=window,
    )  # fmt: skip
    made = track(
        done, sum(counts), label="judging", enabled=settings.progress, unit="turns",
        weight=lambda item: item[0],
    )  # fmt: skip
    try:
        for head in made:  # reads the files on, as far as the workers need
            record = prepared.popleft()  # the record of ``head``, the first not yielded
            yield _assemble(record, chain([head], made), choice, settings)
    finally:
        if isinstance(made, Generator):  # stopped early: the workers are stopped too
            made.close()


def _turns_in(path: str) -> int:
    """The turns of the record at ``path`` (0 if it cannot be read)."""
    try:
        return turn_count(load_game(path))
    except Exception:  # noqa: BLE001 - the real read reports it
        return 0


def _fed(
    files: list[str],
    counts: list[int],
    choice: LexiconChoice,
    settings: AnalysisSettings,
    prepared: deque[_Record],
) -> Iterator[_TurnJob | _Done]:
    """The work items of ``files``, record by record, each record prepared when its
    first item is wanted (and put in ``prepared``): its turn jobs, or one :class:`_Done`
    for a record with none (cached, unreadable, nothing to judge), so that its result
    comes out in its place at once. Each item weighs its share of the record's
    ``counts`` turns (the progress bar's steps)."""
    for path, count in zip(files, counts, strict=True):
        record = _prepared(path, choice, settings)
        prepared.append(record)
        jobs = record.jobs
        if not jobs:
            yield _Done(count)
            continue
        for i, job in enumerate(jobs):
            weight = 1 if i < count else 0
            if i == len(jobs) - 1:
                weight += max(0, count - len(jobs))
            yield replace(job, weight=weight)


def _assemble(
    record: _Record,
    made: Iterator[tuple[int, Judgement | str | None]],
    choice: LexiconChoice,
    settings: AnalysisSettings,
) -> RecordAnalysis:
    """``record`` judged: its turns' judgements taken from ``made`` (in order), with its
    Mistake Indices and W806 findings; kept in the result cache as a whole. A record with
    no turn to judge takes its one :class:`_Done` item (and one read from the cache, or
    unreadable, is as prepared)."""
    if not record.jobs:
        next(made)  # its one _Done
    if record.final:
        return record.result
    deep = settings.deep()
    assert deep is not None and record.game is not None
    judgements: dict[int, Judgement] = {}
    findings = list(record.findings)
    for job in record.jobs:
        _, judged = next(made)
        if isinstance(judged, Judgement):
            judgements[job.task.turn.event] = judged
        else:
            findings.append(not_judged(record.game, job.task.turn, str(judged)))
    findings.sort(key=lambda f: f.line)
    marks = record_judgements(record.result, deep[0], deep[1], judgements, findings)
    return _stored(record.game, choice, settings, with_judgements(record.result, marks))
