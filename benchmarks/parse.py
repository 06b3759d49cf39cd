"""Parsing throughput of gcgtools on the shared corpus (single process).

Run 1 parses every ``*.gcg`` of the corpus once, from disk (``read_game``).
Run 2 parses the corpus repeated to ``--count`` files (20,000 by default) from bytes held in
memory (``parse_bytes``), so that it measures parsing, not the disk.

    python benchmarks/parse.py                    # corpus from $GCGTOOLS_CORPUS
    python benchmarks/parse.py ../shared/corpus   # or given on the command line
    python benchmarks/parse.py --profile          # + top 25 functions by cumulative time

The target is 1,000 games per second on one core.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
from pathlib import Path

from gcgtools import parse_bytes, read_game

TARGET = 1000.0  # games per second, one core


def corpus_files(root: Path) -> list[Path]:
    """All ``*.gcg`` files under ``root`` (valid/ and invalid/ alike), sorted."""
    return sorted(p for p in root.rglob("*.gcg") if p.is_file())


def from_disk(files: list[Path]) -> tuple[float, int]:
    """Seconds to read and parse every file once, and the number of events read."""
    start = time.perf_counter()
    events = sum(len(read_game(path).events) for path in files)
    return time.perf_counter() - start, events


def from_memory(blobs: list[bytes], count: int) -> tuple[float, int]:
    """Seconds to parse ``count`` records cycling through ``blobs``, and the events read."""
    repeated = [blobs[i % len(blobs)] for i in range(count)]
    start = time.perf_counter()
    events = sum(len(parse_bytes(data).events) for data in repeated)
    return time.perf_counter() - start, events


def report(label: str, games: int, seconds: float, events: int) -> float:
    rate = games / seconds if seconds else float("inf")
    print(
        f"{label:<34} {games:>6} games {seconds:8.3f} s {rate:9.1f} games/s "
        f"({events / seconds if seconds else 0:,.0f} events/s)"
    )
    return rate


def profile(blobs: list[bytes], count: int, top: int = 25) -> None:
    repeated = [blobs[i % len(blobs)] for i in range(count)]
    profiler = cProfile.Profile()
    profiler.enable()
    for data in repeated:
        parse_bytes(data)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs().sort_stats("cumulative").print_stats(top)
    print(f"\nProfile of {count} in-memory parses, top {top} functions by cumulative time:")
    print(out.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "corpus",
        nargs="?",
        help="corpus folder (default: $GCGTOOLS_CORPUS); every *.gcg below it is used",
    )
    parser.add_argument(
        "--count", type=int, default=20_000, help="records in the in-memory run (20000)"
    )
    parser.add_argument(
        "--profile", action="store_true", help="print the top 25 functions (cProfile)"
    )
    parser.add_argument(
        "--profile-count",
        type=int,
        default=2_000,
        help="records parsed under the profiler (2000; profiling is ~2x slower)",
    )
    args = parser.parse_args(argv)

    folder = args.corpus or os.environ.get("GCGTOOLS_CORPUS")
    if not folder:
        parser.error("give the corpus folder as an argument or set GCGTOOLS_CORPUS")
    root = Path(folder)
    if not root.is_dir():
        parser.error(f"{root} is not a folder")
    files = corpus_files(root)
    if not files:
        parser.error(f"no *.gcg file under {root}")

    python = sys.version.split()[0]
    print(f"gcgtools parse benchmark: {len(files)} files under {root}, Python {python}")
    blobs = [path.read_bytes() for path in files]
    parse_bytes(blobs[0])  # build the Lark parser outside the timings

    seconds, events = from_disk(files)
    report("corpus once (from disk)", len(files), seconds, events)
    seconds, events = from_memory(blobs, args.count)
    rate = report(f"corpus repeated to {args.count} (memory)", args.count, seconds, events)
    verdict = "meets" if rate >= TARGET else "is BELOW"
    print(f"in-memory rate {verdict} the target of {TARGET:,.0f} games/s")

    if args.profile:
        profile(blobs, args.profile_count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
