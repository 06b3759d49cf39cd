"""Reading GCG records from files and URLs into :class:`Game` objects (parsing bytes is
:mod:`gcgtools.model.read`)."""

from __future__ import annotations

import errno
import glob
import os
from typing import BinaryIO

from gcgtools.findings import Code, make
from gcgtools.model.game import Game
from gcgtools.model.read import parse_bytes
from gcgtools.sources.limited import read_limited, read_stream, too_large
from gcgtools.sources.paths import GCG_SUFFIX, display_name
from gcgtools.sources.quarantine import CrashedBefore, check_not_crashed
from gcgtools.sources.remote import is_url, read_url

PathLike = str | os.PathLike[str]


STDIN_NAME = "<stdin>"
"""The name of the record read from standard input (``-``)."""

MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest file read as a record (16 MiB; real records are a few kilobytes, the
largest seen under 100 KB). A larger file is refused with a clear message."""


def read_game(path: PathLike, *, max_bytes: int = MAX_RECORD_BYTES) -> Game:
    """Read and parse one GCG file.

    Raises OSError if the file cannot be read: it is missing, not a regular file (a
    folder, device, FIFO or socket: such files are never read, so a FIFO without a writer
    cannot hang the reader and /dev/zero cannot fill the memory), or larger than
    ``max_bytes``. Everything wrong *inside* the file is reported in ``game.findings``
    instead, and every good line is still parsed. ``game.path`` is the name as
    :func:`~gcgtools.sources.paths.display_name` shows it.

    >>> game = read_game("examples/club-game.gcg")  # doctest: +SKIP
    >>> [p.nick for p in game.players]  # doctest: +SKIP
    ['Alice', 'Bob']
    """
    name = os.fspath(path)
    return parse_bytes(read_bytes(name, max_bytes), display_name(name))


def read_bytes(path: PathLike, max_bytes: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of a record file, or of a URL (``s3://...``, read through fsspec), at
    most ``max_bytes`` of them. Raises OSError when it cannot be read (also
    :class:`~gcgtools.sources.quarantine.CrashedBefore` in a worker process told that the
    file made another one die)."""
    name = os.fspath(path)
    check_not_crashed(name)
    if is_url(name) and not os.path.exists(name):
        data = read_url(name)
        if len(data) > max_bytes:
            raise OSError(errno.EFBIG, _too_large(len(data), max_bytes), name)
        return data
    return _read(name, max_bytes)


def _read(path: str, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; else OSError."""
    return read_limited(path, limit, "a game record")


def _too_large(size: int, limit: int) -> str:
    return too_large(size, limit, "a game record")


def load_stream(
    stream: BinaryIO, name: str = STDIN_NAME, *, max_bytes: int = MAX_RECORD_BYTES
) -> Game:
    """The record on ``stream`` (standard input for ``-``), as :func:`load_game` reads a
    file: the same size limit, and never raises (an F001 finding says why)."""
    try:
        data = read_stream(stream, max_bytes, "a game record", name)
    except OSError as exc:
        game = Game(path=name)
        game.findings.append(
            make(Code.UNREADABLE_FILE, f"cannot read file: {exc.strerror or exc}", 0)
        )
        return game
    return parse_bytes(data, name)


def load_game(path: PathLike, *, max_bytes: int = MAX_RECORD_BYTES) -> Game:
    """Like :func:`read_game`, but never raises: a file that cannot be read gives a game
    with an F001 finding saying why (also for a glob that matched nothing and a folder
    without records, which :func:`~gcgtools.sources.paths.expand_paths` passes on as they
    are), and a failure of gcgtools itself on the file an F010 finding."""
    name = os.fspath(path)
    try:
        return read_game(name, max_bytes=max_bytes)
    except CrashedBefore as exc:  # gcgtools failed on it before, in a way it cannot catch
        game = Game(path=display_name(name))
        game.findings.append(make(Code.PROCESSING_FAILED, f"could not process the file: {exc}", 0))
        return game
    except OSError as exc:
        game = Game(path=display_name(name))
        reason = exc.strerror or str(exc)
        if isinstance(exc, FileNotFoundError) and glob.has_magic(name):
            reason = "no game record matches this pattern"
        elif exc.errno in (errno.ENOENT, errno.ELOOP) and os.path.islink(name):
            target = display_name(os.readlink(name))
            what = "loops" if exc.errno == errno.ELOOP else "leads to no file"
            reason = f"a symbolic link that {what} (to {target})"
        elif exc.errno == errno.EISDIR:
            reason = f"no game records found in this folder (no *{GCG_SUFFIX} file)"
        game.findings.append(make(Code.UNREADABLE_FILE, f"cannot read file: {reason}", 0))
        return game
    except Exception as exc:  # noqa: BLE001 - a failure of gcgtools itself on this file
        game = Game(path=display_name(name))
        text = f"{type(exc).__name__}: {exc}"
        text = display_name(text if len(text) <= 300 else text[:297] + "...")
        game.findings.append(make(Code.PROCESSING_FAILED, f"could not process the file: {text}", 0))
        return game
