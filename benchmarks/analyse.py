"""Benchmark: the engine on real mid-game positions, on one core: every move with its
equity, and the best move only.

Positions come from the corpus (``GCGTOOLS_CORPUS`` or the first argument): every record on
the standard board with English tiles is replayed, and each turn whose rack the record
shows in full, played on a board that already holds tiles with tiles still in the bag, is
a position (positions whose rack holds two blanks included). For each, the engine
(ENABLE lexicon, CSW21 leaves when found, else the built-in ones) lists

* every play, exchange and pass with score, leave and equity
  (:func:`gcgtools.movegen.generate_moves`),
* the best move only (:func:`gcgtools.movegen.best_move`, the same move as the first of
  the full list, found by pruning anchors by their upper bounds),
* the best move again on an :class:`~gcgtools.movegen.EngineBoard` kept for the position
  (what a simulation does between two plies: the board's cross-sets are already there),

with the C helper, then in pure Python on the first ``--pure-limit`` positions.

    python benchmarks/analyse.py /work/shared/corpus
    python benchmarks/analyse.py --limit 200 --pure      # the pure-Python engine only
    python benchmarks/analyse.py --profile               # cProfile top 25 (all moves)
    python benchmarks/analyse.py --passes 3              # also: best of 3 shuffled passes

Prints positions per second, the median and 99th-percentile milliseconds per position
(the CPU time of this process, which other programs on a busy machine disturb less than
the wall clock), the lexicon's load time and the memory it takes.
Targets (C helper, CPU): every move with equity, median at most 0.5 ms; the best move
only, median at most 0.08 ms.

``--passes N`` (N > 1) also times the best move only in N passes over the positions, each
in its own shuffled order (seed 1) and timed whole, and prints the mean and median of the
fastest pass: a figure that moves less with the machine than a single pass does, for
comparing two builds run in turn (not the target's figure, which is the single pass).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from pathlib import Path

TARGET_ALL_MS = 0.5
TARGET_BEST_MS = 0.08


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
    from gcgtools.movegen.turns import standard_games, turn_positions

    out: list[tuple[object, list[str], int]] = []
    for _, game, rules in standard_games([root]):
        for turn in turn_positions(game, rules):
            rack = turn.rack
            if turn.bag > 0 and not turn.board.is_empty() and rack is not None:
                if len(rack) == rules.rack_size:
                    out.append((turn.board, rack, turn.bag))
                    if limit is not None and len(out) >= limit:
                        return out
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


Timed = tuple[list[float], list[float], list[int]]


def timed(found: list[tuple[object, list[str], int]], call: object) -> Timed:
    """CPU and wall milliseconds of ``call(index, board, rack, bag)`` per position, and
    how many moves it gave."""
    wall, cpu, counts = [], [], []
    for k, (board, rack, bag) in enumerate(found):
        t0, c0 = time.perf_counter(), time.process_time()
        out = call(k, board, rack, bag)  # type: ignore[operator]
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
        counts.append(len(out) if isinstance(out, list) else 1)
    return cpu, wall, counts


def best_pass(found: list[tuple[object, list[str], int]], call: object, passes: int) -> str:
    """The mean and median CPU milliseconds of the fastest of ``passes`` passes over
    ``found``, each in its own shuffled order."""
    rng = random.Random(1)
    best: list[float] | None = None
    for _ in range(passes):
        order = list(range(len(found)))
        rng.shuffle(order)
        cpu, _wall, _n = timed([found[i] for i in order], lambda _k, *a: call(*a))  # type: ignore[operator]
        if best is None or sum(cpu) < sum(best):
            best = cpu
    assert best is not None
    return f"mean {sum(best) / len(best):.3f} ms, median {percentile(best, 0.5):.3f} ms"


def report(title: str, result: Timed, found: list[tuple[object, list[str], int]]) -> float:
    """Print one figure; return its CPU median."""
    cpu, wall, counts = result
    two = [i for i, (_, r, _) in enumerate(found) if r.count("?") == 2]
    rate = len(cpu) / (sum(cpu) / 1000)
    moves = percentile([float(c) for c in counts], 0.5)
    print(f"{title}: {rate:.0f} positions/s (cpu); moves per position: median {moves:.0f}, "
          f"max {max(counts)}")  # fmt: skip
    for name, ms in (("cpu", cpu), ("wall", wall)):
        med, p99 = percentile(ms, 0.5), percentile(ms, 0.99)
        line = f"  {name:>4}: median {med:.3f} ms, p99 {p99:.3f} ms, max {max(ms):.1f} ms"
        if two:
            line += f"; two blanks: median {percentile([ms[i] for i in two], 0.5):.3f} ms"
        print(line)
    return percentile(cpu, 0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=os.environ.get("GCGTOOLS_CORPUS"))
    parser.add_argument("--lexicon", default=str(_data_dir() / "lexica" / "ENABLE.kwg"))
    parser.add_argument("--leaves", default=None, help="default: CSW21.klv2 beside it")
    parser.add_argument("--limit", type=int, default=None, help="at most this many positions")
    parser.add_argument("--pure-limit", type=int, default=200,
                        help="positions for the pure-Python figures (0: none)")  # fmt: skip
    parser.add_argument("--pure", action="store_true", help="pure Python only (no C helper)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--passes", type=int, default=1,
                        help="also the best of N shuffled passes (best move only)")  # fmt: skip
    args = parser.parse_args()
    if not args.corpus:
        sys.exit("name the corpus folder (or set GCGTOOLS_CORPUS)")
    if args.pure:
        os.environ["GCGTOOLS_PURE_PYTHON"] = "1"

    from gcgtools.lexicon import builtin_leaves, load_leaves, load_lexicon
    from gcgtools.movegen import EngineBoard, best_move, generate_moves
    from gcgtools.movegen.core import PURE_ENV, native_module, read_pure_switch

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
    best_move(board0, rack0, lexicon, leaves=leaves, bag_count=bag0)  # type: ignore[arg-type]
    lexicon_mb = rss_mb() - before  # the lexicon and what the generator keeps of it
    # (the first best move builds the lexicon's anagram and word indexes, once: not timed)

    print(f"lexicon {lexicon.name}: {len(lexicon)} words, loaded in {load_s * 1000:.0f} ms; "
          f"memory +{lexicon_mb:.0f} MB (lexicon and generator tables)")  # fmt: skip
    print(f"{leaves.describe()}")
    native = native_module() is not None
    print(f"engine: {'C helper' if native else 'pure Python'}; {len(found)} positions "
          f"({sum(1 for _, r, _ in found if r.count('?') == 2)} with two blanks)")  # fmt: skip

    def every(_k: int, board: object, rack: list[str], bag: int) -> object:
        return generate_moves(board, rack, lexicon, leaves=leaves, bag_count=bag)  # type: ignore[arg-type]

    def best(_k: int, board: object, rack: list[str], bag: int) -> object:
        return best_move(board, rack, lexicon, leaves=leaves, bag_count=bag)  # type: ignore[arg-type]

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        timed(found, every)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    engine = "C helper" if native else "pure Python"
    all_ms = report(f"all moves with equity, {engine}", timed(found, every), found)
    best_ms = report(f"best move only, {engine}", timed(found, best), found)
    if args.passes > 1:
        figure = best_pass(found, lambda *a: best(0, *a), args.passes)
        print(f"best move only, {engine}, fastest of {args.passes} shuffled passes: {figure}")
    kept = [EngineBoard(b, lexicon) for b, _, _ in found]  # type: ignore[arg-type]

    def on_kept(k: int, _board: object, rack: list[str], bag: int) -> object:
        return kept[k].best_move(rack, leaves=leaves, bag_count=bag)

    report(f"best move on a kept EngineBoard, {engine}", timed(found, on_kept), found)
    if native and args.pure_limit > 0:
        os.environ[PURE_ENV] = "1"
        read_pure_switch()
        some = found[: args.pure_limit]
        report(
            f"all moves with equity, pure Python ({len(some)} positions)", timed(some, every), some
        )
        report(f"best move only, pure Python ({len(some)} positions)", timed(some, best), some)
        del os.environ[PURE_ENV]
        read_pure_switch()
    verdict = {True: "met", False: "NOT met"}
    all_ok, best_ok = verdict[all_ms <= TARGET_ALL_MS], verdict[best_ms <= TARGET_BEST_MS]
    print(f"targets (cpu, {engine}): all moves median <= {TARGET_ALL_MS} ms: {all_ok} "
          f"({all_ms:.3f} ms); best move median <= {TARGET_BEST_MS} ms: {best_ok} "
          f"({best_ms:.3f} ms)")  # fmt: skip


if __name__ == "__main__":
    main()
