"""Benchmark: parse + replay + validate GCG records held in memory.

The corpus (``GCGTOOLS_CORPUS`` or the first argument) is read once; its ``*.gcg`` files are
repeated until ``--count`` records (20,000 by default) are held in memory as bytes. Each
record is then parsed (:func:`gcgtools.parse_bytes`) and validated (:func:`gcgtools.validate`,
which replays it), first in this process, then across all cores with multiprocessing.

    python benchmarks/validate.py /work/shared/corpus
    python benchmarks/validate.py --count 5000 --jobs 4
    python benchmarks/validate.py --profile            # cProfile top 25, single process
    python benchmarks/validate.py --split --serial-only  # parse and validate timed apart

Target: at least 1,000 games per second per core.
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing
import os
import pstats
import sys
import time
from pathlib import Path

from gcgtools import parse_bytes, validate

TARGET_PER_CORE = 1000

_BLOBS: list[bytes] = []


def load_corpus(root: Path) -> list[bytes]:
    """The bytes of every ``*.gcg`` file under ``root``, sorted by path."""
    files = sorted(root.rglob("*.gcg"))
    if not files:
        sys.exit(f"no *.gcg file under {root}")
    return [f.read_bytes() for f in files]


def repeat(blobs: list[bytes], count: int) -> list[bytes]:
    """``count`` records: ``blobs`` over and over."""
    return [blobs[i % len(blobs)] for i in range(count)]


def check(data: bytes) -> int:
    """Parse and validate one record; the number of findings (so nothing is optimised away)."""
    game = parse_bytes(data)
    return len(validate(game).findings)


def run_serial(records: list[bytes]) -> tuple[float, int]:
    start = time.perf_counter()
    findings = sum(check(data) for data in records)
    return time.perf_counter() - start, findings


def _init_worker(blobs: list[bytes]) -> None:
    _BLOBS[:] = blobs


def _run_range(bounds: tuple[int, int]) -> int:
    start, stop = bounds
    blobs = _BLOBS
    return sum(check(blobs[i % len(blobs)]) for i in range(start, stop))


def run_parallel(blobs: list[bytes], count: int, jobs: int) -> tuple[float, int]:
    """Every worker holds the unique records in memory; tasks are ranges of the sequence."""
    chunk = max(1, count // (jobs * 16))
    ranges = [(i, min(i + chunk, count)) for i in range(0, count, chunk)]
    ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with ctx.Pool(jobs, initializer=_init_worker, initargs=(blobs,)) as pool:
        pool.map(_run_range, [(0, min(len(blobs), count))])  # warm the workers up
        start = time.perf_counter()
        findings = sum(pool.map(_run_range, ranges))
        elapsed = time.perf_counter() - start
    return elapsed, findings


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", help="corpus folder (default: $GCGTOOLS_CORPUS)")
    parser.add_argument("--count", type=int, default=20_000, help="records to process")
    parser.add_argument("--jobs", type=int, default=cores(), help="processes (default: cores)")
    parser.add_argument("--profile", action="store_true", help="cProfile the serial run")
    parser.add_argument("--sort", default="tottime", help="pstats sort key for --profile")
    parser.add_argument("--serial-only", action="store_true", help="skip the parallel run")
    parser.add_argument(
        "--split", action="store_true", help="also time parsing and validation apart"
    )
    args = parser.parse_args(argv)

    root = args.corpus or os.environ.get("GCGTOOLS_CORPUS")
    if not root:
        parser.error("give the corpus folder or set GCGTOOLS_CORPUS")
    blobs = load_corpus(Path(root))
    records = repeat(blobs, args.count)
    size = sum(map(len, records))
    print(f"{len(blobs)} files repeated to {len(records)} records ({size / 1e6:.1f} MB) in memory")

    for data in blobs:  # warm up: grammar, tile sets, boards
        check(data)

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        elapsed, findings = run_serial(records)
        profiler.disable()
        print(f"profiled serial: {len(records) / elapsed:,.0f} games/s (with profiler overhead)")
        pstats.Stats(profiler).strip_dirs().sort_stats(args.sort).print_stats(25)
        return 0

    elapsed, findings = run_serial(records)
    rate = len(records) / elapsed
    verdict = "ok" if rate >= TARGET_PER_CORE else f"BELOW the {TARGET_PER_CORE}/s target"
    print(f"single process: {rate:,.0f} games/s ({elapsed:.2f} s, {findings} findings) {verdict}")
    if args.split:
        start = time.perf_counter()
        games = [parse_bytes(data) for data in records]
        parsed = time.perf_counter() - start
        start = time.perf_counter()
        for game in games:
            validate(game)
        checked = time.perf_counter() - start
        print(
            f"  parse only: {len(records) / parsed:,.0f} games/s "
            f"({parsed / len(records) * 1e6:.0f} us/game); replay + validate only: "
            f"{len(records) / checked:,.0f} games/s ({checked / len(records) * 1e6:.0f} us/game)"
        )
    if args.serial_only:
        return 0
    jobs = max(1, args.jobs)
    elapsed, pfindings = run_parallel(blobs, len(records), jobs)
    rate = len(records) / elapsed
    print(
        f"{jobs} processes: {rate:,.0f} games/s ({elapsed:.2f} s, {pfindings} findings), "
        f"{rate / jobs:,.0f} games/s per core"
    )
    if pfindings != findings:
        print("warning: the parallel run found a different number of findings", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
