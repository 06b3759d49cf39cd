"""Lexicon loading: time and memory, first load (compiling a word list) and cached load.

Each measurement runs in a fresh Python process with an empty (first) or filled (cached)
cache folder of its own, so that nothing is shared between them:

    python benchmarks/lexicon.py                    # data from $GCGTOOLS_DATA or ../shared/data
    python benchmarks/lexicon.py /work/shared/data  # or given on the command line
    python benchmarks/lexicon.py --quick            # a small list and the leaves only (tests)

Lists measured: ENABLE (text, 173k lines), ENABLE.kwg (MAGPIE's), CEL (text), and a synthetic
list of ``--synthetic`` words (default 280,000: ENABLE's words plus their reversals, sampled
with a fixed seed; a pessimistic stand-in for a 280k-word tournament list) and the leave file
CSW21.klv2. Memory: ``retained`` is what the loaded lexicon keeps (tracemalloc, after
loading), ``rss`` the process's resident memory after loading (the interpreter and gcgtools
included), ``peak`` the process's highest resident memory (the compile included).

Targets: a 170k-word text list loads in under 1 s once cached; a loaded 280k-word lexicon
takes under 150 MB.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = r"""
import json, sys, time, tracemalloc
def status(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key):
                return int(line.split()[1]) * 1024
    return 0
def rss():
    return status("VmRSS:")
kind, path = sys.argv[1], sys.argv[2]
import gcgtools.lexicon as lx
before = rss()
start = time.perf_counter()
cpu = time.process_time()
obj = lx.load_leaves(path) if kind == "leaves" else lx.load_lexicon(path)
size = len(obj)
seconds = time.perf_counter() - start
cpu = time.process_time() - cpu
after = rss()
cached = getattr(obj, "cached", None)
del obj
tracemalloc.start()
obj = lx.load_leaves(path) if kind == "leaves" else lx.load_lexicon(path)
len(obj)
retained = tracemalloc.get_traced_memory()[0]
peak = status("VmHWM:")  # this process only (ru_maxrss survives exec)
print(json.dumps({"seconds": seconds, "cpu": cpu, "size": size, "retained": retained, "rss": after,
                  "rss_growth": after - before, "peak": peak, "cached": cached}))
"""


def measure(kind: str, path: Path, cache: Path) -> dict[str, float]:
    env = {**os.environ, "GCGTOOLS_CACHE_DIR": str(cache)}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-c", CHILD, kind, str(path)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    if done.returncode:
        sys.exit(f"measuring {path} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def mb(n: float) -> str:
    return f"{n / 1e6:7.1f} MB"


def row(label: str, m: dict[str, float]) -> None:
    print(
        f"{label:<26} {m['size']:>8,} {m['seconds']:7.3f} s (cpu {m['cpu']:6.3f} s)  "
        f"retained {mb(m['retained'])}  "
        f"rss {mb(m['rss'])}  peak {mb(m['peak'])}"
    )


def synthetic_list(enable: Path, count: int, out: Path) -> Path:
    with gzip.open(enable, "rt", encoding="utf-8") as fh:
        words = {w.strip().upper() for w in fh if 2 <= len(w.strip()) <= 15}
    words |= {w[::-1] for w in words}
    chosen = sorted(random.Random(11).sample(sorted(words), min(count, len(words))))
    out.write_text("\n".join(chosen) + "\n", encoding="utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", help="shared data folder")
    parser.add_argument("--synthetic", type=int, default=280_000, help="words (0: none)")
    parser.add_argument("--quick", action="store_true", help="skip the big compiles")
    args = parser.parse_args()
    data = Path(args.data or os.environ.get("GCGTOOLS_DATA") or ROOT.parent / "shared" / "data")
    if not data.is_dir():
        sys.exit(f"no data folder {data}: give it as an argument or set GCGTOOLS_DATA")
    enable_txt = data / "wordlists/enable2k/enable2k.txt.gz"
    print(f"{'lexicon':<26} {'words':>8}  load: wall clock (CPU time), memory")
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        results: dict[str, dict[str, float]] = {}
        if not args.quick:
            kwg = data / "lexica/ENABLE.kwg"
            row("ENABLE.kwg (MAGPIE)", measure("lexicon", kwg, tmpdir / "c0"))
        texts: list[tuple[str, Path]] = []
        if args.quick:
            small = synthetic_list(enable_txt, 3000, tmpdir / "small.txt")
            texts.append(("synthetic 3,000", small))
        else:
            texts.append(("ENABLE text", enable_txt))
            texts.append(("CEL text", data / "wordlists/cel/cel_2-21.txt.gz"))
            if args.synthetic:
                big = synthetic_list(enable_txt, args.synthetic, tmpdir / "synthetic.txt")
                texts.append((f"synthetic {args.synthetic:,}", big))
        for i, (label, path) in enumerate(texts):
            cache = tmpdir / f"c{i + 1}"
            first = measure("lexicon", path, cache)
            again = measure("lexicon", path, cache)
            assert first["cached"] is False and again["cached"] is True
            row(f"{label}, first", first)
            row(f"{label}, cached", again)
            results[label] = again
        row("CSW21.klv2 (leaves)", measure("leaves", data / "lexica/CSW21.klv2", tmpdir / "c9"))
    if "ENABLE text" in results:
        load_ok = results["ENABLE text"]["seconds"] < 1.0  # wall clock
        big = [m for label, m in results.items() if label.startswith("synthetic")]
        mem_ok = all(m["retained"] < 150e6 and m["rss_growth"] < 150e6 for m in big)
        print(
            f"targets: ENABLE text cached under 1 s: {'met' if load_ok else 'NOT met'}; "
            f"280k-word lexicon under 150 MB: {'met' if mem_ok and big else 'NOT met'}"
        )


if __name__ == "__main__":
    main()
