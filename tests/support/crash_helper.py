"""Per-file worker functions that make their worker process die on some files, as a crash
in compiled code or the out-of-memory killer would: for the tests of a pool that goes on
when a worker dies (tests/batch/test_worker_deaths.py). Module-level, so that worker processes
can import them."""

from __future__ import annotations

import faulthandler
import os
import signal
from collections.abc import Callable
from typing import Any

from gcgtools.sources.load import read_bytes


def die_on_marked(func: Callable[[str], Any], path: str) -> Any:
    """``func(path)``, but a file holding ``#die KILL`` (or ``SEGV``, or ``EXIT``) ends
    the process first, by that signal or ``os._exit(3)``. A file set aside after
    killing a worker is passed on to ``func``, which reports it its own way."""
    try:
        data = read_bytes(path)
    except OSError:
        return func(path)
    for how in (b"KILL", b"SEGV"):
        if b"#die " + how in data:
            faulthandler.disable()  # pytest's: no stack dump, just the death
            os.kill(os.getpid(), getattr(signal, "SIG" + how.decode()))
    if b"#die EXIT" in data:
        os._exit(3)
    return func(path)


def always_die(paths: list[str]) -> list[str]:
    """A batch function that kills its process whatever the files."""
    os.kill(os.getpid(), signal.SIGKILL)
    return paths
