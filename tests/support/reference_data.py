"""Where the shared reference data is (tile sets, boards, word lists, lexica): the folder
named by ``$GCGTOOLS_DATA``, else ``../shared/data`` next to the repository. Tests that
need it are marked ``needs_data`` and skip, with the reason, when neither is there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def data_dir() -> Path | None:
    """$GCGTOOLS_DATA if set, else ../shared/data next to the repository (made absolute);
    None if missing."""
    env = os.environ.get("GCGTOOLS_DATA")
    if env:
        path = Path(env).resolve()
    else:
        path = Path(__file__).resolve().parents[2].parent / "shared" / "data"
    return path if path.is_dir() else None


DATA = data_dir()
needs_data = pytest.mark.skipif(
    DATA is None,
    reason="reference data not found: set GCGTOOLS_DATA or provide ../shared/data "
    "next to the repository",
)
