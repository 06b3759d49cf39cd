"""The standard-input fuzzer (tools/fuzz_stdin.py) in the suite: a fixed seed, a few
hundred mutated records on the stdin of validate and parse, in this process."""

from __future__ import annotations

import random

import pytest
from support.fuzz_helper import SEED, load_tool

fuzz_stdin = load_tool("fuzz_stdin")


def test_mutated_records_on_standard_input() -> None:
    assert fuzz_stdin.stdin_surface(random.Random(SEED), 200) == 200


def test_an_input_over_the_limit_is_refused() -> None:
    huge = b"#note " + b"x" * (16 * 1024 * 1024) + b"\n"
    fuzz_stdin.check_stdin(huge, ["validate", "-"])


def test_the_check_catches_an_escape_reaching_the_terminal(monkeypatch) -> None:
    import gcgtools.console as console

    monkeypatch.setattr(console, "safe_text", lambda text, json=False: text)
    with pytest.raises(AssertionError, match="reached the terminal"):
        fuzz_stdin.check_stdin(b"#player1 A Ann\x1b[2J\n#player2 B Bob\n", ["parse", "-"])
