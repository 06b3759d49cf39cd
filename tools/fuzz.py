"""Fuzzing every input surface: mutated inputs through the real code, in this process.

Surfaces: each ``tools/fuzz_<area>.py`` module defines ``SURFACES``, a dict of name ->
``run(rng, n) -> int`` (run ``n`` mutated inputs drawn from the seeded ``rng`` through the
real code, return how many ran, raise AssertionError on a traceback, a hang or a wrong
result). This module finds them all (and its own ``records`` surface, below) and runs
them::

    python tools/fuzz.py [--surface NAME ...] [--inputs N] [--seed S] [--list]

It prints one line per surface and ``N passed, M failed`` (surfaces), and exits 1 when
one failed. ``--inputs`` is per surface.

The ``records`` surface: each input is a seed record (the corpus's, or the project's
``examples/``) changed by one to three mutations: lines deleted, duplicated or swapped,
random bytes, huge numbers, odd Unicode digits, a cut inside a multi-byte character, NUL
bytes, CR-only line endings, a byte order mark, Latin-1 re-encoding, a very long line.
On each, in this process:

* ``parse``: the record is read (``read_game``) and its JSON line is valid UTF-8 JSON;
* ``validate``: the replay runs, the report's JSON line is valid and no F010 (a failure of
  gcgtools itself) is reported;
* ``write``: writing the record back gives the same bytes; normalising it works and the
  result reads back;
* ``annotate`` and ``fix`` work and their output reads back;
* ``stats``: the game's table rows are built; each batch of inputs also goes through
  ``archive_stats`` and ``bingos`` as one archive, whose JSON is valid.

No exception may escape any of these. The records campaign alone, with its progress and
every failure printed (and saved under ``--save DIR``)::

    python tools/fuzz.py --records-only --count 100000 [--seed 1] [CORPUS]

CORPUS is a folder of ``*.gcg`` seeds (default: ``$GCGTOOLS_CORPUS`` if set, else
``examples/``); the exit code is 1 when any input failed.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterable
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
for folder in (ROOT, TOOLS):  # gcgtools, and the other fuzzers (tools/ is no package)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from gcgtools.batch.checks import check_file  # noqa: E402
from gcgtools.edit import annotate as annotating  # noqa: E402
from gcgtools.edit.fix import fix_record  # noqa: E402
from gcgtools.model.read import parse_bytes  # noqa: E402
from gcgtools.render.lint import json_line, parse_summary, text_lines  # noqa: E402
from gcgtools.render.writer import write_gcg  # noqa: E402
from gcgtools.replay.walk import validate  # noqa: E402
from gcgtools.sources.load import read_game  # noqa: E402
from gcgtools.tables.rows import analyse_game, out_of_range  # noqa: E402

# ------------------------------------------------------------------ mutations
ODD_DIGITS = ["²", "³", "¹", "٣", "۴", "५", "৭", "５", "𝟘", "⑦", "Ⅻ", "½", "〇"]
MULTIBYTE = ["é", "ß", "ł", "Ж", "漢", "😀", "·", "ñ", "\u00a0", "\u200b", "\ufeff"]


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) or [data]


def _join(lines: list[bytes]) -> bytes:
    return b"".join(lines)


def delete_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return _join(lines)


def duplicate_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return _join(lines)


def swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return _join(lines)


def random_bytes(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(out) + 1)
        byte = rng.randrange(256)
        if rng.random() < 0.5 and i < len(out):
            out[i] = byte
        else:
            out.insert(i, byte)
    return bytes(out)


def random_ascii(data: bytes, rng: random.Random) -> bytes:
    """Printable ASCII where GCG syntax lives: signs, letters, digits, punctuation."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(out) + 1)
        out[i:i] = rng.choice(b"+-#>:()[].?*0123456789AZaz \t").to_bytes(1, "big")
    return bytes(out)


def _digit_runs(data: bytes) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(data):
        if 48 <= data[i] <= 57:
            j = i
            while j < len(data) and 48 <= data[j] <= 57:
                j += 1
            runs.append((i, j))
            i = j
        else:
            i += 1
    return runs


def huge_number(data: bytes, rng: random.Random) -> bytes:
    runs = _digit_runs(data)
    if not runs:
        return data + b"9" * 30
    i, j = rng.choice(runs)
    digits = rng.choice([19, 20, 30, 100, 4300, 4301, 5000, 50_000])
    number = str(rng.randint(1, 9)).encode() + b"9" * (digits - 1)
    return data[:i] + number + data[j:]


