"""The whole-array checks of KWG nodes and leave values (done at C speed with bytes
operations, so that loading a lexicon stays quick) refuse exactly what the node-by-node
definitions refuse: compared here on random and edge-case arrays."""

from __future__ import annotations

import math
import struct
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gcgtools.lexicon.klv import MAX_LEAVE_VALUE, _values
from gcgtools.lexicon.kwg import ARC_MASK, IS_END, KwgError, check_nodes, lanes_at_most


def well_formed(nodes: list[int]) -> bool:
    """The definition: at least 2 nodes, every arc inside the array, and a group-ending
    node at or after the highest arc."""
    n = len(nodes)
    top = max(node & ARC_MASK for node in nodes) if nodes else 0
    ends = [i for i, node in enumerate(nodes) if node & IS_END]
    return n >= 2 and top < n and (top == 0 or bool(ends) and ends[-1] >= top)


def near(n: int) -> st.SearchStrategy[int]:
    """Nodes whose arcs lie about the end of an ``n``-node array (where the checks are
    decided), with any flags and tile, or anywhere."""
    arcs = st.one_of(st.just(0), st.integers(max(0, n - 3), n + 2), st.integers(0, ARC_MASK))
    return st.builds(lambda arc, high: arc | high << 22, arcs, st.integers(0, 1023))


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 12).flatmap(lambda n: st.lists(near(n), min_size=n, max_size=n)))
def test_check_nodes_refuses_exactly_what_the_definition_refuses(nodes: list[int]) -> None:
    good = well_formed(nodes)
    for sequence in (array("I", nodes), nodes):  # the bytes check, the node-by-node one
        if good:
            check_nodes(sequence)
        else:
            with pytest.raises(KwgError):
                check_nodes(sequence)


def test_check_nodes_across_a_65536_node_band() -> None:
    # arcs whose third byte equals the limit's: the lanes read one by one
    nodes = array("I", [0] * 70_000)
    nodes[-1] = IS_END
    nodes[5] = 69_999
    check_nodes(nodes)
    nodes[-1] = 0
    nodes[-2] = IS_END
    with pytest.raises(KwgError, match="a sibling group runs past the end"):
        check_nodes(nodes)
    nodes[5] = 70_000
    with pytest.raises(KwgError, match="an arc points to node 70000 of 70000"):
        check_nodes(nodes)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 2**32 - 1), max_size=20),
    st.integers(0, 3),
    st.integers(0, 255),
    st.integers(0, 2**31 - 1),
)
def test_lanes_at_most_is_the_lane_by_lane_comparison(
    lanes: list[int], top: int, mask: int, limit: int
) -> None:
    data = b"".join(struct.pack("<I", x) for x in lanes)
    low = (1 << 8 * top) - 1
    expected = all((x >> 8 * top & mask) << 8 * top | x & low <= limit for x in lanes)
    assert lanes_at_most(data, top, mask, limit) == expected


def float32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


EDGES = [0.0, -0.0, 5e-45, 511.9, 512.0, 999.99, 1000.0, -1000.0, 1000.0001, -1000.0001,
         1e6, math.inf, -math.inf, math.nan, 3.4e38]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(EDGES), st.floats(width=32)), min_size=1, max_size=9))
def test_leave_values_are_refused_exactly_when_one_is_not_finite_or_too_large(
    values: list[float],
) -> None:
    data = array("f", values).tobytes()
    as_read = [float32(v) for v in values]
    bad = [i for i, v in enumerate(as_read) if not math.isfinite(v) or abs(v) > MAX_LEAVE_VALUE]
    if bad:
        with pytest.raises(KwgError, match=f"value {bad[0]} is"):
            _values(data, len(values))
    else:
        assert list(_values(data, len(values))) == as_read
