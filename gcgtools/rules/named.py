"""An option that names a table or a file: ``--tiles english`` or ``--tiles my-tiles.txt``,
``--board super`` or ``--board my-board.txt``. One rule for both."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")


def named_or_file(
    value: str,
    lookup: Callable[[str], T],
    load: Callable[[str], T],
    what: str,
    known: Iterable[str],
) -> T:
    """``lookup(value)`` for a known name, else the file ``value`` read by ``load``
    (cached by path and modification time, so a changed file is read again). Raises
    ``KeyError`` for a value that is neither, ``ValueError`` for a file that cannot be
    read or is malformed."""
    try:
        return lookup(value)
    except KeyError:
        if not os.path.isfile(value):
            names = ", ".join(sorted(known))
            raise KeyError(
                f"unknown {what} {value!r}: neither a known name ({names}) nor a file"
            ) from None
    return _cached(load, os.path.abspath(value), os.stat(value).st_mtime_ns)  # type: ignore[return-value]


@lru_cache(maxsize=32)
def _cached(load: Callable[[str], object], path: str, mtime: int) -> object:
    try:
        return load(path)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
