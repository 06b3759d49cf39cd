"""Benchmark: every move of real mid-game positions, with its equity, on one core.

Positions come from the corpus (``GCGTOOLS_CORPUS`` or the first argument): every record on
the standard board with English tiles is replayed, and each turn whose rack the record
shows in full, played on a board that already holds tiles with tiles still in the bag, is
a position (positions whose rack holds two blanks included). For each,
:func:`gcgtools.movegen.generate_moves` lists every play, exchange and pass with score,
leave and equity (ENABLE lexicon, CSW21 leaves when found, else the built-in ones).

    python benchmarks/analyse.py /work/shared/corpus
    python benchmarks/analyse.py --limit 200 --pure      # the pure-Python generator
    python benchmarks/analyse.py --profile               # cProfile top 25

Prints positions per second, the median and 99th-percentile milliseconds per position
(wall clock, and the CPU time of this process, which other programs on a busy machine
disturb less), the lexicon's load time and the memory it takes.
Target: median at most 50 ms, 99th percentile under 500 ms.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

TARGET_MEDIAN_MS = 50.0
TARGET_P99_MS = 500.0


def _data_dir() -> Path:
    env = os.environ.get("GCGTOOLS_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "data"


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def positions(root: Path, limit: int | None) -> list[tuple[object, list[str], int]]:
    """``(board, rack, bag)`` of every qualifying turn of the corpus, in path order."""
    from gcgtools.model.load import load_game
    from gcgtools.model.paths import expand_paths
    from gcgtools.replay.engine import replay
    from gcgtools.replay.position import known_rack
    from gcgtools.replay.setup import rules_for
    from gcgtools.syntax.records import TURN_KINDS

    out: list[tuple[object, list[str], int]] = []
    for path in sorted(expand_paths([str(root)])):
        game = load_game(path)
        if game.unreadable:
            continue
        rules, _ = rules_for(game)
        if rules.tiles.name != "english" or rules.board.name != "CrosswordGame":
            continue
        prev = None
        for pos in replay(game, rules):
            e = pos.event
            if (
                prev is not None
                and e is not None
                and e.kind in TURN_KINDS
                and prev.bag > 0
                and not prev.board.is_empty()
            ):
                rack = known_rack(e.rack, rules.tiles)
                if rack is not None and len(rack) == rules.rack_size:
                    out.append((prev.board, rack, prev.bag))
                    if limit is not None and len(out) >= limit:
                        return out
            prev = pos
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=os.environ.get("GCGTOOLS_CORPUS"))
    parser.add_argument("--lexicon", default=str(_data_dir() / "lexica" / "ENABLE.kwg"))
    parser.add_argument("--leaves", default=None, help="default: CSW21.klv2 beside it")
    parser.add_argument("--limit", type=int, default=None, help="at most this many positions")
    parser.add_argument("--pure", action="store_true", help="pure Python (no C helper)")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if not args.corpus:
        sys.exit("name the corpus folder (or set GCGTOOLS_CORPUS)")
    if args.pure:
        os.environ["GCGTOOLS_PURE_PYTHON"] = "1"

    from gcgtools.lexicon import builtin_leaves, load_leaves, load_lexicon
    from gcgtools.movegen import generate_moves
    from gcgtools.movegen.engine import native_module

    before = rss_mb()
    start = time.perf_counter()
    lexicon = load_lexicon(args.lexicon)
    load_s = time.perf_counter() - start
    leaves_path = Path(args.leaves) if args.leaves else Path(args.lexicon).with_name("CSW21.klv2")
    leaves = load_leaves(leaves_path) if leaves_path.is_file() else builtin_leaves()
    found = positions(Path(args.corpus), args.limit)
    if not found:
        sys.exit("no position found")
    board0, rack0, bag0 = found[0]
    generate_moves(board0, rack0, lexicon, leaves=leaves, bag_count=bag0)  # type: ignore[arg-type]
    lexicon_mb = rss_mb() - before  # the lexicon and what the generator keeps of it

    print(f"lexicon {lexicon.name}: {len(lexicon)} words, loaded in {load_s * 1000:.0f} ms; "
          f"memory +{lexicon_mb:.0f} MB (lexicon and generator tables)")  # fmt: skip
    print(f"{leaves.describe()}")
    engine = "C helper" if native_module() is not None else "pure Python"
    print(f"generator: {engine}; {len(found)} positions "
          f"({sum(1 for _, r, _ in found if r.count('?') == 2)} with two blanks)")  # fmt: skip

    def run() -> tuple[list[float], list[float], list[int]]:
        wall, cpu, counts = [], [], []
        for board, rack, bag in found:
            t0, c0 = time.perf_counter(), time.process_time()
            moves = generate_moves(board, rack, lexicon, leaves=leaves, bag_count=bag)  # type: ignore[arg-type]
            wall.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
            counts.append(len(moves))
        return wall, cpu, counts

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run()
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    total_start = time.perf_counter()
    wall, cpu, counts = run()
    total = time.perf_counter() - total_start
    two = [i for i, (_, r, _) in enumerate(found) if r.count("?") == 2]
    print(f"{len(found) / total:.1f} positions/s; moves per position: median "
          f"{percentile([float(c) for c in counts], 0.5):.0f}, max {max(counts)}")  # fmt: skip
    for name, ms in (("wall", wall), ("cpu", cpu)):
        med, p99 = percentile(ms, 0.5), percentile(ms, 0.99)
        line = f"{name:>4}: median {med:.1f} ms, p99 {p99:.1f} ms, max {max(ms):.1f} ms"

        if two:
            line += f"; two blanks: median {percentile([ms[i] for i in two], 0.5):.1f} ms"
        print(line)
    med, p99 = percentile(cpu, 0.5), percentile(cpu, 0.99)
    ok = med <= TARGET_MEDIAN_MS and p99 < TARGET_P99_MS
    print(f"targets (cpu): median <= {TARGET_MEDIAN_MS:.0f} ms, p99 < {TARGET_P99_MS:.0f} ms: "
          f"{'met' if ok else 'NOT met'}")  # fmt: skip


if __name__ == "__main__":
    main()
