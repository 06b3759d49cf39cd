"""Per-file work through the result cache (:mod:`gcgtools.batch.cache`), for batches.

``cached_per_file(func, "analysis", params)`` wraps a worker function ``func(path)`` so
that a file whose bytes (and ``params``, and the gcgtools version) were seen before gives
back the stored result instead of running ``func`` again. The wrapper is picklable, so it
runs in the worker processes (or on Dask workers) like ``func`` itself; each worker
counts its hits and misses in the persistent tally.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from gcgtools.batch.cache import ResultCache
from gcgtools.sources.load import read_bytes

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class CachedPerFile(Generic[R]):
    """``func(path)``, looked up in the cache by the file's content first."""

    func: Callable[[str], R]
    kind: str
    params: Mapping[str, Any] = field(default_factory=dict)
    enabled: bool = True
    folder: str | None = None  # the results folder; default: the user's cache folder

    def cache(self) -> ResultCache:
        return ResultCache(self.kind, self.params, folder=self.folder, enabled=self.enabled)

    def __call__(self, path: str) -> R:
        if not self.enabled:
            return self.func(path)
        try:
            data = read_bytes(path)
        except OSError:
            return self.func(path)  # it reports the unreadable file its own way
        with self.cache() as cache:
            return cache.fetch(data, lambda: self.func(path))


def cached_per_file(
    func: Callable[[str], R],
    kind: str,
    params: Mapping[str, Any] | None = None,
    *,
    enabled: bool = True,
    folder: str | os.PathLike[str] | None = None,
) -> CachedPerFile[R]:
    """``func`` (a module-level function or a partial of one) behind the result cache."""
    return CachedPerFile(
        func, kind, dict(params or {}), enabled, os.fspath(folder) if folder else None
    )
