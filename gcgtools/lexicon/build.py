"""Build a KWG (DAWG + GADDAG) from a word list: our own minimising builder.

Words are byte strings of tile numbers (1..; see :mod:`~gcgtools.lexicon.alphabet`).

The builder adds sorted strings one at a time to a trie whose finished part is minimised on
the fly (the incremental algorithm for sorted input of Daciuk, Mihov, Watson and Watson,
2000): when the next string leaves a branch, the branch's sibling groups are replaced by an
identical group already seen, if any (a register maps a group's contents to its number).
The DAWG and the GADDAG share one register, so the GADDAG's "separator, rest of word"
tails reuse the DAWG's suffix groups. Each edge is an int laid out like a KWG node with the
child *group number* in the arc bits; a group is keyed by its one edge (most groups), else
by its edges packed as native uint32s in a ``bytes`` (compact: a tuple of large ints takes
several times the memory).

Layout: nodes 0 and 1 point to the DAWG and GADDAG roots; groups follow, longest first, and a
group equal to the tail of a group already placed is not stored again (its arc points into
the longer group: the ``IS_END`` flag of the last sibling makes that valid), as wolges does.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise

from gcgtools.lexicon.kwg import ACCEPTS, ARC_MASK, IS_END, TILE_SHIFT, KwgError

__all__ = ["build_nodes", "gaddag_strings"]


def _key(edges: list[int]) -> int | bytes:
    """A group's register key: its one edge itself (most groups: chains of single
    letters), else its edges packed as native uint32s."""
    return edges[0] if len(edges) == 1 else array("I", edges).tobytes()


def _edges(key: int | bytes) -> Sequence[int]:
    """The edges of a group's key."""
    return (key,) if isinstance(key, int) else memoryview(key).cast("I")


def _size(key: int | bytes) -> int:
    return 1 if isinstance(key, int) else len(key) >> 2


