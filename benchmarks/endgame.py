"""Benchmark: the exact endgame solver on the corpus' real endgames, on one core.

Positions: every turn of every record on the standard board with English tiles (two
players) played with the bag empty, whose rack the record shows, each side holding 7 or
fewer tiles (each distinct position once); the opponent's rack is the unseen tiles. Each
is solved with :func:`gcgtools.analysis.endgame.solve_endgame` within a budget of
``--seconds`` (wall clock) per position.

    python benchmarks/endgame.py /work/shared/corpus
    python benchmarks/endgame.py --limit 40 --seconds 10
    python benchmarks/endgame.py --part 1/2 & python benchmarks/endgame.py --part 2/2

``--part K/N`` takes every N-th position from the K-th, so that N processes (one a core)
share the positions; the figures are each part's. ``--racks MINE/THEIRS`` (repeatable)
keeps only the positions with those racks, the player to move's first (the letters in
any order, ``?`` a blank), so that a few hard positions can be given a long budget:

    python benchmarks/endgame.py --racks ABBDEVW/DIIQT --racks ??EPST/NNQ --seconds 1000

``--depths`` prints a line for each depth a search completes: the plies, the CPU seconds
of this process since that position's search began, the nodes, the value and the best
move at that depth (what a long search of one hard position is judged by).

Prints how many positions were proved within the budget, the median and 90th-percentile
seconds per position (wall clock and CPU time of this process), the median nodes and the
nodes per second, by tiles on both racks, and by group of tiles on both racks (7 or
fewer, 8 to 11, 12 to 14): positions, proved, median and largest CPU seconds, nodes per
CPU second. The search runs in C when the C helper is built (``endgame.c``); ``--python``
runs the Python search (the reference) instead. Target: median at most 2 s.

``--preendgame``: the pre-endgame solver instead, on the corpus' turns played with 1 to
4 tiles in the bag (the whole rack known; at most ``--limit`` positions per number of
tiles in the bag, in path order), each
within one total budget of ``--seconds`` and, when given, ``--nodes``. Prints per number
of tiles in the bag the positions, the scenarios (draws), how many were proved, the
median nodes and seconds, the largest share of the budget spent (nodes and seconds) and
the peak memory of the process.

    python benchmarks/endgame.py --preendgame --limit 5 --seconds 10 --nodes 100000

``--export-cgp FILE``: write the positions (endgames, or with ``--preendgame`` the
pre-endgames) to FILE instead of solving them, one a line: the record's file name, a
tab, the event number, a tab and the position as CGP (the player to move first; in a
pre-endgame the opponent's rack is empty and the bag is the unseen tiles beyond one
rack), so that another program can solve the same positions.

    python benchmarks/endgame.py --export-cgp endgames.tsv
    python benchmarks/endgame.py --preendgame --export-cgp preendgames.tsv
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

TARGET_MEDIAN_S = 2.0


def _data_dir() -> Path:
    env = os.environ.get("GCGTOOLS_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "data"


def positions(root: Path, lexicon, limit: int | None) -> list:
    """The endgame positions of the corpus, in path order."""
    from gcgtools.analysis.endgame import EndgameError, endgame_position
    from gcgtools.movegen.record import record_position
    from gcgtools.movegen.turns import standard_games
    from gcgtools.replay.walk import replay

    out = []
    seen = set()  # the corpus holds some games in several files: each position once
    for path, game, rules in standard_games([root], two_players=True):
        events = [p.number for p in replay(game, rules) if p.bag == 0 and p.number >= 1]
        for event in events:
            try:
                eg = endgame_position(record_position(game, event), lexicon)
            except EndgameError:
                continue
            key = (tuple(eg.board.cells), eg.racks)
            if max(len(r) for r in eg.racks) <= 7 and key not in seen:
                seen.add(key)
                out.append((Path(path).name, event, eg))
                if limit is not None and len(out) >= limit:
                    return out
    return out


def preendgame_positions(root: Path, lexicon, per_bag: int | None) -> list:
    """The pre-endgame positions of the corpus (1 to 4 tiles in the bag), in path order,
    at most ``per_bag`` for each number of tiles in the bag."""
    from gcgtools.analysis.endgame import MAX_PREENDGAME_BAG, EndgameError, preendgame_position
    from gcgtools.movegen.record import record_position
    from gcgtools.movegen.turns import standard_games
    from gcgtools.replay.walk import replay

    out = []
    seen = set()
    count: dict[int, int] = {}
    for path, game, rules in standard_games([root], two_players=True):
        events = [
            p.number
            for p in replay(game, rules)
            if 1 <= p.bag <= MAX_PREENDGAME_BAG and p.number >= 1 and not p.game_over
        ]
        for event in events:
            try:
                pos = preendgame_position(record_position(game, event), lexicon)
            except (EndgameError, ValueError, KeyError):
                continue
            # with tiles in the bag the rack is full (else the record shows part of it);
            # the corpus holds some games in several files: each position once
            key = (pos.rack, pos.unseen, pos.scores)
            full = len(pos.rack) == len(pos.unseen) - pos.bag_size == rules.rack_size
            if not full or key in seen or count.get(pos.bag_size, 0) >= (per_bag or 1 << 30):
                continue
            seen.add(key)
            count[pos.bag_size] = count.get(pos.bag_size, 0) + 1
            out.append((Path(path).name, event, pos))
            if per_bag is not None and all(count.get(k, 0) >= per_bag for k in (1, 2, 3, 4)):
                return out
    return out


def export_cgp(target: str, found: list) -> None:
    """Write ``found`` (file name, event, position) to ``target`` as tab-separated lines
    ``name, event, CGP`` (atomically)."""
    from gcgtools.analysis.endgame import EndgamePosition
    from gcgtools.movegen.cgp import write_cgp
    from gcgtools.sources.atomic import atomic_output

    lines = []
    for name, event, pos in found:
        racks = pos.racks if isinstance(pos, EndgamePosition) else (pos.rack, ())
        lines.append(f"{name}\t{event}\t{write_cgp(pos.board, racks, pos.scores, pos.zeros)}\n")
    with atomic_output(target) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        fh.writelines(lines)
    print(f"{len(lines)} positions written to {target}")


def run_preendgames(args: argparse.Namespace) -> None:
    import resource

    from gcgtools.analysis.endgame import Limit, solve_preendgame
    from gcgtools.lexicon import load_lexicon

    lexicon = load_lexicon(args.lexicon)
    found = preendgame_positions(Path(args.corpus), lexicon, args.limit)
    if not found:
        sys.exit("no position found")
    if args.export_cgp:
        export_cgp(args.export_cgp, found)
        return
    limit = Limit(nodes=args.nodes, seconds=args.seconds)
    print(f"lexicon {lexicon.name}; {len(found)} pre-endgame positions; one budget each: "
          f"{args.nodes or 'no'} nodes, {args.seconds:g} s")  # fmt: skip
    rows: dict[int, list[tuple[int, int, float, bool]]] = {}
    for name, event, pos in found:
        t0 = time.perf_counter()
        r = solve_preendgame(pos, limit)
        took = time.perf_counter() - t0
        rows.setdefault(pos.bag_size, []).append((r.scenarios, r.nodes, took, r.proved))
        if args.verbose:
            print(f"  {name} #{event} bag {pos.bag_size} {''.join(pos.rack)}: "
                  f"{r.best.move.notation()} {r.best.win_pct:.1f}% {r.best.spread:+.1f} "
                  f"{'proved' if r.proved else 'not proved'} {r.scenarios} draws, "
                  f"{len(r.stages)} stages, {r.nodes} nodes, {took:.2f} s")  # fmt: skip
    for k in sorted(rows):
        done = rows[k]
        nodes_share = max(n for _, n, _, _ in done) / args.nodes if args.nodes else 0.0
        print(f"  {k} in the bag: {len(done)} positions, draws median "
              f"{statistics.median(d for d, _, _, _ in done):.0f}, "
              f"{sum(p for _, _, _, p in done)} proved, nodes median "
              f"{statistics.median(n for _, n, _, _ in done):.0f}, seconds median "
              f"{statistics.median(t for _, _, t, _ in done):.2f}; most of the budget spent: "
              f"nodes {100 * nodes_share:.0f}%, seconds "
              f"{100 * max(t for _, _, t, _ in done) / args.seconds:.0f}%")  # fmt: skip
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"peak memory of the process: {peak} MB")


#: groups of tiles on both racks (the issue's)
GROUPS = ("<=7", "8-11", "12-14")


def _part(text: str) -> tuple[int, int]:
    """``K/N`` as ``(K, N)``, with 1 <= K <= N."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        sys.exit(f"--part: {text!r} is not K/N (say 1/2)")
    if not 1 <= k <= n:
        sys.exit(f"--part: {text!r}: K must be from 1 to N")
    return k, n


