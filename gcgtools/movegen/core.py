"""The engine core: one generation's :class:`EngineInputs` in, the moves out, by the C
helper or in pure Python with the same results.

:class:`EngineInputs` is what one generation reads, in the fixed order the C helper
unpacks it (its ``INPUTS`` names the fields; the two are checked equal when the helper is
loaded): the board state of an :class:`~gcgtools.movegen.board_state.EngineBoard` (tiles,
premiums, cross-sets and cross-scores, as buffers), the rack (counts by KWG tile index and
the leave code of each tile kind: :class:`~gcgtools.movegen.plays.RackIndex`), how
leaves are valued, the rules' numbers, and how many moves to give (``top``: every move, or
the best ``top``). The pure-Python reference reads, beside it, a :class:`Reference` (the
Board, the KWG, the leave table, the rules' end of the game), made only when it runs. An
EngineBoard hands the inputs to the C helper ``_gaddag.generate`` when it is built and can
take them (:func:`native_module`, :func:`fits_native`), or to :func:`python_moves`, the
reference,
which finds the plays with :func:`~gcgtools.movegen.plays.find_plays` and scores and
values them one by one.

``GCGTOOLS_PURE_PYTHON`` (set, and not ``0``) switches the C helper off. It is read when
this module is imported and again by :func:`read_pure_switch` (and :func:`generator_name`),
not on every generation: ``os.environ.get`` of an unset name costs about half a
microsecond, about 1% of a best-move search. A program (a test, a benchmark) that changes
the variable while it runs calls :func:`read_pure_switch` afterwards.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from types import ModuleType
from typing import NamedTuple

from gcgtools.movegen.move import Move, MoveKind
from gcgtools.movegen.plays import Found, KwgLike, RackIndex, find_plays
from gcgtools.movegen.request import LeaveValues
from gcgtools.replay.board import Board
from gcgtools.replay.position import sorted_tiles
from gcgtools.replay.scoring import parts_score
from gcgtools.rules.equity import leave_equity
from gcgtools.rules.rulesets import EndRule
from gcgtools.rules.tiles import TileSet

__all__ = [
    "LIMITS",
    "NATIVE_HINT",
    "PURE_ENV",
    "EngineInputs",
    "Reference",
    "fits_native",
    "generator_name",
    "native_built",
    "native_module",
    "python_moves",
    "read_pure_switch",
]

#: Set to 1 to run the engine in pure Python even where the C helper is built.
PURE_ENV = "GCGTOOLS_PURE_PYTHON"


class EngineInputs(NamedTuple):
    """One generation (see the module's docstring), in the order the C helper unpacks it.
    Buffers are the EngineBoard's."""

    # the lexicon
    nodes: Sequence[int]  #: the KWG's nodes, ``array('I')``
    root: int  #: the GADDAG's root group
    uppers: tuple[str, ...]  #: tile text by KWG index
    lowers: tuple[str, ...]  #: the same, a blank standing for it
    tile_values: list[int]  #: points by KWG index (0 for index 0)
    # the board
    size: int
    cells: list[str | None]  #: the Board's squares (the moves' cells take these texts)
    bt: Sequence[int]  #: KWG index per square, 0 empty
    bv: Sequence[int]  #: value per square (blanks 0)
    lm: Sequence[int]  #: letter premium per square
    wm: Sequence[int]  #: word premium per square
    cross: Sequence[int]  #: cross-sets, ``d * area + square``
    xsum: Sequence[int]  #: cross-scores, -1 without neighbours
    centre: int  #: the start square when the board is empty, else -1
    # the rack
    rack: list[int]  #: tile counts by KWG index (index 0: blanks)
    radix: list[int]  #: leave-code radix by KWG index
    kind_counts: list[int]  #: per distinct tile of the rack (RackIndex.kinds)
    kind_radix: list[int]
    kind_points: list[int]  #: each kind's value (for the end of the game)
    kind_order: list[int]  #: the kinds in the order their text sorts (blanks last)
    kind_text: tuple[str, ...]  #: each kind as text (``[CH]`` for a multi-letter tile)
    kind_klv: list[int]  #: each kind's number in the KLV's alphabet (when ``klv``)
    # values and rules
    endgame: bool  #: the bag is empty: a leave is worth minus its points
    going_out: float  #: what going out earns with the bag empty
    leave_table: list[float] | None  #: leave value per leave code, or None
    klv: tuple[Sequence[int], Sequence[int], Sequence[float], int] | None
    """the KLV's (nodes, word counts, values, root) to look leaves up in, or None (with
    no ``leave_table`` either: every leave is worth 0)"""
    full_leave: float | None  #: with ``klv``: what keeping the whole rack is worth
    full_split: bool
    """with ``klv`` and no ``full_leave``: the whole rack is one tile longer than the KLV's
    leaves, and is worth the mean over its tiles of the leave without the tile plus the
    tile alone (``gcgtools.lexicon.leaves.split_estimate``), worked out in C"""
    bingo_size: int
    bingo_bonus: int
    exchange_bag: int  #: exchanges of at most this many tiles, -1 for none
    top: int  #: 0 for every move, else the best ``top``
    anagrams: bytes | None  #: ``_gaddag.anagram_index`` of the lexicon (bounds), or None
    words: bytes | None  #: ``_gaddag.word_index`` of the lexicon (plays looked up), or None


@dataclass(slots=True)
class Reference:
    """What the pure-Python reference reads beside the :class:`EngineInputs`."""

    board: Board
    kwg: KwgLike
    values: dict[str, int]  #: points by tile text
    index: RackIndex | None  #: None when the C helper made the rack's parts
    rack_list: list[str]
    leaves: LeaveValues | None
    tiles: TileSet
    end_rule: EndRule


try:  # the optional C helper (setup.py builds it when a compiler is there)
    import gcgtools.movegen._gaddag as _NATIVE  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the installation
    _NATIVE = None

if _NATIVE is not None and getattr(_NATIVE, "INPUTS", None) != EngineInputs._fields:
    _NATIVE = None  # pragma: no cover - a helper built from an older source, not this one's
if _NATIVE is not None:
    _NATIVE.configure(Move, MoveKind.PLAY, MoveKind.EXCHANGE, MoveKind.PASS)

#: What the C helper can take (its own constants): squares a side, alphabet size (the
#: separator included), distinct tiles and tiles on a rack, leave codes.
LIMITS: dict[str, int] = (
    {
        k: getattr(_NATIVE, k)
        for k in ("MAX_SIZE", "MAX_LETTERS", "MAX_KINDS", "MAX_RACK", "MAX_CODES")
    }
    if _NATIVE is not None
    else {}
)

_pure = False  #: GCGTOOLS_PURE_PYTHON as :func:`read_pure_switch` last read it


def read_pure_switch() -> bool:
    """Read ``GCGTOOLS_PURE_PYTHON`` (set and not ``0``: pure Python) and keep it for
    :func:`native_module`; whether it is on."""
    global _pure
    _pure = os.environ.get(PURE_ENV, "") not in ("", "0")
    return _pure


read_pure_switch()


def native_module() -> ModuleType | None:
    """The C helper when it is built and not switched off by ``GCGTOOLS_PURE_PYTHON`` (as
    :func:`read_pure_switch` last read it)."""
    return None if _pure else _NATIVE


#: How to get the C helper when it was not built (said by ``--version`` and the commands).
NATIVE_HINT = "install a C compiler and reinstall gcgtools for one about ten times faster"


def native_built() -> bool:
    """Whether the C helper was built when gcgtools was installed (from this source)."""
    return _NATIVE is not None


def generator_name() -> str:
    """Which generator runs: ``C``, or ``pure Python`` and why (the switch read afresh)."""
    pure = read_pure_switch()
    if not pure and _NATIVE is not None:
        return "C"
    if native_built():
        return f"pure Python, {PURE_ENV} is set"
    return f"pure Python; {NATIVE_HINT}"


_SIZE, _LETTERS, _KINDS, _RACK, _CODES = (
    (LIMITS[k] for k in ("MAX_SIZE", "MAX_LETTERS", "MAX_KINDS", "MAX_RACK", "MAX_CODES"))
    if LIMITS
    else (0, 0, 0, 0, 0)
)


def fits_native(req: EngineInputs) -> bool:
    """Whether the C helper can take ``req`` (board size, alphabet and rack in its limits)."""
    counts = req.kind_counts
    tiles = sum(counts)
    if not (
        LIMITS
        and req.size <= _SIZE
        and len(req.uppers) <= _LETTERS
        and len(counts) <= _KINDS
        and tiles <= _RACK
    ):
        return False
    if 1 << tiles <= _CODES:  # the leave codes, the product of count + 1, are at most 2**tiles
        return True
    codes = 1
    for c in counts:
        codes *= c + 1
    return codes <= _CODES


_EQUITY = attrgetter("equity")


def python_moves(req: EngineInputs, ref: Reference) -> list[Move]:
    """The pure-Python reference of ``_gaddag.generate``: every play found by
    :func:`find_plays`, scored by :func:`parts_score`, then the exchanges and the pass,
    sorted by equity (a stable sort: ties keep the order they were found in); the first
    ``req.top`` when it is set."""
    ri = ref.index
    if ri is None:
        ri = RackIndex(ref.rack_list, ref.kwg.index, len(req.uppers) - 1)
    codes = ri.all_codes()
    texts: list[str] = []
    leave_values: list[float] = []
    for code in codes:
        kept = ri.leave_tiles(code)
        texts.append(sorted_tiles(kept))
        leave_values.append(_leave_value(req, ref, kept))
    moves: list[Move] = []
    append = moves.append
    if ri.size:
        plays = find_plays(ref.board, ref.kwg, ri, ref.values, cross=req.cross, xsum=req.xsum)
        for found in plays:
            append(_play(req, found, texts, leave_values))
    full = ri.code
    if req.exchange_bag >= 0:
        for code in codes:
            thrown = ri.size - len(ri.leave_tiles(code))
            if code == full or thrown > req.exchange_bag:
                continue
            lv = leave_values[code]
            append(
                Move(MoveKind.EXCHANGE, 0, 0, True, (), 0, 0, texts[code], lv, lv,
                     tiles=texts[full - code])
            )  # fmt: skip
    lv = leave_values[full]
    append(Move(MoveKind.PASS, 0, 0, True, (), 0, 0, texts[full], lv, lv, tiles=""))
    moves.sort(key=_EQUITY, reverse=True)
    return moves[: req.top] if req.top else moves


def _play(req: EngineInputs, found: Found, texts: list[str], leave_values: list[float]) -> Move:
    ms, wmul, xs, n, code, across, line, start, _end, mask, cells = found
    score = parts_score(ms, wmul, xs, n, req.bingo_size, req.bingo_bonus)
    lv = req.going_out if req.endgame and code == 0 else leave_values[code]
    row, col = (line, start) if across else (start, line)
    return Move(
        MoveKind.PLAY, row, col, across, cells, mask >> start, score, texts[code], lv,
        score + lv, n >= req.bingo_size,
    )  # fmt: skip


def _leave_value(req: EngineInputs, ref: Reference, kept: list[str]) -> float:
    """What keeping ``kept`` adds to a move (:func:`gcgtools.rules.equity.leave_equity`;
    going out with the bag empty is ``req.going_out``, which :func:`_play` adds)."""
    value = ref.leaves.value if ref.leaves is not None else None
    bag = 0 if req.endgame else 1
    return leave_equity(kept, bag=bag, tiles=ref.tiles, end_rule=ref.end_rule, leave_value=value)