class _Register:
    """Groups seen so far: contents -> number (0 is the empty group: no children)."""

    def __init__(self) -> None:
        self.numbers: dict[int | bytes, int] = {b"": 0}
        self.groups: list[int | bytes] = [b""]

    def freeze(self, edges: list[int]) -> int:
        key = _key(edges)
        number = self.numbers.get(key)
        if number is None:
            number = len(self.groups)
            if number > ARC_MASK:
                raise KwgError("too many nodes for a KWG (more than 4,194,303)")
            self.groups.append(key)
            self.numbers[key] = number
        return number

    def add_sorted(self, strings: Iterable[bytes], *, linked: bool = False) -> int:
        """Add sorted, non-empty, distinct strings; return the number of their root group.

        The last edge of each string accepts. With ``linked``, a string whose fourth byte
        from the end is the separator 0 is instead "path, 0, 3-byte big-endian group
        number": its last edge (the separator) does not accept and its arc is that
        (finished) group. Such a string is the prefix of no other, so the 3 bytes do not
        change the strings' sorted order."""
        numbers = self.numbers
        groups = self.groups
        path: list[list[int]] = [[]]  # path[d]: the open group at depth d
        prev = b""
        for s in strings:
            end = ACCEPTS
            if linked and len(s) > 4 and s[-4] == 0:
                end = int.from_bytes(s[-3:], "big")
                s = s[:-3]
            n = len(s)
            # the common prefix with the previous string
            m = min(n, len(prev))
            lo = 0
            while lo < m and s[lo] == prev[lo]:
                lo += 1
            if lo == n or (lo < len(prev) and s[lo] < prev[lo]):
                raise KwgError("strings are not sorted and distinct")
            # close (freeze) the groups below the common prefix; inlined for speed
            depth = len(path) - 1
            while depth > lo:
                edges = path.pop()
                key = edges[0] if len(edges) == 1 else array("I", edges).tobytes()
                number = numbers.get(key)
                if number is None:
                    number = numbers[key] = len(groups)
                    groups.append(key)
                depth -= 1
                path[depth][-1] |= number
            path[lo].append(s[lo] << TILE_SHIFT)
            path.extend([[t << TILE_SHIFT] for t in s[lo + 1 :]])
            path[n - 1][-1] |= end
            path.append([])
            prev = s
        for d in range(len(path) - 1, 0, -1):
            number = self.freeze(path.pop())
            path[d - 1][-1] |= number
        if len(groups) > ARC_MASK:
            raise KwgError("too many nodes for a KWG (more than 4,194,303)")
        return self.freeze(path[0])

    def prefixes(self, root: int) -> Iterator[tuple[bytes, int]]:
        """Every path of the graph from group ``root`` that has children, with the number
        of its child group (for the DAWG: every proper prefix ``x`` of a word, with the
        group of the word endings that may follow ``x``)."""
        groups = self.groups
        stack: list[tuple[int, bytes]] = [(root, b"")]
        while stack:
            group, prefix = stack.pop()
            for edge in _edges(groups[group]):
                child = edge & ARC_MASK
                if child:
                    path = prefix + bytes((edge >> TILE_SHIFT,))
                    yield path, child
                    stack.append((child, path))

    def layout(self, dawg: int, gaddag: int) -> array:
        """The node array: nodes 0 and 1 point to the roots, then every group (each frozen
        group hangs below an edge of a later one, so all are reachable from the roots)."""
        groups = self.groups
        self.numbers.clear()  # the register is spent: free it before the layout's tables
        order = sorted(range(1, len(groups)), key=lambda g: -_size(groups[g]))
        position = [0] * len(groups)
        tails: dict[int | bytes, int] = {}  # proper tails of the groups placed -> node index
        owned: list[int] = []  # groups stored in nodes of their own
        nxt = 2
        for g in order:
            edges = groups[g]
            at = tails.get(edges)
            if at is not None:  # the tail of a group already placed
                position[g] = at
                continue
            position[g] = nxt
            owned.append(g)
            if isinstance(edges, int):
                nxt += 1
                continue
            size = len(edges) >> 2
            for k in range(1, size - 1):
                tails.setdefault(edges[4 * k :], nxt + k)
            # the last edge alone is keyed like a one-edge group
            tails.setdefault(int.from_bytes(edges[-4:], sys.byteorder), nxt + size - 1)
            nxt += size
        del tails
        if nxt - 1 > ARC_MASK:
            raise KwgError("too many nodes for a KWG (more than 4,194,303)")
        nodes = array("I", [IS_END | position[dawg], IS_END | position[gaddag]])
        keep = ~ARC_MASK & 0xFFFFFFFF
        for g in owned:  # in the order their positions were given
            group = [(e & keep) | position[e & ARC_MASK] for e in _edges(groups[g])]
            group[-1] |= IS_END
            nodes.extend(group)
        return nodes


def gaddag_strings(word: bytes) -> list[bytes]:
    """The GADDAG paths of a word: the reversed word, then for each split point the
    reversed prefix, the separator 0 and the rest (CARE: ERAC, C^ARE, AC^RE, RAC^E)."""
    rev = word[::-1]
    n = len(word)
    return [rev, *(rev[n - i :] + b"\0" + word[i:] for i in range(1, n))]


def build_nodes(words: Iterable[bytes], *, gaddag: bool = True) -> array:
    """KWG nodes holding ``words`` (tile-number strings; empty ones ignored) in a DAWG and,
    when ``gaddag`` is true, a GADDAG (then tile 0, the separator, may not occur; a
    DAWG-only graph such as a leave file's may use it for the blank). The input need not be
    sorted.

    The GADDAG is built without spelling out its paths: after "reversed prefix ``x``,
    separator" come exactly the endings that follow ``x`` in the DAWG, so the separator's
    arc is the DAWG group reached by ``x``. Only the reversed prefixes (each ending in the
    separator, with that arc) and the reversed words (accepting) are added."""
    unique = [w for w in words if w]
    if any(a >= b for a, b in pairwise(unique)):  # not sorted and distinct
        unique = sorted(set(unique))
    if gaddag and any(0 in w for w in unique):
        raise KwgError("tile number 0 is reserved for the GADDAG separator")
    register = _Register()
    dawg = register.add_sorted(unique)
    root = 0
    if gaddag and unique:
        paths = [x[::-1] + b"\0" + child.to_bytes(3, "big") for x, child in register.prefixes(dawg)]
        paths.extend(w[::-1] for w in unique)
        paths.sort()
        root = register.add_sorted(paths, linked=True)
        del paths
    del unique
    return register.layout(dawg, root)