def _group(tiles: int) -> str:
    return GROUPS[0] if tiles <= 7 else GROUPS[1] if tiles <= 11 else GROUPS[2]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def rack_key(text: str) -> tuple[str, str]:
    """``MINE/THEIRS`` as two racks with their letters sorted, upper case."""
    sides = text.upper().split("/")
    if len(sides) != 2 or not all(sides):
        sys.exit(f"--racks: {text!r} is not MINE/THEIRS (say ABBDEVW/DIIQT)")
    mine, theirs = ("".join(sorted(side)) for side in sides)
    return mine, theirs


def with_racks(found: list, wanted: list[str]) -> list:
    """The positions of ``found`` whose racks are among ``wanted`` (see :func:`rack_key`);
    exits naming any rack that no position has."""
    keys = {rack_key(text): text for text in wanted}
    racks = [tuple("".join(sorted(r)) for r in eg.racks) for _, _, eg in found]
    kept = [f for f, key in zip(found, racks, strict=True) if key in keys]
    missing = [text for key, text in keys.items() if key not in racks]
    if missing:
        sys.exit(f"--racks: no endgame position has the racks {', '.join(missing)}")
    return kept


def _depth_printer(c0: float):
    """A callback for ``solve_endgame(on_depth=...)`` printing each depth completed."""

    def told(p) -> None:
        print(f"    depth {p.depth}: CPU {time.process_time() - c0:.1f} s, {p.nodes} nodes, "
              f"value {p.value:+d}, best {p.best}", flush=True)  # fmt: skip

    return told


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=os.environ.get("GCGTOOLS_CORPUS"))
    parser.add_argument("--lexicon", default=str(_data_dir() / "lexica" / "ENABLE.kwg"))
    parser.add_argument("--limit", type=int, default=None, help="at most this many positions")
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per position")
    parser.add_argument("--verbose", action="store_true", help="one line per position")
    parser.add_argument("--depths", action="store_true", help="one line per depth completed")
    parser.add_argument("--preendgame", action="store_true", help="pre-endgames (1-4 tiles)")
    parser.add_argument("--nodes", type=int, default=None, help="--preendgame: node budget")
    parser.add_argument("--export-cgp", metavar="FILE", help="write the positions as CGP lines")
    parser.add_argument("--python", action="store_true", help="the Python search, not the C one")
    parser.add_argument(
        "--part", default="1/1", metavar="K/N",
        help="only every N-th position from the K-th (run N processes, one a core)",
    )  # fmt: skip
    parser.add_argument(
        "--racks", action="append", default=[], metavar="MINE/THEIRS",
        help="only the positions with these racks, the player to move's first (repeatable)",
    )  # fmt: skip
    args = parser.parse_args()
    if not args.corpus:
        sys.exit("name the corpus folder (or set GCGTOOLS_CORPUS)")
    if args.preendgame:
        if args.racks:
            sys.exit("--racks: endgames only (a pre-endgame's other rack is not known)")
        run_preendgames(args)
        return

    from gcgtools.analysis.endgame import Limit, solve_endgame
    from gcgtools.lexicon import load_lexicon
    from gcgtools.movegen.core import native_module

    lexicon = load_lexicon(args.lexicon)
    found = positions(Path(args.corpus), lexicon, args.limit)
    if not found:
        sys.exit("no position found")
    part, parts = _part(args.part)
    found = found[part - 1 :: parts]
    if args.racks:
        found = with_racks(found, args.racks)
    if args.export_cgp:
        export_cgp(args.export_cgp, found)
        return
    engine = "C helper" if native_module() is not None else "pure Python"
    search = "Python" if args.python or native_module() is None else "C"
    print(f"lexicon {lexicon.name}; generator: {engine}; search: {search}; "
          f"{len(found)} endgame positions; budget {args.seconds:g} s each")  # fmt: skip
    wall, cpu, nodes, proved = [], [], [], 0
    by_tiles: dict[int, list[tuple[float, bool]]] = {}
    groups: dict[str, list[tuple[float, int, bool]]] = {}
    for name, event, eg in found:
        t0, c0 = time.perf_counter(), time.process_time()
        told = _depth_printer(c0) if args.depths else None
        r = solve_endgame(eg, Limit(seconds=args.seconds), native=not args.python, on_depth=told)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        nodes.append(r.nodes)
        proved += r.proved
        tiles = len(eg.racks[0]) + len(eg.racks[1])
        by_tiles.setdefault(tiles, []).append((wall[-1], r.proved))
        groups.setdefault(_group(tiles), []).append((cpu[-1], r.nodes, r.proved))
        if args.verbose:
            print(f"  {name} #{event} {''.join(eg.racks[0])}/{''.join(eg.racks[1])}: "
                  f"{r.best.notation() if r.best else '-'} {r.value:+d} "
                  f"{'proved' if r.proved else 'not proved'} depth {r.depth} "
                  f"{r.nodes} nodes {wall[-1]:.2f} s, CPU {cpu[-1]:.2f} s")  # fmt: skip
    print(f"proved within the budget: {proved} of {len(found)}")
    print(f"seconds per position, wall: median {statistics.median(wall):.2f}, "
          f"p90 {percentile(wall, 0.9):.2f}; CPU: median {statistics.median(cpu):.2f}, "
          f"p90 {percentile(cpu, 0.9):.2f}")  # fmt: skip
    print(f"nodes: median {statistics.median(nodes):.0f}; "
          f"{sum(nodes) / max(sum(cpu), 1e-9):.0f} nodes per CPU second")  # fmt: skip
    for tiles in sorted(by_tiles):
        rows = by_tiles[tiles]
        print(f"  {tiles:2d} tiles on the racks: {len(rows):3d} positions, "
              f"{sum(p for _, p in rows):3d} proved, median "
              f"{statistics.median(w for w, _ in rows):.2f} s")  # fmt: skip
    for name in GROUPS:
        rows3 = groups.get(name, [])
        if not rows3:
            continue
        seconds = sum(c for c, _, _ in rows3)
        rate = sum(n for _, n, _ in rows3) / max(seconds, 1e-9)
        print(f"  {name} tiles: {len(rows3):3d} positions, {sum(p for _, _, p in rows3):3d} "
              f"proved, CPU median {statistics.median(c for c, _, _ in rows3):.3f} s, max "
              f"{max(c for c, _, _ in rows3):.2f} s, {rate:.0f} nodes per CPU second")  # fmt: skip
    median = statistics.median(wall)
    verdict = "met" if median <= TARGET_MEDIAN_S else "NOT met"
    print(f"target median <= {TARGET_MEDIAN_S:g} s (wall): {verdict}")


if __name__ == "__main__":
    main()
