"""The CGP fuzzer (tools/fuzz_cgp.py) in the suite: a fixed seed, a few thousand inputs."""

from __future__ import annotations

import random

import pytest
from support.fuzz_helper import SEED, load_tool

fuzz_cgp = load_tool("fuzz_cgp")


def test_mutated_cgp_strings_are_read_or_refused_cleanly() -> None:
    assert fuzz_cgp.cgp_surface(random.Random(SEED), 3_000) == 3_000


def test_the_seeds_are_real_positions_the_reader_accepts() -> None:
    seeds = fuzz_cgp.seeds()
    assert len(seeds) > 10
    assert all(fuzz_cgp.check_cgp(s, moves=True) for s in seeds)


@pytest.mark.parametrize(
    "bad",
    ["/".join(["15"] * 15) + " ZZZZZZZ/QQQQQQQ 0/0 0", "/".join(["15"] * 15) + " A/ 0/0 \uff12"],
)
def test_a_position_that_cannot_exist_is_refused_not_accepted(bad: str) -> None:
    assert fuzz_cgp.check_cgp(bad) is False


def test_the_checks_catch_an_accepted_impossible_position(monkeypatch) -> None:
    """The fuzzer would notice a reader that let an impossible rack through."""
    import gcgtools.movegen.cgp as cgp

    monkeypatch.setattr(cgp, "check_rack_size", lambda *args: None)
    monkeypatch.setattr(cgp, "check_tile_counts", lambda *args: None)
    monkeypatch.setattr(fuzz_cgp, "parse_cgp", cgp.parse_cgp)
    with pytest.raises(AssertionError, match="a rack of 10 accepted"):
        fuzz_cgp.check_cgp("/".join(["15"] * 15) + " ABCDEFGHIJ/ 0/0 0")
