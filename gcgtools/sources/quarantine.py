"""Files that made a worker process die (a crash in compiled code, the kernel's
out-of-memory killer): the batch layer (:mod:`gcgtools.batch.pool`) names them here in
the worker processes it starts after such a death, and reading one of them raises
:class:`CrashedBefore` instead of running again the code that died on it. Every
per-file worker reads its file through :func:`gcgtools.sources.load.read_bytes`, so each
reports such a file its own way (validate: an F010 finding), and the batch goes on."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

_CRASHED: dict[Hashable, str] = {}


class CrashedBefore(OSError):
    """The file made a worker process die before; it is not read again."""


def set_crashed(files: Mapping[Hashable, str]) -> None:
    """In a worker process: the files not to read again, each with why."""
    _CRASHED.clear()
    _CRASHED.update(files)


def add_crashed(files: Mapping[Hashable, str]) -> None:
    """In a worker process: more files not to read again (those named before stay)."""
    _CRASHED.update(files)


def check_not_crashed(name: Hashable) -> None:
    """Raise :class:`CrashedBefore` if ``name`` made a worker process die before (a file's
    name, or a work item that is not a file: a judged turn's job)."""
    if _CRASHED:
        reason = _CRASHED.get(name)
        if reason is not None:
            raise CrashedBefore(f"a worker process died on this file ({reason}); left out")
