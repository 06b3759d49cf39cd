"""Archives as tables: one row per event, per game, or per player in a game.

Every game is replayed once and becomes plain rows (:mod:`gcgtools.tables.rows` holds
the columns and :func:`analyse_game`), so a worker process hands back a few kilobytes per
game. The frame builders and :func:`write_moves` consume those rows in chunks of files,
so an archive of 100,000 games never has to be in memory at once.

>>> moves = moves_frame(["examples/"])  # doctest: +SKIP
>>> moves.groupby("player").score.mean()  # doctest: +SKIP

Sources are files, folders (searched recursively for ``*.gcg``), glob patterns, or
:class:`~gcgtools.model.game.Game` objects already in memory (handy in a notebook).
A file that cannot be read or parsed gives no move and no player rows (its game row says
``status`` "unreadable"); its name is listed in the frames' ``attrs["unreadable"]`` and the
batch goes on.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from gcgtools.batch.run import Scheduler, map_batches, open_scheduler
from gcgtools.console import track
from gcgtools.lexicon.choice import LexiconChoice
from gcgtools.model.game import Game
from gcgtools.rules.options import NO_OPTIONS, RuleOptions, rule_options
from gcgtools.sources.paths import expand_paths
from gcgtools.tables.rows import (  # noqa: F401  (re-exported: the tables' columns)
    CHUNK_FILES,
    CHUNK_ROWS,
    GAME_COLUMNS,
    GAME_DTYPES,
    IGNORED_PASS,
    MOVE_COLUMNS,
    MOVE_DTYPES,
    PLAYER_COLUMNS,
    PLAYER_DTYPES,
    SETTINGS_KEYWORDS,
    STR_DTYPE,
    GameResult,
    Keep,
    Source,
    analyse_game,
    analyse_path,
    decide_winner,
    make_frame,
    name_of,
    table_settings,
    warn_loose,
)
from gcgtools.tables.sinks import DatasetSink, Sink, open_sink, record_batch

if TYPE_CHECKING:
    import pandas as pd

    from gcgtools.lexicon import Leaves, Lexicon

T = TypeVar("T")

__all__ = [
    "GAME_COLUMNS",
    "MOVE_COLUMNS",
    "PLAYER_COLUMNS",
    "Frames",
    "ExportSummary",
    "GameResult",
    "analyse_game",
    "decide_winner",
    "games_frame",
    "iter_game_rows",
    "iter_move_rows",
    "iter_player_rows",
    "iter_results",
    "load_frames",
    "moves_frame",
    "player_games_frame",
    "write_moves",
]


@dataclass(slots=True)
class Frames:
    """The three tables of an archive and the files that could not be read."""

    games: pd.DataFrame
    players: pd.DataFrame
    moves: pd.DataFrame | None
    unreadable: list[str]
    reasons: dict[str, str] = field(default_factory=dict)

    def summary_attrs(self) -> dict[str, Any]:
        """What a summary of these frames keeps in its ``attrs``: ``unreadable``,
        ``reasons``, ``games`` (readable games) and ``analysis`` (the lexicons and leaves
        used, or why there was none, one line each)."""
        return {
            "unreadable": self.unreadable,
            "reasons": self.reasons,
            "games": len(self.games) - len(self.unreadable),
            "analysis": list(self.games.attrs["analysis"]),
        }


# ------------------------------------------------------------- many games
def _lexicon_kwargs(lexicon: Any, lexica: Any, leaves: Any) -> dict[str, Any]:
    given = {"lexicon": lexicon, "lexica": lexica, "leaves": leaves}
    return {k: v for k, v in given.items() if v is not None}


#: the analysis keywords of the frame functions
ANALYSIS_KEYWORDS = ("lexicon", "lexica", "leaves", "settings", *sorted(SETTINGS_KEYWORDS))


def lexicon_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with the analysis keywords of the frame functions turned into two
    values: the ``lexicon``, ``lexica`` and ``leaves`` into one
    :class:`~gcgtools.lexicon.choice.LexiconChoice` (under ``lexicon``), and ``settings``
    (an :class:`~gcgtools.batch.settings.AnalysisSettings`) or the loose ``cache``,
    ``depth`` and ``judge`` into one settings value (under ``settings``,
    :func:`~gcgtools.tables.rows.table_settings`); both dropped when neither a lexicon nor
    a lexicon folder is given: the analysis columns are then left empty.
    (``$GCGTOOLS_LEXICA`` alone does not start an analysis of every game: it only names
    the folder.) ``cache=False`` analyses every game again instead of using the result
    cache."""
    if not any(key in options for key in ANALYSIS_KEYWORDS):
        return options
    out = dict(options)
    choice = LexiconChoice.of(out.pop("lexicon", None), out.pop("lexica", None),
                              out.pop("leaves", None))  # fmt: skip
    loose = {key: out.pop(key) for key in SETTINGS_KEYWORDS if key in out}
    settings = table_settings(out.pop("settings", None), **loose)
    if choice.given:
        out["lexicon"] = choice
        out["settings"] = settings
    return out


