"""Benchmark: one real game judged by ``analyse --depth sim`` with ``-j 1`` and ``-j 2``.

The deep analysis splits its work per turn (see docs/judging.md), so two workers judge
even one game. Each run is a fresh ``gcgtools analyse`` process (``--no-cache``, the
record's turns judged on the local pool), timed by its wall clock and by the CPU seconds
of the process and its workers; the runs alternate between the ``--jobs`` values,
``--repeat`` times, and the median of each is judged. The judgements of every run are
compared (they must be the same for any ``-j``).

The machine is shared: before each round a reference measures how much of the machine a
process gets now, alone and as one of two at once (a CPU-bound loop of
``REFERENCE_CPU`` seconds): the speed-up two workers can reach at that moment is the
second figure over the first, and is printed beside the one measured.

    python benchmarks/deep_jobs.py [CORPUS] [--game PATH] [--jobs 1 --jobs 2] [--repeat 2]

(``--sim-iterations``, ``--sim-candidates`` override the depth's settings: only for a
quick check that the script runs.)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from deep import GAME, _corpus, _data_dir  # the same game, data and corpus as deep.py

REFERENCE_CPU = 1.0  # CPU seconds of each reference loop
LOOP = "import time\nwhile time.process_time() < {cpu}:\n    pass\n"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def reference() -> tuple[float, float]:
    """The cores a CPU-bound process gets now alone, and two of them at once (in all)."""
    code = LOOP.format(cpu=REFERENCE_CPU)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    alone = REFERENCE_CPU / (time.perf_counter() - start)
    start = time.perf_counter()
    pair = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(2)]
    for process in pair:
        process.wait()
    both = 2 * REFERENCE_CPU / (time.perf_counter() - start)
    return alone, both


def judged(game: str, jobs: int, extra: list[str]) -> tuple[float, float, str]:
    """One ``analyse --depth sim`` run: wall seconds, CPU seconds (with its workers) and
    the judgements it printed (JSON of each turn's judgement and the Mistake Index)."""
    lexicon = str(_data_dir() / "lexica" / "ENABLE.kwg")
    command = [sys.executable, "-m", "gcgtools", "analyse", game, "--lexicon", lexicon,
               "--depth", "sim", "--no-cache", "-q", "-f", "json", "-j", str(jobs),
               *extra]  # fmt: skip
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    data = json.loads(done.stdout.splitlines()[0])
    marks = [t.get("judgement") for t in data["turns"]]
    return wall, _children_cpu() - cpu, json.dumps([marks, data.get("mistake_index")])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(_corpus()))
    parser.add_argument("--game", default=GAME, help="a .gcg (below the corpus, or a path)")
    parser.add_argument("--jobs", type=int, action="append", default=None)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--sim-iterations", type=int, default=None)
    parser.add_argument("--sim-candidates", type=int, default=None)
    args = parser.parse_args(argv)
    game = Path(args.game) if Path(args.game).is_file() else Path(args.corpus) / args.game
    extra = []
    for name in ("sim_iterations", "sim_candidates"):
        if getattr(args, name) is not None:
            extra += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    jobs = args.jobs or [1, 2]
    runs: dict[int, list[tuple[float, float]]] = {j: [] for j in jobs}
    outputs: set[str] = set()
    gains: list[float] = []
    shown = " ".join(["analyse --depth sim", *extra])
    print(f"game: {game}; {shown} (cores: {os.cpu_count()})")
    for round_ in range(1, args.repeat + 1):
        alone, both = reference()
        gains.append(both / alone)
        print(f"round {round_}: reference: a process alone gets {alone:.2f} core, two at "
              f"once {both:.2f} in all (load average {os.getloadavg()[0]:.1f})")  # fmt: skip
        for j in jobs:
            wall, cpu, out = judged(str(game), j, extra)
            runs[j].append((wall, cpu))
            outputs.add(out)
            print(f"  -j {j}: {wall:7.1f} s wall, {cpu:7.1f} s CPU")
    base = statistics.median(w for w, _ in runs[jobs[0]])
    for j in jobs:
        wall = statistics.median(w for w, _ in runs[j])
        cpu = statistics.median(c for _, c in runs[j])
        print(f"-j {j}: median {wall:.1f} s wall, {cpu:.1f} s CPU; speed-up {base / wall:.2f}")
    print(f"reference speed-up two processes could get: median {statistics.median(gains):.2f}")
    print(f"same judgements for every -j: {'yes' if len(outputs) == 1 else 'NO'}")
    return 0 if len(outputs) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
