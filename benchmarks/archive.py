"""Benchmark: an archive of real records judged by ``analyse --depth sim``.

The archive is the first ``--games`` records of the corpus (path order) that gcgtools
reads and whose racks it knows on at least ``--min-turns`` turns (the turns a judge can
judge), found by one static ``analyse`` of every record. The archive is then judged
with ``analyse --depth sim --no-cache`` (ENABLE, the built-in leaves and win model) once
per mode: ``-j 1`` (one core), ``-j 2`` (two local worker processes) and ``dask``
(``--scheduler local -j 2``: a Dask LocalCluster of two single-threaded workers). Each
run is a fresh process, timed by its wall clock and by the CPU seconds of the process
and every process it waited for (its workers); the judgements of the modes are
compared, since they must be the same.

The machine may be shared: before each run a reference measures how much of the
machine a CPU-bound process gets now alone and two of them at once (the speed-up two
workers could reach at that moment), printed beside the run.

Prints, per mode, games per hour and CPU seconds per game (and per judged turn).
``--list FILE`` writes the archive's paths, one a line, for another program to judge
the same games.

    python benchmarks/archive.py [CORPUS] [--games 100] [--modes 1,2,dask] [--list FILE]

(``--sim-iterations``, ``--sim-candidates`` override the depth's settings: only for a
quick check that the script runs.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from deep import _corpus, _data_dir
from deep_jobs import _children_cpu, reference

CHUNK = 20  # records read by one static analyse while the archive is chosen
MODES = {"1": ["-j", "1"], "2": ["-j", "2"], "dask": ["--scheduler", "local", "-j", "2"]}


def _command(paths: list[str], *extra: str) -> list[str]:
    lexicon = str(_data_dir() / "lexica" / "ENABLE.kwg")
    return [sys.executable, "-m", "gcgtools", "analyse", *paths, "--lexicon", lexicon,
            "-q", "-f", "json", *extra]  # fmt: skip


def _records(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def _judgeable(paths: list[str]) -> list[tuple[str, int]]:
    """Each readable record of ``paths`` with its turns whose rack is known (one static
    ``analyse``)."""
    done = subprocess.run(_command(paths), capture_output=True, text=True)
    return [(r["path"], sum(t.get("status") == "analysed" for t in r["turns"]))
            for r in _records(done.stdout) if not r.get("unreadable")]  # fmt: skip


def archive(corpus: Path, games: int, min_turns: int) -> tuple[list[str], int]:
    """The archive's paths (the first ``games`` records with ``min_turns`` judgeable
    turns) and the judgeable turns they hold; the corpus is read ``CHUNK`` records at a
    time until the archive is full."""
    paths = sorted(str(p) for p in (corpus / "valid").rglob("*.gcg"))
    chosen: list[str] = []
    turns = 0
    for start in range(0, len(paths), CHUNK):
        for path, known in _judgeable(paths[start : start + CHUNK]):
            if known >= min_turns:
                chosen.append(path)
                turns += known
                if len(chosen) == games:
                    return chosen, turns
    return chosen, turns


def judged(paths: list[str], mode: str, extra: list[str]) -> tuple[float, float, str]:
    """One run: wall seconds, CPU seconds (with its workers) and the judgements."""
    command = _command(paths, "--depth", "sim", "--no-cache", *MODES[mode], *extra)
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"analyse failed ({done.returncode}): {done.stderr[-2000:]}")
    marks = [[r["path"], [t.get("judgement") for t in r["turns"]], r.get("mistake_index")]
             for r in _records(done.stdout)]  # fmt: skip
    return wall, _children_cpu() - cpu, json.dumps(sorted(marks, key=lambda m: m[0]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(_corpus()))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--min-turns", type=int, default=10)
    parser.add_argument("--modes", default="1,2,dask", help="of 1, 2 and dask")
    parser.add_argument("--list", type=Path, default=None, help="write the archive's paths")
    parser.add_argument("--sim-iterations", type=int, default=None)
    parser.add_argument("--sim-candidates", type=int, default=None)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    extra = []
    for name in ("sim_iterations", "sim_candidates"):
        if getattr(args, name) is not None:
            extra += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    paths, turns = archive(Path(args.corpus), args.games, args.min_turns)
    if not paths:
        raise SystemExit(f"no record under {args.corpus}/valid has {args.min_turns} turns "
                         "with the rack known")  # fmt: skip
    print(f"archive: {len(paths)} records, {turns} turns with the rack known "
          f"(cores: {os.cpu_count()}); analyse --depth sim {' '.join(extra)}")  # fmt: skip
    if args.list:
        args.list.write_text("".join(p + "\n" for p in paths), encoding="utf-8")
    outputs: set[str] = set()
    for mode in args.modes.split(","):
        alone, both = reference()
        wall, cpu, out = judged(paths, mode, extra)
        outputs.add(out)
        print(f"{mode:>4}: {wall:7.1f} s wall, {cpu:7.1f} s CPU; "
              f"{3600 * len(paths) / wall:6.0f} games/hour, {cpu / len(paths):5.2f} CPU s/game, "
              f"{1000 * cpu / max(turns, 1):5.0f} CPU ms/turn "
              f"(reference: {alone:.2f} core alone, {both:.2f} two at once; "
              f"load {os.getloadavg()[0]:.1f})")  # fmt: skip
    print(f"same judgements in every mode: {'yes' if len(outputs) == 1 else 'NO'}")
    return 0 if len(outputs) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
