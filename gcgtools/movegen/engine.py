"""The engine core: one :class:`Request` in, the moves out, by the C helper or in pure
Python with the same results.

A :class:`Request` holds everything one generation reads: the board state of an
:class:`~gcgtools.movegen.board_state.EngineBoard` (tiles, premiums, cross-sets and
cross-scores, as buffers), the rack (counts by KWG tile index and the leave code of each
tile kind: :class:`~gcgtools.movegen.generator.RackIndex`), how leaves are valued, the
rules' numbers, and what the caller wants (``top``: every move, or the best ``top``).
:func:`run` hands it to the C helper ``_gaddag.generate`` when it is built and can take
it (:func:`native_module`, :func:`fits_native`), or to :func:`python_moves`, the
reference, which finds the plays with :func:`~gcgtools.movegen.generator.find_plays` and
scores and values them one by one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from types import ModuleType
from typing import Protocol

from gcgtools.movegen.generator import Found, KwgLike, RackIndex, find_plays
from gcgtools.movegen.move import Move, MoveKind
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
    "LeaveValues",
    "Request",
    "fits_native",
    "generator_name",
    "native_built",
    "native_module",
    "python_moves",
    "run",
]

#: Set to 1 to run the engine in pure Python even where the C helper is built.
PURE_ENV = "GCGTOOLS_PURE_PYTHON"

try:  # the optional C helper (setup.py builds it when a compiler is there)
    from gcgtools.movegen import _gaddag as _NATIVE  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the installation
    _NATIVE = None

if _NATIVE is not None and not all(hasattr(_NATIVE, f) for f in ("generate", "touched")):
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


def native_module() -> ModuleType | None:
    """The C helper when it is built and not switched off by ``GCGTOOLS_PURE_PYTHON``."""
    if _NATIVE is None or _pure_setting() not in ("", "0"):
        return None
    return _NATIVE


_ENVIRON_TYPE = type(os.environ)
_ENV_KEY = os.environ.encodekey(PURE_ENV) if hasattr(os.environ, "encodekey") else None


def _pure_setting() -> str:
    """``GCGTOOLS_PURE_PYTHON``'s value ("" when unset), read from ``os.environ``'s own
    dict when it has one (as it does on CPython): ``os.environ.get`` of a name that is
    not set raises and catches a KeyError, which costs half a microsecond, about 1% of a
    best-move search that reads it."""
    env = os.environ
    data = getattr(env, "_data", None)
    if _ENV_KEY is not None and type(env) is _ENVIRON_TYPE and isinstance(data, dict):
        raw = data.get(_ENV_KEY)
        return "" if raw is None else env.decodevalue(raw)  # type: ignore[attr-defined]
    return env.get(PURE_ENV, "")


#: How to get the C helper when it was not built (said by ``--version`` and the commands).
NATIVE_HINT = "install a C compiler and reinstall gcgtools for one about ten times faster"


def native_built() -> bool:
    """Whether the C helper was built when gcgtools was installed (from this source)."""
    return _NATIVE is not None


def generator_name() -> str:
    """Which generator runs: ``C``, or ``pure Python`` and why."""
    if native_module() is not None:
        return "C"
    if native_built():
        return f"pure Python, {PURE_ENV} is set"
    return f"pure Python; {NATIVE_HINT}"


class LeaveValues(Protocol):
    """What the engine needs of a leave table (``gcgtools.lexicon.Leaves``)."""

    def value(self, tiles: Iterable[str]) -> float: ...


@dataclass(slots=True)
class Request:
    """One generation (see the module's docstring). Buffers are the EngineBoard's."""

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
    # for the pure-Python reference only
    board: Board
    kwg: KwgLike
    values: dict[str, int]
    index: RackIndex | None  #: None when the C helper made the rack's parts
    rack_list: list[str]
    leaves: LeaveValues | None
    tiles: TileSet
    end_rule: EndRule


_SIZE, _LETTERS, _KINDS, _RACK, _CODES = (
    (LIMITS[k] for k in ("MAX_SIZE", "MAX_LETTERS", "MAX_KINDS", "MAX_RACK", "MAX_CODES"))
    if LIMITS
    else (0, 0, 0, 0, 0)
)


def fits_native(req: Request) -> bool:
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


def run(req: Request, native: ModuleType | None | bool = True) -> list[Move]:
    """The moves of ``req``, best first: by the C helper (``native`` True: when it is
    built and fits; or the module itself), else by :func:`python_moves`."""
    module = native_module() if native is True else native
    if isinstance(module, ModuleType) and fits_native(req):
        return module.generate(req)
    return python_moves(req)


_EQUITY = attrgetter("equity")


def python_moves(req: Request) -> list[Move]:
    """The pure-Python reference of ``_gaddag.generate``: every play found by
    :func:`find_plays`, scored by :func:`parts_score`, then the exchanges and the pass,
    sorted by equity (a stable sort: ties keep the order they were found in); the first
    ``req.top`` when it is set."""
    ri = req.index
    if ri is None:
        ri = RackIndex(req.rack_list, req.kwg.index, len(req.uppers) - 1)
    codes = ri.all_codes()
    texts: list[str] = []
    leave_values: list[float] = []
    for code in codes:
        kept = ri.leave_tiles(code)
        texts.append(sorted_tiles(kept))
        leave_values.append(_leave_value(req, kept))
    moves: list[Move] = []
    append = moves.append
    if ri.size:
        plays = find_plays(req.board, req.kwg, ri, req.values, cross=req.cross, xsum=req.xsum)
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


def _play(req: Request, found: Found, texts: list[str], leave_values: list[float]) -> Move:
    ms, wmul, xs, n, code, across, line, start, _end, mask, cells = found
    score = parts_score(ms, wmul, xs, n, req.bingo_size, req.bingo_bonus)
    lv = req.going_out if req.endgame and code == 0 else leave_values[code]
    row, col = (line, start) if across else (start, line)
    return Move(
        MoveKind.PLAY, row, col, across, cells, mask >> start, score, texts[code], lv,
        score + lv, n >= req.bingo_size,
    )  # fmt: skip


def _leave_value(req: Request, kept: list[str]) -> float:
    """What keeping ``kept`` adds to a move (:func:`gcgtools.rules.equity.leave_equity`;
    going out with the bag empty is ``req.going_out``, which :func:`_play` adds)."""
    value = req.leaves.value if req.leaves is not None else None
    bag = 0 if req.endgame else 1
    return leave_equity(kept, bag=bag, tiles=req.tiles, end_rule=req.end_rule, leave_value=value)
