"""Processes found by a mark in their environment: a test starts a command with
``{name: mark}`` in its environment (the command's workers inherit it) and counts what is
still running after the command ended (Linux's /proc)."""

from __future__ import annotations

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
