"""benchmarks/lexicon.py still runs (quick mode: a small list and the leaves; its times are not
checked here, the targets are judged by running it in full, see docs/benchmarks.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support.lexicon_data import DATA, needs_data

ROOT = Path(__file__).resolve().parents[2]


@needs_data
def test_lexicon_benchmark_runs_quick() -> None:
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "lexicon.py"), str(DATA), "--quick"],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "PYTHONPATH": path},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("synthetic 3,000, first") and "3,000" in lines[1]
    assert lines[2].startswith("synthetic 3,000, cached")
    assert lines[-1].startswith("CSW21.klv2 (leaves)") and "914,624" in lines[-1]
