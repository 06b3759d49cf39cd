"""Processes found by a mark in their environment: a test starts a command with
``{name: mark}`` in its environment (the command's workers inherit it) and counts what is
still running after the command ended (Linux's /proc)."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path


def marked(name: str, mark: str) -> list[int]:
    """The live (not zombie) processes whose environment holds ``name=mark``."""
    found = []
    needle = f"{name}={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and needle in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


#: what :func:`rest_of_output` keeps at most: a writer that goes on past it is killed
#: (one that never stopped once filled 24 GB before the system killed the test run)
MOST_OUTPUT = 64 * 1024 * 1024


def rest_of_output(process: subprocess.Popen[str], timeout: float) -> tuple[str, str]:
    """What ``process`` writes to its standard output and standard error until it ends,
    after the test has read some of it with ``readline`` (``communicate`` would read the
    pipes beneath the lines already buffered, and lose them); killed after ``timeout``
    seconds, or once it has written :data:`MOST_OUTPUT` characters, so that a hang or a
    writer that does not stop fails the test instead of stopping it or filling the
    memory."""
    assert process.stdout is not None and process.stderr is not None
    watchdog = threading.Timer(timeout, process.kill)
    watchdog.start()
    pieces: list[str] = []
    kept = 0
    try:
        while piece := process.stdout.read(1 << 20):
            pieces.append(piece)
            kept += len(piece)
            if kept > MOST_OUTPUT:
                process.kill()
                break
        err = process.stderr.read()  # a few lines: it cannot fill its pipe meanwhile
        process.wait()
    finally:
        watchdog.cancel()
    return "".join(pieces), err
