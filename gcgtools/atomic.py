"""Atomic file replacement, shared by every layer that writes files.

A file is written to a temporary file in the target's folder and then moved over the
target with :func:`os.replace`, so a reader (or a crash) never sees half a file. The new
file gets the target's permission bits, or ``0o666`` less the umask for a new target (not
the ``0o600`` of a temporary file).
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def temporary_beside(target: str | os.PathLike[str]) -> str:
    """Create an empty temporary file in ``target``'s folder and return its name."""
    path = Path(target)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    os.close(fd)
    return tmp


def publish(tmp: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """Give ``tmp`` the permissions ``target`` has (or should have) and move it there."""
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = _default_mode()
    os.chmod(tmp, mode)
    os.replace(tmp, target)


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically. Raises OSError (the temporary file is
    removed) when the folder is not writable."""
    tmp = temporary_beside(path)
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        publish(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
