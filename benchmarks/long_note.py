"""Time per line stays flat however long a note grows: parse, validate, write and fix a
record whose ``#note`` has N continuation lines, for N doubling from ``--lines``.

    python benchmarks/long_note.py                  # 20,000 to 320,000 lines
    python benchmarks/long_note.py --lines 1000 --steps 3

Linear work means the microseconds per line stay about the same as N doubles; the target
is a ratio (last / first) under 2. Joining the note's lines by adding each to a string
made it quadratic (160,000 lines took 26 s to parse).
"""

from __future__ import annotations

import argparse
import time

from gcgtools.edit.fix import fix_record
from gcgtools.model import parse_bytes
from gcgtools.render.writer import write_gcg
from gcgtools.replay.walk import validate

HEADER = "#player1 A Ann\n#player2 B Bob\n>A: AEINRST 8H RETAINS +66 66\n#note start\n"


def run(lines: int) -> float:
    """Seconds to parse, validate, write and fix a record with a note of ``lines`` lines."""
    data = (HEADER + "another line of the note\n" * lines + ">B: DGOOPRW - +0 0\n").encode()
    start = time.perf_counter()
    game = parse_bytes(data)
    validate(game)
    assert write_gcg(game) == data
    fix_record(game)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", help="ignored (the record is generated)")
    parser.add_argument("--lines", type=int, default=20_000, help="lines of the first run")
    parser.add_argument("--steps", type=int, default=5, help="runs, doubling the lines")
    args = parser.parse_args()
    per_line = []
    n = args.lines
    for _ in range(args.steps):
        seconds = run(n)
        per_line.append(seconds / n * 1e6)
        print(f"{n:>9,} lines  {seconds:7.2f} s  {per_line[-1]:6.2f} µs/line")
        n *= 2
    ratio = per_line[-1] / per_line[0]
    verdict = "linear" if ratio < 2 else "NOT linear"
    print(f"µs per line, last / first: {ratio:.2f} ({verdict}; target under 2)")


if __name__ == "__main__":
    main()
