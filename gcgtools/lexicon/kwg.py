"""KWG files: the compiled DAWG + GADDAG of wolges, MAGPIE and Woogles.

A KWG file is a flat array of 32-bit little-endian nodes (andy-k/wolges ``src/kwg.rs``;
``shared/docs/lexicon-formats.md``). Each node holds

* bits 24-31: the tile number (0 = the GADDAG separator),
* bit 23 (``ACCEPTS``): a word ends after this tile,
* bit 22 (``IS_END``): the last node of its sibling group,
* bits 0-21 (``ARC_MASK``): the index of the first node of the child group (0: none).

Sibling groups are contiguous and sorted by tile. Node 0's arc is the DAWG root and node 1's
arc the GADDAG root. The GADDAG holds, for every word, the reversed word and every
"reversed prefix, separator, rest" path (CARE: ERAC, RAC^E, AC^RE, C^ARE).

:class:`Kwg` keeps the nodes as one ``array('I')`` (4 bytes a node) and reads them with bit
operations; nothing is expanded into Python objects.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator, Sequence
from os import PathLike
from pathlib import Path

from gcgtools.lexicon.alphabet import Alphabet
from gcgtools.sources.atomic import write_atomic
from gcgtools.wording import plural

__all__ = [
    "ACCEPTS",
    "ARC_MASK",
    "IS_END",
    "TILE_SHIFT",
    "Kwg",
    "KwgError",
    "lanes_at_most",
    "nodes_from_bytes",
    "nodes_to_bytes",
]

TILE_SHIFT = 24
ACCEPTS = 0x800000
IS_END = 0x400000
ARC_MASK = 0x3FFFFF


class KwgError(ValueError):
    """A KWG (or KLV) byte string that is not a well-formed node array."""


def nodes_from_bytes(data: bytes | memoryview) -> array:
    """The uint32 little-endian nodes of ``data`` as ``array('I')``."""
    if len(data) % 4:
        raise KwgError(f"size {len(data)} is not a multiple of 4 bytes")
    nodes = array("I")
    if nodes.itemsize != 4:  # pragma: no cover - every CPython platform has a 4-byte 'I'
        nodes = array("L")
    nodes.frombytes(bytes(data))
    if sys.byteorder == "big":  # pragma: no cover
        nodes.byteswap()
    return nodes


def nodes_to_bytes(nodes: array) -> bytes:
    """The nodes as uint32 little-endian bytes."""
    if sys.byteorder == "big":  # pragma: no cover
        swapped = array(nodes.typecode, nodes)
        swapped.byteswap()
        return swapped.tobytes()
    return nodes.tobytes()


def lanes_at_most(data: bytes, top: int, mask: int, limit: int) -> bool:
    """True if every little-endian uint32 lane of ``data`` (a multiple of 4 bytes), read
    as its byte ``top`` ANDed with ``mask`` over the bytes below it (the bytes above are
    ignored), is at most ``limit``.

    At C speed for the whole array: the lanes' byte ``top`` (masked) is compared with
    ``limit``'s at once (bytes translated); only the lanes whose byte equals it are read
    one by one, for the bytes below."""
    shift = 8 * top
    band, below = divmod(limit, 1 << shift)
    if band > 255:
        return True
    high = data[top::4].translate(bytes(b & mask for b in range(256)))
    if high.translate(None, bytes(range(band + 1))):
        return False  # a lane's byte ``top`` is above the limit's
    if below == (1 << shift) - 1:
        return True
    mark = bytes([band])
    i = high.find(mark)
    while i >= 0:
        if int.from_bytes(data[4 * i : 4 * i + top], "little") > below:
            return False
        i = high.find(mark, i + 1)
    return True


# byte 2 of a node (little-endian) -> 1 if it holds the IS_END bit, else 0
_IS_END_FLAG = bytes(1 if b << 16 & IS_END else 0 for b in range(256))


def _well_formed(data: bytes) -> bool:
    """The condition of :func:`check_nodes` on the nodes' bytes, at C speed: every arc
    at most the last node that ends a group (so inside the array, and every group an arc
    reaches ends there at the latest); with no such node, every arc 0."""
    last_end = data[2::4].translate(_IS_END_FLAG).rfind(1)
    return lanes_at_most(data, 2, ARC_MASK >> 16, max(last_end, 0))


def check_nodes(nodes: Sequence[int]) -> None:
    """Raise :class:`KwgError` unless ``nodes`` is a well-formed KWG: at least two nodes,
    every arc inside the array, and every group an arc reaches ending (``IS_END``) inside
    the array. A 4-byte ``array`` is checked whole at C speed (:func:`_well_formed`);
    the node-by-node pass runs only to say what is wrong (or for another sequence)."""
    n = len(nodes)
    if n < 2:
        raise KwgError(f"{plural(n, 'node')}: a KWG has at least 2")
    if isinstance(nodes, array) and nodes.itemsize == 4 and _well_formed(nodes_to_bytes(nodes)):
        return
    top = max(node & ARC_MASK for node in nodes)
    if top >= n:
        raise KwgError(f"an arc points to node {top} of {n}")
    if top and not any(nodes[i] & IS_END for i in range(n - 1, top - 1, -1)):
        raise KwgError("a sibling group runs past the end of the array")


class Kwg:
    """A KWG node array with its alphabet.

    ``nodes`` is the flat ``array('I')`` of uint32 nodes; ``dawg_root`` and ``gaddag_root``
    are arc indices (the first node of the root group; 0 = empty); ``letters`` and ``index``
    are the alphabet (tile number <-> upper-case tile text, number 0 the separator/blank).
    """

    __slots__ = (
        "nodes",
        "alphabet",
        "letters",
        "index",
        "dawg_root",
        "gaddag_root",
        "_counts",
        "_done",
    )

    def __init__(self, nodes: array, alphabet: Alphabet, *, check: bool = True) -> None:
        if check:
            check_nodes(nodes)
        self.nodes = nodes
        self.alphabet = alphabet
        self.letters = alphabet.letters
        self.index = alphabet.index
        self.dawg_root: int = nodes[0] & ARC_MASK
        self.gaddag_root: int = nodes[1] & ARC_MASK
        self._counts: array | None = None
        self._done = bytearray()

    # ------------------------------------------------------------------------- files

    @classmethod
    def from_bytes(cls, data: bytes | memoryview, alphabet: Alphabet) -> Kwg:
        return cls(nodes_from_bytes(data), alphabet)

    @classmethod
    def read(cls, path: str | PathLike[str], alphabet: Alphabet) -> Kwg:
        """Read a ``.kwg`` file. Raises :class:`OSError` or :class:`KwgError`."""
        return cls.from_bytes(Path(path).read_bytes(), alphabet)

    def to_bytes(self) -> bytes:
        return nodes_to_bytes(self.nodes)

    def write(self, path: str | PathLike[str]) -> None:
        """Write the nodes as a ``.kwg`` file (atomically), readable by wolges and MAGPIE."""
        write_atomic(path, self.to_bytes())

    def check_alphabet(self) -> None:
        """Raise :class:`KwgError` if a node holds a tile number outside the alphabet
        (a KWG made for another tile set)."""
        nodes = self.nodes
        if nodes.itemsize == 4:  # the top bytes (tile numbers) not of the alphabet, if any
            outside = nodes_to_bytes(nodes)[3::4].translate(None, bytes(range(len(self.letters))))
            top = max(outside, default=0)
        else:  # pragma: no cover - every CPython platform has a 4-byte 'I'
            top = max(nodes) >> TILE_SHIFT  # the highest tile has the highest node value
        if top >= len(self.letters):
            raise KwgError(
                f"tile number {top} is outside the {self.alphabet.tiles.name} tile set "
                f"({len(self.letters) - 1} letters): a KWG for another tile set?"
            )

    def __len__(self) -> int:
        """Number of nodes."""
        return len(self.nodes)

    def __repr__(self) -> str:
        return f"Kwg({len(self.nodes)} nodes, {self.alphabet!r})"

    @property
    def has_gaddag(self) -> bool:
        return self.gaddag_root != 0

    # ----------------------------------------------------------------------- queries

    def seek(self, arc: int, tile: int) -> int:
        """The node of ``tile`` in the group starting at ``arc``, or -1."""
        if arc <= 0:
            return -1
        nodes = self.nodes
        p = arc
        while True:
            node = nodes[p]
            t = node >> TILE_SHIFT
            if t == tile:
                return p
            if node & IS_END or t > tile:
                return -1
            p += 1

    def accepts(self, root: int, tiles: Sequence[int] | bytes) -> bool:
        """True if the path ``tiles`` from the group at ``root`` ends on an accepting node."""
        if not tiles:
            return False
        nodes = self.nodes
        p = root
        node = 0
        for tile in tiles:
            if p == 0:
                return False
            while True:
                node = nodes[p]
                t = node >> TILE_SHIFT
                if t == tile:
                    break
                if node & IS_END or t > tile:
                    return False
                p += 1
            p = node & ARC_MASK
        return bool(node & ACCEPTS)

    def contains(self, tiles: Sequence[int] | bytes) -> bool:
        """True if the word (tile numbers) is in the DAWG."""
        return self.accepts(self.dawg_root, tiles)

    def gaddag_contains(self, tiles: Sequence[int] | bytes) -> bool:
        """True if every GADDAG path of the word (tile numbers) is in the GADDAG."""
        n = len(tiles)
        if n == 0 or not self.gaddag_root:
            return False
        word = bytes(tiles)
        rev = word[::-1]
        root = self.gaddag_root
        if not self.accepts(root, rev):
            return False
        return all(self.accepts(root, rev[n - i :] + b"\0" + word[i:]) for i in range(1, n))

    def words(self) -> Iterator[bytes]:
        """Every word of the DAWG as tile numbers, in sorted order."""
        return self._enumerate(self.dawg_root)

    def _enumerate(self, root: int) -> Iterator[bytes]:
        nodes = self.nodes
        if root == 0:
            return
        prefix: list[int] = []
        # stack of (node index, depth)
        stack: list[tuple[int, int]] = [(root, 0)]
        while stack:
            p, depth = stack.pop()
            node = nodes[p]
            del prefix[depth:]
            prefix.append(node >> TILE_SHIFT)
            if not node & IS_END:
                stack.append((p + 1, depth))
            arc = node & ARC_MASK
            if arc:
                stack.append((arc, depth + 1))
            if node & ACCEPTS:
                yield bytes(prefix)

    def gaddag_paths(self) -> Iterator[bytes]:
        """Every path of the GADDAG (separator = 0), in sorted order."""
        return self._enumerate(self.gaddag_root)

    # ------------------------------------------------------------- counts and indexes

    def word_counts(self, root: int | None = None) -> array:
        """``counts[p]``: words accepted from node ``p`` and its later siblings (as wolges'
        ``count_words_alloc``): accepts(p) + words under p's arc + counts[p + 1] unless p
        ends its group. Filled in (once) for the nodes reachable from ``root``, by default
        the DAWG root; other entries are 0 until asked for."""
        if self._counts is None:
            self._counts = array("I", bytes(4 * len(self.nodes)))
            self._done = bytearray(len(self.nodes))
        counts = self._counts
        done = self._done
        nodes = self.nodes

        def group(p: int) -> int:
            # the count of the group (or group tail) starting at p, not yet done; the
            # recursion depth is the length of the longest path (a word plus the
            # separator). A tail already done (an arc may enter a group after its first
            # node) is counted again, to the same values: cheaper than testing each node.
            q = p
            while not nodes[q] & IS_END:
                q += 1
            total = 0
            while q >= p:
                node = nodes[q]
                arc = node & ARC_MASK
                if arc:
                    total += counts[arc] if done[arc] else group(arc)
                if node & ACCEPTS:
                    total += 1
                counts[q] = total
                done[q] = 1
                q -= 1
            return total

        start = self.dawg_root if root is None else root
        if start and not done[start]:
            group(start)
        return counts

    def count_words(self, root: int | None = None) -> int:
        """Number of words (accepted paths) from the group at ``root`` (default: DAWG).
        Raises :class:`KwgError` for a graph with a cycle (no KWG program writes one) or
        with 2**32 words or more from a node (the counts are 32-bit, as in wolges)."""
        start = self.dawg_root if root is None else root
        try:
            return self.word_counts(start)[start] if start else 0
        except RecursionError:
            self._counts = None
            raise KwgError("the graph has a cycle") from None
        except OverflowError:
            self._counts = None
            raise KwgError("more than 4,294,967,295 words under one node") from None

    def word_index(self, tiles: Sequence[int] | bytes, root: int | None = None) -> int:
        """Index of the word in the DAWG's enumeration order, or -1 if it is not a word
        (as wolges' ``get_word_index``); used by leave files."""
        p = self.dawg_root if root is None else root
        counts = self._counts
        if counts is None or not self._done[p]:
            counts = self.word_counts(p)
        nodes = self.nodes
        idx = 0
        last = len(tiles) - 1
        if last < 0:
            return -1
        for k, tile in enumerate(tiles):
            if p == 0:
                return -1
            while True:
                node = nodes[p]
                if node >> TILE_SHIFT == tile:
                    break
                if node & IS_END:
                    return -1
                idx += counts[p] - counts[p + 1]
                p += 1
            if k == last:
                return idx if node & ACCEPTS else -1
            if node & ACCEPTS:
                idx += 1
            p = node & ARC_MASK
        return -1