def _runs(sources: Source | Iterable[Source]) -> Iterator[list[str] | Game]:
    """Consecutive path arguments grouped into lists; Game objects one by one."""
    if isinstance(sources, (str, os.PathLike, Game)):
        sources = [sources]
    pending: list[str] = []
    for item in sources:
        if isinstance(item, Game):
            if pending:
                yield pending
                pending = []
            yield item
        else:
            pending.append(os.fspath(item))
    if pending:
        yield pending


#: the loose rule keywords the table functions took before ``rules=`` (deprecated)
RULE_KEYWORDS = frozenset({"options", "tiles", "board", "end_rule", "challenge_bonus"})


def checked_rules(
    rules: RuleOptions | None, keywords: dict[str, Any]
) -> tuple[RuleOptions, dict[str, Any]]:
    """The public edge of the table functions: their ``rules`` (default: the record's
    own), and their other keywords (the analysis ones: see :func:`lexicon_options`).

    The loose rule keywords of old (``options``, ``tiles``, ``board``, ``end_rule``,
    ``challenge_bonus``) still work, with a ``DeprecationWarning``: they become one
    checked :class:`~gcgtools.rules.options.RuleOptions`. Raises ``RuleOptionError`` for a
    bad rule option, ``TypeError`` for ``rules`` and loose keywords both."""
    loose = {k: v for k, v in keywords.items() if k in RULE_KEYWORDS}
    if not loose:
        return (rules if rules is not None else NO_OPTIONS), keywords
    warn_loose(
        loose,
        "the rules as one value, rules=RuleOptions.parse(...) (gcgtools.rules.options.RuleOptions)",
        stacklevel=3,
    )
    if rules is not None:
        raise TypeError("give either rules= or rule keywords, not both")
    rest = {k: v for k, v in keywords.items() if k not in RULE_KEYWORDS}
    return rule_options(**loose), rest


def _analyse_batch(
    paths: list[str],
    keep: Keep,
    combine: Callable[[list[GameResult]], T],
    options: RuleOptions,
    analysis: dict[str, Any],
) -> T:
    """Worker: analyse a batch of files and ``combine`` their results."""
    return combine([analyse_path(path, keep, options, **analysis) for path in paths])


