"""Fuzzing standard input (``gcgtools validate -``, ``parse -``): mutated records through
the command line's own stdin path, in this process (typer's CliRunner).

Inputs are the records surface's mutated seeds (:mod:`fuzz`), now and then with escape
sequences put in or made larger than the 16 MiB limit. On each, ``validate -`` and
``parse -`` (text and JSON) must exit 0, 1 or 2 without a traceback; their JSON lines must
be valid; the text output must hold no control character a terminal acts on (ESC, C1,
lone surrogates); an input over the limit must be refused (exit 2, F001).
"""

from __future__ import annotations

import json
import random
import re
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

from typer.testing import CliRunner  # noqa: E402

from gcgtools.cli import app  # noqa: E402
from gcgtools.sources.load import MAX_RECORD_BYTES  # noqa: E402

ESCAPES = [b"\x1b[2J", b"\x1b[1A\x1b[2K", b"\x1b]0;title\x07", b"\xc2\x9b2J", b"\r", b"\x08"]
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
COMMANDS = (
    ["validate", "-"],
    ["parse", "-"],
    ["parse", "-", "-f", "json"],
    ["validate", "-f", "json", "-"],
)
OVERSIZED_EVERY = 500  # one input in so many is larger than the limit


@cache
def _fuzz() -> ModuleType:
    """The records surface's module (tools/fuzz.py): its seeds and mutations."""
    import fuzz

    return fuzz


@cache
def _seeds() -> tuple[bytes, ...]:
    fuzz = _fuzz()
    return tuple(p.read_bytes() for p in fuzz.seed_files(fuzz.default_seeds()))


def _input(rng: random.Random) -> bytes:
    data, _ = _fuzz().mutate(rng.choice(_seeds()), rng)
    if rng.random() < 0.3:
        i = rng.randrange(len(data) + 1)
        data = data[:i] + rng.choice(ESCAPES) + data[i:]
    return data


def check_stdin(data: bytes, args: list[str]) -> None:
    """Run ``gcgtools ARGS`` with ``data`` on standard input; AssertionError on a failure."""
    result = CliRunner().invoke(app, args, input=data)
    shown = f"gcgtools {' '.join(args)} on {data[:120]!r}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{type(result.exception).__name__}: {result.exception} ({shown})")
    assert result.exit_code in (0, 1, 2), f"exit {result.exit_code} ({shown})"
    out, err = result.stdout, result.stderr
    assert "Traceback" not in out + err, shown
    if "json" in args:
        for line in out.splitlines():
            json.loads(line)
    else:
        found = UNSAFE.search(out + err)
        assert found is None, f"{found.group()!r} reached the terminal ({shown})"
    if len(data) > MAX_RECORD_BYTES:
        assert result.exit_code == 2 and "file too large" in out + err, shown


def stdin_surface(rng: random.Random, n: int) -> int:
    """``n`` mutated records on standard input of validate and parse (text and JSON)."""
    for i in range(n):
        data = _input(rng)
        if i % OVERSIZED_EVERY == OVERSIZED_EVERY - 1:
            data = data + b"#note " + b"x" * (MAX_RECORD_BYTES + 1 - len(data)) + b"\n"
        check_stdin(data, rng.choice(COMMANDS))
    return n


SURFACES = {"stdin": stdin_surface}
