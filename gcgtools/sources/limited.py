"""Reading a file with the rules every input follows: a regular file only, opened without
blocking, its size checked before a byte is read.

A FIFO without a writer cannot hang the reader (it is opened with ``O_NONBLOCK`` and then
refused as not a regular file), a device such as ``/dev/zero`` cannot fill the memory, and
a file larger than the limit of its kind is refused before it is read (so a 600 MB file
costs no memory). Records (:mod:`gcgtools.sources.load`), lexicons, leave files, word
lists and tile and board files all read through :func:`read_limited`.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO

__all__ = ["MIB", "read_limited", "read_stream", "too_large"]

MIB = 1024 * 1024

_KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
}


def too_large(size: int, limit: int, what: str) -> str:
    """The one message for a file over its kind's size limit."""
    return f"file too large for {what} ({size:,} bytes; the limit is {limit:,})"


def read_limited(path: str | os.PathLike[str], limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    ``what`` names the kind of file in messages (``"a game record"``, ``"a lexicon"``).
    Raises :class:`OSError` (``strerror`` a one-line reason) when the file is missing,
    unreadable, not a regular file (a folder, device, FIFO or socket) or larger than
    ``limit`` bytes (checked before reading, and again after, for a file that grew)."""
    name = os.fspath(path)
    # O_NONBLOCK: opening a FIFO with no writer returns at once (and is then refused)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(name, flags)
    except ValueError as exc:  # a NUL byte in the name
        raise OSError(errno.EINVAL, f"invalid file name: {exc}", name) from None
    with open(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = _KINDS.get(stat.S_IFMT(info.st_mode), "a special file")
            code = errno.EISDIR if stat.S_ISDIR(info.st_mode) else errno.EINVAL
            raise OSError(code, f"not a regular file ({kind})", name)
        if info.st_size > limit:
            raise OSError(errno.EFBIG, too_large(info.st_size, limit, what), name)
        data = f.read(limit + 1)
    if len(data) > limit:  # it grew while being read
        raise OSError(errno.EFBIG, too_large(len(data), limit, what), name)
    return data


def read_stream(stream: BinaryIO, limit: int, what: str, name: str) -> bytes:
    """At most ``limit`` bytes of ``stream`` (standard input), read to its end; OSError
    (EFBIG) naming ``name`` when there are more: never more than ``limit`` + 1 bytes are
    held, whatever the stream (``cat /dev/zero |``) goes on giving."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        message = f"file too large for {what} (more than {limit:,} bytes; the limit is {limit:,})"
        raise OSError(errno.EFBIG, message, name)
    return data