def odd_digit(data: bytes, rng: random.Random) -> bytes:
    runs = _digit_runs(data)
    odd = rng.choice(ODD_DIGITS).encode("utf-8")
    if not runs:
        return data + odd
    i, j = rng.choice(runs)
    k = rng.randrange(i, j)
    return data[:k] + odd + data[k + 1 :]


def cut_multibyte(data: bytes, rng: random.Random) -> bytes:
    """Truncate the record inside a multi-byte character (one is added if there is none)."""
    starts = [i for i, b in enumerate(data) if b >= 0xC0]
    if not starts:
        i = rng.randrange(len(data) + 1)
        data = data[:i] + rng.choice(MULTIBYTE).encode("utf-8") + data[i:]
        starts = [k for k, b in enumerate(data) if b >= 0xC0]
    i = rng.choice(starts)
    return data[: i + 1]


def insert_multibyte(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + rng.choice(MULTIBYTE).encode("utf-8") + data[i:]


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def nul_bytes(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        out.insert(rng.randrange(len(out) + 1), 0)
    return bytes(out)


def cr_endings(data: bytes, rng: random.Random) -> bytes:
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")


def mixed_endings(data: bytes, rng: random.Random) -> bytes:
    lines = [line.rstrip(b"\r\n") for line in _lines(data)]
    return b"".join(line + rng.choice([b"\n", b"\r\n", b"\r"]) for line in lines)


def bom(data: bytes, rng: random.Random) -> bytes:
    return b"\xef\xbb\xbf" + data


def latin1(data: bytes, rng: random.Random) -> bytes:
    try:
        return data.decode("utf-8").encode("latin-1", "replace")
    except UnicodeDecodeError:
        return data


def long_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    body = lines[i].rstrip(b"\r\n")
    ending = lines[i][len(body) :]
    lines[i] = body + rng.choice([b"A", b"x ", b"9", b"."]) * rng.choice([1000, 20_000]) + ending
    return _join(lines)


def note_continuations(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines) + 1)
    lines[i:i] = [b"#note a long note\n"] + [b"and more\n"] * rng.choice([10, 1000])
    return _join(lines)


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    f.__name__: f
    for f in (
        delete_line, duplicate_line, swap_lines, random_bytes, random_ascii, huge_number,
        odd_digit, cut_multibyte, insert_multibyte, truncate, nul_bytes, cr_endings,
        mixed_endings, bom, latin1, long_line, note_continuations,
    )
}  # fmt: skip


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, list[str]]:
    """``data`` changed by one to three random mutations, and their names."""
    names = [rng.choice(list(MUTATIONS)) for _ in range(rng.choice((1, 1, 2, 3)))]
    for name in names:
        data = MUTATIONS[name](data, rng)
    return data, names


# ------------------------------------------------------------------ checks
@dataclass
class Failure:
    step: str
    error: str
    seed: str
    mutations: list[str]
    data: bytes = field(repr=False, default=b"")


def _json_ok(line: str) -> None:
    line.encode("utf-8")  # printable: no lone surrogate
    json.loads(line)


def check_record(data: bytes, path: str) -> list[tuple[str, str]]:
    """Run every command's library code on the record ``data``, stored at ``path``; return
    ``(step, error)`` for each that failed (an empty list: all well)."""
    failures: list[tuple[str, str]] = []

    def step(name: str, func: Callable[[], object]) -> object:
        try:
            return func()
        except Exception:  # noqa: BLE001 - report every failure, go on with the next step
            failures.append((name, traceback.format_exc(limit=-6)))
            return None

    game = step("parse", lambda: read_game(path))
    if game is None:
        return failures
    step("parse json", lambda: _json_ok(json.dumps(game.to_dict(), ensure_ascii=False)))
    step("parse text", lambda: "\n".join(parse_summary(game)).encode("utf-8"))
    report = check_file(path)

    def judge() -> None:
        crashed = [f for f in report.findings if f.code == "F010"]
        if crashed:
            validate(game)  # raises again, with the traceback
            raise AssertionError(crashed[0].message)
        _json_ok(json_line(report))
        "\n".join(t.plain for t in text_lines(report, show_info=True)).encode("utf-8")

    step("validate", judge)
    if game.unreadable:  # the writing commands refuse an unreadable record
        return failures

    def lossless() -> None:
        out = write_gcg(game)
        if out != data:
            raise AssertionError(f"write changed the bytes ({len(data)} -> {len(out)})")

    step("write", lossless)
    step("write --normalise", lambda: parse_bytes(write_gcg(game, normalise=True)))
    step("annotate", lambda: parse_bytes(annotating.annotate(game)))
    step("fix", lambda: parse_bytes(fix_record(game).data))

    def rows() -> None:
        result = analyse_game(game, name=path)
        problem = out_of_range(result)
        if problem is not None and not result.unreadable:
            # the batch leaves such a file out with a reason: not a failure, but check
            # the message can be printed
            problem.encode("utf-8")

    step("stats rows", rows)
    return failures


