"""Writing output files safely: atomically, or to standard output for ``-``.

A regular file is written to a temporary file in the same folder, flushed to disk, then
moved over the target with :func:`os.replace`, so a reader (or a crash) never sees half a
file and an input file replaced ``--in-place`` is either wholly old or wholly new. The
rules for symbolic links, hard links, special files and missing folders are those of
:mod:`gcgtools.sources.atomic`.
"""

from __future__ import annotations

import os
import sys

from gcgtools.console import echo, is_terminal
from gcgtools.sources.atomic import atomic_output, publish, same_file, write_atomic

__all__ = [
    "STDOUT",
    "atomic_output",
    "publish",
    "same_file",
    "write_atomic",
    "write_output",
]

STDOUT = "-"
"""The output name that means standard output."""


def write_output(target: str | os.PathLike[str] | None, data: bytes) -> None:
    """Write ``data`` to the file ``target`` atomically, or to standard output when
    ``target`` is None or ``"-"``."""
    if target is None or str(target) == STDOUT:
        if is_terminal(sys.stdout):  # a record's text, shown: its controls escaped
            echo(data.decode("utf-8", "surrogateescape").removesuffix("\n"))
            return
        out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
        if out is None:  # a text-only stream (some test runners)
            sys.stdout.write(data.decode("utf-8", errors="replace"))
        else:
            sys.stdout.flush()
            out.write(data)
            out.flush()
        return
    write_atomic(target, data)
