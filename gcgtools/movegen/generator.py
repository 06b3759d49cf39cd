"""Every legal play for a rack on a board: Gordon's GADDAG algorithm over a KWG.

The lexicon's KWG is read as a flat array of 32-bit nodes (tile in bits 24-31, accepts
0x800000, last sibling 0x400000, arc in bits 0-21); nothing is built per node. For each
direction the generator:

1. computes, for every empty square with neighbours across the play, the *cross-check*:
   the set of tiles that form a word with them, as a bit set (bit ``t`` for tile index
   ``t``), by walking the KWG's DAWG; and the cross-word's score parts
   (:func:`gcgtools.replay.scoring.cross_sums`, :func:`~gcgtools.replay.scoring.square_parts`);
2. takes each *anchor* (an empty square next to a tile; the start square on an empty
   board) and walks the GADDAG from it: leftwards first (tiles on the board must match,
   empty squares take a rack tile allowed by the cross-check, a blank as every allowed
   letter), then across the separator rightwards from the square after the anchor. The
   left part never reaches the previous anchor of the line, so each play is found once,
   from its leftmost anchor;
3. records a play where the GADDAG accepts and the word is bounded by empty squares or
   the edge, adding up its score parts as tiles are placed (only complete plays are
   scored: :func:`~gcgtools.replay.scoring.parts_score`).

A one-tile play is found in both directions when it forms words both ways; it is kept
once, in the across direction (the down pass skips it).

Step 2 for one line is :func:`_line_plays`; the optional C helper ``_gaddag.c`` (built by
``setup.py``) does the same walk with the same arguments and output, about ten times
faster. It is used when it is built (``GCGTOOLS_PURE_PYTHON=1`` switches it off), the
alphabet has at most 63 tiles and the board at most 32 squares a side.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Protocol

from gcgtools.replay.board import Board
from gcgtools.replay.scoring import cross_sums, square_parts

__all__ = [
    "NATIVE_HINT",
    "Found",
    "KwgLike",
    "RackIndex",
    "find_plays",
    "generator_name",
    "kwg_buffer",
    "native_built",
    "native_module",
]

#: Set to 1 to run the generator in pure Python even where the C helper is built.
PURE_ENV = "GCGTOOLS_PURE_PYTHON"

try:  # the optional C helper (setup.py builds it when a compiler is there)
    from gcgtools.movegen import _gaddag as _NATIVE  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the installation
    _NATIVE = None


#: How to get the C helper when it was not built (said by ``--version`` and the commands).
NATIVE_HINT = "install a C compiler and reinstall gcgtools for one about ten times faster"


def native_built() -> bool:
    """Whether the C helper was built when gcgtools was installed."""
    return _NATIVE is not None


def generator_name() -> str:
    """Which generator runs: ``C``, or ``pure Python`` and why."""
    if native_module() is not None:
        return "C"
    if native_built():
        return f"pure Python, {PURE_ENV} is set"
    return f"pure Python; {NATIVE_HINT}"


def native_module() -> ModuleType | None:
    """The C helper when it is built and not switched off by ``GCGTOOLS_PURE_PYTHON``."""
    if _NATIVE is None or os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    return _NATIVE


class KwgLike(Protocol):
    """What the generator reads of a KWG (``gcgtools.lexicon.Kwg``): the flat nodes, the
    arc indices of the DAWG's and the GADDAG's root groups, and the alphabet (``letters``:
    index -> tile text, index 0 the separator; ``index``: upper-case tile text -> index)."""

    @property
    def nodes(self) -> Sequence[int]: ...
    @property
    def dawg_root(self) -> int: ...
    @property
    def gaddag_root(self) -> int: ...
    @property
    def letters(self) -> Sequence[str]: ...
    @property
    def index(self) -> dict[str, int]: ...


ARC = 0x3FFFFF
ACCEPTS = 0x800000
IS_END = 0x400000
#: A tile on the board that the lexicon's alphabet lacks: matches no KWG node.
NO_TILE = 1 << 12

#: A found play: ``(letters, word_mult, cross, placed, leave_code, across, line, start,
#: end, new_mask, cells)``; ``line`` is the row (across) or the column (down), ``start``
#: and ``end`` the first and last square of the word along it, ``new_mask`` the new
#: squares as bits by position along the line, ``cells`` the word tile by tile.
Found = tuple[int, int, int, int, int, bool, int, int, int, int, tuple[str, ...]]

_BUFFER_CACHE: dict[int, tuple[object, array]] = {}


def kwg_buffer(kwg: KwgLike) -> array:
    """The KWG's nodes as an ``array('I')`` (the KWG's own when it is one), kept per KWG
    object: the C helper reads it as a buffer, the pure-Python walk indexes it."""
    nodes = kwg.nodes
    if isinstance(nodes, array) and nodes.typecode in "IL" and nodes.itemsize == 4:
        return nodes
    key = id(kwg)
    hit = _BUFFER_CACHE.get(key)
    if hit is not None and hit[0] is kwg:
        return hit[1]
    out = array("I", nodes)
    if len(_BUFFER_CACHE) > 8:
        _BUFFER_CACHE.clear()
    _BUFFER_CACHE[key] = (kwg, out)
    return out


class RackIndex:
    """A rack as counts by KWG tile index (index 0: blanks), and the leave codes.

    Each distinct tile of the rack (blanks and tiles the lexicon's alphabet lacks
    included) is a digit of a mixed-radix number, the *leave code*: the rack's code minus
    the ``radix`` of each tile played is the code of what is left, so that a play's leave
    is known without building it. ``leaves`` maps every code to the leave's tiles.
    """

    def __init__(self, rack: Sequence[str], index: dict[str, int], n_letters: int) -> None:
        kinds: list[str] = []  # distinct tiles as they are in the bag (upper case, "?")
        counts: list[int] = []
        for tile in rack:
            t = "?" if tile == "?" else tile.upper()
            if t in kinds:
                counts[kinds.index(t)] += 1
            else:
                kinds.append(t)
                counts.append(1)
        self.kinds = kinds
        self.kind_counts = counts
        self.size = sum(counts)
        self.counts = [0] * (n_letters + 1)  # by tile index; [0] = blanks
        self.radix = [0] * (n_letters + 1)
        radix = 1
        radices = []
        for kind, count in zip(kinds, counts, strict=True):
            radices.append(radix)
            t = 0 if kind == "?" else index.get(kind, -1)
            if 0 <= t <= n_letters:
                self.counts[t] = count
                self.radix[t] = radix
            radix *= count + 1
        self.code = radix - 1  # every digit at its full count
        #: bit set of the tile indices the rack holds (not the blank); the generator
        #: keeps it up to date as it places tiles
        self.mask = 0
        for t in range(1, n_letters + 1):
            if self.counts[t]:
                self.mask |= 1 << t
        self.radices = radices

    def leave_tiles(self, code: int) -> list[str]:
        """The tiles of the leave with ``code``, in rack order of first appearance."""
        out: list[str] = []
        for kind, count in zip(self.kinds, self.kind_counts, strict=True):
            digit = code % (count + 1)
            code //= count + 1
            out.extend([kind] * digit)
        return out

    def all_codes(self) -> range:
        return range(self.code + 1)


def find_plays(
    board: Board,
    kwg: KwgLike,
    rack: RackIndex,
    values: dict[str, int],
    *,
    native: ModuleType | None | bool = True,
) -> list[Found]:
    """Every legal play of ``rack`` on ``board`` in the lexicon of ``kwg``, unscored (the
    parts of each score are in the tuple). ``native``: True to use the C helper when it
    is there (:func:`native_module`), False for pure Python, or the helper module itself."""
    letters: Sequence[str] = kwg.letters
    if native is True:
        native = native_module()
    if not isinstance(native, ModuleType) or len(letters) > 64 or board.size > 32:
        native = None
    nodes = kwg_buffer(kwg)  # indexing the array is as fast as a list, and smaller
    index: dict[str, int] = kwg.index
    dawg_root: int = kwg.dawg_root
    gaddag_root: int = kwg.gaddag_root
    n_letters = len(letters) - 1
    size = board.size
    cells = board.cells
    tile_values = [0] + [values.get(letters[t], 0) for t in range(1, n_letters + 1)]
    uppers = list(letters)
    lowers = [t.lower() for t in letters]
    # tiles on the board by index (NO_TILE: not in the alphabet); values (blanks 0)
    bt = [0] * (size * size)
    bv = [0] * (size * size)
    for i, tile in enumerate(cells):
        if tile is not None:
            bt[i] = index.get(tile.upper(), NO_TILE)
            bv[i] = values.get(tile, 0)
    empty_board = not any(bt)
    if empty_board:
        r0, c0 = board.layout.centre
        anchors = {r0 * size + c0}
    else:
        anchors = _anchors(bt, size)
    out: list[Found] = []
    if not anchors or rack.size == 0:
        return out
    full = (1 << (n_letters + 1)) - 2  # every tile but the separator
    for across in (True, False):
        xsums = cross_sums(board, across, values)
        checks = _cross_checks(nodes, dawg_root, bt, size, across, full)
        _generate(
            nodes, gaddag_root, board, bt, bv, cells, size, across, anchors, checks, xsums,
            tile_values, uppers, lowers, rack, empty_board, out, native,
        )  # fmt: skip
    return out


def _anchors(bt: list[int], size: int) -> set[int]:
    out = set()
    last = size - 1
    for i, t in enumerate(bt):
        if t:
            continue
        r, c = divmod(i, size)
        if (
            (r > 0 and bt[i - size])
            or (r < last and bt[i + size])
            or (c > 0 and bt[i - 1])
            or (c < last and bt[i + 1])
        ):
            out.add(i)
    return out


def _find(nodes: Sequence[int], group: int, tile: int) -> int:
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


def _cross_checks(
    nodes: Sequence[int], dawg_root: int, bt: list[int], size: int, across: bool, full: int
) -> list[int]:
    """The cross-check bit set of every square (by flat index) for plays in direction
    ``across``: ``full`` when the square has no neighbour across the play, 0 on occupied
    squares."""
    step = size if across else 1  # perpendicular to the play
    last = size - 1
    out = [0] * (size * size)
    for i, t in enumerate(bt):
        if t:
            continue
        k = i // size if across else i % size
        before = k > 0 and bt[i - step]
        after = k < last and bt[i + step]
        if not (before or after):
            out[i] = full
            continue
        prefix = []
        j, m = i - step, k - 1
        while m >= 0 and bt[j]:
            prefix.append(bt[j])
            j -= step
            m -= 1
        prefix.reverse()
        suffix = []
        j, m = i + step, k + 1
        while m <= last and bt[j]:
            suffix.append(bt[j])
            j += step
            m += 1
        out[i] = _allowed(nodes, dawg_root, prefix, suffix)
    return out


def _allowed(nodes: Sequence[int], root: int, prefix: list[int], suffix: list[int]) -> int:
    """Bit set of the tiles ``t`` for which ``prefix + [t] + suffix`` is a word (DAWG)."""
    group = root
    for t in prefix:
        n = _find(nodes, group, t) if group else -1
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
                m = _find(nodes, g, s)
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


def _generate(
    nodes: Sequence[int],
    root: int,
    board: Board,
    bt_flat: list[int],
    bv_flat: list[int],
    cells: list[str | None],
    size: int,
    across: bool,
    anchors: set[int],
    checks: list[int],
    xsums: list[int],
    tile_values: list[int],
    uppers: list[str],
    lowers: list[str],
    rack: RackIndex,
    empty_board: bool,
    out: list[Found],
    native: ModuleType | None,
) -> None:
    """Gordon's generation along every line in one direction, appending to ``out``
    (each line by :func:`_line_plays`, or by the C helper ``native``)."""
    nmax = sum(rack.counts)  # the tiles that can be placed
    wm_flat = board.word_mult
    append = out.append
    part_cache: dict[int, tuple[list[int], list[int]]] = {}

    for line in range(size):
        flats = (
            [line * size + k for k in range(size)]
            if across
            else [k * size + line for k in range(size)]
        )
        line_anchors = [k for k, f in enumerate(flats) if f in anchors]
        if not line_anchors:
            continue
        bt = [bt_flat[f] for f in flats]
        bv = [bv_flat[f] for f in flats]
        xc = [checks[f] for f in flats]
        wm = [wm_flat[f] for f in flats]
        cur: list[str] = [cells[f] or "" for f in flats]
        lt: list[list[int]] = []
        xt: list[list[int]] = []
        xb: list[int] = []
        for f in flats:
            xs = xsums[f]
            if xs < 0:
                lm = board.letter_mult[f]
                parts = part_cache.get(lm)
                if parts is None:
                    parts = part_cache[lm] = square_parts(board, f, -1, tile_values)
            else:
                parts = square_parts(board, f, xs, tile_values)
            lt.append(parts[0])
            xt.append(parts[1])
            xb.append(parts[1][0])  # a blank: value 0, index 0 of tile_values
        hascross = [xsums[f] >= 0 for f in flats]
        if native is not None:
            native.line_plays(
                nodes, root, size, across, line, line_anchors, bt, bv, xc, wm, cur, lt, xt,
                xb, hascross, uppers, lowers, rack.counts, rack.radix, nmax, rack.code,
                rack.mask, empty_board, out,
            )  # fmt: skip
            continue
        _line_plays(
            nodes, root, size, across, line, line_anchors, bt, bv, xc, wm, cur, lt, xt, xb,
            hascross, uppers, lowers, rack, nmax, empty_board, append,
        )  # fmt: skip


def _line_plays(
    nodes: Sequence[int],
    root: int,
    size: int,
    across: bool,
    line: int,
    line_anchors: list[int],
    bt: list[int],
    bv: list[int],
    xc: list[int],
    wm: list[int],
    cur: list[str],
    lt: list[list[int]],
    xt: list[list[int]],
    xb: list[int],
    hascross: list[bool],
    uppers: list[str],
    lowers: list[str],
    rack: RackIndex,
    nmax: int,
    empty_board: bool,
    append: Callable[[Found], None],
) -> None:
    """The plays from every anchor of one line (its squares' tiles ``bt`` by index and
    values ``bv``, cross-checks ``xc``, word premiums ``wm``, score parts ``lt``/``xt``/
    ``xb``), appended by ``append``.

    ``left(pos, ...)`` places a tile (or matches the board's) at ``pos`` going leftwards
    from the anchor, ``right(pos, start, ...)`` rightwards from the square after it; each
    tries every sibling of the KWG group ``g`` and, for each, records the word if the
    node accepts it and goes on (left, or across the separator; right). The code that
    goes on is written out in each branch: a call per tile placed is what costs most."""
    rc = rack.counts
    radix = rack.radix
    anchor = 0
    leftstop = 0
    right_ok = True
    minn = 1

    def left(pos: int, g: int, ms: int, wmul: int, xs: int, n: int, code: int, mask: int) -> None:
        free = pos == 0 or not bt[pos - 1]  # the word may start here
        sep_ok = free and anchor + 1 < size  # ... and turn right after the anchor
        go_on = pos > leftstop  # ... or go on leftwards
        t = bt[pos]
        if t:  # a tile on the board: follow it
            i = g
            while True:
                nd = nodes[i]
                nt = nd >> 24
                if nt == t:
                    break
                if nt > t or nd & IS_END:
                    return
                i += 1
            ms += bv[pos]
            if nd & ACCEPTS and free and right_ok and n >= minn:
                append((ms, wmul, xs, n, code, across, line, pos, anchor, mask,
                        tuple(cur[pos : anchor + 1])))  # fmt: skip
            arc = nd & ARC
            if arc:
                if go_on:
                    left(pos - 1, arc, ms, wmul, xs, n, code, mask)
                if sep_ok:
                    sep = nodes[arc]
                    if sep < 0x1000000 and sep & ARC:
                        right(anchor + 1, sep & ARC, pos, ms, wmul, xs, n, code, mask)
            return
        if n == nmax:
            return
        blanks = rc[0]
        allowed = xc[pos]
        if not blanks:
            allowed &= rack.mask
        if not allowed:
            return
        stop = allowed.bit_length()
        ltp = lt[pos]
        xtp = xt[pos]
        w = wmul * wm[pos]
        mask |= 1 << pos
        n += 1
        record = free and right_ok and n >= minn
        i = g
        while True:
            nd = nodes[i]
            nt = nd >> 24
            if nt >= stop:
                return
            if allowed >> nt & 1:
                accepts = nd & ACCEPTS and record
                arc = nd & ARC
                sep = nodes[arc] if arc and sep_ok else 0xFFFFFFFF
                if sep >= 0x1000000 or not sep & ARC:
                    sep = 0
                else:
                    sep &= ARC
                if rc[nt]:
                    rc[nt] -= 1
                    if rc[nt] == 0:
                        rack.mask ^= 1 << nt
                    cur[pos] = uppers[nt]
                    m2 = ms + ltp[nt]
                    x2 = xs + xtp[nt]
                    c2 = code - radix[nt]
                    if accepts:
                        append((m2, w, x2, n, c2, across, line, pos, anchor, mask,
                                tuple(cur[pos : anchor + 1])))  # fmt: skip
                    if arc:
                        if go_on:
                            left(pos - 1, arc, m2, w, x2, n, c2, mask)
                        if sep:
                            right(anchor + 1, sep, pos, m2, w, x2, n, c2, mask)
                    if rc[nt] == 0:
                        rack.mask ^= 1 << nt
                    rc[nt] += 1
                if blanks:
                    rc[0] = blanks - 1
                    cur[pos] = lowers[nt]
                    x2 = xs + xb[pos]
                    c2 = code - radix[0]
                    if accepts:
                        append((ms, w, x2, n, c2, across, line, pos, anchor, mask,
                                tuple(cur[pos : anchor + 1])))  # fmt: skip
                    if arc:
                        if go_on:
                            left(pos - 1, arc, ms, w, x2, n, c2, mask)
                        if sep:
                            right(anchor + 1, sep, pos, ms, w, x2, n, c2, mask)
                    rc[0] = blanks
            if nd & IS_END:
                return
            i += 1

    def right(
        pos: int, g: int, start: int, ms: int, wmul: int, xs: int, n: int, code: int, mask: int
    ) -> None:
        nxt = pos + 1
        end_ok = nxt == size or not bt[nxt]  # the word may end here
        more = nxt < size
        t = bt[pos]
        if t:
            i = g
            while True:
                nd = nodes[i]
                nt = nd >> 24
                if nt == t:
                    break
                if nt > t or nd & IS_END:
                    return
                i += 1
            ms += bv[pos]
            if nd & ACCEPTS and end_ok and n >= minn:
                append((ms, wmul, xs, n, code, across, line, start, pos, mask,
                        tuple(cur[start:nxt])))  # fmt: skip
            arc = nd & ARC
            if arc and more:
                right(nxt, arc, start, ms, wmul, xs, n, code, mask)
            return
        if n == nmax:
            return
        blanks = rc[0]
        allowed = xc[pos]
        if not blanks:
            allowed &= rack.mask
        if not allowed:
            return
        stop = allowed.bit_length()
        ltp = lt[pos]
        xtp = xt[pos]
        w = wmul * wm[pos]
        mask |= 1 << pos
        n += 1
        record = end_ok and n >= minn
        i = g
        while True:
            nd = nodes[i]
            nt = nd >> 24
            if nt >= stop:
                return
            if allowed >> nt & 1:
                accepts = nd & ACCEPTS and record
                arc = nd & ARC if more else 0
                if rc[nt]:
                    rc[nt] -= 1
                    if rc[nt] == 0:
                        rack.mask ^= 1 << nt
                    cur[pos] = uppers[nt]
                    m2 = ms + ltp[nt]
                    x2 = xs + xtp[nt]
                    c2 = code - radix[nt]
                    if accepts:
                        append((m2, w, x2, n, c2, across, line, start, pos, mask,
                                tuple(cur[start:nxt])))  # fmt: skip
                    if arc:
                        right(nxt, arc, start, m2, w, x2, n, c2, mask)
                    if rc[nt] == 0:
                        rack.mask ^= 1 << nt
                    rc[nt] += 1
                if blanks:
                    rc[0] = blanks - 1
                    cur[pos] = lowers[nt]
                    x2 = xs + xb[pos]
                    c2 = code - radix[0]
                    if accepts:
                        append((ms, w, x2, n, c2, across, line, start, pos, mask,
                                tuple(cur[start:nxt])))  # fmt: skip
                    if arc:
                        right(nxt, arc, start, ms, w, x2, n, c2, mask)
                    rc[0] = blanks
            if nd & IS_END:
                return
            i += 1

    prev = -1
    for a in line_anchors:
        if xc[a]:
            anchor = a
            leftstop = prev + 1
            right_ok = a + 1 == size or not bt[a + 1]
            if empty_board:
                minn = 2
            elif not across and hascross[a]:
                minn = 2  # a one-tile play here is found across
            else:
                minn = 1
            left(a, root, 0, 1, 0, 0, rack.code, 0)
        prev = a