def _iter_parts(
    sources: Source | Iterable[Source],
    combine: Callable[[list[GameResult]], T],
    *,
    jobs: int | None,
    progress: bool,
    keep: Keep,
    rules: RuleOptions,
    analysis: dict[str, Any],
    scheduler: Scheduler = None,
) -> Iterator[T]:
    """``combine(results)`` for each batch of games, in order: the files are analysed in
    one pool of worker processes (or on the Dask cluster ``scheduler`` names), which also
    run ``combine`` (a module-level function),
    at most ``CHUNK_FILES`` of them handed out and not yet yielded; Game objects are
    analysed in this process, one per batch (``analysis``: see :func:`lexicon_options`)."""
    analysis = lexicon_options(analysis)
    worker = partial(_analyse_batch, keep=keep, combine=combine, options=rules, analysis=analysis)
    runs = list(_runs(sources))
    files: dict[int, list[str]] = {
        i: list(expand_paths(run)) for i, run in enumerate(runs) if isinstance(run, list)
    }
    total = sum(len(f) for f in files.values()) + sum(isinstance(r, Game) for r in runs)

    def parts() -> Iterator[tuple[int, T]]:
        # a Dask cluster is started (or connected to) once for every run of files
        with open_scheduler(scheduler if any(files.values()) else None, jobs) as opened:
            for i, run in enumerate(runs):
                if isinstance(run, Game):
                    name = name_of(run, f"<game {i + 1}>")
                    game = analyse_game(run, name=name, keep=keep, options=rules, **analysis)
                    yield 1, combine([game])
                    continue
                # one pool for the whole run, at most CHUNK_FILES files in flight
                yield from map_batches(
                    worker, files[i], jobs=jobs, window=CHUNK_FILES, scheduler=opened
                )

    for _, part in track(parts(), total, enabled=progress, weight=itemgetter(0)):
        yield part


