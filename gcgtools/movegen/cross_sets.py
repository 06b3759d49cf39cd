"""Cross-sets and cross-scores of a board's squares, in pure Python (the C helper's
``cross_sets`` does the same, in place, in the same buffers).

For plays in one direction, a square's *cross-set* is the bit set of the tiles (bit ``t``
for KWG tile index ``t``) that form a word with the tiles next to it across the play
(above and below it for an across play, left and right of it for a down play), by the
KWG's DAWG; every tile (``full``) when it has no such neighbour, none on an occupied
square. Its *cross-score* is the value of those neighbouring tiles, -1 when there are
none. Both are kept per square and direction (index ``d * area + square``, ``d`` 0 across,
1 down) by :class:`~gcgtools.movegen.board_state.EngineBoard`.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence

from gcgtools.lexicon.kwg import ACCEPTS, IS_END
from gcgtools.lexicon.kwg import ARC_MASK as ARC

__all__ = ["ACCEPTS", "ARC", "IS_END", "NO_TILE", "allowed_between", "fill_cross_sets", "find"]

#: A tile on the board that the lexicon's alphabet lacks: matches no KWG node.
NO_TILE = 1 << 12


def find(nodes: Sequence[int], group: int, tile: int) -> int:
    """The node of ``tile`` in the sibling group starting at ``group``, or -1."""
    i = group
    while True:
        n = nodes[i]
        t = n >> 24
        if t == tile:
            return n
        if t > tile or n & IS_END:
            return -1
        i += 1


def allowed_between(nodes: Sequence[int], root: int, prefix: list[int], suffix: list[int]) -> int:
    """Bit set of the tiles ``t`` for which ``prefix + [t] + suffix`` is a word (DAWG)."""
    group = root
    for t in prefix:
        n = find(nodes, group, t) if group else -1
        if n < 0:
            return 0
        group = n & ARC
    if not group:
        return 0
    mask = 0
    i = group
    while True:
        n = nodes[i]
        if suffix:
            g = n & ARC
            ok = 0
            for s in suffix:
                if not g:
                    ok = 0
                    break
                m = find(nodes, g, s)
                if m < 0:
                    ok = 0
                    break
                ok = m & ACCEPTS
                g = m & ARC
            if ok:
                mask |= 1 << (n >> 24)
        elif n & ACCEPTS:
            mask |= 1 << (n >> 24)
        if n & IS_END:
            break
        i += 1
    return mask & ~1


def fill_cross_sets(
    nodes: Sequence[int],
    dawg_root: int,
    gaddag_root: int,
    size: int,
    bt: Sequence[int],
    bv: Sequence[int],
    cross: MutableSequence[int],
    xsum: MutableSequence[int],
    full: int,
    squares: Iterable[int] | None,
) -> None:
    """Fill ``cross`` and ``xsum`` (``2 * size * size`` entries) for ``squares`` (flat
    indices; None: every square) from the tiles ``bt`` (KWG index, 0 empty) and their
    values ``bv``. Every word is checked in the DAWG here; the C helper reads the GADDAG
    (``gaddag_root``) when fewer tiles stand before the square than after it; the tests compare the
    two."""
    del gaddag_root  # the same arguments as the C helper's cross_sets
    area = size * size
    for i in range(area) if squares is None else squares:
        for d in (0, 1):
            cross[d * area + i], xsum[d * area + i] = _one(
                nodes, dawg_root, size, bt, bv, i, d, full
            )


def _one(
    nodes: Sequence[int],
    root: int,
    size: int,
    bt: Sequence[int],
    bv: Sequence[int],
    i: int,
    d: int,
    full: int,
) -> tuple[int, int]:
    if bt[i]:
        return 0, -1
    step = size if d == 0 else 1  # across the play
    k = i // size if d == 0 else i % size
    last = size - 1
    if not ((k > 0 and bt[i - step]) or (k < last and bt[i + step])):
        return full, -1
    total = 0
    prefix: list[int] = []
    j, m = i - step, k - 1
    while m >= 0 and bt[j]:
        prefix.append(bt[j])
        total += bv[j]
        j -= step
        m -= 1
    prefix.reverse()
    suffix: list[int] = []
    j, m = i + step, k + 1
    while m <= last and bt[j]:
        suffix.append(bt[j])
        total += bv[j]
        j += step
        m += 1
    return allowed_between(nodes, root, prefix, suffix), total
