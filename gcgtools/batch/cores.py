"""How many worker processes a batch may run: the cores this process may use (read by the
pool in :mod:`gcgtools.batch.run` and the local Dask cluster in
:mod:`gcgtools.batch.dask_backend`, which import it from here and not from each other)."""

from __future__ import annotations

import os

__all__ = ["default_jobs"]


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1
