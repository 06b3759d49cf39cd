"""How many worker processes a batch may run: the cores this process may use, and the
number asked for capped at them (read by the pool in :mod:`gcgtools.batch.run` and the
local Dask cluster in :mod:`gcgtools.batch.dask_backend`, which import it from here and
not from each other)."""

from __future__ import annotations

import functools
import os

from gcgtools.console import echo
from gcgtools.wording import plural

__all__ = ["capped_jobs", "default_jobs", "forget_notes"]


def default_jobs() -> int:
    """All cores this process may use."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if count is not None:
        return int(count() or 1)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def capped_jobs(jobs: int | None) -> int:
    """The worker processes to start for ``jobs`` asked for: all cores if None, at least
    1, and never more than the cores this process may use (more only share the same
    cores, each with its own memory: ``-j 100000`` once started thousands of processes
    until memory ran out). A capped number is said once on standard error. Every backend
    that starts processes on this machine (the local pool, a Dask LocalCluster) asks
    here."""
    cores = default_jobs()
    if jobs is None:
        return cores
    if jobs > cores:
        _say_capped(jobs, cores)
        return cores
    return max(1, jobs)


@functools.cache
def _say_capped(jobs: int, cores: int) -> None:
    echo(
        f"gcgtools: --jobs {jobs} is more than the {plural(cores, 'core')} this process may "
        f"use: running {cores} worker {'process' if cores == 1 else 'processes'}",
        err=True,
    )


def forget_notes() -> None:
    """Start a new run: a capped number is said again (each command run says it once,
    also when several run in one process)."""
    _say_capped.cache_clear()
