"""tools/fuzz.py as a framework: it finds every tools/fuzz_*.py surface, runs the chosen
ones with --inputs and --seed, prints 'N passed, M failed' and exits 1 on a failure."""

from __future__ import annotations

import random
import subprocess
import sys

from support.fuzz_helper import TOOLS, load_tool

fuzz = load_tool("fuzz")


def test_every_surface_module_is_found() -> None:
    surfaces = fuzz.discover()
    assert {"records", "cgp", "stdin", "cache"} <= set(surfaces)
    modules = {p.stem for p in TOOLS.glob("fuzz_*.py")}
    assert {"fuzz_cgp", "fuzz_stdin", "fuzz_cache"} <= modules


def test_summary_line_and_failures() -> None:
    lines: list[str] = []

    def fine(rng: random.Random, n: int) -> int:
        return n

    def broken(rng: random.Random, n: int) -> int:
        raise AssertionError(f"found a bug after {rng.randrange(10)} inputs")

    passed, failed = fuzz.run_surfaces({"fine": fine, "broken": broken}, 5, 7, lines.append)
    assert (passed, failed) == (1, 1)
    assert lines[-1] == "1 passed, 1 failed"
    assert lines[0].startswith("ok     fine: 5 inputs")
    assert lines[1].startswith("FAILED broken (seed 7): found a bug after")


def test_each_surface_has_its_own_repeatable_rng() -> None:
    seen: dict[str, list[int]] = {}

    def record(name: str):
        def run(rng: random.Random, n: int) -> int:
            seen.setdefault(name, []).append(rng.randrange(10**9))
            return n

        return run

    surfaces = {"a": record("a"), "b": record("b")}
    for _ in range(2):
        fuzz.run_surfaces(surfaces, 1, 3, lambda line: None)
    assert seen["a"][0] == seen["a"][1] and seen["a"][0] != seen["b"][0]


def test_command_line() -> None:
    proc = subprocess.run(
        [sys.executable, str(TOOLS / "fuzz.py"), "--surface", "cgp", "--inputs", "50",
         "--seed", "2"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "1 passed, 0 failed"
    proc = subprocess.run(
        [sys.executable, str(TOOLS / "fuzz.py"), "--surface", "nosuch"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 2 and "unknown surface nosuch" in proc.stderr
