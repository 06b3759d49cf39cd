"""``EngineBoard``: a board with its cross-sets, updated one play at a time, that
generates moves.

Callers that play many moves on one board (simulation, endgame search) make one
``EngineBoard`` and call :meth:`EngineBoard.play` / :meth:`EngineBoard.undo` between
generations: only the squares a play touches get their cross-sets computed again.
:func:`~gcgtools.movegen.generate.generate_moves` makes one per call. A generation is
asked for with one :class:`~gcgtools.movegen.request.MoveRequest`
(:meth:`EngineBoard.generate`, :meth:`EngineBoard.generate_best`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, MutableSequence, Sequence
from types import ModuleType
from typing import NamedTuple, Protocol, TypeVar

from gcgtools.movegen.core import (
    EngineInputs,
    Reference,
    fits_native,
    native_module,
    python_moves,
)
from gcgtools.movegen.cross_sets import NO_TILE, fill_cross_sets
from gcgtools.movegen.move import Move
from gcgtools.movegen.plays import KwgLike, RackIndex, RackParts, kwg_buffer, rack_parts
from gcgtools.movegen.request import LeaveValues, MoveRequest
from gcgtools.replay.board import Board
from gcgtools.rules.equity import leave_equity
from gcgtools.rules.rulesets import EndRule, RuleSet, bingo_bonus_for
from gcgtools.rules.tiles import BLANK, TileError, TileSet, tile_set

#: The most tiles a rack given to the generator may hold: far beyond any rule set's rack
#: (7), below the 2**n leaves that would never end. The commands refuse a rack longer
#: than the rule set's where they read it (T409, moves, CGP).
MAX_RACK_TILES = 20

__all__ = ["EngineBoard", "LexiconLike", "NativeParts", "rack_tiles"]


class NativeParts(NamedTuple):
    """An EngineBoard's parts as the C helper's simulation reads them
    (:meth:`EngineBoard.native_parts`): the helper module; the lexicon (KWG nodes, GADDAG
    and DAWG roots, anagram and word indexes, cross-set memo, tile values and where each
    tile's text sorts, by KWG index, the tiles' bit set); the board (size, start square,
    letter and word premiums); the KLV (nodes, word counts, values, root, each KWG
    tile's KLV number, its longest leave) or None (no leaves, or not a KLV); the board's state
    (tiles, values, cross-sets, cross-scores), copied by the helper; tile texts (upper
    case) by KWG index."""

    module: ModuleType
    lexicon: tuple[object, ...]
    board: tuple[object, ...]
    klv: tuple[object, ...] | None
    state: tuple[object, ...]
    index: dict[str, int]


class LexiconLike(Protocol):
    """What the engine needs of a lexicon (``gcgtools.lexicon.Lexicon``)."""

    @property
    def kwg(self) -> KwgLike: ...
    @property
    def tiles(self) -> TileSet | None: ...


def rack_tiles(rack: str | Sequence[str], tiles: TileSet) -> list[str]:
    """A rack as tile texts, upper case, blanks ``?`` (a string is split by the tile set:
    ``[CH]`` or the longest match)."""
    items = tiles.split(rack) if isinstance(rack, str) else list(rack)
    return [t if t == BLANK else t.upper() for t in items]


_T = TypeVar("_T")


def _kept(
    cache: dict[Hashable, tuple[object, _T]], key: Hashable, owner: object, keep: int,
    make: Callable[..., _T], *args: object,
) -> _T:  # fmt: skip
    """``make(*args)`` for ``owner`` (a lexicon's KWG, a layout, a leave table), made
    once and kept in ``cache`` under ``key`` while ``owner`` is the same object (the cache
    is emptied when it holds more than ``keep``)."""
    hit = cache.get(key)
    if hit is None or hit[0] is not owner:
        if len(cache) > keep:
            cache.clear()
        hit = cache[key] = (owner, make(*args))
    return hit[1]


#: one alphabet's tables, kept per (KWG, tile set): texts by index, values by index, and
#: (index, value) by tile text on the board
_Alphabet = tuple[tuple[str, ...], tuple[str, ...], list[int], dict[str, tuple[int, int]]]
_ALPHABETS: dict[Hashable, tuple[object, _Alphabet]] = {}
#: the lexicons' anagram sets (bounds) and word index (plays looked up) for the C helper,
#: kept per KWG
_INDEXES: dict[Hashable, tuple[object, tuple[bytes, bytes]]] = {}
#: the C helper's memo of cross-sets (``cross_sets``), kept per KWG
_MEMOS: dict[Hashable, tuple[object, array]] = {}
#: KLV leave tables' data for the C helper (None for other tables), kept per Leaves object
_Klv = tuple[Sequence[int], Sequence[int], Sequence[float], int]
_KLVS: dict[Hashable, tuple[object, _Klv | None]] = {}
#: per board layout: zeros (``2 * area``), letter and word premiums, as ``array('i')``
_LAYOUTS: dict[Hashable, tuple[object, tuple[array, array, array]]] = {}


def _alphabet(kwg: KwgLike, tiles: TileSet) -> _Alphabet:
    return _kept(_ALPHABETS, (id(kwg), tiles.name), kwg, 16, _make_alphabet, kwg, tiles)


def _make_alphabet(kwg: KwgLike, tiles: TileSet) -> _Alphabet:
    letters = list(kwg.letters)
    values = tiles.token_values
    index = kwg.index
    codes = {t: (index.get(t.upper(), NO_TILE), v) for t, v in values.items() if t != BLANK}
    return (
        tuple(letters),
        tuple(t.lower() for t in letters),
        [0] + [values.get(t, 0) for t in letters[1:]],
        codes,
    )


def _layout_arrays(board: Board) -> tuple[array, array, array]:
    return _kept(_LAYOUTS, id(board.layout), board.layout, 16, _make_layout, board)


def _make_layout(board: Board) -> tuple[array, array, array]:
    area = board.size * board.size
    return (array("i", bytes(8 * area)), array("i", board.letter_mult),
            array("i", board.word_mult))  # fmt: skip


def _memo(kwg: KwgLike, native: ModuleType) -> array:
    """The C helper's memo of the cross-sets of short runs of tiles for ``kwg``: a
    cross-set depends only on the tiles before and after its square, which come back on
    every board of a game."""
    return _kept(_MEMOS, id(kwg), kwg, 4, _make_memo, native)


def _make_memo(native: ModuleType) -> array:
    return array("Q", bytes(8 * native.MEMO_WORDS))


def _klv_data(leaves: LeaveValues) -> _Klv | None:
    """The KLV graph of ``leaves`` (``gcgtools.lexicon.KlvLeaves``) for the C helper, or
    None for other leave tables (their values are listed per leave in Python)."""
    return _kept(_KLVS, id(leaves), leaves, 8, _make_klv, leaves)


def _make_klv(leaves: LeaveValues) -> _Klv | None:
    kwg = getattr(leaves, "kwg", None)
    values = getattr(leaves, "values", None)
    if kwg is None or not isinstance(values, array) or values.typecode != "f":
        return None
    return (kwg_buffer(kwg), kwg.word_counts(), values, int(kwg.dawg_root))


def _make_indexes(native: ModuleType, nodes: Sequence[int], root: int) -> tuple[bytes, bytes]:
    return native.anagram_index(nodes, root), native.word_index(nodes, root)


class EngineBoard:
    """A board, its tiles as KWG indices and its cross-sets, for one lexicon and rules.

    ``EngineBoard(board, lexicon, rules=None)`` copies ``board`` (``copy=False``: uses
    it as it is, for a caller that only generates and leaves ``board`` alone meanwhile;
    :meth:`play` would then change it). :meth:`moves` and :meth:`best_move` generate;
    :meth:`play` puts a move's tiles on the board (updating only the cross-sets it
    changes), :meth:`undo` takes the last one back; ``board`` is the board as it stands.
    ``native``: False for the pure-Python engine (True: the C helper when it is built;
    or the helper module itself).
    """

    def __init__(
        self,
        board: Board,
        lexicon: LexiconLike,
        *,
        rules: RuleSet | None = None,
        native: bool | ModuleType = True,
        copy: bool = True,
    ) -> None:
        kwg = lexicon.kwg
        if not kwg.gaddag_root:
            raise ValueError("the lexicon's KWG has no GADDAG: moves cannot be generated")
        self.board = board.copy() if copy else board
        self._given = (board.layout, board.tileset or lexicon.tiles, rules)  # see fits
        self.tiles = self._given[1] or tile_set("english")
        self.kwg = kwg
        self._rules(rules, board)
        self._native: ModuleType | None = (
            native if isinstance(native, ModuleType) else native_module() if native else None
        )
        self._memo = _memo(kwg, self._native) if self._native is not None else None
        self._index: dict[str, int] = kwg.index
        self._values = self.tiles.token_values
        self._nodes = kwg_buffer(kwg)
        letters = len(kwg.letters)
        self._full = (1 << letters) - 2  # every tile but the separator
        self._uppers, self._lowers, self._tile_values, self._codes = _alphabet(kwg, self.tiles)
        size = self.size = board.size
        area = size * size
        zeros, self._lm, self._wm = _layout_arrays(board)
        self._bt = zeros[:area]
        self._bv = zeros[:area]
        self._cross: MutableSequence[int] = (
            array("Q", bytes(16 * area)) if letters <= 64 else [0] * (2 * area)
        )
        self._xsum = zeros[:]
        #: per play: its squares, the cross-sets and cross-scores before it (whole copies:
        #: two buffer copies cost less than saving the squares it changes one by one), and
        #: the board's last placed tiles
        self._history: list[tuple[list[int], object, object, object]] = []
        self._count = self._load()  # tiles on the board
        self._fill(None)

    def _rules(self, rules: RuleSet | None, board: Board) -> None:
        if rules is not None:
            self.bingo_size, self.bingo_bonus = rules.rack_size, rules.bingo_bonus
            self.end_rule = rules.end_rule
            self.exchange_minimum = rules.exchange_minimum_bag
        else:
            self.bingo_size = 7
            self.bingo_bonus = bingo_bonus_for(self.tiles.name, board.layout.name)
            self.end_rule = EndRule.STANDARD
            self.exchange_minimum = 7

    # ------------------------------------------------------------------ board state
    def _load(self) -> int:
        cells, codes, bt, bv = self.board.cells, self._codes, self._bt, self._bv
        try:
            if self._native is not None:
                return self._native.load_board(cells, codes, bt, bv)
            count = 0
            for i, tile in enumerate(cells):
                if tile is None:
                    bt[i] = bv[i] = 0
                else:
                    bt[i], bv[i] = codes[tile]
                    count += 1
            return count
        except KeyError as exc:
            raise TileError(self._not_a_tile(exc.args[0])) from None

    def _not_a_tile(self, tile: object) -> str:
        return f"{tile!r} on the board is not a tile of {self.tiles.name}"

    def _fill(self, squares: Sequence[int] | None) -> None:
        args = (self._nodes, self.kwg.dawg_root, self.kwg.gaddag_root, self.size, self._bt,
                self._bv, self._cross, self._xsum, self._full, squares)  # fmt: skip
        if self._native is not None and isinstance(self._cross, array):
            self._native.cross_sets(*args, self._memo)
        else:
            fill_cross_sets(*args)

    def _touched(self, flats: Sequence[int]) -> list[int]:
        """The new squares and the empty squares at the ends of the runs of tiles
        through them, both ways: the squares whose cross-sets a play changes."""
        size, bt = self.size, self._bt
        if self._native is not None:
            return self._native.touched(bt, size, flats)
        out = set()
        for f in flats:
            out.add(f)
            r, c = divmod(f, size)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                while 0 <= rr < size and 0 <= cc < size and bt[rr * size + cc]:
                    rr, cc = rr + dr, cc + dc
                if 0 <= rr < size and 0 <= cc < size:
                    out.add(rr * size + cc)
        return sorted(out)

    def play(self, move: Move) -> None:
        """Put ``move``'s new tiles on the board (an exchange or a pass changes nothing,
        but is taken back by :meth:`undo` all the same). ValueError for a square that is
        taken or off the board, TileError for a tile the tile set lacks; nothing is put
        down then."""
        placed = self._place(move) if move.kind == "play" else ([], ())
        flats, squares = placed if placed is not None else self._place_python(move)
        self._count += len(flats)
        if not flats:
            self._history.append((flats, None, None, self.board.last_placed))
            return
        self._history.append((flats, self._cross[:], self._xsum[:], self.board.last_placed))
        self._fill(self._touched(flats))
        self.board.last_placed = tuple(squares)

    def _place(self, move: Move) -> tuple[list[int], tuple[tuple[int, int, str], ...]] | None:
        """The C helper's ``place_tiles``: the new tiles put down, their squares flat and
        as (row, col, tile); None (nothing changed) where the helper does not run or a
        tile cannot go down, which :meth:`_place_python` then says."""
        if self._native is None or not isinstance(self._bt, array):
            return None
        cells = move.cells if type(move.cells) is tuple else tuple(move.cells)
        return self._native.place_tiles(self.board.cells, self._codes, self._bt, self._bv,
                                        self.size, move.row, move.col, move.across, cells,
                                        move.new)  # fmt: skip

    def _place_python(self, move: Move) -> tuple[list[int], list[tuple[int, int, str]]]:
        """:meth:`_place` in Python, every square and tile checked before any goes down
        (the errors :meth:`play` raises come from here)."""
        squares = move.squares
        size = self.size
        flats = []
        for r, c, tile in squares:
            if not (0 <= r < size and 0 <= c < size) or self.board.cells[r * size + c]:
                raise ValueError(
                    f"{move.notation()}: square {r + 1},{c + 1} is taken or off the board"
                )
            if tile not in self._codes:  # before any tile goes down
                raise TileError(self._not_a_tile(tile))
            flats.append(r * size + c)
        cells, bt, bv, codes = self.board.cells, self._bt, self._bv, self._codes
        for f, (_, _, tile) in zip(flats, squares, strict=True):
            bt[f], bv[f] = codes[tile]
            cells[f] = tile
        return flats, squares

    def undo(self) -> None:
        """Take back the last :meth:`play`. IndexError when there is none."""
        flats, cross, xsum, last = self._history.pop()
        cells, bt, bv = self.board.cells, self._bt, self._bv
        for f in flats:
            cells[f] = None
            bt[f] = bv[f] = 0
        self._count -= len(flats)
        if flats:
            self._cross[:] = cross  # type: ignore[index]
            self._xsum[:] = xsum  # type: ignore[index]
        self.board.last_placed = last  # type: ignore[assignment]

    def fits(self, board: Board, lexicon: LexiconLike, rules: RuleSet | None) -> bool:
        """Whether this EngineBoard was made for the same lexicon, layout, tile set,
        rules and engine as ``EngineBoard(board, lexicon, rules=rules)`` would be (then
        :meth:`reload` can put ``board`` on it)."""
        layout, tiles, given = self._given
        return (
            self.kwg is lexicon.kwg
            and layout is board.layout
            and tiles is (board.tileset or lexicon.tiles)
            and given is rules
            and self._native is native_module()
        )

    def reload(self, board: Board) -> None:
        """Use ``board`` as it is (as ``copy=False`` does) in place of this one's board,
        its tiles and cross-sets made again from scratch, the history of plays dropped:
        the same state as a new EngineBoard's, in the buffers this one has."""
        self.board = board
        self._history.clear()
        self._count = self._load()
        self._fill(None)

    def copy(self) -> EngineBoard:
        """An independent copy (the history of plays is not copied)."""
        other = EngineBoard.__new__(EngineBoard)
        other.__dict__.update(self.__dict__)
        other.board = self.board.copy()
        for name in ("_bt", "_bv", "_cross", "_xsum"):
            setattr(other, name, getattr(self, name)[:])
        other._history = []
        return other

    def native_parts(self, leaves: LeaveValues | None) -> NativeParts | None:
        """What the C helper's simulation playouts (``_gaddag.sim_new``, made by
        :mod:`gcgtools.analysis.sim_native`) read of this board, its lexicon and
        ``leaves`` (its KLV, or None for leaves that are not one); None when the C helper
        does not run here or cannot take them (an alphabet or board beyond its limits, a
        KLV of another alphabet)."""
        native = self._native
        if native is None or not isinstance(self._cross, array):
            return None
        if self.size > native.MAX_SIZE or len(self._uppers) > native.MAX_LETTERS:
            return None
        klv = None
        data = _klv_data(leaves) if leaves is not None else None
        if data is not None:
            try:  # each KWG tile's number in the KLV's alphabet (the blank, index 0: "?")
                nums = leaves.alphabet.encode_tiles([BLANK, *self._uppers[1:]])  # type: ignore[union-attr]
            except TileError:
                return None
            klv = (*data, nums, int(leaves.longest))  # type: ignore[union-attr]
        letters = self._uppers
        order = sorted(range(1, len(letters)), key=letters.__getitem__)
        ranks = [len(letters)] * len(letters)  # the blank sorts last (kind_order)
        for rank, t in enumerate(order):
            ranks[t] = rank
        anagrams, words = self._indexes()
        lexicon = (self._nodes, self.kwg.gaddag_root, self.kwg.dawg_root, anagrams, words,
                   self._memo, self._tile_values, ranks, self._full)  # fmt: skip
        r0, c0 = self.board.layout.centre
        board = (self.size, r0 * self.size + c0, self._lm, self._wm)
        state = (self._bt, self._bv, self._cross, self._xsum)
        return NativeParts(native, lexicon, board, klv, state, self._index)

    # ------------------------------------------------------------------ generation
    def generate(self, request: MoveRequest) -> list[Move]:
        """The moves ``request`` asks for, best first (see
        :func:`~gcgtools.movegen.generate.generate_moves`): every move, or the best
        ``request.top`` (exactly the first ``top`` of the full list); ValueError for a
        negative ``top``."""
        top = request.top
        if top < 0:
            raise ValueError(f"top must be 0 (every move) or more, not {top}")
        return self._run(request, top)

    def generate_best(self, request: MoveRequest) -> Move:
        """The first move :meth:`generate` gives (the highest equity; ``request.top`` is
        not read), found by pruning every anchor whose upper bound cannot beat the best
        move so far. The pass is always a move, so there is one."""
        return self._run(request, 1)[0]

    def moves(
        self,
        rack: str | Sequence[str],
        *,
        leaves: LeaveValues | None,
        bag_count: int,
        opponent_rack: str | Sequence[str] | None = None,
        exchanges: bool = True,
        top: int | None = None,
    ) -> list[Move]:
        """:meth:`generate` of a :class:`MoveRequest` of these (``top``: None for every
        move, else at least 1)."""
        if top is not None and top < 1:
            raise ValueError(f"top must be at least 1, not {top}")
        return self.generate(MoveRequest(rack, leaves=leaves, bag_count=bag_count,
                                         opponent_rack=opponent_rack, exchanges=exchanges,
                                         top=top or 0))  # fmt: skip

    def best_move(
        self,
        rack: str | Sequence[str],
        *,
        leaves: LeaveValues | None,
        bag_count: int,
        opponent_rack: str | Sequence[str] | None = None,
        exchanges: bool = True,
    ) -> Move | None:
        """:meth:`generate_best` of a :class:`MoveRequest` of these."""
        return self.generate_best(MoveRequest(rack, leaves=leaves, bag_count=bag_count,
                                              opponent_rack=opponent_rack,
                                              exchanges=exchanges))  # fmt: skip

    def _run(self, request: MoveRequest, top: int) -> list[Move]:
        """The C helper's moves when it runs and can take the inputs, else the pure-Python
        reference's (its Reference made only then)."""
        inputs, rack_list, ri, end_rule = self._inputs(request, top)
        native = self._native
        if native is not None and fits_native(inputs):
            return native.generate(inputs)
        return python_moves(inputs, self._reference(request, rack_list, ri, end_rule))

    def _reference(
        self, request: MoveRequest, rack_list: list[str], ri: RackIndex | None, end_rule: EndRule
    ) -> Reference:
        return Reference(self.board, self.kwg, self._values, ri, rack_list, request.leaves,
                         self.tiles, end_rule)  # fmt: skip

    def _indexes(self) -> tuple[bytes, bytes] | tuple[None, None]:
        """The C helper's tables for top-K requests, made once per KWG: the anagram index
        (the lexicon's 7- to 9-letter words by their letters, and its letter sets: the
        bounds leave out plays that make no word on their squares) and the word index
        (every word by letter set and length: the plays of an anchor are looked up)."""
        native = self._native
        if native is None:
            return None, None
        kwg = self.kwg
        return _kept(_INDEXES, id(kwg), kwg, 4, _make_indexes, native, self._nodes, kwg.dawg_root)

    def _rack_parts(self, rack_list: list[str]) -> tuple[RackParts, RackIndex | None]:
        """The rack's parts for a request: by the C helper when it runs (then without a
        RackIndex: the pure-Python engine makes one when it needs it)."""
        if self._native is not None:
            n_letters = len(self._uppers) - 1
            return self._native.rack_parts(rack_list, self._index, self._values, n_letters), None
        ri = self._rack_index(rack_list)
        return rack_parts(ri, self._values), ri

    def _rack_index(self, rack_list: list[str]) -> RackIndex:
        return RackIndex(rack_list, self._index, len(self._uppers) - 1)

    def inputs(self, request: MoveRequest, top: int) -> tuple[EngineInputs, Reference]:
        """The engine's :class:`~gcgtools.movegen.core.EngineInputs` for one generation of
        ``request`` giving ``top`` moves (0: all), and what the pure-Python reference reads
        beside them (:class:`~gcgtools.movegen.core.Reference`). ``request.rules``, when
        given, stands for this board's rules."""
        inputs, rack_list, ri, end_rule = self._inputs(request, top)
        return inputs, self._reference(request, rack_list, ri, end_rule)

    def _inputs(
        self, request: MoveRequest, top: int
    ) -> tuple[EngineInputs, list[str], RackIndex | None, EndRule]:
        rules = request.rules
        if rules is None:
            bingo_size, bingo_bonus = self.bingo_size, self.bingo_bonus
            end_rule, exchange_minimum = self.end_rule, self.exchange_minimum
        else:
            bingo_size, bingo_bonus = rules.rack_size, rules.bingo_bonus
            end_rule, exchange_minimum = rules.end_rule, rules.exchange_minimum_bag
        leaves, bag_count = request.leaves, request.bag_count
        opponent_rack, exchanges = request.opponent_rack, request.exchanges
        tiles = self.tiles
        rack_list = rack_tiles(request.rack, tiles)
        if len(rack_list) > MAX_RACK_TILES:  # 2**n leaves: a 26-tile rack would never end
            raise ValueError(
                f"a rack of {len(rack_list)} tiles; the move generator takes at most "
                f"{MAX_RACK_TILES} (a rule set's rack is checked where racks are read)"
            )
        for t in rack_list:
            if t != BLANK and t not in tiles.values:
                raise TileError(f"{t!r} in the rack is not a tile of {tiles.name}")
        parts, ri = self._rack_parts(rack_list)
        kinds = parts[0]
        endgame = bag_count <= 0
        going_out = 0.0
        if endgame and opponent_rack is not None:
            opponent = rack_tiles(opponent_rack, tiles)
            going_out = leave_equity((), bag=0, tiles=tiles, end_rule=end_rule, opponent=opponent)
        klv = None
        kind_klv: list[int] = []
        if leaves is not None and not endgame and self._native is not None:
            klv = _klv_data(leaves)
            if klv is not None:
                kind_klv = leaves.alphabet.encode_tiles(kinds)  # type: ignore[attr-defined]
        # a KLV lists leaves of at most 6 tiles: the pass's is estimated by the Leaves, or
        # (a rack one tile longer) by the C helper from the leaves of the rack, the same way
        full_split = klv is not None and len(rack_list) == getattr(leaves, "longest", -2) + 1
        full_leave = (
            float(leaves.value(rack_list))
            if klv is not None and rack_list and not full_split
            else None
        )
        leave_table = None
        if leaves is not None and not endgame and klv is None and self._native is not None:
            ri = self._rack_index(rack_list)
            leave_table = [
                float(leaves.value(ri.leave_tiles(c))) if c else 0.0 for c in ri.all_codes()
            ]
        size = self.size
        centre = -1
        if not self._count:  # the first play covers the start square
            r0, c0 = self.board.layout.centre
            centre = r0 * size + c0
        anagrams, words = self._indexes() if top else (None, None)
        exchange_bag = bag_count if exchanges and bag_count >= exchange_minimum else -1
        # _make of one tuple: EngineInputs(...) runs a Python __new__ of 34 arguments, about
        # half a microsecond more a search
        inputs = EngineInputs._make((
            self._nodes, self.kwg.gaddag_root, self._uppers, self._lowers, self._tile_values,
            size, self.board.cells, self._bt, self._bv, self._lm, self._wm, self._cross,
            self._xsum, centre,
            parts[2], parts[3], parts[1], parts[4], parts[5], parts[6], parts[7], kind_klv,
            endgame, going_out, leave_table, klv, full_leave, full_split, bingo_size,
            bingo_bonus, exchange_bag, top, anagrams, words,
        ))  # fmt: skip
        return inputs, rack_list, ri, end_rule
