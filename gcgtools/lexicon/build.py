"""Build a KWG (DAWG + GADDAG) from a word list: our own minimising builder.

Words are byte strings of tile numbers (1..; see :mod:`~gcgtools.lexicon.alphabet`).

The builder adds sorted strings one at a time to a trie whose finished part is minimised on
the fly (the incremental algorithm for sorted input of Daciuk, Mihov, Watson and Watson,
2000): when the next string leaves a branch, the branch's sibling groups are replaced by an
identical group already seen, if any (a register maps a group's contents to its number).
The DAWG and the GADDAG share one register, so the GADDAG's "separator, rest of word"
tails reuse the DAWG's suffix groups. A group is a tuple of edges, each edge an int laid out
like a KWG node with the child *group number* in the arc bits.

Layout: nodes 0 and 1 point to the DAWG and GADDAG roots; groups follow, longest first, and a
group equal to the tail of a group already placed is not stored again (its arc points into
the longer group: the ``IS_END`` flag of the last sibling makes that valid), as wolges does.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable

from gcgtools.lexicon.kwg import ACCEPTS, ARC_MASK, IS_END, TILE_SHIFT, KwgError

__all__ = ["build_nodes", "gaddag_strings"]


class _Register:
    """Groups seen so far: contents -> number (0 is the empty group: no children)."""

    def __init__(self) -> None:
        self.numbers: dict[tuple[int, ...], int] = {(): 0}
        self.groups: list[tuple[int, ...]] = [()]

    def freeze(self, edges: list[int]) -> int:
        key = tuple(edges)
        number = self.numbers.get(key)
        if number is None:
            number = len(self.groups)
            if number > ARC_MASK:
                raise KwgError("too many nodes for a KWG (more than 4,194,303)")
            self.groups.append(key)
            self.numbers[key] = number
        return number

    def add_sorted(self, strings: Iterable[bytes]) -> int:
        """Add sorted, non-empty strings; return the number of their root group."""
        freeze = self.freeze
        path: list[list[int]] = [[]]  # path[d]: the open group at depth d
        prev = b""
        for s in strings:
            n = len(s)
            # common prefix with the previous string
            m = min(n, len(prev))
            p = 0
            while p < m and s[p] == prev[p]:
                p += 1
            if p == n:
                if n == len(prev):
                    continue  # duplicate
                raise KwgError("strings are not sorted")
            if p < len(prev) and s[p] < prev[p]:
                raise KwgError("strings are not sorted")
            # close the groups below the common prefix
            for d in range(len(path) - 1, p, -1):
                number = freeze(path.pop())
                path[d - 1][-1] |= number
            for i in range(p, n):
                path[i].append(s[i] << TILE_SHIFT)
                path.append([])
            path[n - 1][-1] |= ACCEPTS
            prev = s
        for d in range(len(path) - 1, 0, -1):
            number = freeze(path.pop())
            path[d - 1][-1] |= number
        return freeze(path[0])

    def layout(self, dawg: int, gaddag: int) -> array:
        """The node array: nodes 0 and 1 point to the roots, then every reachable group."""
        groups = self.groups
        # reachable groups only (a register may hold nothing unreachable, but be safe)
        reachable: set[int] = set()
        todo = [g for g in (dawg, gaddag) if g]
        while todo:
            g = todo.pop()
            if g in reachable:
                continue
            reachable.add(g)
            for edge in groups[g]:
                child = edge & ARC_MASK
                if child and child not in reachable:
                    todo.append(child)
        order = sorted(reachable, key=lambda g: (-len(groups[g]), -g))
        position = [0] * len(groups)
        tails: dict[tuple[int, ...], int] = {}
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
            for k in range(len(edges)):
                tails.setdefault(edges[k:], nxt + k)
            nxt += len(edges)
        if nxt - 1 > ARC_MASK:
            raise KwgError("too many nodes for a KWG (more than 4,194,303)")
        nodes = array("I", bytes(4 * nxt))
        nodes[0] = IS_END | position[dawg]
        nodes[1] = IS_END | position[gaddag]
        for g in owned:
            start = position[g]
            edges = groups[g]
            for k, edge in enumerate(edges):
                nodes[start + k] = (edge & ~ARC_MASK) | position[edge & ARC_MASK]
            nodes[start + len(edges) - 1] |= IS_END
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
    sorted."""
    unique = sorted({w for w in words if w})
    if gaddag and any(0 in w for w in unique):
        raise KwgError("tile number 0 is reserved for the GADDAG separator")
    register = _Register()
    dawg = register.add_sorted(unique)
    root = 0
    if gaddag and unique:
        paths: list[bytes] = []
        for w in unique:
            paths.extend(gaddag_strings(w))
        paths.sort()
        root = register.add_sorted(paths)
        del paths
    return register.layout(dawg, root)
