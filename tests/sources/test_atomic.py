"""Atomic writes leave ordinary permissions, keep an existing file's, and no stray files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from gcgtools.sources.atomic import publish, temporary_beside, write_atomic


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_file_gets_the_umask_mode_not_the_temporary_files(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "out.gcg", b"#player1 a A\n")
    finally:
        os.umask(umask)
    assert _mode(tmp_path / "out.gcg") == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["out.gcg"]


def test_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "game.gcg"
    target.write_bytes(b"old")
    target.chmod(0o640)
    tmp = temporary_beside(target)
    Path(tmp).write_bytes(b"new")
    publish(tmp, target)
    assert target.read_bytes() == b"new"
    assert _mode(target) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["game.gcg"]
