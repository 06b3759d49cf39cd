"""Benchmark: how long the ``gcgtools`` command takes to start, against bare Python.

Runs ``python -c pass``, ``gcgtools --help`` and ``gcgtools validate ONE.gcg`` in turn
(A B C A B C ..., so a drift in the machine's speed touches all three alike), ``--runs``
times each after one warm-up, and prints each one's median wall time and its excess over
bare Python, the figure the targets are about, then the same for the CPU time (user +
system) of the process, which a machine shared with other jobs stretches far less. It
names the typer it runs with (0.29 checks options with pydantic) and whether gcgtools is
an editable install (whose import finder costs time of its own)::

    python benchmarks/startup.py                       # examples/club-final.gcg, 10 runs
    python benchmarks/startup.py --runs 20 my-game.gcg

``gcgtools`` is the console script next to this Python (else the one on PATH). Targets:
``--help`` at most 0.06 s above bare Python, ``validate`` of one record at most 0.09 s.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import time
from importlib import metadata
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


def children_cpu() -> float:
    """CPU seconds (user + system) of the child processes waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds one run of ``command`` takes, its output thrown away."""
    cpu, start = children_cpu(), time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start, children_cpu() - cpu


def installed() -> str:
    """The typer version and how gcgtools is installed, in this Python's environment."""
    try:
        direct = metadata.distribution("gcgtools").read_text("direct_url.json")
        editable = json.loads(direct or "{}").get("dir_info", {}).get("editable", False)
        kind = "editable install" if editable else "installed"
    except metadata.PackageNotFoundError:
        kind = "not installed here"
    return f"typer {metadata.version('typer')}, gcgtools {kind}"


def report(kind: str, times: dict[str, list[float]]) -> None:
    """Each command's median and its excess over bare Python, against the targets."""
    bare = statistics.median(times["python -c pass"])
    print(f"  {kind}: {'python -c pass':<20} {bare:.3f} s")
    for name, target in TARGETS.items():
        median = statistics.median(times[name])
        excess = median - bare
        verdict = "met" if excess <= target else "NOT met"
        print(f"  {kind}: {name:<20} {median:.3f} s  (+{excess:.3f} s; "
              f"target +{target:.2f} s: {verdict})")  # fmt: skip


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
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for run in range(args.runs + 1):
        for name, command in commands.items():
            wall, cpu = timed(command)
            if run:  # the first round is the warm-up
                walls[name].append(wall)
                cpus[name].append(cpu)
    print(f"median of {args.runs} runs each ({gcgtools}; {installed()})")
    report("wall", walls)
    report("CPU ", cpus)


if __name__ == "__main__":
    main()
