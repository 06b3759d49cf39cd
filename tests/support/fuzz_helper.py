"""Loading the fuzzers of ``tools/`` (not a package) in the suite's fuzz tests."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parents[2] / "tools"
SEED = 20261201  # every suite fuzz test: a fixed seed


def load_tool(name: str) -> ModuleType:
    """``tools/<name>.py`` as the module ``name`` (``tools/fuzz.py``'s own loader, which
    finds the others the same way)."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    return importlib.import_module("fuzz").load_tool(name)
