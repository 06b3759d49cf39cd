"""Running one function over many files: in parallel, in order, with a progress bar
(:func:`gcgtools.console.track`).

Workers return small picklable results; a file that fails is reported by the worker's
own result, never by an exception, so a batch always goes on past a bad file.
"""

from __future__ import annotations

import gc
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from functools import partial
from typing import TypeVar

from gcgtools.console import show_progress, track
from gcgtools.model.paths import expand_paths

__all__ = ["default_jobs", "map_batches", "map_files", "map_window", "show_progress"]

R = TypeVar("R")


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _jobs_for(jobs: int | None, files: int) -> int:
    """Worker processes for ``files`` files: ``jobs`` (all cores if None), fewer for a
    handful of files, where starting processes costs more than it saves."""
    jobs = default_jobs() if jobs is None else max(1, jobs)
    return min(jobs, max(1, files // 8)) if files < 64 else jobs


def _run_batch(func: Callable[[str], R], paths: list[str]) -> list[R]:
    """Worker: ``func`` over a batch of files."""
    return [func(path) for path in paths]


def map_batches(
    func: Callable[[list[str]], R],
    files: list[str],
    *,
    jobs: int | None = None,
    window: int = 2048,
    size: int | None = None,
) -> Iterator[tuple[int, R]]:
    """Split ``files`` (already expanded: no folder or glob is looked into) into batches
    of consecutive names and yield ``(len(batch), func(batch))`` for each, in order.

    With ``jobs`` > 1 the batches go to one pool of worker processes; at most ``window``
    files are handed out and not yet yielded, so the results waiting in memory stay
    bounded however many files there are, and the workers never wait for a new pool
    between windows. ``size`` is the number of files per batch (at most 64 by default,
    fewer for a short list, so that every worker gets some; in this process 64, or
    ``window`` if smaller)."""
    jobs = _jobs_for(jobs, len(files))
    if jobs <= 1:
        size = size or max(1, min(64, window))
        for start in range(0, len(files), size):
            batch = files[start : start + size]
            yield len(batch), func(batch)
        return
    size = size or max(1, min(64, min(window, len(files)) // (jobs * 8) or 1))
    window = max(window, size * jobs)
    # frozen: the objects inherited from this process are never scanned by a worker's
    # garbage collector (nor their pages copied by writing to their headers)
    executor = ProcessPoolExecutor(max_workers=jobs, initializer=gc.freeze)
    pending: deque[tuple[int, Future[R]]] = deque()
    try:
        start = handed = 0
        while start < len(files) or pending:
            while start < len(files) and handed + size <= window:
                batch = files[start : start + size]
                pending.append((len(batch), executor.submit(func, batch)))
                start += len(batch)
                handed += len(batch)
            count, future = pending.popleft()
            result = future.result()
            handed -= count
            yield count, result
    finally:
        executor.shutdown(cancel_futures=True)


def map_window(
    func: Callable[[str], R], files: list[str], *, jobs: int | None = None, window: int = 2048
) -> Iterator[R]:
    """Yield ``func(file)`` for every name of ``files``, in order, as :func:`map_batches`
    runs it (one file at a time when it all runs in this process)."""
    one = 1 if _jobs_for(jobs, len(files)) <= 1 else None
    for _, results in map_batches(
        partial(_run_batch, func), files, jobs=jobs, window=window, size=one
    ):
        yield from results


def map_files(
    func: Callable[[str], R],
    paths: Iterable[str],
    *,
    jobs: int | None = None,
    progress: bool = False,
    label: str = "games",
) -> Iterator[R]:
    """Yield ``func(path)`` for every file named by ``paths`` (files, folders, globs), in
    order, as :func:`map_window` runs it. ``jobs`` > 1 spreads the work over processes;
    ``func`` must then be a module-level function."""
    files = list(expand_paths(paths))
    yield from track(map_window(func, files, jobs=jobs), len(files), label=label, enabled=progress)