def iter_results(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Scheduler = None,
    keep: Keep = "all",
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> Iterator[GameResult]:
    """A :class:`GameResult` per game, in order; files are analysed in one pool of worker
    processes, at most ``CHUNK_FILES`` of them handed out and not yet yielded, Game objects
    in this process. ``rules``: the :class:`~gcgtools.rules.options.RuleOptions` (default:
    each record's own); ``analysis``: ``lexicon``, ``lexica``, ``leaves``, and ``settings`` or
    ``cache``, ``depth``, ``judge`` (see :func:`lexicon_options`)."""
    checked, analysis = checked_rules(rules, analysis)
    parts = _iter_parts(
        sources,
        list,
        jobs=jobs,
        progress=progress,
        keep=keep,
        rules=checked,
        analysis=analysis,
        scheduler=scheduler,
    )
    for part in parts:
        yield from part


def iter_move_rows(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> Iterator[dict[str, Any]]:
    """One plain dict per event of every readable game (keys: ``MOVE_COLUMNS``)."""
    checked, analysis = checked_rules(rules, analysis)
    for result in iter_results(sources, jobs=jobs, rules=checked, **analysis):
        for row in result.moves:
            yield dict(zip(MOVE_COLUMNS, row, strict=True))


def iter_game_rows(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> Iterator[dict[str, Any]]:
    """One plain dict per game, unreadable files included (keys: ``GAME_COLUMNS``)."""
    checked, analysis = checked_rules(rules, analysis)
    for result in iter_results(sources, jobs=jobs, keep="none", rules=checked, **analysis):
        if result.game is not None:
            yield dict(zip(GAME_COLUMNS, result.game, strict=True))
        else:
            row = dict.fromkeys(GAME_COLUMNS)
            row.update(file=result.file, status="unreadable")
            yield row


def iter_player_rows(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> Iterator[dict[str, Any]]:
    """One plain dict per player of every readable game (keys: ``PLAYER_COLUMNS``)."""
    checked, analysis = checked_rules(rules, analysis)
    for result in iter_results(sources, jobs=jobs, keep="none", rules=checked, **analysis):
        for row in result.players:
            yield dict(zip(PLAYER_COLUMNS, row, strict=True))


class _Collector:
    """Rows gathered into DataFrame pieces of ``CHUNK_ROWS`` rows, joined at the end."""

    def __init__(self, dtypes: dict[str, str]) -> None:
        self.dtypes = dtypes
        self.rows: list[tuple[Any, ...]] = []
        self.parts: list[pd.DataFrame] = []

    def add(self, rows: list[tuple[Any, ...]]) -> None:
        self.rows.extend(rows)
        if len(self.rows) >= CHUNK_ROWS:
            self.parts.append(make_frame(self.rows, self.dtypes))
            self.rows = []

    def frame(self) -> pd.DataFrame:
        if self.rows or not self.parts:
            self.parts.append(make_frame(self.rows, self.dtypes))
            self.rows = []
        if len(self.parts) == 1:
            return self.parts[0]
        import pandas as pd

        return pd.concat(self.parts, ignore_index=True).astype(self.dtypes)


def game_tuple(result: GameResult) -> tuple[Any, ...]:
    if result.game is not None:
        return result.game
    row: dict[str, Any] = dict.fromkeys(GAME_COLUMNS)
    row.update(file=result.file, game_id=Path(result.file).stem, status="unreadable")
    return tuple(row.values())


def load_frames(
    sources: Source | Iterable[Source],
    *,
    moves: bool = True,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Scheduler = None,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> Frames:
    """The games, player-games and (unless ``moves`` is False) moves tables in one pass,
    by ``rules`` (default: each record's own), analysed with ``analysis`` (as for
    :func:`iter_results`).

    Rows are turned into DataFrame pieces ``CHUNK_ROWS`` at a time, so that only the
    compact columns of the tables grow with the archive, not millions of row tuples."""
    checked, analysis = checked_rules(rules, analysis)
    games, players = _Collector(GAME_DTYPES), _Collector(PLAYER_DTYPES)
    move_rows = _Collector(MOVE_DTYPES)
    unreadable: list[str] = []
    reasons: dict[str, str] = {}
    keep: Keep = "all" if moves else "none"
    results = iter_results(
        sources, jobs=jobs, progress=progress, keep=keep, scheduler=scheduler, rules=checked,
        **analysis,
    )  # fmt: skip
    for result in results:
        games.add([game_tuple(result)])
        if result.unreadable:
            unreadable.append(result.file)
            reasons[result.file] = result.reason or "unreadable"
            continue
        players.add(result.players)
        move_rows.add(result.moves)
    frames = Frames(
        games.frame(),
        players.frame(),
        move_rows.frame() if moves else None,
        unreadable,
        reasons,
    )
    # the lexicons and leaves the analysis used (or why there was none), one line each
    analysis = sorted(set(frames.games["analysis_lexicon"].dropna().tolist()))
    for frame in (frames.games, frames.players, frames.moves):
        if frame is not None:
            frame.attrs["unreadable"] = list(unreadable)
            frame.attrs["reasons"] = dict(reasons)
            frame.attrs["analysis"] = list(analysis)
    return frames


def moves_frame(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Scheduler = None,
    lexicon: str | os.PathLike[str] | Lexicon | None = None,
    lexica: str | os.PathLike[str] | None = None,
    leaves: str | os.PathLike[str] | Leaves | None = None,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> pd.DataFrame:
    """One row per event of every readable game (columns: ``MOVE_COLUMNS``).

    ``attrs["unreadable"]`` lists the files that could not be read or parsed. With
    ``lexicon`` (a path or a loaded lexicon) or ``lexica`` (a folder where each record's
    ``#lexicon`` is looked up) every game is also analysed, which fills in the analysis
    columns (``equity``, ``best_move``, ``best_equity``, ``equity_lost``, ``phony_words``,
    ``bingo_available``); ``leaves`` are the leave values (default: found in the folder,
    else the built-in heuristic). Without them those columns are NA. ``attrs["analysis"]``
    says which lexicon and leaves were used (or why there was none), one line each.
    """
    checked, analysis = checked_rules(rules, analysis)
    frames = load_frames(
        sources, moves=True, jobs=jobs, progress=progress, scheduler=scheduler, rules=checked,
        **_lexicon_kwargs(lexicon, lexica, leaves), **analysis,
    )  # fmt: skip
    assert frames.moves is not None
    return frames.moves


def games_frame(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Scheduler = None,
    lexicon: str | os.PathLike[str] | Lexicon | None = None,
    lexica: str | os.PathLike[str] | None = None,
    leaves: str | os.PathLike[str] | Leaves | None = None,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> pd.DataFrame:
    """One row per game (columns: ``GAME_COLUMNS``); an unreadable file is a row with
    ``status`` "unreadable" and is listed in ``attrs["unreadable"]``. ``lexicon``,
    ``lexica`` and ``leaves`` as for :func:`moves_frame` fill in the per-player analysis
    columns (phonies played and stood, missed bingos, average equity lost per turn) and
    ``analysis_lexicon`` (which lexicon and leaves were used)."""
    checked, analysis = checked_rules(rules, analysis)
    return load_frames(
        sources, moves=False, jobs=jobs, progress=progress, scheduler=scheduler, rules=checked,
        **_lexicon_kwargs(lexicon, lexica, leaves), **analysis,
    ).games  # fmt: skip


def player_games_frame(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Scheduler = None,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> pd.DataFrame:
    """One row per player per readable game (columns: ``PLAYER_COLUMNS``): the input of
    :func:`gcgtools.tables.stats.player_stats`."""
    checked, analysis = checked_rules(rules, analysis)
    return load_frames(
        sources, moves=False, jobs=jobs, progress=progress, scheduler=scheduler, rules=checked,
        **analysis,
    ).players  # fmt: skip


# ------------------------------------------------------------------ export
@dataclass(slots=True)
class _ExportPart:
    """A batch of games ready to be written: made by the worker that analysed them."""

    games: list[tuple[Any, ...]]  # one game row per file or Game
    moves: Any  # a pyarrow RecordBatch for Parquet, else the row tuples
    move_count: int
    readable: int
    unreadable: list[tuple[str, str]]  # (file, reason)


def _export_part(results: list[GameResult], *, arrow: bool) -> _ExportPart:
    """Worker: the rows of a batch of games, the moves already in Arrow form with
    ``arrow`` (so that the writing process receives a few buffers, not thousands of
    Python objects)."""
    rows = [row for r in results if not r.unreadable for row in r.moves]
    return _ExportPart(
        [game_tuple(r) for r in results],
        record_batch(rows, MOVE_DTYPES) if arrow else rows,
        len(rows),
        sum(not r.unreadable for r in results),
        [(r.file, r.reason or "unreadable") for r in results if r.unreadable],
    )


class _Chunks:
    """Rows arriving in parts of any size (lists of row tuples, or Arrow record batches
    with ``arrow``), handed back in chunks of exactly ``size`` rows (Arrow: a list of
    one record batch) and, at the end, the ``rest``."""

    def __init__(self, size: int, *, arrow: bool) -> None:
        self.size = size
        self.arrow = arrow
        self.parts: list[Any] = []
        self.count = 0

    def add(self, part: Any, count: int) -> Iterator[Any]:
        self.parts.append(part)
        self.count += count
        while self.count >= self.size:
            yield self._take(self.size)

    def rest(self) -> Any:
        return self._take(self.count)

    def _take(self, count: int) -> Any:
        if self.arrow:
            if not self.parts:
                return []
            import pyarrow as pa

            table = pa.Table.from_batches(self.parts, schema=self.parts[0].schema)
            chunk, left = table.slice(0, count), table.slice(count)
            self.parts = left.to_batches() if left.num_rows else []
            # one batch: the file's pages do not depend on where the parts began
            out: Any = chunk.combine_chunks().to_batches()
        else:
            rows = [row for part in self.parts for row in part]
            out, left_rows = rows[:count], rows[count:]
            self.parts = [left_rows] if left_rows else []
        self.count -= count
        return out


@dataclass(slots=True)
class ExportSummary:
    """What :func:`write_moves` wrote."""

    games: int
    moves: int
    unreadable: list[str]
    reasons: dict[str, str] = field(default_factory=dict)
    analysis: list[str] = field(default_factory=list)  # lexicons and leaves used, or why none


def write_moves(
    sources: Source | Iterable[Source],
    out: str | os.PathLike[str],
    *,
    games_out: str | os.PathLike[str] | None = None,
    partitioned: bool | None = None,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Scheduler = None,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> ExportSummary:
    """Stream the moves table (and the games table, with ``games_out``) to ``.parquet`` or
    ``.csv`` files, a chunk at a time: memory stays bounded however large the archive.

    Parquet files are written with ``pyarrow.parquet.ParquetWriter``, one row group per
    chunk of ``CHUNK_ROWS`` moves (a tenth as many games; the last chunk fewer), the same
    however the files were batched (on the pool or a Dask cluster); CSV chunks are
    appended. Each file is put in place when complete, by the rules of
    :mod:`gcgtools.sources.atomic`. Raises ValueError for another suffix or the same file named
    twice, OSError naming the file that cannot be written (a missing folder is not
    created). With ``partitioned`` (None: when the target ends with a slash or is a
    folder) each target is a folder of Parquet files, one per chunk (:class:`DatasetSink`).
    ``rules`` and ``analysis`` as for :func:`iter_results`.
    """
    checked, analysis = checked_rules(rules, analysis)
    moves_sink, games_sink = _open_sinks(out, games_out, partitioned)
    sinks = [s for s in (moves_sink, games_sink) if s is not None]
    if moves_sink.parquet:
        # before the workers are forked: they turn rows into Arrow batches, and share
        # this process's copy of pyarrow instead of each importing its own
        import pyarrow  # noqa: F401
    try:
        parts = _iter_parts(
            sources,
            partial(_export_part, arrow=moves_sink.parquet),
            jobs=jobs,
            progress=progress,
            keep="all",
            rules=checked,
            analysis=analysis,
            scheduler=scheduler,
        )
        summary = _write_parts(parts, moves_sink, games_sink)
        for sink in sinks:
            sink.close()
    except BaseException:
        for sink in sinks:
            sink.abort()
        raise
    return summary


def _open_sinks(
    out: str | os.PathLike[str],
    games_out: str | os.PathLike[str] | None,
    partitioned: bool | None,
) -> tuple[Sink | DatasetSink, Sink | DatasetSink | None]:
    """The moves sink and the games sink (None without ``games_out``) of
    :func:`write_moves`; ValueError when both name the same file."""
    if games_out is not None and (
        os.path.realpath(os.fspath(out)) == os.path.realpath(os.fspath(games_out))
    ):
        raise ValueError(f"{games_out}: the moves and the games need two different files")
    moves_sink = open_sink(out, MOVE_DTYPES, partitioned)
    try:
        games_sink = (
            open_sink(games_out, GAME_DTYPES, partitioned) if games_out is not None else None
        )
    except BaseException:
        moves_sink.abort()
        raise
    return moves_sink, games_sink


def _write_parts(
    parts: Iterable[_ExportPart],
    moves_sink: Sink | DatasetSink,
    games_sink: Sink | DatasetSink | None,
) -> ExportSummary:
    """Write the exported parts to the sinks: every chunk but the last holds exactly
    CHUNK_ROWS moves (a tenth as many games), whatever the batches the workers were
    given, so that the files are the same every time."""
    moves_chunks = _Chunks(CHUNK_ROWS, arrow=moves_sink.parquet)
    games_chunks = _Chunks(CHUNK_ROWS // 10, arrow=False)
    unreadable: list[str] = []
    reasons: dict[str, str] = {}
    games = moves = 0
    used: set[str] = set()

    def write_moves_chunk(chunk: Any) -> None:
        if moves_sink.parquet:
            moves_sink.write_batches(chunk)
        else:
            moves_sink.write(chunk)

    def write_games_chunk(chunk: Any) -> None:
        if games_sink is not None:
            games_sink.write(chunk)

    used_at = GAME_COLUMNS.index("analysis_lexicon")
    for part in parts:
        used.update(row[used_at] for row in part.games if row[used_at] is not None)
        for file, reason in part.unreadable:
            unreadable.append(file)
            reasons[file] = reason
        games += part.readable
        moves += part.move_count
        for chunk in moves_chunks.add(part.moves, part.move_count):
            write_moves_chunk(chunk)
        for chunk in games_chunks.add(part.games, len(part.games)):
            write_games_chunk(chunk)
    write_moves_chunk(moves_chunks.rest())
    write_games_chunk(games_chunks.rest())
    return ExportSummary(games, moves, unreadable, reasons, sorted(used))
