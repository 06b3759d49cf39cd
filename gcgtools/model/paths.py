"""Expanding the PATH... arguments of batch commands: files, directories and globs."""

from __future__ import annotations

import glob
from collections.abc import Iterable, Iterator
from pathlib import Path

GCG_SUFFIX = ".gcg"


def expand_paths(args: Iterable[str]) -> Iterator[str]:
    """Yield files named by ``args``: a file as is, a directory's ``*.gcg`` recursively
    (sorted), a glob pattern's matches. A name that matches nothing is yielded as is, so
    the caller reports it as unreadable rather than silently skipping it."""
    seen: set[str] = set()
    for arg in args:
        path = Path(arg)
        if path.is_dir():
            found = sorted(
                str(p) for p in path.rglob("*") if p.suffix.lower() == GCG_SUFFIX and p.is_file()
            )
        elif not path.exists() and glob.has_magic(arg):
            found = sorted(glob.glob(arg, recursive=True))
        else:
            found = [arg]
        for name in found:
            if name not in seen:
                seen.add(name)
                yield name
