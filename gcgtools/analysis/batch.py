"""Running one function over many files: in parallel, in order, with a progress bar.

Workers return small picklable results; a file that fails is reported by the worker's
own result, never by an exception, so a batch always goes on past a bad file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

from gcgtools.model.paths import expand_paths

R = TypeVar("R")


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def show_progress(quiet: bool = False) -> bool:
    """A progress bar only on a terminal and unless asked to be quiet."""
    return not quiet and sys.stderr.isatty()


def map_files(
    func: Callable[[str], R],
    paths: Iterable[str],
    *,
    jobs: int | None = None,
    progress: bool = False,
    label: str = "games",
) -> Iterator[R]:
    """Yield ``func(path)`` for every file named by ``paths`` (files, folders, globs), in
    order. ``jobs`` > 1 spreads the work over processes; ``func`` must then be a
    module-level function."""
    files = list(expand_paths(paths))
    jobs = default_jobs() if jobs is None else max(1, jobs)
    jobs = min(jobs, max(1, len(files) // 8)) if len(files) < 64 else jobs
    results: Iterable[R]
    executor: ProcessPoolExecutor | None = None
    if jobs > 1:
        executor = ProcessPoolExecutor(max_workers=jobs)
        chunk = max(1, min(64, len(files) // (jobs * 8) or 1))
        results = executor.map(func, files, chunksize=chunk)
    else:
        results = map(func, files)
    try:
        if progress and files:
            from rich.progress import Progress

            with Progress(transient=True) as bar:
                task = bar.add_task(label, total=len(files))
                for result in results:
                    bar.advance(task)
                    yield result
        else:
            yield from results
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
