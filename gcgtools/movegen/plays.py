"""Every legal play for a rack on a board: Gordon's GADDAG algorithm over a KWG.

The lexicon's KWG is read as a flat array of 32-bit nodes (tile in bits 24-31, accepts
0x800000, last sibling 0x400000, arc in bits 0-21); nothing is built per node. For each
direction the generator:

1. takes, for every empty square with neighbours across the play, the *cross-check*:
   the set of tiles that form a word with them, as a bit set (bit ``t`` for tile index
   ``t``), and the cross-score (:mod:`gcgtools.movegen.cross_sets`, kept up to date by an
   :class:`~gcgtools.movegen.board_state.EngineBoard`), and from them each square's score
   parts (:func:`~gcgtools.replay.scoring.square_parts`);
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

This module is the pure-Python reference of the engine: the optional C helper
``_gaddag.c`` (see :mod:`gcgtools.movegen.core`) does the same walk, scores and values
the plays it finds and builds the moves; the tests compare the two.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, MutableSequence, Sequence
from typing import NamedTuple, Protocol

from gcgtools.movegen.cross_sets import ACCEPTS, ARC, IS_END, NO_TILE, fill_cross_sets, find
from gcgtools.replay.board import Board
from gcgtools.replay.scoring import square_parts

__all__ = ["Found", "KwgLike", "RackIndex", "RackParts", "find_plays", "kwg_buffer", "rack_parts"]


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
        by_kind: dict[str, int] = {}  # distinct tiles as they are in the bag (upper case,
        for tile in rack:  # "?"), in the order they first appear
            t = "?" if tile == "?" else tile.upper()
            by_kind[t] = by_kind.get(t, 0) + 1
        self.kinds = list(by_kind)
        self.kind_counts = list(by_kind.values())
        self.size = len(rack)
        self.counts = counts_by = [0] * (n_letters + 1)  # by tile index; [0] = blanks
        self.radix = radix_by = [0] * (n_letters + 1)
        mask = 0
        radix = 1
        self.radices: list[int] = []
        radices = self.radices
        for kind, count in by_kind.items():
            radices.append(radix)
            t = 0 if kind == "?" else index.get(kind, -1)
            if 0 <= t <= n_letters:
                counts_by[t] = count
                radix_by[t] = radix
                if t:
                    mask |= 1 << t
            radix *= count + 1
        #: bit set of the tile indices the rack holds (not the blank); the generator
        #: keeps it up to date as it places tiles
        self.mask = mask
        self.code = radix - 1  # every digit at its full count

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


#: What a request says of a rack: ``(kinds, kind_counts, counts, radix, kind_radix,
#: kind_points, kind_order, kind_text)`` (see :class:`RackIndex` and
#: :class:`~gcgtools.movegen.core.Request`).
RackParts = tuple[
    list[str], list[int], list[int], list[int], list[int], list[int], list[int], tuple[str, ...]
]


def rack_parts(ri: RackIndex, values: dict[str, int]) -> RackParts:
    """The :data:`RackParts` of a rack (``values``: points by tile text; KeyError for a
    tile it lacks); the C helper's ``rack_parts`` gives the same from the rack's tiles.
    ``kind_order``: the kinds in the order their texts sort, blanks last;
    ``kind_text``: each kind as a leave shows it (``[CH]`` for a multi-letter tile)."""
    kinds = ri.kinds
    return (
        kinds, ri.kind_counts, ri.counts, ri.radix, ri.radices, [values[k] for k in kinds],
        sorted(range(len(kinds)), key=lambda k: (kinds[k] == "?", kinds[k])),
        tuple(k if len(k) == 1 else f"[{k}]" for k in kinds),
    )  # fmt: skip


def board_tiles(
    board: Board, index: dict[str, int], values: dict[str, int]
) -> tuple[list[int], list[int]]:
    """The board's tiles by KWG index (0: empty; :data:`NO_TILE`: not in the alphabet) and
    their values (blanks 0), by flat index. KeyError for a tile ``values`` lacks."""
    bt = [0] * len(board.cells)
    bv = [0] * len(board.cells)
    for i, tile in enumerate(board.cells):
        if tile is not None:
            bt[i] = index.get(tile.upper(), NO_TILE)
            bv[i] = values[tile]
    return bt, bv


def find_plays(
    board: Board,
    kwg: KwgLike,
    rack: RackIndex,
    values: dict[str, int],
    *,
    cross: Sequence[int] | None = None,
    xsum: Sequence[int] | None = None,
) -> list[Found]:
    """Every legal play of ``rack`` on ``board`` in the lexicon of ``kwg``, unscored (the
    parts of each score are in the tuple), in pure Python. ``cross``/``xsum``: the
    board's cross-sets and cross-scores (:mod:`gcgtools.movegen.cross_sets`), computed here
    when not given."""
    letters: Sequence[str] = kwg.letters
    nodes = kwg_buffer(kwg)  # indexing the array is as fast as a list, and smaller
    n_letters = len(letters) - 1
    size = board.size
    area = size * size
    tile_values = [0] + [values.get(letters[t], 0) for t in range(1, n_letters + 1)]
    uppers = list(letters)
    lowers = [t.lower() for t in letters]
    bt, bv = board_tiles(board, kwg.index, values)
    full = (1 << (n_letters + 1)) - 2  # every tile but the separator
    if cross is None or xsum is None:
        cross_l: MutableSequence[int] = [0] * (2 * area)
        xsum_l: MutableSequence[int] = [0] * (2 * area)
        fill_cross_sets(
            nodes, kwg.dawg_root, kwg.gaddag_root, size, bt, bv, cross_l, xsum_l, full, None
        )
        cross, xsum = cross_l, xsum_l
    empty_board = not any(bt)
    if empty_board:
        r0, c0 = board.layout.centre
        anchors = {r0 * size + c0}
    else:
        anchors = _anchors(bt, size)
    out: list[Found] = []
    if not anchors or rack.size == 0:
        return out
    for d, across in enumerate((True, False)):
        _generate(
            nodes, kwg.gaddag_root, board, bt, bv, board.cells, size, across, anchors,
            cross[d * area : (d + 1) * area], xsum[d * area : (d + 1) * area], tile_values,
            uppers, lowers, rack, empty_board, out,
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


class _Line(NamedTuple):
    """One line of the board as the walk reads it (a tuple, unpacked in one step where the
    walk starts): its squares' tiles by index ``bt`` and values ``bv``, cross-checks
    ``xc``, word premiums ``wm``, the word being built ``cur``, and score parts
    ``lt``/``xt``/``xb``; what is the same for every line; and where plays go."""

    nodes: Sequence[int]
    size: int
    across: bool
    line: int
    bt: list[int]
    bv: list[int]
    xc: list[int]
    wm: list[int]
    cur: list[str]
    lt: list[list[int]]
    xt: list[list[int]]
    xb: list[int]
    uppers: list[str]
    lowers: list[str]
    rack: RackIndex
    nmax: int
    append: Callable[[Found], None]


#: ``left(pos, g, ms, wmul, xs, n, code, mask)`` (:func:`_leftwards`) or
#: ``right(pos, g, start, ms, wmul, xs, n, code, mask)`` (:func:`_rightwards`)
Walk = Callable[..., None]


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
    checks: Sequence[int],
    xsums: Sequence[int],
    tile_values: list[int],
    uppers: list[str],
    lowers: list[str],
    rack: RackIndex,
    empty_board: bool,
    out: list[Found],
) -> None:
    """Gordon's generation along every line in one direction, appending to ``out``
    (each line by :func:`_line_plays`)."""
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
        ln = _Line(
            nodes, size, across, line, [bt_flat[f] for f in flats], [bv_flat[f] for f in flats],
            [checks[f] for f in flats], [wm_flat[f] for f in flats],
            [cells[f] or "" for f in flats], lt, xt, xb, uppers, lowers, rack, nmax, append,
        )  # fmt: skip
        hascross = [xsums[f] >= 0 for f in flats]
        _line_plays(ln, root, line_anchors, hascross, empty_board)


def _line_plays(
    ln: _Line, root: int, line_anchors: list[int], hascross: list[bool], empty_board: bool
) -> None:
    """The plays from every anchor of one line, appended by ``ln.append``: from each
    anchor, :func:`_leftwards` places a tile at the anchor and goes on leftwards (to the
    square after the previous anchor, ``leftstop``), then rightwards from the square after
    it (:func:`_rightwards`); a word that ends at the anchor is recorded when the square
    after it is free (``right_ok``), and when it places ``minn`` tiles or more.

    The walk's code is written out in each branch, with what it reads bound in the
    closures (made once per line): a call per tile placed is what costs most."""
    size, bt, xc = ln.size, ln.bt, ln.xc
    # the rightward walks, to an empty square and to a tile, by the fewest tiles placed
    rights: list[tuple[Walk, Walk] | None] = [None, None]
    start = _leftwards(ln, root)
    prev = -1
    for a in line_anchors:
        if xc[a]:
            if empty_board:
                minn = 2
            elif not ln.across and hascross[a]:
                minn = 2  # a one-tile play here is found across
            else:
                minn = 1
            walks = rights[minn - 1]
            if walks is None:
                walks = rights[minn - 1] = _rightwards(ln, minn)
            right_ok = a + 1 == size or not bt[a + 1]  # (else the walk turns onto a tile)
            start(a, prev + 1, right_ok, minn, walks[0] if right_ok else walks[1])
        prev = a


def _leftwards(ln: _Line, root: int) -> Callable[[int, int, bool, int, Walk], None]:
    """``start(anchor, ...)``: ``left(pos, g, ...)`` places a rack tile at the empty ``pos``
    for each sibling of the KWG group ``g`` allowed there, records the word if accepted,
    goes on leftwards (a board tile by :func:`_leftwards_on_tile`) and rightwards."""
    nodes, size, across, line, bt, _, xc, wm, cur, lt, xt, xb, uppers, lowers, rack, nmax, \
        append = ln  # fmt: skip
    rc, radix = rack.counts, rack.radix
    going: list[Walk] = []  # left, once it is made
    on_tile, aim = _leftwards_on_tile(ln, going)
    anchor = after = leftstop = minn = right_ok = turn_ok = 0  # start() sets them
    right: Walk = on_tile

    def left(pos: int, g: int, ms: int, wmul: int, xs: int, n: int, code: int, mask: int) -> None:
        if n == nmax:
            return
        free = pos == 0 or not bt[pos - 1]  # the word may start here
        sep_ok = free and turn_ok  # ... and turn right after the anchor
        go_on = pos > leftstop  # ... or go on leftwards (to a tile when not free)
        blanks = rc[0]
        allowed = xc[pos] if blanks else xc[pos] & rack.mask
        if not allowed:
            return
        stop = allowed.bit_length()
        ltp, xtp, w = lt[pos], xt[pos], wmul * wm[pos]
        mask, n = mask | 1 << pos, n + 1
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
                sep = nodes[arc] if arc and sep_ok else 0
                sep = sep & ARC if sep < 0x1000000 else 0
                if rc[nt]:
                    rc[nt] -= 1
                    if rc[nt] == 0:
                        rack.mask ^= 1 << nt
                    cur[pos] = uppers[nt]
                    m2, x2, c2 = ms + ltp[nt], xs + xtp[nt], code - radix[nt]
                    if accepts:
                        append((m2, w, x2, n, c2, across, line, pos, anchor, mask,
                                tuple(cur[pos:after])))  # fmt: skip
                    if arc:
                        if go_on:
                            (left if free else on_tile)(pos - 1, arc, m2, w, x2, n, c2, mask)
                        if sep:
                            right(after, sep, pos, m2, w, x2, n, c2, mask)
                    if rc[nt] == 0:
                        rack.mask ^= 1 << nt
                    rc[nt] += 1
                if blanks:
                    rc[0] = blanks - 1
                    cur[pos] = lowers[nt]
                    x2, c2 = xs + xb[pos], code - radix[0]
                    if accepts:
                        append((ms, w, x2, n, c2, across, line, pos, anchor, mask,
                                tuple(cur[pos:after])))  # fmt: skip
                    if arc:
                        if go_on:
                            (left if free else on_tile)(pos - 1, arc, ms, w, x2, n, c2, mask)
                        if sep:
                            right(after, sep, pos, ms, w, x2, n, c2, mask)
                    rc[0] = blanks
            if nd & IS_END:
                return
            i += 1

    def start(a: int, stop: int, ok: bool, least: int, rightwards: Walk) -> None:
        nonlocal anchor, after, leftstop, right_ok, minn, turn_ok, right
        anchor, after, leftstop, right_ok, minn = a, a + 1, stop, ok, least
        right, turn_ok = rightwards, a + 1 < size
        aim(a, stop, ok, least, rightwards)
        left(a, root, 0, 1, 0, 0, rack.code, 0)

    going.append(left)
    return start


def _leftwards_on_tile(
    ln: _Line, going: list[Walk]
) -> tuple[Walk, Callable[[int, int, bool, int, Walk], None]]:
    """The leftward walk of :func:`_leftwards` on a square that holds a tile, and
    ``aim(anchor, leftstop, right_ok, minn, right)``, which sets the anchor it walks from:
    the tile must be a sibling of the group ``g``; it is followed leftwards (to an empty
    square by ``going[0]``) and across the separator."""
    nodes, size, across, line, bt, bv, _, _, cur, _, _, _, _, _, _, _, append = ln
    anchor = after = leftstop = minn = 0
    right_ok = turn_ok = False

    def on_tile(
        pos: int, g: int, ms: int, wmul: int, xs: int, n: int, code: int, mask: int
    ) -> None:
        free = pos == 0 or not bt[pos - 1]
        nd = find(nodes, g, bt[pos])  # the tile's sibling
        if nd < 0:
            return
        ms += bv[pos]
        if nd & ACCEPTS and free and right_ok and n >= minn:
            append((ms, wmul, xs, n, code, across, line, pos, anchor, mask,
                    tuple(cur[pos:after])))  # fmt: skip
        arc = nd & ARC
        if arc:
            if pos > leftstop:
                (going[0] if free else on_tile)(pos - 1, arc, ms, wmul, xs, n, code, mask)
            if free and turn_ok:
                sep = nodes[arc]
                if sep < 0x1000000 and sep & ARC:
                    right(after, sep & ARC, pos, ms, wmul, xs, n, code, mask)

    right: Walk = on_tile  # until aim() sets it

    def aim(a: int, stop: int, ok: bool, least: int, rightwards: Walk) -> None:
        nonlocal anchor, after, leftstop, right_ok, minn, turn_ok, right
        anchor, after, leftstop, right_ok, minn, right = a, a + 1, stop, ok, least, rightwards
        turn_ok = after < size

    return on_tile, aim


def _rightwards(ln: _Line, minn: int) -> tuple[Walk, Walk]:
    """``right(pos, g, start, ms, wmul, xs, n, code, mask)`` places a rack tile at the
    empty ``pos`` going rightwards (the word started at ``start``) for each sibling of the
    KWG group ``g`` allowed there, records the word if accepted (of ``minn`` tiles or
    more) and goes on rightwards; and the walk on a tile (:func:`_rightwards_on_tile`)."""
    nodes, size, across, line, bt, _, xc, wm, cur, lt, xt, xb, uppers, lowers, rack, nmax, \
        append = ln  # fmt: skip
    rc, radix = rack.counts, rack.radix
    going: list[Walk] = []  # right, once it is made
    on_tile = _rightwards_on_tile(ln, minn, going)

    def right(
        pos: int, g: int, start: int, ms: int, wmul: int, xs: int, n: int, code: int, mask: int
    ) -> None:
        if n == nmax:
            return
        nxt = pos + 1
        end_ok = nxt == size or not bt[nxt]  # the word may end here (else a tile follows)
        more = nxt < size
        blanks = rc[0]
        allowed = xc[pos] if blanks else xc[pos] & rack.mask
        if not allowed:
            return
        stop = allowed.bit_length()
        ltp, xtp, w = lt[pos], xt[pos], wmul * wm[pos]
        mask, n = mask | 1 << pos, n + 1
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
                    m2, x2, c2 = ms + ltp[nt], xs + xtp[nt], code - radix[nt]
                    if accepts:
                        append((m2, w, x2, n, c2, across, line, start, pos, mask,
                                tuple(cur[start:nxt])))  # fmt: skip
                    if arc:
                        (right if end_ok else on_tile)(nxt, arc, start, m2, w, x2, n, c2, mask)
                    if rc[nt] == 0:
                        rack.mask ^= 1 << nt
                    rc[nt] += 1
                if blanks:
                    rc[0] = blanks - 1
                    cur[pos] = lowers[nt]
                    x2, c2 = xs + xb[pos], code - radix[0]
                    if accepts:
                        append((ms, w, x2, n, c2, across, line, start, pos, mask,
                                tuple(cur[start:nxt])))  # fmt: skip
                    if arc:
                        (right if end_ok else on_tile)(nxt, arc, start, ms, w, x2, n, c2, mask)
                    rc[0] = blanks
            if nd & IS_END:
                return
            i += 1

    going.append(right)
    return right, on_tile


def _rightwards_on_tile(ln: _Line, minn: int, going: list[Walk]) -> Walk:
    """The rightward walk of :func:`_rightwards` on a square that holds a tile: the tile
    must be a sibling of the group ``g``; it is followed rightwards (to an empty square by
    ``going[0]``)."""
    nodes, size, across, line, bt, bv, _, _, cur, _, _, _, _, _, _, _, append = ln

    def on_tile(
        pos: int, g: int, start: int, ms: int, wmul: int, xs: int, n: int, code: int, mask: int
    ) -> None:
        nxt = pos + 1
        end_ok = nxt == size or not bt[nxt]  # the word may end here
        nd = find(nodes, g, bt[pos])  # the tile's sibling
        if nd < 0:
            return
        ms += bv[pos]
        if nd & ACCEPTS and end_ok and n >= minn:
            append((ms, wmul, xs, n, code, across, line, start, pos, mask,
                    tuple(cur[start:nxt])))  # fmt: skip
        arc = nd & ARC
        if arc and nxt < size:
            (going[0] if end_ok else on_tile)(nxt, arc, start, ms, wmul, xs, n, code, mask)

    return on_tile
