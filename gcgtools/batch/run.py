"""Running one function over many files: in parallel, in order, with a progress bar
(:func:`gcgtools.console.track`).

Workers return small picklable results; a file that fails is reported by the worker's
own result, never by an exception, so a batch always goes on past a bad file.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from itertools import chain, islice
from typing import Any, Protocol, TypeVar

from gcgtools.batch.cores import capped_jobs, default_jobs
from gcgtools.batch.errors import BatchError
from gcgtools.console import show_progress, track
from gcgtools.sources.paths import expand_paths

__all__ = [
    "BatchError",
    "capped_jobs",
    "default_jobs",
    "map_batches",
    "map_files",
    "map_window",
    "show_progress",
]

R = TypeVar("R")


def _jobs_for(jobs: int | None, files: int, per_worker: int = 8) -> int:
    """Worker processes for ``files`` files: ``jobs`` (all cores if None, capped at
    them: :func:`capped_jobs`), fewer for a handful of files (one per ``per_worker``
    files), where starting processes costs more than it saves; ``per_worker`` 1 for work
    that takes seconds an item (a judged turn)."""
    jobs = capped_jobs(jobs)
    return min(jobs, max(1, files // per_worker)) if files < 64 else jobs


def _run_batch(func: Callable[[str], R], paths: list[str]) -> list[R]:
    """Worker: ``func`` over a batch of files."""
    return [func(path) for path in paths]


class Backend(Protocol):
    """Where batches run: the local pool (:class:`~gcgtools.batch.pool.PoolBackend`), or
    the Dask backend (:mod:`gcgtools.batch.dask_backend`). ``submit`` returns a future
    whose ``result()`` waits for the batch's result. ``task_seconds``, when set, is how long
    a batch should take (see :class:`_Sizes`)."""

    workers: int
    task_seconds: float | None

    def submit(self, func: Callable[[Any], R], arg: Any) -> Any: ...

    def cancel(self, futures: list[Any]) -> None: ...

    def close(self, *, now: bool = False) -> None: ...


# ``scheduler`` arguments: None (the local process pool), "local" (a Dask LocalCluster of
# ``jobs`` workers), a Dask scheduler's address, a ``distributed.Client``, or an open
# backend (kept open: see :func:`open_scheduler`)
Scheduler = Any


# The backends' classes, by module: an object is an open backend only if its module is
# loaded, so telling one apart imports neither the pool (multiprocessing) nor Dask.
_BACKEND_TYPES = {
    "gcgtools.batch.pool": "PoolBackend",
    "gcgtools.batch.dask_backend": "DaskBackend",
}


def _is_backend(scheduler: Scheduler) -> bool:
    """True if ``scheduler`` is an open backend (of a backend module already loaded)."""
    loaded = [
        getattr(sys.modules[m], name) for m, name in _BACKEND_TYPES.items() if m in sys.modules
    ]
    return isinstance(scheduler, tuple(loaded))


def _pool(jobs: int) -> Backend:
    """The local pool of ``jobs`` worker processes (its module, and multiprocessing, only
    imported when more than one process runs)."""
    from gcgtools.batch.pool import PoolBackend

    return PoolBackend(jobs)


def _dask(scheduler: Scheduler, jobs: int | None) -> Backend:
    from gcgtools.batch.dask_backend import open_dask

    return open_dask(scheduler, jobs)


@contextmanager
def open_scheduler(scheduler: Scheduler, jobs: int | None = None) -> Iterator[Scheduler]:
    """Open the Dask cluster or connection ``scheduler`` names once, for several
    :func:`map_batches` calls (a LocalCluster costs seconds to start); None and open
    backends are passed through."""
    if scheduler is None or _is_backend(scheduler):
        yield scheduler
        return
    backend = _dask(scheduler, jobs)
    try:
        yield backend
    finally:
        backend.close()


def map_batches(
    func: Callable[[list[Any]], R],
    files: list[str] | Iterator[Any],
    *,
    jobs: int | None = None,
    window: int = 2048,
    size: int | None = None,
    scheduler: Scheduler = None,
    per_worker: int = 8,
    count: int | None = None,
) -> Iterator[tuple[int, R]]:
    """Split ``files`` (already expanded: no folder or glob is looked into) into batches
    of consecutive names and yield ``(len(batch), func(batch))`` for each, in order.

    With ``jobs`` > 1 the batches go to one pool of worker processes (with a
    ``scheduler``, to a Dask cluster: see :data:`Scheduler`); at most ``window`` files
    are handed out and not yet yielded, so the results waiting in memory stay bounded
    however many files there are, and the workers never wait for a new pool between
    windows. ``size`` is the number of files per batch (at most 64 by default, fewer for
    a short list, so that every worker gets some; in this process 64, or ``window`` if
    smaller). On a Dask cluster the default batches are sized by the time they take
    instead, and the window holds at least ``TIMED_WINDOW`` files per worker (see
    :class:`_Sizes`); the results are the same. ``per_worker``: see :func:`_jobs_for`.

    ``files`` may also be an iterator, read only as far as the window needs (its items
    made as the work goes: a deep analysis' turns, record by record); ``count`` is then
    about how many it holds (for the number of workers and the batches' sizes), and
    ``size`` should be given."""
    items = iter(files)
    if count is None:
        count = len(files) if isinstance(files, list) else 1 << 30
    if scheduler is None:
        jobs = _jobs_for(jobs, count, per_worker)
        if jobs <= 1:
            size = size or max(1, min(64, window))
            while batch := list(islice(items, size)):
                yield len(batch), func(batch)
            return
    first = list(islice(items, 1))
    if not first:
        return
    with open_scheduler(scheduler, jobs) as opened:
        backend: Backend = opened if opened is not None else _pool(jobs or 1)
        finished = False
        try:
            yield from _windowed(backend, func, chain(first, items), count, window, size)
            finished = True
        finally:
            if opened is None:  # stopped early (an exception, an interrupt, a consumer
                # that wants no more): the workers are killed, not waited for
                backend.close(now=not finished)


def _timed(func: Callable[[list[str]], R], batch: list[str]) -> tuple[float, R]:
    """Worker: ``func(batch)`` and the seconds it took (to size the next batches)."""
    start = time.perf_counter()
    result = func(batch)
    return time.perf_counter() - start, result


FIRST_BATCH = 4  # files in the first batches of a timed backend, before anything is known
LARGEST_BATCH = 512  # files in a batch of a timed backend, at most
TIMED_WINDOW = 512  # files per worker a timed backend may hold in flight, at least


class _Sizes:
    """The size of the next batch: ``size`` files every time, or, for a backend whose
    every task costs milliseconds of its own (Dask: the scheduler, the worker, the round
    trip), as many files as take ``seconds`` on a worker, learnt from the batches done.

    A timed backend has two batches in flight per worker (a running one and a waiting
    one, so that none idles). Its first batches are small (nothing is known yet); then
    each batch is at most twice the largest one done, so that sizes grow only on what
    was measured; never larger than ``LARGEST_BATCH`` files, nor than half a worker's
    share of the window, nor (down to a 16th of their size) than the files left spread
    over every worker, so that the workers finish together. The seconds per file are a
    running average that halves the weight of older batches: slower files shrink the
    next batches at once."""

    def __init__(self, size: int, seconds: float | None, workers: int, window: int) -> None:
        self.size = size
        self.seconds = seconds
        self.workers = workers
        self.tasks = 2 * workers if seconds else None
        self.largest = max(1, min(LARGEST_BATCH, window // (2 * workers)))
        self.per_file: float | None = None  # seconds, from the batches done
        self.done_largest = 0  # files in the largest batch done

    def next(self, left: int) -> int:
        if not self.seconds:
            return min(self.size, left)
        if self.per_file is None:
            return min(FIRST_BATCH, left)
        per_file = max(self.per_file, 1e-6)
        wanted = min(int(self.seconds / per_file), self.largest, 2 * self.done_largest)
        spread = max(-(-left // self.workers), wanted // 16)
        return max(1, min(wanted, spread, left))

    def done(self, files: int, seconds: float) -> None:
        rate = seconds / max(1, files)
        self.per_file = rate if self.per_file is None else (self.per_file + rate) / 2
        self.done_largest = max(self.done_largest, files)


def _windowed(
    backend: Backend,
    func: Callable[[list[Any]], R],
    items: Iterator[Any],
    count: int,
    window: int,
    size: int | None,
) -> Iterator[tuple[int, R]]:
    """The batches of :func:`map_batches` on ``backend``: handed out in order, at most
    ``window`` files not yet yielded (a timed backend, see :class:`_Sizes`, may hold
    ``TIMED_WINDOW`` files per worker), results yielded in order. ``items``: the files
    (read as they are handed out), about ``count`` of them."""
    workers = backend.workers
    seconds = None if size else backend.task_seconds
    size = size or max(1, min(64, min(window, count) // (workers * 8) or 1))
    window = max(window, TIMED_WINDOW * workers if seconds else size * workers)
    sizes = _Sizes(size, seconds, workers, window)
    task = partial(_timed, func) if seconds else func
    pending: deque[tuple[int, Any]] = deque()
    try:
        start = handed = 0
        more = True  # ``items`` not read to the end yet
        while more or pending:
            while more and (sizes.tasks is None or len(pending) < sizes.tasks):
                wanted = sizes.next(max(1, count - start))
                if handed + wanted > window and pending:
                    break
                batch = list(islice(items, wanted))
                more = len(batch) == wanted
                if batch:
                    pending.append((len(batch), backend.submit(task, batch)))
                start += len(batch)
                handed += len(batch)
            if not pending:
                break
            done, future = pending.popleft()
            result = future.result()
            del future  # a Dask result is freed on its worker once nobody holds it
            if seconds:
                took, result = result
                sizes.done(done, took)
            handed -= done
            yield done, result
    finally:
        backend.cancel([future for _, future in pending])


def map_window(
    func: Callable[[Any], R],
    files: list[str] | Iterator[Any],
    *,
    jobs: int | None = None,
    window: int = 2048,
    scheduler: Scheduler = None,
    size: int | None = None,
    per_worker: int = 8,
    count: int | None = None,
) -> Iterator[R]:
    """Yield ``func(file)`` for every name of ``files``, in order, as :func:`map_batches`
    runs it (one file at a time when it all runs in this process; ``size`` files a batch
    when given, ``per_worker``, ``count`` and an iterator of ``files`` as there).
    ``files`` may be any picklable items (a judged turn's task), each named by itself
    (hashable) should it kill its worker."""
    known = count if count is not None else len(files) if isinstance(files, list) else 1 << 30
    if scheduler is None and _jobs_for(jobs, known, per_worker) <= 1:
        size = 1
    for _, results in map_batches(
        partial(_run_batch, func), files, jobs=jobs, window=window, size=size,
        scheduler=scheduler, per_worker=per_worker, count=count,
    ):  # fmt: skip
        yield from results


def map_files(
    func: Callable[[str], R],
    paths: Iterable[str],
    *,
    jobs: int | None = None,
    progress: bool = False,
    label: str = "games",
    scheduler: Scheduler = None,
    unit: str | None = None,
) -> Iterator[R]:
    """Yield ``func(path)`` for every file named by ``paths`` (files, folders, globs,
    URLs), in order, as :func:`map_window` runs it. ``jobs`` > 1 spreads the work over
    processes, a ``scheduler`` over a Dask cluster; ``func`` must then be a module-level
    function (or a partial of one). The progress bar reads ``label`` and counts ``unit``
    per second (default: the label)."""
    files = list(expand_paths(paths))
    results = map_window(func, files, jobs=jobs, scheduler=scheduler)
    yield from track(results, len(files), label=label, enabled=progress, unit=unit)
