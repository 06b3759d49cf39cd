"""Benchmark: Monte Carlo simulation iterations per second on one core, at 2 plies, on
real mid-game positions.

Positions come from the corpus (``GCGTOOLS_CORPUS`` or the first argument): records on
the standard board with English tiles are replayed and every turn whose full rack the
record shows, on a board that holds tiles, with at least ``--min-bag`` tiles in the bag,
is a candidate position; ``--positions`` of them are taken, spread evenly over the
corpus. Each is simulated (:func:`gcgtools.analysis.simulate.simulate`, ENABLE lexicon,
CSW21 leaves, the built-in win model) with ``--candidates`` candidates for
``--iterations`` iterations of ``--plies`` plies and no early dropping, so that every
candidate runs every iteration.

An *iteration* here is one candidate played out against one draw: the candidate, then
``plies`` static best moves (each a full move generation). Prints iterations per second
of CPU time of this process (one core) and of wall time, per position the median, and
the target line.

    python benchmarks/simulate.py /work/shared/corpus [--positions 20] [--iterations 16]

``--export-cgp FILE``: write the positions to FILE as CGP lines (the player to move's
rack, the opponent's empty, scores of the player to move first) instead of simulating,
so that another program can simulate the same positions (the comparison with MAGPIE in
docs/analysis-deep.md: 12 positions, 10 candidates x 5,000 iterations, each position
simulated here and then by MAGPIE, in turn).

``--reference``: the samples computed by the Python reference sampler (the move
generator still in C) instead of the C playouts, for comparison.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

TARGET_PER_SECOND = 5000.0


def _data_dir() -> Path:
    env = os.environ.get("GCGTOOLS_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "data"


def positions(root: Path, count: int, min_bag: int) -> list[object]:
    """``count`` simulation positions spread over the corpus's qualifying turns."""
    from gcgtools.analysis.simulate import position_from_board
    from gcgtools.movegen.turns import standard_games, turn_positions

    found = []
    for _, game, rules in standard_games([root], two_players=True):
        for turn in turn_positions(game, rules):
            rack = turn.rack
            ok = rack is not None and len(rack) == rules.rack_size
            if ok and turn.bag >= min_bag and not turn.board.is_empty():
                p = turn.player if turn.player is not None else 0
                s = turn.scores if len(turn.scores) == 2 else [0, 0]
                try:
                    found.append(position_from_board(turn.board, rules, rack, (s[p], s[1 - p])))
                except ValueError:  # a record whose tiles do not add up
                    pass
    if not found:
        return []
    step = max(len(found) / count, 1.0)
    return [found[int(i * step)] for i in range(min(count, len(found)))]


def warm_up(pos: object, lexicon: object, leaves: object) -> None:
    """One best move on ``pos``: makes what a process makes once, on its first search
    (the lexicon's anagram and word indexes, the KLV's leave values)."""
    from gcgtools.movegen import MoveRequest, generate_best

    request = MoveRequest(pos.rack, leaves=leaves, bag_count=20, rules=pos.rules)  # type: ignore[attr-defined,arg-type]
    generate_best(pos.board, lexicon, request)  # type: ignore[attr-defined,arg-type]


def export_cgp(target: str, found: list[object]) -> None:
    """Write the positions to ``target`` as CGP lines (atomically)."""
    from gcgtools.movegen.cgp import write_cgp
    from gcgtools.sources.atomic import atomic_output

    lines = [f"{write_cgp(p.board, (p.rack, ()), p.scores, p.zeros)}\n" for p in found]  # type: ignore[attr-defined]
    with atomic_output(target) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        fh.writelines(lines)
    print(f"{len(lines)} positions written to {target}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="?", default=os.environ.get("GCGTOOLS_CORPUS"))
    ap.add_argument("--lexicon", default=str(_data_dir() / "lexica" / "ENABLE.kwg"))
    ap.add_argument("--leaves", default=None, help="default: CSW21.klv2 beside the lexicon")
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=16)
    ap.add_argument("--candidates", type=int, default=5)
    ap.add_argument("--plies", type=int, default=2)
    ap.add_argument("--min-bag", type=int, default=14)
    ap.add_argument("--export-cgp", metavar="FILE", help="write the positions as CGP lines")
    ap.add_argument("--reference", action="store_true", help="the Python playouts, not C's")
    args = ap.parse_args()
    if not args.corpus:
        sys.exit("name the corpus folder (or set GCGTOOLS_CORPUS)")

    from gcgtools.analysis.simulate import SimLimit, simulate
    from gcgtools.lexicon import builtin_leaves, load_leaves, load_lexicon
    from gcgtools.movegen.core import native_module

    lexicon = load_lexicon(args.lexicon)
    path = Path(args.leaves) if args.leaves else Path(args.lexicon).with_name("CSW21.klv2")
    leaves = load_leaves(path) if path.is_file() else builtin_leaves()
    found = positions(Path(args.corpus), args.positions, args.min_bag)
    if not found:
        sys.exit("no position found")
    if args.export_cgp:
        export_cgp(args.export_cgp, found)
        return
    limit = SimLimit(iterations=args.iterations, candidates=args.candidates, plies=args.plies,
                     min_iterations=args.iterations + 1)  # fmt: skip
    engine = "C helper" if native_module() is not None else "pure Python"
    if args.reference:
        import gcgtools.analysis.simulate as sim

        sim.native_playouts = lambda *a, **k: None  # type: ignore[assignment]
        engine += ", Python playouts"
    print(f"generator: {engine}; {len(found)} positions; {args.candidates} candidates x "
          f"{args.iterations} iterations x {args.plies} plies each")  # fmt: skip
    c0 = time.process_time()
    warm_up(found[0], lexicon, leaves)
    print(f"the lexicon's and leaves' tables, made once a process (not timed below): "
          f"{time.process_time() - c0:.2f} s CPU")  # fmt: skip
    rates = []
    total_n, total_cpu, total_wall = 0, 0.0, 0.0
    for k, pos in enumerate(found):
        t0, c0 = time.perf_counter(), time.process_time()
        result = simulate(pos, lexicon, leaves, limit, seed=k)  # type: ignore[arg-type]
        cpu, wall = time.process_time() - c0, time.perf_counter() - t0
        n = sum(c.iterations for c in result.candidates)
        total_n, total_cpu, total_wall = total_n + n, total_cpu + cpu, total_wall + wall
        rates.append(n / cpu if cpu > 0 else float("inf"))
    rates.sort()
    per_core = total_n / total_cpu if total_cpu > 0 else float("inf")
    print(f"{total_n} iterations in {total_cpu:.1f} s CPU ({total_wall:.1f} s wall)")
    print(f"iterations/s per core: {per_core:.0f} (cpu), {total_n / total_wall:.0f} (wall); "
          f"per position median {rates[len(rates) // 2]:.0f}")  # fmt: skip
    met = "met" if per_core >= TARGET_PER_SECOND else "NOT met"
    print(f"target: {TARGET_PER_SECOND:.0f} iterations/s per core at 2 plies: {met}")


if __name__ == "__main__":
    main()
