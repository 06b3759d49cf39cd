"""The endgame search in C (``solve_endgame_native`` of the C helper, ``endgame.c``): the
same search as :mod:`gcgtools.analysis.endgame.search` (same values, same "proved", same
end-of-game rules), on an incremental board with the move generator called directly at
each node. :func:`solve_endgame` uses it when the C helper is built and not switched off
(``GCGTOOLS_PURE_PYTHON``); the Python search stays the reference.

The C side answers with plain values: each root move's value, whether it is complete and
exact, its principal variation as move keys (row, column, across, the new squares' bits,
the new tiles' KWG indices, | 64 for a blank) and the rack points its last move gains
when it ends the game. The moves' notations come from replaying the lines here with the
Python generator (a few generations per line).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection, Sequence
from types import ModuleType
from typing import cast

from gcgtools.analysis.endgame.moves import EgMove, MoveSource
from gcgtools.analysis.endgame.position import EndgamePosition
from gcgtools.analysis.endgame.result import EndgameResult, Limit, Progress, RootMove
from gcgtools.analysis.endgame.state import SearchState, passes_to_end
from gcgtools.console import stop_requested
from gcgtools.movegen.board_state import EngineBoard
from gcgtools.movegen.core import native_module
from gcgtools.movegen.generate import MoveRequest
from gcgtools.replay.board import Board, square_name
from gcgtools.replay.notation import word_notation
from gcgtools.rules.tiles import BLANK

__all__ = ["native_endgame", "solve_native"]

#: the transposition table holds 2**TT_LG entries of 16 bytes (64 MB) at first
TT_LG = 22
#: and doubles whenever it is half full, up to 2**TT_MAX_LG entries (4 GB), or less on a
#: machine with less than 16 GB of memory (a quarter of it): a long search keeps what it
#: learnt (an 8-tile endgame proved in 186 s with 2**26 entries was still unproved after
#: 360 s with 2**22; a 13-tile one searched 22% fewer nodes in its 9th ply with 2**28
#: entries than with 2**26)
TT_MAX_LG = 28
#: the share of the machine's memory the table may take at most
TT_MEMORY_SHARE = 4


def tt_max_lg() -> int:
    """The largest table, as a power of two of entries: :data:`TT_MAX_LG`, less where a
    quarter of the machine's memory is less than that many entries of 16 bytes."""
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):  # pragma: no cover - not on Linux or macOS
        return TT_LG
    lg = max(TT_LG, (memory // TT_MEMORY_SHARE // 16).bit_length() - 1)
    return min(TT_MAX_LG, lg)


#: each root move is searched first within this many points of its value at the previous
#: depth (an aspiration window), again with a full window when its value falls outside
ASPIRATION = 8
#: the cut-down lexicon takes up to about 15 ms to find and build (a blank on the racks, 14
#: tiles): a search given fewer nodes or seconds than these (the pre-endgame's many small
#: searches) runs on the whole lexicon, where that would be more than a few percent
PRUNE_NODES = 100_000
PRUNE_SECONDS = 0.25
#: the move generator keeps each line's plays by its squares and the rack (the line cache,
#: generation.c): 2**LINE_CACHE_LG slots (8 MB) for a search given at least PRUNE_NODES
#: nodes or PRUNE_SECONDS, 2**SMALL_LINE_CACHE_LG (128 KB) for the smaller ones; 0: none
LINE_CACHE_LG = 18
SMALL_LINE_CACHE_LG = 12
#: why a search ended, by the C code (endgame.h)
_STOPPED = ("proved", "nodes", "seconds", "depth", "hopeless", "interrupted")
_BLANK_BIT = 0x40
#: the most tiles the C search takes on a rack with what it will draw (MAX_RACK)
_MOST = 16

MoveKey = tuple[int, int, int, int, tuple[int, ...]]


def native_endgame(position: EndgamePosition) -> ModuleType | None:
    """The C helper when it is built, not switched off and can search ``position``."""
    native = native_module()
    if native is None or not hasattr(native, "solve_endgame_native"):
        return None
    kwg = position.lexicon.kwg
    if not kwg.gaddag_root or len(kwg.letters) > 64 or position.board.size > 32:
        return None
    if not position.racks[0] or len(position.bag) > 16:
        return None
    if any(len(r) + len(position.bag) > _MOST for r in position.racks):
        return None
    return native


def _key(m: EgMove, index: dict[str, int]) -> MoveKey:
    """The C side's key of a move: (row, col, across, new, codes of the new tiles)."""
    mv = m.move
    if m.is_pass:
        return (0, 0, 1, 0, ())
    codes = tuple(
        index[t] if t.isupper() else index[t.upper()] | _BLANK_BIT
        for k, t in enumerate(mv.cells)
        if mv.new >> k & 1
    )
    return (mv.row, mv.col, int(mv.across), mv.new, codes)


def solve_native(
    native: ModuleType,
    position: EndgamePosition,
    limit: Limit,
    *,
    all_moves: bool,
    exact: Collection[str],
    roots: Collection[str] | None,
    source: MoveSource | None,
    on_depth: Callable[[Progress], None] | None,
    prune: bool | None = None,
) -> EndgameResult:
    """:func:`~gcgtools.analysis.endgame.search.solve_endgame` in C (see the module).
    ``prune``: search with the lexicon cut down to the words the tiles left can make with
    the board (``word_prune.c``: the same moves everywhere, found faster); False: the
    whole lexicon (the tests compare the two); None: cut down unless the limit is below
    ``PRUNE_NODES`` nodes or ``PRUNE_SECONDS`` seconds."""
    if prune is None:
        prune = (limit.nodes is None or limit.nodes >= PRUNE_NODES) and (
            limit.seconds is None or limit.seconds >= PRUNE_SECONDS
        )
    start = time.perf_counter()
    source = source or MoveSource(position.lexicon, position.rules)
    kwg = position.lexicon.kwg
    index: dict[str, int] = kwg.index
    n_letters = len(kwg.letters)
    state = SearchState(position, source)
    root_moves = state.moves()
    by_key = {_key(m, index): m for m in root_moves}
    chosen = root_moves if roots is None else [m for m in root_moves if m.notation() in roots]
    root_keys = None if roots is None else {_key(m, index) for m in chosen}
    exact_keys = {_key(m, index) for m in chosen if m.notation() in exact}
    board = EngineBoard(position.board, position.lexicon, rules=position.rules)
    req, _ = board.inputs(MoveRequest(list(position.racks[0]), leaves=None, bag_count=0), 0)

    def counts(rack: tuple[str, ...]) -> list[int]:
        out = [0] * n_letters
        for t in rack:
            out[0 if t == BLANK else index[t]] += 1
        return out

    rules = position.rules
    end_rule = rules.end_rule
    out_factor = end_rule.out_multiplier + (1 if end_rule.deducts_own_rack else 0)

    def told(depth: int, nodes: int, key: tuple[object, ...], value: int) -> None:
        if on_depth is not None:
            best = by_key[key[:5]]  # type: ignore[index]
            on_depth(Progress(depth, nodes, best.notation(), value, time.perf_counter() - start))

    seconds = -1.0 if limit.seconds is None else limit.seconds - (time.perf_counter() - start)
    stopped_code, depth, nodes, lines, _ = native.solve_endgame_native(
        req.nodes, req.root, kwg.dawg_root, req.size, n_letters, (1 << n_letters) - 2,
        req.bt, req.bv, req.lm, req.wm, req.cross, req.xsum, list(req.tile_values),
        counts(position.racks[0]), counts(position.racks[1]),
        [0 if t == BLANK else index[t] for t in position.bag],
        passes_to_end(position.zeros, rules.max_scoreless_turns),
        out_factor, rules.rack_size, rules.bingo_bonus, limit.nodes or 0, limit.depth or 0,
        max(seconds, 1e-6) if limit.seconds is not None else -1.0, TT_LG, tt_max_lg(),
        int(all_moves), root_keys, exact_keys, stop_requested,
        told if on_depth is not None else None,
        int(prune), ASPIRATION, (LINE_CACHE_LG if prune else SMALL_LINE_CACHE_LG),
    )  # fmt: skip
    stopped = _STOPPED[stopped_code]
    proved = stopped == "proved"
    results: list[RootMove] = []
    for _, value, done, _, pv, ending in lines:
        names, scores = _replay(position, pv)
        first = by_key[tuple(pv[0][:5])]
        results.append(RootMove(first.move, value, bool(done), names, scores, ending))
    seconds_taken = time.perf_counter() - start
    if not results:
        return EndgameResult(None, 0, [], False, nodes, 0, seconds_taken, stopped=stopped)
    best = results[0]
    return EndgameResult(
        best.move, best.value, best.pv, proved, nodes, depth, seconds_taken, results, stopped
    )


def _replay(
    position: EndgamePosition, pv: list[tuple[int, int, int, int, tuple[int, ...], int]]
) -> tuple[list[str], list[int]]:
    """A line's notations and scores, read from its move keys: each move's new tiles put
    on a copy of the board, its word read through the tiles already there (no move
    generation: a search stopped by its clock replays hundreds of lines)."""
    board = position.board.copy()
    letters = position.lexicon.kwg.letters
    names: list[str] = []
    scores: list[int] = []
    for row, col, across, new, codes, score in pv:
        scores.append(score)
        if not codes:
            names.append("-")
            continue
        names.append(_put(board, row, col, bool(across), new, codes, letters))
    return names, scores


def _put(
    board: Board, row: int, col: int, across: bool, new: int, codes: tuple[int, ...],
    letters: Sequence[str],
) -> str:  # fmt: skip
    """Puts a play's new tiles on ``board`` and answers its notation (``8D QUITE``, the
    tiles already there in parentheses)."""
    dr, dc = (0, 1) if across else (1, 0)
    tiles = iter(codes)
    k = 0
    while new >> k:
        if new >> k & 1:
            code = next(tiles)
            letter = letters[code & ~_BLANK_BIT]
            board[row + k * dr, col + k * dc] = letter.lower() if code & _BLANK_BIT else letter
        k += 1
    while board.in_bounds(row - dr, col - dc) and board[row - dr, col - dc] is not None:
        row, col = row - dr, col - dc
        new <<= 1
    cells: list[str] = []
    through: list[bool] = []
    r, c, k = row, col, 0
    while board.in_bounds(r, c) and board[r, c] is not None:
        cells.append(cast(str, board[r, c]))
        through.append(not new >> k & 1)
        r, c, k = r + dr, c + dc, k + 1
    return word_notation(square_name(row, col, "across" if across else "down"), cells, through)
