"""Every legal play for a rack on a board: Gordon's GADDAG algorithm over a KWG.

The lexicon's KWG is read as a flat list of 32-bit nodes (tile in bits 24-31, accepts
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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from gcgtools.replay.board import Board
from gcgtools.replay.scoring import cross_sums, square_parts

__all__ = ["Found", "KwgLike", "RackIndex", "find_plays", "kwg_nodes"]


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

_NODES_CACHE: dict[int, tuple[object, list[int]]] = {}


def kwg_nodes(kwg: KwgLike) -> list[int]:
    """The KWG's nodes as a plain list of ints (fastest to index), kept per KWG object."""
    nodes = kwg.nodes
    key = id(kwg)
    hit = _NODES_CACHE.get(key)
    if hit is not None and hit[0] is kwg:
        return hit[1]
    as_list = nodes if isinstance(nodes, list) else list(nodes)
    if len(_NODES_CACHE) > 8:
        _NODES_CACHE.clear()
    _NODES_CACHE[key] = (kwg, as_list)
    return as_list


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
) -> list[Found]:
    """Every legal play of ``rack`` on ``board`` in the lexicon of ``kwg``, unscored (the
    parts of each score are in the tuple)."""
    nodes = kwg_nodes(kwg)
    letters: Sequence[str] = kwg.letters
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
            tile_values, uppers, lowers, rack, empty_board, out,
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


def _find(nodes: list[int], group: int, tile: int) -> int:
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
    nodes: list[int], dawg_root: int, bt: list[int], size: int, across: bool, full: int
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


def _allowed(nodes: list[int], root: int, prefix: list[int], suffix: list[int]) -> int:
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
    nodes: list[int],
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
) -> None:
    """Gordon's generation along every line in one direction, appending to ``out``."""
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
        _line_plays(
            nodes, root, size, across, line, line_anchors, bt, bv, xc, wm, cur, lt, xt, xb,
            hascross, uppers, lowers, rack, nmax, empty_board, append,
        )  # fmt: skip


def _line_plays(
    nodes: list[int],
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
    ``xb``), appended by ``append``."""
    rc = rack.counts
    radix = rack.radix
    anchor = 0
    leftstop = 0
    right_ok = True
    minn = 1

    anchor = 0
    leftstop = 0
    right_ok = True
    minn = 1

    def go_left(
        pos: int, g: int, ms: int, wmul: int, xs: int, n: int, code: int, mask: int
    ) -> None:
        t = bt[pos]
        if t:
            i = g
            while True:
                nd = nodes[i]
                nt = nd >> 24
                if nt == t:
                    cont_left(pos, nd, ms + bv[pos], wmul, xs, n, code, mask)
                    return
                if nt > t or nd & IS_END:
                    return
                i += 1
        if n == nmax:
            return
        xm = xc[pos]
        ltp = lt[pos]
        xtp = xt[pos]
        w = wmul * wm[pos]
        bit = mask | (1 << pos)
        blanks = rc[0]
        i = g
        while True:
            nd = nodes[i]
            nt = nd >> 24
            if xm >> nt & 1:
                if rc[nt]:
                    rc[nt] -= 1
                    cur[pos] = uppers[nt]
                    cont_left(pos, nd, ms + ltp[nt], w, xs + xtp[nt], n + 1, code - radix[nt], bit)
                    rc[nt] += 1
                if blanks:
                    rc[0] = blanks - 1
                    cur[pos] = lowers[nt]
                    cont_left(pos, nd, ms, w, xs + xb[pos], n + 1, code - radix[0], bit)
                    rc[0] = blanks
            if nd & IS_END:
                break
            i += 1

    def cont_left(
        pos: int, nd: int, ms: int, wmul: int, xs: int, n: int, code: int, mask: int
    ) -> None:
        left_free = pos == 0 or not bt[pos - 1]
        if nd & ACCEPTS and left_free and right_ok and n >= minn:
            append((ms, wmul, xs, n, code, across, line, pos, anchor, mask,
                    tuple(cur[pos : anchor + 1])))  # fmt: skip
        arc = nd & ARC
        if not arc:
            return
        if pos > leftstop:
            go_left(pos - 1, arc, ms, wmul, xs, n, code, mask)
        if left_free and anchor + 1 < size:
            sep = nodes[arc]
            if not sep >> 24 and sep & ARC:
                go_right(anchor + 1, sep & ARC, pos, ms, wmul, xs, n, code, mask)

    def go_right(
        pos: int,
        g: int,
        start: int,
        ms: int,
        wmul: int,
        xs: int,
        n: int,
        code: int,
        mask: int,
    ) -> None:
        t = bt[pos]
        if t:
            i = g
            while True:
                nd = nodes[i]
                nt = nd >> 24
                if nt == t:
                    cont_right(pos, nd, start, ms + bv[pos], wmul, xs, n, code, mask)
                    return
                if nt > t or nd & IS_END:
                    return
                i += 1
        if n == nmax:
            return
        xm = xc[pos]
        ltp = lt[pos]
        xtp = xt[pos]
        w = wmul * wm[pos]
        bit = mask | (1 << pos)
        blanks = rc[0]
        i = g
        while True:
            nd = nodes[i]
            nt = nd >> 24
            if xm >> nt & 1:
                if rc[nt]:
                    rc[nt] -= 1
                    cur[pos] = uppers[nt]
                    cont_right(pos, nd, start, ms + ltp[nt], w, xs + xtp[nt], n + 1,
                               code - radix[nt], bit)  # fmt: skip
                    rc[nt] += 1
                if blanks:
                    rc[0] = blanks - 1
                    cur[pos] = lowers[nt]
                    cont_right(pos, nd, start, ms, w, xs + xb[pos], n + 1, code - radix[0],
                               bit)  # fmt: skip
                    rc[0] = blanks
            if nd & IS_END:
                break
            i += 1

    def cont_right(
        pos: int,
        nd: int,
        start: int,
        ms: int,
        wmul: int,
        xs: int,
        n: int,
        code: int,
        mask: int,
    ) -> None:
        nxt = pos + 1
        if nd & ACCEPTS and n >= minn and (nxt == size or not bt[nxt]):
            append((ms, wmul, xs, n, code, across, line, start, pos, mask,
                    tuple(cur[start:nxt])))  # fmt: skip
        arc = nd & ARC
        if arc and nxt < size:
            go_right(nxt, arc, start, ms, wmul, xs, n, code, mask)

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
            go_left(a, root, 0, 1, 0, 0, rack.code, 0)
        prev = a
