"""The moves of a rack on a board, scored, with their leaves and equities, asked for with
one :class:`~gcgtools.movegen.request.MoveRequest` (:func:`generate`, :func:`generate_best`)
or with its fields as keywords (:func:`generate_moves`, :func:`best_move`): an
:class:`~gcgtools.movegen.board_state.EngineBoard` on the caller's board, which it does not
change (callers that play many moves on one board keep their own).

An EngineBoard that finished a call is kept, at most ``_KEPT`` per lexicon, layout and
rules, and the next call on those takes it and reloads the board on it
(:meth:`~gcgtools.movegen.board_state.EngineBoard.reload`: its tiles and cross-sets are
made again from scratch), so that its buffers and tables are not made on every call.
A call takes a kept one out of the list and gives it back when it is done, so threads
never share one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from gcgtools.movegen.board_state import EngineBoard, LexiconLike, rack_tiles
from gcgtools.movegen.move import Move
from gcgtools.movegen.request import LeaveValues, MoveRequest
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import RuleSet

__all__ = [
    "LeaveValues",
    "LexiconLike",
    "MoveRequest",
    "best_move",
    "generate",
    "generate_best",
    "generate_moves",
    "rack_tiles",
]

_KEPT = 4  #: EngineBoards kept per (lexicon, layout, rules)
_SPARE: dict[tuple[int, int, int], list[EngineBoard]] = {}
_T = TypeVar("_T")


def _on_board(
    board: Board, lexicon: LexiconLike, rules: RuleSet | None, call: Callable[[EngineBoard], _T]
) -> _T:
    """``call(engine)`` on an EngineBoard of ``board`` (``copy=False``): a kept one that
    fits, reloaded, or a new one; kept afterwards. (The ids in the key stay valid while
    a kept EngineBoard holds the KWG, layout and rules it was made for; ``fits`` checks
    them all.)"""
    key = (id(lexicon.kwg), id(board.layout), id(rules))
    spares = _SPARE.get(key)
    engine = None
    while spares:
        try:
            kept = spares.pop()
        except IndexError:  # another thread took the last one
            break
        if kept.fits(board, lexicon, rules):
            kept.reload(board)
            engine = kept
            break
    if engine is None:
        engine = EngineBoard(board, lexicon, rules=rules, copy=False)
    try:
        return call(engine)
    finally:
        if len(_SPARE) > 8:
            _SPARE.clear()
        spares = _SPARE.setdefault(key, [])
        if len(spares) < _KEPT:
            spares.append(engine)


def generate(board: Board, lexicon: LexiconLike, request: MoveRequest) -> list[Move]:
    """The moves ``request`` asks for on ``board`` in ``lexicon``, best first: every move,
    or the best ``request.top`` (see :func:`generate_moves`)."""
    return _on_board(board, lexicon, request.rules, lambda engine: engine.generate(request))


def generate_best(board: Board, lexicon: LexiconLike, request: MoveRequest) -> Move:
    """The first move :func:`generate` gives (see :meth:`EngineBoard.generate_best`)."""
    return _on_board(board, lexicon, request.rules, lambda engine: engine.generate_best(request))


def generate_moves(
    board: Board,
    rack: str | Sequence[str],
    lexicon: LexiconLike,
    *,
    leaves: LeaveValues | None,
    bag_count: int,
    opponent_rack: str | Sequence[str] | None = None,
    exchanges: bool = True,
    rules: RuleSet | None = None,
    top: int | None = None,
) -> list[Move]:
    """Every legal move of ``rack`` (tile texts, ``?`` a blank; TileError for a tile the
    tile set lacks) on ``board`` in
    ``lexicon`` (anything with a ``kwg``: see :mod:`gcgtools.lexicon`), best first; only
    the best ``top`` when ``top`` is given (the first ``top`` of the full list, found
    without generating the rest; ValueError below 1). :func:`generate` of the
    :class:`MoveRequest` of these.

    Plays are scored by the replay's scoring rules. **Equity**: while the bag holds
    tiles (``bag_count`` > 0), score plus the value of the leave (``leaves``; 0 without
    one). With the bag empty: a play that goes out gets its score plus the opponent's
    rack as the end-of-game rule counts it (twice its value under standard rules) when
    ``opponent_rack`` is known, its score alone otherwise; any other move gets its score
    minus the value of the tiles it keeps. Exchanges (every distinct set of tiles) come
    only when the bag holds at least ``rules.exchange_minimum_bag`` tiles (7), worth
    their leave; the pass is always there, keeping the whole rack. ``rules`` gives the
    bingo bonus (default 50, 35 on the Words With Friends board), the rack size (7) and
    the end-of-game rule. Moves of equal equity keep the order they are generated in.
    """
    if top is not None and top < 1:
        raise ValueError(f"top must be at least 1, not {top}")
    request = MoveRequest(rack, leaves=leaves, bag_count=bag_count, opponent_rack=opponent_rack,
                          exchanges=exchanges, rules=rules, top=top or 0)  # fmt: skip
    return generate(board, lexicon, request)


def best_move(
    board: Board,
    rack: str | Sequence[str],
    lexicon: LexiconLike,
    *,
    leaves: LeaveValues | None,
    bag_count: int,
    opponent_rack: str | Sequence[str] | None = None,
    exchanges: bool = True,
    rules: RuleSet | None = None,
) -> Move | None:
    """The first move :func:`generate_moves` gives (the same tie-break), found by pruning
    every anchor whose upper bound cannot beat the best move so far: :func:`generate_best`
    of the :class:`MoveRequest` of these."""
    request = MoveRequest(rack, leaves=leaves, bag_count=bag_count, opponent_rack=opponent_rack,
                          exchanges=exchanges, rules=rules)  # fmt: skip
    return generate_best(board, lexicon, request)
