"""Archives as Dask DataFrames: the tables of :mod:`gcgtools.tables.frames`, lazily,
one partition per batch of files, computed wherever Dask runs (a laptop's threads, or a
cluster after ``distributed.Client("tcp://...")``).

>>> from gcgtools.tables.dask_frames import moves_frame  # doctest: +SKIP
>>> moves = moves_frame(["s3://bucket/archive/"])  # doctest: +SKIP
>>> moves.groupby("player").score.mean().compute()  # doctest: +SKIP

The columns and dtypes are those of the pandas tables (``MOVE_DTYPES``, ``GAME_DTYPES``,
``PLAYER_DTYPES``), declared as ``meta`` so nothing is read to learn them. Only the
client lists the files (paths, folders, globs, fsspec URLs); each partition's task reads
and replays its own files. A file that cannot be read gives no move rows (its game row
says ``status`` "unreadable"); unlike the pandas frames there is no
``attrs["unreadable"]`` (``games[games.status == "unreadable"]`` lists them). The index
of each partition starts at 0: ``reset_index(drop=True)`` after ``compute()`` gives the
pandas frame's.

Needs Dask: ``pip install 'gcgtools[dask]'``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from gcgtools.rules.options import RuleOptions
from gcgtools.sources.paths import expand_paths
from gcgtools.tables.frames import checked_rules, game_tuple, lexicon_options, make_frame
from gcgtools.tables.rows import (
    GAME_DTYPES,
    MOVE_DTYPES,
    PLAYER_DTYPES,
    Keep,
    analyse_path,
)

if TYPE_CHECKING:
    import dask.dataframe as dd
    import pandas as pd

FILES_PER_PARTITION = 256

__all__ = ["FILES_PER_PARTITION", "games_frame", "moves_frame", "player_games_frame"]


def _part(
    files: list[str], *, table: str, keep: Keep, options: RuleOptions, analysis: dict[str, Any]
) -> pd.DataFrame:
    """Task: one partition of ``table`` from a batch of files."""
    results = [analyse_path(path, keep, options, **analysis) for path in files]
    if table == "games":
        return make_frame([game_tuple(r) for r in results], GAME_DTYPES)
    if table == "players":
        return make_frame([row for r in results for row in r.players], PLAYER_DTYPES)
    return make_frame([row for r in results if not r.unreadable for row in r.moves], MOVE_DTYPES)


def _dask_frame(
    sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    table: str,
    dtypes: dict[str, str],
    keep: Keep,
    files_per_partition: int,
    rules: RuleOptions,
    analysis: dict[str, Any],
) -> dd.DataFrame:
    import dask
    import dask.dataframe as dd

    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    files = list(expand_paths(os.fspath(s) for s in sources))
    meta = make_frame([], dtypes)
    size = max(1, files_per_partition)
    batches = [files[i : i + size] for i in range(0, len(files), size)]
    task = partial(_part, table=table, keep=keep, options=rules, analysis=lexicon_options(analysis))
    # the pandas dtypes as they are: Dask would turn "str" columns into
    # string[pyarrow] with <NA> for missing values, unlike the pandas tables
    with dask.config.set({"dataframe.convert-string": False}):
        if not files:
            return dd.from_pandas(meta, npartitions=1)
        return dd.from_map(task, batches, meta=meta, label=f"gcgtools-{table}")


def moves_frame(
    sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    files_per_partition: int = FILES_PER_PARTITION,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> dd.DataFrame:
    """One row per event of every readable game (``MOVE_COLUMNS``), a partition per
    ``files_per_partition`` files, by ``rules`` (a
    :class:`~gcgtools.rules.options.RuleOptions`; default: each record's own), analysed
    with ``analysis`` as :func:`gcgtools.tables.frames.iter_results` is."""
    checked, analysis = checked_rules(rules, analysis)
    return _dask_frame(sources, "moves", MOVE_DTYPES, "all", files_per_partition, checked, analysis)


def games_frame(
    sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    files_per_partition: int = FILES_PER_PARTITION,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> dd.DataFrame:
    """One row per file (``GAME_COLUMNS``); an unreadable file's row has ``status``
    "unreadable"."""
    checked, analysis = checked_rules(rules, analysis)
    return _dask_frame(
        sources, "games", GAME_DTYPES, "none", files_per_partition, checked, analysis
    )


def player_games_frame(
    sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    files_per_partition: int = FILES_PER_PARTITION,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> dd.DataFrame:
    """One row per player per readable game (``PLAYER_COLUMNS``)."""
    checked, analysis = checked_rules(rules, analysis)
    return _dask_frame(
        sources, "players", PLAYER_DTYPES, "none", files_per_partition, checked, analysis
    )
