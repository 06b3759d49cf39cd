"""Benchmark: what a simulation costs before its first iteration, in a fresh process.

Runs one simulation of a real mid-game position (``--event`` of ``--game``, the same
game as deep.py) the way ``moves --sim`` does, in a fresh Python process, and prints the
CPU seconds of that process at each step: the interpreter and gcgtools' imports, the
lexicon and leaves loaded, the position replayed from the record, and the moment the
first batch of iterations starts (the simulation's own one-time work: the candidates
generated, the sampler's tables built); then the iterations to the end.

    python benchmarks/sim_startup.py [CORPUS] [--event 10] [--runs 5]

The target of issue 29 (start-up and one-time tables at most 0.2 s before the first
iteration) is judged on the median of ``--runs`` fresh processes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from deep import GAME, _corpus, _data_dir

CHILD = """
import json, sys, time
marks = {"interpreter": time.process_time()}
from gcgtools.analysis.simulate import SimLimit, position_from_record, simulate
from gcgtools.lexicon import load_leaves, load_lexicon
from gcgtools.movegen.record import record_position
from gcgtools.sources.load import load_game
marks["imports"] = time.process_time()
data, game_path, event = sys.argv[1], sys.argv[2], int(sys.argv[3])
lexicon = load_lexicon(data + "/lexica/ENABLE.kwg")
leaves = load_leaves(data + "/lexica/CSW21.klv2")
marks["lexicon"] = time.process_time()
position = position_from_record(record_position(load_game(game_path), event))
marks["position"] = time.process_time()
first = []

def runner(fn, tasks):
    if not first:
        first.append(time.process_time())
    return [fn(t) for t in tasks]

result = simulate(position, lexicon, leaves, SimLimit(iterations=300, candidates=10),
                  runner=runner)
marks["first_iteration"] = first[0]
marks["end"] = time.process_time()
marks["iterations"] = sum(c.iterations for c in result.candidates)
print(json.dumps(marks))
"""

# --cli: the command itself (``moves RECORD --move N --sim``), timed the same way: the
# simulation's clock is wrapped to note when its first batch of iterations starts
CLI_CHILD = """
import json, sys, time
marks = {"interpreter": time.process_time()}
from gcgtools.analysis import simulate as sim
first = []
run = sim._Clock.run

def noted(self, *args):
    if not first:
        first.append(time.process_time())
    return run(self, *args)

sim._Clock.run = noted
from gcgtools.cli import main
data, game_path, event = sys.argv[1], sys.argv[2], sys.argv[3]
sys.argv = ["gcgtools", "moves", game_path, "--move", event, "--sim",
            "--lexicon", data + "/lexica/ENABLE.kwg"]
try:
    main()
except SystemExit:
    pass
marks["first_iteration"] = first[0]
marks["end"] = time.process_time()
print(json.dumps(marks), file=sys.stderr)
"""

STEPS = ("interpreter", "imports", "lexicon", "position", "first_iteration", "end")
CLI_STEPS = ("interpreter", "first_iteration", "end")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(_corpus()))
    parser.add_argument("--game", default=GAME)
    parser.add_argument("--event", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cli", action="store_true", help="time the moves --sim command")
    args = parser.parse_args(argv)
    game = Path(args.game) if Path(args.game).is_file() else Path(args.corpus) / args.game
    runs = []
    child = CLI_CHILD if args.cli else CHILD
    for _ in range(args.runs):
        command = [sys.executable, "-c", child, str(_data_dir()), str(game), str(args.event)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stderr.splitlines()[-1] if args.cli else done.stdout))
    what = "gcgtools moves --sim (its defaults)" if args.cli else (
        "10 candidates x 300 iterations, 2 plies")  # fmt: skip
    print(f"{game.name}, event {args.event}: {what}; "
          f"CPU seconds of a fresh process, median of {args.runs}")  # fmt: skip
    last = 0.0
    for step in CLI_STEPS if args.cli else STEPS:
        at = statistics.median(r[step] for r in runs)
        print(f"  {step:16} at {at:6.3f} s (+{at - last:.3f})")
        last = at
    before = statistics.median(r["first_iteration"] for r in runs)
    if args.cli:
        print(f"before the first iteration: {before:.3f} s in all")
        return 0
    own = statistics.median(r["first_iteration"] - r["position"] for r in runs)
    iterations = statistics.median(r["iterations"] for r in runs)
    print(f"before the first iteration: {before:.3f} s in all, {own:.3f} s of it the "
          f"simulation's own set-up; then {iterations:.0f} candidate-iterations")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
