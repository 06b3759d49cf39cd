"""Loading the fuzzers of ``tools/`` (not a package) in the suite's fuzz tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parents[2] / "tools"
SEED = 20261201  # every suite fuzz test: a fixed seed


def load_tool(name: str) -> ModuleType:
    """``tools/<name>.py`` as the module ``name`` (loaded once)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module