def check_archive(paths: list[str]) -> list[tuple[str, str]]:
    """``stats`` and ``bingos`` over ``paths`` as one archive (in this process)."""
    from gcgtools.render.tables import print_frame
    from gcgtools.tables.stats import archive_stats, bingos

    failures: list[tuple[str, str]] = []
    for name, make in (
        ("stats", lambda: archive_stats(paths, jobs=1)),
        ("stats --by game", lambda: archive_stats(paths, by="game", jobs=1)),
        ("bingos", lambda: bingos(paths, jobs=1)),
    ):
        try:
            table = make()
            if table.attrs["games"] + len(table.attrs["unreadable"]) != len(paths):
                raise AssertionError(f"{name}: files lost")
            for fmt in ("json", "csv"):
                buffer = io.StringIO()
                with redirect_stdout(buffer):
                    print_frame(table, fmt, title="", index=name != "stats --by game")
                text = buffer.getvalue()
                text.encode("utf-8")
                if fmt == "json":  # JSON Lines: one object per row
                    for line in text.splitlines():
                        json.loads(line)
        except Exception:  # noqa: BLE001
            failures.append((name, traceback.format_exc(limit=-6)))
    return failures


# ------------------------------------------------------------------ running
def seed_files(folder: Path) -> list[Path]:
    files = sorted(p for p in folder.rglob("*.gcg") if p.is_file())
    if not files:
        raise SystemExit(f"no *.gcg seed under {folder}")
    return files


def default_seeds() -> Path:
    corpus = os.environ.get("GCGTOOLS_CORPUS", "").strip()
    return Path(corpus) if corpus else ROOT / "examples"


@dataclass
class Summary:
    inputs: int = 0
    archives: int = 0
    failures: list[Failure] = field(default_factory=list)
    by_mutation: dict[str, int] = field(default_factory=dict)


def fuzz(
    seeds: Iterable[Path],
    count: int,
    *,
    seed: int = 1,
    batch: int = 200,
    progress: Callable[[Summary], None] | None = None,
) -> Summary:
    """Check ``count`` mutated inputs made from ``seeds`` (deterministic for ``seed``)."""
    rng = random.Random(seed)
    blobs = [(p.name, p.read_bytes()) for p in seeds]
    summary = Summary()
    with tempfile.TemporaryDirectory(prefix="gcgtools-fuzz-") as tmp:
        pending: list[str] = []
        for n in range(count):
            name, original = blobs[rng.randrange(len(blobs))]
            data, names = mutate(original, rng)
            path = os.path.join(tmp, f"{n:07}.gcg")
            with open(path, "wb") as fh:
                fh.write(data)
            for m in names:
                summary.by_mutation[m] = summary.by_mutation.get(m, 0) + 1
            for step, error in check_record(data, path):
                summary.failures.append(Failure(step, error, name, names, data))
            summary.inputs += 1
            pending.append(path)
            if len(pending) >= batch or n == count - 1:
                for step, error in check_archive(pending):
                    summary.failures.append(Failure(step, error, f"archive of {len(pending)}", []))
                summary.archives += 1
                for p in pending:
                    os.unlink(p)
                pending = []
                if progress is not None:
                    progress(summary)
    return summary


# ------------------------------------------------------------------ surfaces
Surface = Callable[[random.Random, int], int]


def records_surface(rng: random.Random, n: int) -> int:
    """``n`` mutated records (from :func:`default_seeds`) through every command's code."""
    summary = fuzz(seed_files(default_seeds()), n, seed=rng.randrange(2**32), batch=200)
    if summary.failures:
        first = summary.failures[0]
        raise AssertionError(
            f"{len(summary.failures)} failure(s); first: {first.step} on {first.seed} after "
            f"{', '.join(first.mutations)}\n{first.error}"
        )
    return summary.inputs


