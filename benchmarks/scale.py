"""Benchmark: the batch commands on the local process pool and on a Dask cluster.

The ``valid/`` records of the corpus (``GCGTOOLS_CORPUS`` or the first argument) are
copied over and over into a temporary folder until it holds ``--count`` files (20,000 by
default), as ``benchmarks/reports.py`` does. Then each task runs, each time in a fresh
Python process (as the command would), on

* ``pool`` - the local process pool with ``--jobs`` workers (2 by default), and
* ``dask`` - a Dask ``LocalCluster`` of as many worker processes, set up as
  ``--scheduler local`` sets it up (``dask_backend.local_cluster``: one thread per worker,
  no profiler), started once by this script; each run connects to it by its address, as
  ``gcgtools validate ... --scheduler tcp://...`` does with a running cluster;

the tasks being what ``validate`` (``map_files(checker(), ...)``), ``stats``
(``archive_stats``) and ``export`` (``write_moves`` to Parquet, games too) do. Each
(task, backend) pair runs ``--repeat`` times (3 by default), pool and Dask alternating so
that a busy spell of the machine hits both alike; the median run is judged (the best run's
rate and overhead are shown beside it). The Dask overhead is ``pool rate / dask rate - 1``;
the target is under 15 %.

On a machine shared with other work the times say little, so the CPU seconds each run
costs are counted too, in every process involved (the run and its pool workers; with Dask
also the cluster's workers, their nannies and the scheduler, which runs in this script's
process): CPU milliseconds per game, and the overhead they show, ``dask CPU / pool CPU -
1``. Starting the LocalCluster (``--scheduler local`` does it once per command) is timed
apart: with a running cluster it is not paid at all.

    python benchmarks/scale.py /work/shared/corpus
    python benchmarks/scale.py --count 2000 --repeat 1
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import psutil  # noqa: E402  (comes with distributed)
from reports import materialise  # noqa: E402

TARGET_OVERHEAD = 0.15
TASKS = ("validate", "stats", "export")


def child(task: str, folder: str, jobs: int, scheduler: str | None, out: str) -> None:
    """Run one task in this (fresh) process and print its figures as JSON."""
    start = time.perf_counter()
    if task == "validate":
        from gcgtools.batch.checks import checker
        from gcgtools.batch.run import map_files

        reports = list(map_files(checker(), [folder], jobs=jobs, scheduler=scheduler))
        games = sum(not r.unreadable for r in reports)
    elif task == "stats":
        from gcgtools.tables.stats import archive_stats

        games = archive_stats([folder], jobs=jobs, scheduler=scheduler).attrs["games"]
    else:
        from gcgtools.tables.frames import write_moves

        games = write_moves(
            [folder], Path(out) / "moves.parquet", games_out=Path(out) / "games.parquet",
            jobs=jobs, scheduler=scheduler,
        ).games  # fmt: skip
    print(json.dumps({"seconds": time.perf_counter() - start, "games": games}))


def _cpu(processes: list[psutil.Process]) -> float:
    """CPU seconds (user + system) used so far by this process, its reaped children
    (a finished run and its pool workers) and ``processes`` (the cluster's)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
    for proc in processes:
        try:
            times = proc.cpu_times()
            total += times.user + times.system
        except psutil.Error:
            continue
    return total


def run(
    task: str, folder: Path, jobs: int, scheduler: str | None, out: Path,
    cluster: list[psutil.Process],
) -> dict[str, float]:  # fmt: skip
    """One run in a fresh process: its figures, and the CPU seconds it cost everywhere
    (itself, its workers; with Dask also the cluster's workers, nannies and scheduler)."""
    args = [sys.executable, __file__, "--child", task, "--jobs", str(jobs), "--out", str(out)]
    if scheduler:
        args += ["--scheduler", scheduler]
    before = _cpu(cluster)
    done = subprocess.run([*args, str(folder)], capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"{task} ({scheduler or 'pool'}) failed:\n{done.stderr}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    result["cpu"] = _cpu(cluster) - before
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=os.environ.get("GCGTOOLS_CORPUS"))
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=2, help="pool processes = Dask workers")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per pair (median)")
    parser.add_argument("--task", choices=TASKS, action="append", help="default: all three")
    parser.add_argument("--child", choices=TASKS, help=argparse.SUPPRESS)
    parser.add_argument("--scheduler", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.corpus, args.jobs, args.scheduler, args.out)
        return
    if not args.corpus:
        sys.exit("give the corpus folder, or set GCGTOOLS_CORPUS")
    from distributed import Client

    from gcgtools.batch.dask_backend import local_cluster

    work = Path(tempfile.mkdtemp(prefix="gcgtools-scale-"))
    stack = contextlib.ExitStack()  # the cluster, closed even when a run fails
    try:
        folder = work / "archive"
        distinct = materialise(Path(args.corpus), folder, args.count)
        print(f"{args.count} files ({distinct} distinct records); {args.jobs} pool processes "
              f"vs {args.jobs} Dask workers, median of {args.repeat}")  # fmt: skip
        start = time.perf_counter()
        cluster = local_cluster(args.jobs)  # as --scheduler local starts it
        client = Client(cluster)
        stack.callback(cluster.close)
        stack.callback(client.close)
        started = time.perf_counter() - start
        print(f"LocalCluster of {args.jobs} workers started in {started:.1f}s")
        address = cluster.scheduler_address
        # the workers' first task imports gcgtools: done once, as on a cluster in use
        cluster_processes = psutil.Process().children(recursive=True)  # nannies, workers
        run("validate", folder / "part000", args.jobs, address, work, cluster_processes)
        print(f"{'task':<9} {'backend':<5} {'games':>6} {'seconds':>8} {'games/s':>8} "
              f"{'best/s':>7} {'CPU ms/game':>11} {'overhead':>8} {'best':>7} "
              f"{'CPU':>7}")  # fmt: skip
        ok_wall = ok_cpu = True
        for task in args.task or TASKS:
            times: dict[str, list[float]] = {"pool": [], "dask": []}
            cpu: dict[str, list[float]] = {"pool": [], "dask": []}
            games = 0
            for _ in range(max(1, args.repeat)):
                for backend, scheduler in (("pool", None), ("dask", address)):
                    out = work / f"out-{task}-{backend}"
                    out.mkdir(exist_ok=True)
                    m = run(task, folder, args.jobs, scheduler, out, cluster_processes)
                    times[backend].append(m["seconds"])
                    cpu[backend].append(m["cpu"])
                    games = int(m["games"])
                    shutil.rmtree(out)
            rates = {b: games / statistics.median(t) for b, t in times.items()}
            best = {b: games / min(t) for b, t in times.items()}
            per_game = {b: statistics.median(c) / games * 1000 for b, c in cpu.items()}
            overhead = rates["pool"] / rates["dask"] - 1
            best_overhead = best["pool"] / best["dask"] - 1
            cpu_overhead = per_game["dask"] / per_game["pool"] - 1
            ok_wall &= overhead < TARGET_OVERHEAD
            ok_cpu &= cpu_overhead < TARGET_OVERHEAD
            for backend in ("pool", "dask"):
                extra = (f"{overhead:>+8.1%} {best_overhead:>+7.1%} {cpu_overhead:>+7.1%}"
                         if backend == "dask" else "")  # fmt: skip
                print(f"{task:<9} {backend:<5} {games:>6} "
                      f"{statistics.median(times[backend]):>8.2f} {rates[backend]:>8.0f} "
                      f"{best[backend]:>7.0f} {per_game[backend]:>11.2f} {extra}")  # fmt: skip
        print(f"target: Dask overhead under {TARGET_OVERHEAD:.0%}: "
              f"by time {'met' if ok_wall else 'NOT met'}, "
              f"by CPU {'met' if ok_cpu else 'NOT met'}")  # fmt: skip
    finally:
        stack.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
