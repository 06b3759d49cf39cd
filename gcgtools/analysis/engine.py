"""The one place the deep analysis (win probability self-play, simulation) calls the move
generator: the best move, the top ``k`` moves, and a move put down on a copy of a board.

Everything above this module (``gcgtools.analysis.simulate``, ``tools/selfplay_winpct.py``,
``benchmarks/simulate.py``) goes through these functions, so that a faster engine (a
compiled ``best_move`` or ``generate_moves(..., top=k)``) is wired in here and nowhere
else: the top ``k`` come from ``generate_moves(..., top=k)`` and the best move from the
engine's pruned :func:`gcgtools.movegen.best_move`. A caller that makes several moves on one
board in a row (the simulation's plies) keeps an :class:`~gcgtools.movegen.EngineBoard`
(:func:`kept_board`, :func:`best_move_on`), whose cross-sets follow each move played on it.
"""

from __future__ import annotations

from collections.abc import Sequence

from gcgtools.movegen import EngineBoard, Move, generate_moves
from gcgtools.movegen import best_move as find_best
from gcgtools.movegen.generate import LeaveValues, LexiconLike
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import RuleSet
from gcgtools.rules.tiles import BLANK

__all__ = [
    "apply_move",
    "best_move",
    "best_move_on",
    "kept_board",
    "move_tiles",
    "rack_after",
    "top_moves",
]


def top_moves(
    board: Board,
    rack: Sequence[str],
    lexicon: LexiconLike,
    k: int,
    *,
    leaves: LeaveValues | None,
    bag_count: int,
    opponent_rack: Sequence[str] | None = None,
    exchanges: bool = True,
    rules: RuleSet | None = None,
) -> list[Move]:
    """The ``k`` moves of ``rack`` with the highest equity, best first (see
    :func:`gcgtools.movegen.generate_moves` for equity and the other parameters). The
    pass is always among the moves, so the list is never empty for ``k`` >= 1."""
    if k < 1:
        return []
    return generate_moves(
        board, list(rack), lexicon, leaves=leaves, bag_count=bag_count,
        opponent_rack=opponent_rack, exchanges=exchanges, rules=rules, top=k,
    )  # fmt: skip


def best_move(
    board: Board,
    rack: Sequence[str],
    lexicon: LexiconLike,
    *,
    leaves: LeaveValues | None,
    bag_count: int,
    opponent_rack: Sequence[str] | None = None,
    exchanges: bool = True,
    rules: RuleSet | None = None,
) -> Move:
    """The move of ``rack`` with the highest static equity (the pass when nothing else),
    found by the engine's pruned search (:func:`gcgtools.movegen.best_move`)."""
    move = find_best(
        board, list(rack), lexicon, leaves=leaves, bag_count=bag_count,
        opponent_rack=opponent_rack, exchanges=exchanges, rules=rules,
    )  # fmt: skip
    assert move is not None  # the pass is always a move
    return move


def kept_board(board: Board, lexicon: LexiconLike, rules: RuleSet | None = None) -> EngineBoard:
    """An :class:`~gcgtools.movegen.EngineBoard` of ``board`` (copied) to play moves on
    (``play`` / ``undo``) and find the best move with :func:`best_move_on`."""
    return EngineBoard(board, lexicon, rules=rules)


def best_move_on(
    engine: EngineBoard,
    rack: Sequence[str],
    *,
    leaves: LeaveValues | None,
    bag_count: int,
    opponent_rack: Sequence[str] | None = None,
    exchanges: bool = True,
) -> Move:
    """:func:`best_move` on the board as ``engine`` holds it (the same move as
    ``best_move(engine.board, ...)`` with the engine's rules)."""
    move = engine.best_move(
        list(rack), leaves=leaves, bag_count=bag_count, opponent_rack=opponent_rack,
        exchanges=exchanges,
    )  # fmt: skip
    assert move is not None  # the pass is always a move
    return move


def apply_move(board: Board, move: Move) -> Board:
    """A copy of ``board`` with the new tiles of ``move`` put down (blanks in lower case,
    as the replay puts them) and ``last_placed`` set to them; an exchange or a pass gives
    an unchanged copy. ``board`` itself is not changed."""
    out = board.copy()
    if move.kind != "play":
        return out
    squares = move.squares
    cells = out.cells
    size = out.size
    for r, c, t in squares:
        cells[r * size + c] = t
    out.last_placed = tuple(squares)
    return out


def rack_after(rack: Sequence[str], move: Move) -> list[str]:
    """What stays on ``rack`` (tiles as in the bag: upper case, blanks ``?``) after
    ``move``: a play's new tiles or an exchange's tiles leave it, a pass keeps it whole.
    Raises ValueError when the move uses a tile the rack lacks."""
    left = list(rack)
    for t in move_tiles(move):
        left.remove(t)
    return left


def move_tiles(move: Move) -> list[str]:
    """The tiles that leave the rack with ``move``, as in the bag (upper case, blanks
    ``?``): a play's new tiles, an exchange's thrown tiles, nothing for a pass."""
    if move.kind == "pass":
        return []
    if move.kind == "exchange":
        return _tile_list(move.tiles)
    new = move.new  # the new squares, as Move.squares lists them (without their places)
    return [t if t.isupper() else BLANK for k, t in enumerate(move.cells) if new >> k & 1]


def _tile_list(text: str) -> list[str]:
    """Tiles written as by :func:`gcgtools.replay.position.tiles_text` (``[CH]`` for a
    tile of several letters) back to a list."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "[":
            end = text.index("]", i)
            out.append(text[i + 1 : end])
            i = end + 1
        else:
            out.append(text[i])
            i += 1
    return out
