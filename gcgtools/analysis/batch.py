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
from contextlib import contextmanager
from functools import partial
from typing import Any, Protocol, TypeVar

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


class PoolBackend:
    """The local backend: one pool of worker processes on this machine."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        # frozen: the objects inherited from this process are never scanned by a
        # worker's garbage collector (nor their pages copied by writing to their headers)
        self.executor = ProcessPoolExecutor(max_workers=jobs, initializer=gc.freeze)

    def submit(self, func: Callable[[Any], R], arg: Any) -> Future[R]:
        return self.executor.submit(func, arg)

    def cancel(self, futures: list[Any]) -> None:
        pass  # shutdown(cancel_futures=True) does it

    def close(self) -> None:
        self.executor.shutdown(cancel_futures=True)


class Backend(Protocol):
    """Where batches run: :class:`PoolBackend`, or the Dask backend
    (:mod:`gcgtools.analysis.dask_backend`). ``submit`` returns a future whose
    ``result()`` waits for the batch's result."""

    workers: int

    def submit(self, func: Callable[[Any], R], arg: Any) -> Any: ...

    def cancel(self, futures: list[Any]) -> None: ...

    def close(self) -> None: ...


# ``scheduler`` arguments: None (the local process pool), "local" (a Dask LocalCluster of
# ``jobs`` workers), a Dask scheduler's address, a ``distributed.Client``, or an open
# backend (kept open: see :func:`open_scheduler`)
Scheduler = Any


def _dask_backend_type() -> type:
    """The Dask backend's class if its module is loaded (else nothing can be one)."""
    import sys

    module = sys.modules.get("gcgtools.analysis.dask_backend")
    return module.DaskBackend if module is not None else PoolBackend  # type: ignore[no-any-return]


def _dask(scheduler: Scheduler, jobs: int | None) -> Backend:
    from gcgtools.analysis.dask_backend import open_dask

    return open_dask(scheduler, jobs)


@contextmanager
def open_scheduler(scheduler: Scheduler, jobs: int | None = None) -> Iterator[Scheduler]:
    """Open the Dask cluster or connection ``scheduler`` names once, for several
    :func:`map_batches` calls (a LocalCluster costs seconds to start); None and open
    backends are passed through."""
    if scheduler is None or isinstance(scheduler, (PoolBackend, _dask_backend_type())):
        yield scheduler
        return
    backend = _dask(scheduler, jobs)
    try:
        yield backend
    finally:
        backend.close()


def map_batches(
    func: Callable[[list[str]], R],
    files: list[str],
    *,
    jobs: int | None = None,
    window: int = 2048,
    size: int | None = None,
    scheduler: Scheduler = None,
) -> Iterator[tuple[int, R]]:
    """Split ``files`` (already expanded: no folder or glob is looked into) into batches
    of consecutive names and yield ``(len(batch), func(batch))`` for each, in order.

    With ``jobs`` > 1 the batches go to one pool of worker processes (with a
    ``scheduler``, to a Dask cluster: see :data:`Scheduler`); at most ``window`` files
    are handed out and not yet yielded, so the results waiting in memory stay bounded
    however many files there are, and the workers never wait for a new pool between
    windows. ``size`` is the number of files per batch (at most 64 by default, fewer for
    a short list, so that every worker gets some; in this process 64, or ``window`` if
    smaller)."""
    if scheduler is None:
        jobs = _jobs_for(jobs, len(files))
        if jobs <= 1:
            size = size or max(1, min(64, window))
            for start in range(0, len(files), size):
                batch = files[start : start + size]
                yield len(batch), func(batch)
            return
    if not files:
        return
    with open_scheduler(scheduler, jobs) as opened:
        backend: Backend = opened if opened is not None else PoolBackend(jobs or 1)
        try:
            yield from _windowed(backend, func, files, window, size)
        finally:
            if opened is None:
                backend.close()


def _windowed(
    backend: Backend,
    func: Callable[[list[str]], R],
    files: list[str],
    window: int,
    size: int | None,
) -> Iterator[tuple[int, R]]:
    """The batches of :func:`map_batches` on ``backend``: handed out in order, at most
    ``window`` files not yet yielded, results yielded in order."""
    workers = backend.workers
    size = size or max(1, min(64, min(window, len(files)) // (workers * 8) or 1))
    window = max(window, size * workers)
    pending: deque[tuple[int, Any]] = deque()
    try:
        start = handed = 0
        while start < len(files) or pending:
            while start < len(files) and handed + size <= window:
                batch = files[start : start + size]
                pending.append((len(batch), backend.submit(func, batch)))
                start += len(batch)
                handed += len(batch)
            count, future = pending.popleft()
            result = future.result()
            del future  # a Dask result is freed on its worker once nobody holds it
            handed -= count
            yield count, result
    finally:
        backend.cancel([future for _, future in pending])


def map_window(
    func: Callable[[str], R],
    files: list[str],
    *,
    jobs: int | None = None,
    window: int = 2048,
    scheduler: Scheduler = None,
) -> Iterator[R]:
    """Yield ``func(file)`` for every name of ``files``, in order, as :func:`map_batches`
    runs it (one file at a time when it all runs in this process)."""
    one = 1 if scheduler is None and _jobs_for(jobs, len(files)) <= 1 else None
    for _, results in map_batches(
        partial(_run_batch, func), files, jobs=jobs, window=window, size=one, scheduler=scheduler
    ):
        yield from results


def map_files(
    func: Callable[[str], R],
    paths: Iterable[str],
    *,
    jobs: int | None = None,
    progress: bool = False,
    label: str = "games",
    scheduler: Scheduler = None,
) -> Iterator[R]:
    """Yield ``func(path)`` for every file named by ``paths`` (files, folders, globs,
    URLs), in order, as :func:`map_window` runs it. ``jobs`` > 1 spreads the work over
    processes, a ``scheduler`` over a Dask cluster; ``func`` must then be a module-level
    function (or a partial of one)."""
    files = list(expand_paths(paths))
    results = map_window(func, files, jobs=jobs, scheduler=scheduler)
    yield from track(results, len(files), label=label, enabled=progress)
