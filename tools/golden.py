"""Record what the commands print and write, and compare two recordings byte for byte.

For a change that must not alter anything a user sees (a move of modules, a refactor),
record before and after, then compare::

    python tools/golden.py record /tmp/before            # with the old gcgtools on PATH
    python tools/golden.py record /tmp/after
    python tools/golden.py compare /tmp/before /tmp/after

``record`` runs every command the users meet (validate --format json, stats and bingos CSV,
export Parquet, annotate, fix and write outputs, board text and CGP, moves and analyse JSON
with ENABLE, picture SVG, the report HTML and the site) on ``examples/`` and the shared
corpus (``GCGTOOLS_CORPUS``), with a private result cache, and keeps each command's standard
output, standard error, exit code and the files it wrote, the checkout's path written as
``<ROOT>`` in the text files (so two checkouts' recordings compare). ``compare`` lists every
difference and exits 1 when there is one. The lexicon is ``GCGTOOLS_DATA``'s
``lexica/ENABLE.kwg`` (else ``../shared/data``).
"""

from __future__ import annotations

import argparse
import filecmp
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _data() -> Path:
    return Path(os.environ.get("GCGTOOLS_DATA") or ROOT.parent / "shared" / "data").resolve()


def _corpus() -> Path:
    return Path(os.environ.get("GCGTOOLS_CORPUS") or ROOT.parent / "shared" / "corpus").resolve()


def _commands(scratch: Path) -> list[tuple[str, list[str]]]:
    """(name, arguments) for every recorded run; outputs go under ``scratch/files/name``."""
    corpus = _corpus()
    valid = str(corpus / "valid")
    invalid = str(corpus / "invalid")
    examples = sorted(glob.glob(str(ROOT / "examples" / "**" / "*.gcg"), recursive=True))
    kwg = str(_data() / "lexica" / "ENABLE.kwg")
    klv = str(_data() / "lexica" / "CSW21.klv2")
    lex = ["--lexicon", kwg, "--leaves", klv]
    few = sorted(glob.glob(valid + "/woogles-io__liwords/**/*.gcg", recursive=True))[:4]
    club = str(ROOT / "examples" / "club-final.gcg")
    files = scratch / "files"
    runs: list[tuple[str, list[str]]] = [
        ("validate-corpus", ["validate", "-q", "-j", "2", "-f", "json", valid]),
        ("validate-invalid", ["validate", "-q", "-j", "2", "-f", "json", invalid]),
        ("validate-examples", ["validate", "-q", "-f", "json", *examples]),
        ("validate-text", ["validate", "-q", *examples]),
        ("parse-json", ["parse", "-f", "json", *examples]),
        ("stats-player", ["stats", "-q", "-f", "csv", valid, *examples]),
        ("stats-game", ["stats", "-q", "--by", "game", "-f", "csv", valid]),
        ("stats-table", ["stats", "-q", *examples]),
        ("bingos", ["bingos", "-q", "-f", "csv", valid, *examples]),
        ("export", ["export", "-q", valid, "-o", str(files / "export" / "moves.parquet"),
                    "--games", str(files / "export" / "games.parquet")]),
        ("annotate", ["annotate", "-q", *examples, "-o", str(files / "annotate")]),
        ("fix", ["fix", "-q", valid, "-o", str(files / "fix")]),
        ("write", ["write", "-q", valid, "-o", str(files / "write")]),
        ("write-normalise", ["write", "-q", "--normalise", *examples,
                             "-o", str(files / "write-normalise")]),
        ("board-text", ["board", club, "-m", "12"]),
        ("board-cgp", ["board", club, "-f", "cgp", "-m", "12"]),
        ("picture-svg", ["picture", club, "-m", "12"]),
        ("moves-json", ["moves", club, "-m", "12", *lex, "-f", "json"]),
        ("moves-text", ["moves", club, "-m", "12", *lex]),
        ("analyse-json", ["analyse", "-q", "--no-cache", *lex, "-f", "json", club, *few]),
        ("analyse-text", ["analyse", "-q", "--no-cache", *lex, club]),
        ("report-html", ["report", "-q", club]),
        ("report-lexicon", ["report", "-q", *lex, club]),
        ("report-site", ["report", "-q", *examples, "-o", str(files / "site") + "/"]),
        ("rules-json", ["rules", "-f", "json"]),
    ]  # fmt: skip
    return runs


# Commands write their files here, a fixed place, so that what they print about them is the
# same in every recording; the files are then moved into the recording.
SCRATCH = Path(tempfile.gettempdir()) / "gcgtools-golden-run"


def record(out: Path, program: str) -> None:
    for folder in (out, SCRATCH):
        if folder.exists():
            shutil.rmtree(folder)
    out.mkdir(parents=True)
    (SCRATCH / "files" / "export").mkdir(parents=True)
    cache = tempfile.mkdtemp(prefix="golden-cache-")
    env = {**os.environ, "GCGTOOLS_CACHE_DIR": cache, "COLUMNS": "80", "NO_COLOR": "1"}
    env.pop("GCGTOOLS_LEXICA", None)
    try:
        for name, args in _commands(SCRATCH):
            done = subprocess.run(
                [program, *args], capture_output=True, env=env, cwd=ROOT, timeout=1800
            )
            (out / f"{name}.stdout").write_bytes(done.stdout)
            (out / f"{name}.stderr").write_bytes(done.stderr)
            (out / f"{name}.rc").write_text(f"{done.returncode}\n")
            print(f"{name}: exit {done.returncode}, {len(done.stdout)} bytes", flush=True)
        shutil.move(SCRATCH / "files", out / "files")
        _placeholders(out)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(SCRATCH, ignore_errors=True)


TEXT = {".stdout", ".stderr", ".rc", ".gcg", ".html", ".svg", ".csv", ".json", ".txt", ".md"}


def _placeholders(out: Path) -> None:
    """The checkout's and the scratch folder's paths, which the commands print, written as
    ``<ROOT>`` and ``<SCRATCH>`` in the recording's text files, so that recordings made from
    two checkouts (a worktree and the main one) compare equal."""
    swaps = [(str(SCRATCH).encode(), b"<SCRATCH>"), (str(ROOT).encode(), b"<ROOT>")]
    for path in out.rglob("*"):
        if path.is_file() and path.suffix in TEXT:
            data = original = path.read_bytes()
            for old, new in swaps:
                data = data.replace(old, new)
            if data != original:
                path.write_bytes(data)


def compare(a: Path, b: Path) -> int:
    differences = []
    names_a = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    names_b = {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    for name in sorted(names_a ^ names_b):
        differences.append(f"only in {'first' if name in names_a else 'second'}: {name}")
    for name in sorted(names_a & names_b):
        if not filecmp.cmp(a / name, b / name, shallow=False):
            differences.append(f"differs: {name}")
    for line in differences:
        print(line)
    print(f"{len(names_a & names_b)} files compared, {len(differences)} differences")
    return 1 if differences else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="record every command's output into OUT")
    rec.add_argument("out", type=Path)
    rec.add_argument("--program", default=shutil.which("gcgtools") or "gcgtools")
    cmp = sub.add_parser("compare", help="compare two recordings; exit 1 on a difference")
    cmp.add_argument("first", type=Path)
    cmp.add_argument("second", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.out.resolve(), args.program)
    else:
        sys.exit(compare(args.first, args.second))


if __name__ == "__main__":
    main()