SURFACES: dict[str, Surface] = {"records": records_surface}


def load_tool(name: str) -> ModuleType:
    """The module ``tools/<name>.py`` (tools/ is no package, but on ``sys.path``)."""
    return importlib.import_module(name)


def discover() -> dict[str, Surface]:
    """Every surface: this module's and those of each ``tools/fuzz_*.py``, by name."""
    found: dict[str, Surface] = dict(SURFACES)
    for path in sorted(TOOLS.glob("fuzz_*.py")):
        for name, run in getattr(load_tool(path.stem), "SURFACES", {}).items():
            if name in found:
                raise SystemExit(f"fuzz surface {name!r} defined twice ({path.name})")
            found[name] = run
    return found


def run_surfaces(
    surfaces: dict[str, Surface], inputs: int, seed: int, out: Callable[[str], None] = print
) -> tuple[int, int]:
    """Run each surface on ``inputs`` inputs (its own rng from ``seed`` and its name);
    print a line each and the summary; return (passed, failed)."""
    passed = failed = 0
    for name, run in surfaces.items():
        rng = random.Random(f"{seed}:{name}")
        start = time.monotonic()
        try:
            ran = run(rng, inputs)
        except Exception as exc:  # noqa: BLE001 - AssertionError, or a bug of the surface
            failed += 1
            detail = str(exc) if isinstance(exc, AssertionError) else traceback.format_exc()
            out(f"FAILED {name} (seed {seed}): {detail.strip()}")
            continue
        passed += 1
        out(f"ok     {name}: {ran:,} inputs in {time.monotonic() - start:.1f} s")
    out(f"{passed} passed, {failed} failed")
    return passed, failed


def main() -> None:
    if "--records-only" in sys.argv:
        sys.argv.remove("--records-only")
        records_main()
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--surface", action="append", help="run only this one (repeatable)")
    parser.add_argument("--inputs", type=int, default=1_000, help="inputs per surface")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="list the surfaces")
    args = parser.parse_args()
    surfaces = discover()
    if args.list:
        for name, run in surfaces.items():
            summary = (run.__doc__ or "").strip().splitlines()[:1]
            print(f"{name:12} {summary[0] if summary else ''}")
        return
    unknown = [s for s in args.surface or [] if s not in surfaces]
    if unknown:
        parser.error(f"unknown surface {', '.join(unknown)}; known: {', '.join(surfaces)}")
    chosen = {k: v for k, v in surfaces.items() if not args.surface or k in args.surface}
    _, failed = run_surfaces(chosen, args.inputs, args.seed)
    raise SystemExit(1 if failed else 0)


def records_main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path, help="folder of *.gcg seed records")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=200, help="inputs per stats archive")
    parser.add_argument("--save", type=Path, help="write failing inputs to this folder")
    args = parser.parse_args()
    folder = args.corpus or default_seeds()
    seeds = seed_files(folder)
    start = time.monotonic()

    seen: set[tuple[str, str]] = set()
    shown = 0

    def progress(s: Summary) -> None:
        nonlocal shown
        for i, f in enumerate(s.failures[shown:], start=shown):
            last = f.error.strip().splitlines()[-1]
            if args.save is not None and f.data:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"failure-{i:05}.gcg").write_bytes(f.data)
            if (f.step, last) not in seen:
                seen.add((f.step, last))
                print(f"\n--- {f.step} on {f.seed} after {', '.join(f.mutations)} "
                      f"(failure-{i:05}.gcg)\n{f.error}")  # fmt: skip
        shown = len(s.failures)
        rate = s.inputs / max(time.monotonic() - start, 1e-9)
        print(f"{s.inputs} inputs, {len(s.failures)} failures, {rate:.0f}/s", flush=True)

    summary = fuzz(seeds, args.count, seed=args.seed, batch=args.batch, progress=progress)
    elapsed = time.monotonic() - start
    print(
        f"\n{summary.inputs} mutated inputs from {len(seeds)} seed records in {folder} "
        f"(seed {args.seed}), {summary.archives} archives, {elapsed:.0f} s: "
        f"{len(summary.failures)} failures ({len(seen)} distinct)"
    )
    print("mutations:", ", ".join(f"{k} {v}" for k, v in sorted(summary.by_mutation.items())))
    raise SystemExit(1 if summary.failures else 0)


if __name__ == "__main__":
    main()
