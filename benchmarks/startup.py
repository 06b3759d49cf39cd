"""Benchmark: how long the ``gcgtools`` command takes to start, against bare Python.

Runs ``python -c pass``, ``gcgtools --help`` and ``gcgtools validate ONE.gcg`` in turn
(A B C A B C ..., so a drift in the machine's speed touches all three alike), ``--runs``
times each after one warm-up, and prints each one's median wall time and its excess over
bare Python, the figure the targets are about::

    python benchmarks/startup.py                       # examples/club-final.gcg, 10 runs
    python benchmarks/startup.py --runs 20 my-game.gcg

``gcgtools`` is the console script next to this Python (else the one on PATH). Targets:
``--help`` at most 0.06 s above bare Python, ``validate`` of one record at most 0.09 s.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"gcgtools --help": 0.06, "gcgtools validate": 0.09}


def program() -> str:
    """The ``gcgtools`` console script of this Python's environment, else the one on PATH."""
    beside = Path(sys.executable).parent / "gcgtools"
    found = str(beside) if beside.exists() else shutil.which("gcgtools")
    if found is None:
        sys.exit("startup.py: no gcgtools command (install the project first)")
    return found


def wall(command: list[str]) -> float:
    """Seconds one run of ``command`` takes, its output thrown away."""
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", nargs="?", default=str(ROOT / "examples" / "club-final.gcg"))
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    gcgtools = program()
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "gcgtools --help": [gcgtools, "--help"],
        "gcgtools validate": [gcgtools, "validate", args.record],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for run in range(args.runs + 1):
        for name, command in commands.items():
            seconds = wall(command)
            if run:  # the first round is the warm-up
                times[name].append(seconds)
    bare = statistics.median(times["python -c pass"])
    print(f"median wall time of {args.runs} runs each ({gcgtools})")
    print(f"  {'python -c pass':<20} {bare:.3f} s")
    for name in TARGETS:
        median = statistics.median(times[name])
        excess, target = median - bare, TARGETS[name]
        verdict = "met" if excess <= target else "NOT met"
        print(f"  {name:<20} {median:.3f} s  (+{excess:.3f} s; target +{target:.2f} s: {verdict})")


if __name__ == "__main__":
    main()
