"""Writing files safely, shared by every layer that writes files.

One rule for every writer (``write``, ``annotate``, ``fix``, ``report``, ``picture``,
``board -o``, ``chart``, ``export``):

* A **regular file** (new, or existing with one name) is written to a temporary file in
  its folder, flushed to disk and moved over the target with :func:`os.replace`, so a
  reader (or a crash) never sees half a file. The new file gets the target's permission
  bits (and owner, where allowed), or ``0o666`` less the umask for a new target.
* A **symbolic link** is followed: the file it points to is written (as above) and the
  link stays a link.
* A regular file with **several hard links** keeps its identity: the new content is
  prepared in a temporary file first, then copied into the file itself, so every name
  sees it (this last copy is not atomic).
* A **special file** (character device such as ``/dev/null``, FIFO, socket) is opened
  and written directly: it is never renamed over. A folder is refused.
* A **missing parent folder** is refused (``FileNotFoundError``, "the folder ... does not
  exist"): no writer creates folders.
* Temporary files are named ``.NAME.gcgtools-PID-XXXXXXXX.tmp`` beside the target. One
  left behind by a killed process is removed by the next write to the same target (when
  the process PID is gone, or the file is a day old).

Every :class:`OSError` raised here names the target (``exc.filename``), not the
temporary file.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

TEMP_MARK = ".gcgtools-"
"""Every temporary file's name holds this, after ``.NAME``."""
TEMP_SUFFIX = ".tmp"
STALE_AFTER = 24 * 3600
"""A temporary file this many seconds old is stale even if its PID is running."""
_NAME_BYTES = 150  # longer names are shortened in temporary names (NAME_MAX is 255)


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _short(name: str) -> str:
    """``name`` as it appears in its temporary files' names: shortened (with a hash, so
    that two long names stay apart) when it would make them too long."""
    raw = os.fsencode(name)
    if len(raw) <= _NAME_BYTES:
        return name
    digest = hashlib.sha1(raw).hexdigest()[:10]
    return os.fsdecode(raw[:_NAME_BYTES]) + "~" + digest


def temp_prefix(target: str | os.PathLike[str]) -> str:
    """The start of the names of ``target``'s temporary files (the PID comes next)."""
    return f".{_short(Path(target).name)}{TEMP_MARK}"


def _pid_running(pid: int) -> bool:
    if os.name == "nt":  # os.kill(pid, 0) would send CTRL_C_EVENT: rely on the age only
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    except (OSError, OverflowError):
        return False
    return True


def clean_stale(target: str | os.PathLike[str]) -> list[str]:
    """Remove the temporary files of ``target`` left by processes that are gone (or a day
    old); return their names. Never raises."""
    path = Path(target)
    folder = path.parent
    prefix = temp_prefix(path)
    removed: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX)):
            continue
        pid_text = name[len(prefix) :].split("-", 1)[0]
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                continue
            pid = int(pid_text) if pid_text.isdigit() else -1
            old = now - info.st_mtime > STALE_AFTER
            if pid == os.getpid() and not old:
                continue  # this process may be writing it
            if old or pid <= 0 or not _pid_running(pid):
                os.unlink(entry.path)
                removed.append(entry.path)
        except (OSError, ValueError):
            continue
    return removed


def temporary_beside(target: str | os.PathLike[str]) -> str:
    """Create an empty temporary file in ``target``'s folder and return its name."""
    path = Path(target)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(
        prefix=f"{temp_prefix(path)}{os.getpid()}-", suffix=TEMP_SUFFIX, dir=folder
    )
    os.close(fd)
    return tmp


def publish(tmp: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """Give ``tmp`` the permissions (and, where allowed, the owner) ``target`` has, or
    should have, and move it there."""
    try:
        info = os.stat(target)
    except FileNotFoundError:
        os.chmod(tmp, _default_mode())
    else:
        os.chmod(tmp, stat.S_IMODE(info.st_mode))
        mine = os.stat(tmp)
        if (mine.st_uid, mine.st_gid) != (info.st_uid, info.st_gid):
            try:
                os.chown(tmp, info.st_uid, info.st_gid)
            except OSError:
                pass  # not allowed: the file becomes this user's, as any editor does
    os.replace(tmp, target)


def _named(exc: OSError, target: str) -> OSError:
    """``exc`` again, naming ``target`` instead of a temporary file."""
    if exc.filename == target or exc.errno is None:
        return exc
    return type(exc)(exc.errno, exc.strerror or os.strerror(exc.errno), target)


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """True when ``a`` and ``b`` are the same existing file (:func:`os.path.samefile`)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


@dataclass(slots=True)
class Output:
    """Where a writer writes ``target``: :attr:`name` (a temporary file, or the target
    itself when :attr:`direct`); :meth:`commit` puts it in place, :meth:`abort` drops it."""

    target: str  # as the caller named it (for messages)
    real: str  # the file written: symbolic links followed
    name: str  # what to open for writing
    mode: str  # "replace", "copy" (several hard links) or "direct" (special file)

    @property
    def direct(self) -> bool:
        return self.mode == "direct"

    def commit(self) -> None:
        if self.mode == "direct":
            return
        try:
            if self.mode == "copy":
                with open(self.name, "rb") as src, open(self.real, "r+b") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
                    dst.truncate()
                    dst.flush()
                    os.fsync(dst.fileno())
                Path(self.name).unlink(missing_ok=True)
            else:
                with open(self.name, "rb") as fh:
                    os.fsync(fh.fileno())
                publish(self.name, self.real)
        except OSError as exc:
            self.abort()
            raise _named(exc, self.target) from None

    def abort(self) -> None:
        if self.mode != "direct":
            Path(self.name).unlink(missing_ok=True)


def open_output(target: str | os.PathLike[str]) -> Output:
    """Decide how to write ``target`` (see the module's rules), clean its stale temporary
    files and create a temporary file when one is needed. Raises OSError naming
    ``target``: a missing folder, a folder as target, no permission."""
    shown = os.fspath(target)
    real = os.path.realpath(shown)  # follow symbolic links (also a dangling one)
    try:
        info: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise _named(exc, shown) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), shown)
    if info is not None and not stat.S_ISREG(info.st_mode):
        return Output(shown, real, real, "direct")
    folder = os.path.dirname(real) or "."
    if not os.path.isdir(folder):
        if os.path.exists(folder):
            raise NotADirectoryError(errno.ENOTDIR, f"{folder} is not a folder", shown)
        raise FileNotFoundError(errno.ENOENT, f"the folder {folder} does not exist", shown)
    if info is not None and not os.access(real, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), shown)
    clean_stale(real)
    try:
        tmp = temporary_beside(real)
    except OSError as exc:
        raise _named(exc, shown) from None
    mode = "copy" if info is not None and info.st_nlink > 1 else "replace"
    return Output(shown, real, tmp, mode)


@contextmanager
def atomic_output(target: str | os.PathLike[str]) -> Iterator[str]:
    """``with atomic_output(path) as name:`` write the file ``name``; on leaving the block
    it is put in place as ``path`` (see the module's rules), or dropped on an exception."""
    out = open_output(target)
    try:
        yield out.name
    except OSError as exc:
        out.abort()
        raise _named(exc, out.target) from None
    except BaseException:
        out.abort()
        raise
    out.commit()


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` by the module's rules (atomically for a regular file).
    Raises OSError naming ``path`` (no temporary file is left behind)."""
    with atomic_output(path) as name, open(name, "wb") as fh:
        fh.write(data)
        fh.flush()
