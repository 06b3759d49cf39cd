"""Reading what a process writes to a pseudo-terminal, for the terminal tests."""

from __future__ import annotations

import os
import select
import subprocess


def drain(master: int, proc: subprocess.Popen[bytes]) -> bytes:
    """Everything written to the terminal whose master side is ``master`` until ``proc``
    ends (or the terminal closes); closes ``master``."""
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # the terminal closed: the process is gone
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    os.close(master)
    return b"".join(chunks)
