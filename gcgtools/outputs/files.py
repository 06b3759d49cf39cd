"""Writing output files safely: atomically, or to standard output for ``-``.

A file is written to a temporary file in the same folder, flushed to disk, then moved over
the target with :func:`os.replace`, so a reader (or a crash) never sees half a file and
an input file replaced ``--in-place`` is either wholly old or wholly new.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

__all__ = ["STDOUT", "write_atomic", "write_output"]

STDOUT = "-"
"""The output name that means standard output."""


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically.

    An existing file keeps its permission bits; a new one gets the usual ``0o666`` less the
    umask. Raises OSError (the temporary file is removed) when the folder is not writable.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = _default_mode()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_output(target: str | os.PathLike[str] | None, data: bytes) -> None:
    """Write ``data`` to the file ``target`` atomically, or to standard output when
    ``target`` is None or ``"-"``."""
    if target is None or str(target) == STDOUT:
        out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
        if out is None:  # a text-only stream (some test runners)
            sys.stdout.write(data.decode("utf-8", errors="replace"))
        else:
            sys.stdout.flush()
            out.write(data)
            out.flush()
        return
    write_atomic(target, data)
