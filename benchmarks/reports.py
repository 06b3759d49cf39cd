"""Benchmark: the report commands' library calls on an archive of 20,000 files.

The ``valid/`` records of the corpus (``GCGTOOLS_CORPUS`` or the first argument) are copied
over and over into a temporary folder until it holds ``--count`` files (20,000 by default,
1,000 per subfolder). Then, each in a fresh Python process so that memory is measured on
its own:

* ``stats``  - ``archive_stats(folder)``: per-player statistics (what ``gcgtools stats`` does);
* ``export`` - ``write_moves(folder, moves.parquet, games_out=games.parquet)``: the streamed
  export (what ``gcgtools export`` does);

with ``--jobs 1`` and with all cores. It prints games per second, games per second per
core, and peak memory: ``ru_maxrss`` of the main process and of its largest worker
(``RUSAGE_CHILDREN``), their sum main + workers x largest worker (an upper bound: forked
workers share the parent's pages, which ``ru_maxrss`` counts in each), and the peak of the
proportional set size (PSS, shared pages counted once) of the process and its workers
together, sampled every 50 ms from /proc. The memory target is checked on the PSS.

Each task runs ``--repeat`` times (3 by default) for the time, alone, and once more for
the PSS; the table shows the median run (and the best per-core rate), and the targets are
judged on the median, so that one lucky run on a noisy machine does not pass them. Reading
``/proc/PID/smaps_rollup`` walks the page tables of every process (a few milliseconds
each time); sampled every 50 ms during the timed run, that would take CPU from the
workers it measures, which on a machine with few cores would be charged to the program.

    python benchmarks/reports.py /work/shared/corpus
    python benchmarks/reports.py --count 5000 --jobs 1 --jobs 4 --repeat 1

Targets: at least 1,000 games per second per core; peak memory under 300 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_PER_CORE = 1000.0
TARGET_MB = 300.0
PER_FOLDER = 1000


def materialise(corpus: Path, folder: Path, count: int) -> int:
    """Copy the corpus's valid/ records into ``folder`` until it holds ``count`` files."""
    sources = sorted((corpus / "valid").rglob("*.gcg"))
    if not sources:
        sys.exit(f"no *.gcg file under {corpus / 'valid'}")
    blobs = [p.read_bytes() for p in sources]
    for i in range(count):
        sub = folder / f"part{i // PER_FOLDER:03}"
        if i % PER_FOLDER == 0:
            sub.mkdir(parents=True)
        (sub / f"g{i:06}.gcg").write_bytes(blobs[i % len(blobs)])
    return len(sources)


def child(task: str, folder: str, jobs: int, out: str) -> None:
    """Run one task in this (fresh) process and print its measurements as JSON."""
    start = time.perf_counter()
    if task == "stats":
        from gcgtools.tables.stats import archive_stats

        table = archive_stats([folder], jobs=jobs)
        games, unreadable = table.attrs["games"], len(table.attrs["unreadable"])
    else:
        from gcgtools.tables.frames import write_moves

        summary = write_moves(
            [folder], Path(out) / "moves.parquet", games_out=Path(out) / "games.parquet",
            jobs=jobs,
        )  # fmt: skip
        games, unreadable = summary.games, len(summary.unreadable)
    seconds = time.perf_counter() - start
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({
        "seconds": seconds, "games": games, "unreadable": unreadable,
        "main_mb": me, "worker_mb": workers,
    }))  # fmt: skip


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (Linux /proc)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            tasks = Path(f"/proc/{p}/task").iterdir()
            for task in tasks:
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            continue
    return found


def _pss_mb(pids: list[int]) -> float:
    """Proportional set size of ``pids`` together: shared pages (the parent's copy-on-write
    pages in forked workers) counted once in total, unlike ``ru_maxrss``."""
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return total / 1024


def _run(task: str, folder: Path, jobs: int, out: Path, sample: bool) -> dict[str, float]:
    """Run one task in a fresh process; with ``sample``, sample the PSS of it and its
    workers every 50 ms meanwhile."""
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", task, "--jobs", str(jobs), "--out", str(out),
         str(folder)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    peak = 0.0
    if sample:
        while proc.poll() is None:
            peak = max(peak, _pss_mb(_descendants(proc.pid)))
            time.sleep(0.05)
    stdout, _ = proc.communicate()
    if proc.returncode:
        sys.exit(f"{task} --jobs {jobs} failed with exit code {proc.returncode}")
    result: dict[str, float] = json.loads(stdout.strip().splitlines()[-1])
    result["pss_mb"] = peak
    return result


def measure(task: str, folder: Path, jobs: int, out: Path, repeat: int) -> dict[str, float]:
    """The times of ``repeat`` runs alone (the median run's figures, and the best time),
    and the memory of another run sampled as it goes."""
    runs = sorted(
        (_run(task, folder, jobs, out, sample=False) for _ in range(repeat)),
        key=lambda r: r["seconds"],
    )
    timed = runs[len(runs) // 2]
    timed["best_seconds"] = runs[0]["seconds"]
    timed["pss_mb"] = _run(task, folder, jobs, out, sample=True)["pss_mb"]
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=os.environ.get("GCGTOOLS_CORPUS"))
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, action="append", help="default: 1 and all cores")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per task (median)")
    parser.add_argument("--child", choices=("stats", "export"), help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.corpus, args.jobs[0], args.out)
        return
    if not args.corpus:
        sys.exit("give the corpus folder, or set GCGTOOLS_CORPUS")
    from gcgtools.batch.run import default_jobs

    cores = default_jobs()
    jobs_list = args.jobs or sorted({1, cores})
    work = Path(tempfile.mkdtemp(prefix="gcgtools-bench-"))
    try:
        folder = work / "archive"
        start = time.perf_counter()
        distinct = materialise(Path(args.corpus), folder, args.count)
        print(
            f"{args.count} files ({distinct} distinct records) written in "
            f"{time.perf_counter() - start:.1f}s to {folder}; {cores} core(s)"
        )
        print(f"{'task':<7} {'jobs':>4} {'games':>6} {'seconds':>8} {'games/s':>8} "
              f"{'per core':>8} {'best/core':>9} {'main MB':>8} {'worker MB':>9} "
              f"{'bound MB':>8} {'PSS MB':>7}")  # fmt: skip
        ok = True
        for task in ("stats", "export"):
            for jobs in jobs_list:
                out = work / f"out-{task}-{jobs}"
                out.mkdir()
                m = measure(task, folder, jobs, out, max(1, args.repeat))
                rate = m["games"] / m["seconds"]
                best = m["games"] / m["best_seconds"] / jobs
                workers = jobs if jobs > 1 else 0
                bound = m["main_mb"] + workers * m["worker_mb"]
                ok &= rate / jobs >= TARGET_PER_CORE and m["pss_mb"] < TARGET_MB
                print(
                    f"{task:<7} {jobs:>4} {m['games']:>6} {m['seconds']:>8.2f} {rate:>8.0f} "
                    f"{rate / jobs:>8.0f} {best:>9.0f} {m['main_mb']:>8.0f} "
                    f"{m['worker_mb'] if workers else 0:>9.0f} {bound:>8.0f} "
                    f"{m['pss_mb']:>7.0f}"
                )
                shutil.rmtree(out)
        print(
            f"targets: {TARGET_PER_CORE:.0f} games/s per core, peak under {TARGET_MB:.0f} MB: "
            + ("met" if ok else "NOT met")
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
