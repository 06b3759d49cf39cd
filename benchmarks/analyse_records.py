"""Benchmark: analysing whole records against a lexicon (``gcgtools analyse``), one core.

The corpus (``GCGTOOLS_CORPUS`` or the first argument) is read once; the first ``--count``
``*.gcg`` files (sorted by path) are parsed in memory and each is analysed with
:func:`gcgtools.analysis.analyse.analyse_record` (phony check of every play, every legal
move of each turn whose full rack is known), without the result cache. Printed: records
and analysed turns per second, milliseconds per analysed turn, the lexicon load time.

    python benchmarks/analyse_records.py ../shared/corpus
    python benchmarks/analyse_records.py ../shared/corpus --count 50 --lexicon NWL23.kwg

The default lexicon is ``../shared/data/lexica/ENABLE.kwg`` (``GCGTOOLS_DATA`` if set);
records of another lexicon are analysed all the same (their words not in ENABLE count as
phonies), which is what matters for the speed. The move generator's own per-position
figures are measured by ``benchmarks/analyse.py``-style scripts of the movegen package.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from gcgtools import parse_bytes
from gcgtools.analysis.analyse import analyse_record
from gcgtools.lexicon import load_lexicon


def _default_lexicon() -> Path:
    data = os.environ.get("GCGTOOLS_DATA")
    root = Path(data) if data else Path(__file__).resolve().parents[1].parent / "shared" / "data"
    return root / "lexica" / "ENABLE.kwg"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=os.environ.get("GCGTOOLS_CORPUS"))
    parser.add_argument("--count", type=int, default=40, help="records analysed")
    parser.add_argument("--lexicon", default=str(_default_lexicon()))
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args()
    if not args.corpus:
        sys.exit("name the corpus folder (or set GCGTOOLS_CORPUS)")
    files = sorted(Path(args.corpus).rglob("*.gcg"))[: args.count]
    if not files:
        sys.exit(f"no *.gcg file under {args.corpus}")
    start = time.perf_counter()
    lexicon = load_lexicon(args.lexicon)
    load = time.perf_counter() - start
    games = [parse_bytes(f.read_bytes(), str(f)) for f in files]
    games = [g for g in games if not g.unreadable]
    turns = analysed = 0
    start = time.process_time()
    for game in games:
        result = analyse_record(game, lexicon=lexicon, top=args.top)
        turns += len(result.turns)
        analysed += sum(t.analysed for t in result.turns)
    spent = time.process_time() - start
    print(f"lexicon {lexicon.name}: loaded in {load:.2f} s")
    print(
        f"{len(games)} records, {turns} turns ({analysed} with the full rack known): "
        f"{spent:.2f} s CPU"
    )
    if spent > 0:
        print(f"{len(games) / spent:.1f} records/s, {analysed / spent:.1f} analysed turns/s")
    if analysed:
        print(f"{1000 * spent / analysed:.1f} ms per analysed turn (phony checks included)")


if __name__ == "__main__":
    main()
