"""Benchmark: one real game judged at ``--depth full`` (default settings) on one core.

The game (default: the corpus' ``domino14__macondo/preendgame__testdata__issue_476.gcg``,
a real woogles game whose racks are all known, with a pre-endgame and an endgame) is
analysed statically, then its turns are judged
(:func:`gcgtools.analysis.judge.judge_record`, ENABLE lexicon, CSW21 leaves, the
built-in win model) at ``--depth`` with that depth's default settings. ``--turns N``
judges only the first N judgeable turns of each phase's kind and extrapolates the total
from the per-phase means (said so in the output): the full depth takes far longer than
the target with today's move generator.

Prints the CPU seconds per turn by phase, the total (CPU seconds of this process,
measured or extrapolated), the wall-clock seconds, and the target line (at most 60 s of
one core for the game).

    python benchmarks/deep.py [GAME or CORPUS] [--depth full] [--turns 3]

(``--sim-iterations``, ``--sim-candidates``, ``--endgame-nodes``, ``--preendgame-nodes``
override the depth's defaults: only for a quick check that the script runs.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

TARGET_SECONDS = 60.0
GAME = "valid/domino14__macondo/preendgame__testdata__issue_476.gcg"


def _data_dir() -> Path:
    env = os.environ.get("GCGTOOLS_DATA")
    return Path(env) if env else Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _corpus() -> Path:
    env = os.environ.get("GCGTOOLS_CORPUS")
    return Path(env) if env else Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default=str(_corpus()), help="a .gcg or the corpus")
    parser.add_argument("--depth", choices=["sim", "full"], default="full")
    parser.add_argument("--turns", type=int, default=0, help="turns judged per phase (0: all)")
    for name in ("sim-iterations", "sim-candidates", "endgame-nodes", "preendgame-nodes"):
        parser.add_argument(f"--{name}", type=int, default=None)
    args = parser.parse_args(argv)
    if Path(args.game).is_dir():
        args.game = str(Path(args.game) / GAME)

    from gcgtools.analysis.analyse import analyse_record
    from gcgtools.analysis.judge import judge_record, settings_for
    from gcgtools.lexicon import load_leaves, load_lexicon
    from gcgtools.sources.load import load_game

    data = _data_dir() / "lexica"
    lexicon = load_lexicon(data / "ENABLE.kwg")
    leaves = load_leaves(data / "CSW21.klv2")
    game = load_game(args.game)
    analysis = analyse_record(game, lexicon=lexicon, leaves=leaves)
    settings = settings_for(
        args.depth, sim_iterations=args.sim_iterations, sim_candidates=args.sim_candidates,
        endgame_nodes=args.endgame_nodes, preendgame_nodes=args.preendgame_nodes,
    )  # fmt: skip
    todo = [t for t in analysis.turns if t.analysed]
    if args.turns > 0:  # keep the first N turns of each phase kind (bag: >1, 1, 0)
        kept: dict[str, int] = {}
        chosen = []
        for t in todo:
            kind = _kind(game, t.event)
            if kept.get(kind, 0) < args.turns:
                kept[kind] = kept.get(kind, 0) + 1
                chosen.append(t)
        analysis = replace(analysis, turns=chosen)
    times: list[tuple[int, float]] = []

    def timed(turns: Iterator[object], total: int) -> Iterator[object]:
        for t in turns:  # CPU seconds of this process: the machine may be shared
            start = time.process_time()
            yield t
            seconds = time.process_time() - start
            times.append((t.event, seconds))  # type: ignore[attr-defined]
            print(f"  event {t.event}: {seconds:.1f} s", flush=True)  # type: ignore[attr-defined]

    cpu0 = time.process_time()
    wall0 = time.perf_counter()
    analysis = judge_record(
        game, analysis, lexicon, leaves, settings, depth=args.depth, track=timed
    )
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0
    _report(args, game, analysis, todo, times, wall, cpu, settings)
    return 0


def _kind(game: object, event: int) -> str:
    from gcgtools.movegen.record import record_position

    bag = record_position(game, event - 1).bag  # type: ignore[arg-type]
    return "endgame" if bag == 0 else "preendgame" if bag == 1 else "midgame"


def _report(args, game, analysis, todo, times, wall, cpu, settings) -> None:  # type: ignore[no-untyped-def]
    by_phase: dict[str, list[float]] = {}
    phase_of = {t.event: (t.judgement.phase if t.judgement else "none") for t in analysis.turns}
    for event, seconds in times:
        phase = "midgame" if phase_of[event] == "opening" else phase_of[event]
        by_phase.setdefault(phase, []).append(seconds)
    print(f"game: {args.game}")
    print(f"depth {args.depth}: {settings}")
    for phase, values in sorted(by_phase.items()):
        print(
            f"  {phase:<10} {len(values):>3} turns  mean {statistics.mean(values):8.2f} s  "
            f"max {max(values):8.2f} s"
        )
    print(f"measured: {len(times)} turns in {wall:.1f} s wall, {cpu:.1f} s CPU (one core)")
    total = cpu
    if args.turns > 0:
        counts: dict[str, int] = {}
        for t in todo:
            kind = _kind(game, t.event)
            counts[kind] = counts.get(kind, 0) + 1
        total = sum(statistics.mean(by_phase.get(k, [0.0])) * n for k, n in counts.items())
        print(f"extrapolated to all {len(todo)} judged turns: {total:.0f} s")
    verdict = "met" if total <= TARGET_SECONDS else "NOT met"
    print(f"target: a game at --depth full in at most {TARGET_SECONDS:.0f} s: {verdict}")


if __name__ == "__main__":
    sys.exit(main())
