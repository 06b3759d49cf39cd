"""The endgame search's largest transposition table (``tt_max_lg``): 2**TT_MAX_LG entries
of 16 bytes, less where a quarter of the machine's memory is less, never less than the
table it starts with. Needs neither the C helper nor the data: the sizes are worked out
in Python and handed to the C search."""

from __future__ import annotations

import pytest

from gcgtools.analysis.endgame import native

GB = 1 << 30


@pytest.mark.parametrize(
    ("memory", "lg"),
    [
        (64 * GB, native.TT_MAX_LG),  # plenty: the cap
        (16 * GB, 28),  # a quarter is 4 GB: 2**28 entries of 16 bytes
        (8 * GB, 27),  # a quarter is 2 GB
        (6 * GB, 26),  # 1.5 GB: the power of two below
        (256 << 20, native.TT_LG),  # never less than the starting table
    ],
)
def test_the_table_takes_at_most_a_quarter_of_memory(monkeypatch, memory: int, lg: int) -> None:
    page = 4096
    sizes = {"SC_PHYS_PAGES": memory // page, "SC_PAGE_SIZE": page}
    monkeypatch.setattr(native.os, "sysconf", lambda name: sizes[name])
    assert native.tt_max_lg() == lg
    assert (1 << lg) * 16 <= max(memory // 4, (1 << native.TT_LG) * 16)
