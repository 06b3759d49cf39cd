"""Fuzzing the lexicon surfaces in the suite (issue 18): mutated KWG, KLV/KLV2, leave CSV,
word-list, tile, board and compiled-cache inputs through the real loaders and one move
generation each (tools/fuzz_lexicon.py); a fixed seed and 200 inputs a surface keep it
short. A failure is an undocumented exception, an error message that does not name the
file, a non-finite value or equity accepted, a damaged cache entry trusted, or a hang."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
COUNT = 200


def _load() -> ModuleType:
    path = ROOT / "tools" / "fuzz_lexicon.py"
    spec = importlib.util.spec_from_file_location("gcgtools_fuzz_lexicon", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


FUZZ = _load()


@pytest.mark.parametrize("surface", sorted(FUZZ.SURFACES))
def test_surface_takes_mutated_inputs_without_a_failure(surface: str) -> None:
    ran = FUZZ.SURFACES[surface](random.Random(f"suite:{surface}"), COUNT)
    assert ran == COUNT
