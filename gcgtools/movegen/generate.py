"""``generate_moves`` and ``best_move``: the moves of a rack on a board, scored, with
their leaves and equities (one :class:`~gcgtools.movegen.board_state.EngineBoard` per
call, on the caller's board, which it does not change; callers that play many moves on
one board keep their own)."""

from __future__ import annotations

from collections.abc import Sequence

from gcgtools.movegen.board_state import EngineBoard, LexiconLike, rack_tiles
from gcgtools.movegen.engine import LeaveValues
from gcgtools.movegen.move import Move
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import RuleSet

__all__ = ["LeaveValues", "LexiconLike", "best_move", "generate_moves", "rack_tiles"]


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
    without generating the rest).

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
    engine = EngineBoard(board, lexicon, rules=rules, copy=False)  # it only generates
    return engine.moves(rack, leaves=leaves, bag_count=bag_count, opponent_rack=opponent_rack,
                        exchanges=exchanges, top=top)  # fmt: skip


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
    every anchor whose upper bound cannot beat the best move so far."""
    engine = EngineBoard(board, lexicon, rules=rules, copy=False)  # it only generates
    return engine.best_move(rack, leaves=leaves, bag_count=bag_count,
                            opponent_rack=opponent_rack, exchanges=exchanges)  # fmt: skip
