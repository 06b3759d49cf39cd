"""Equity: what a move is worth beyond its score, the one formula of the move generator
(:func:`gcgtools.movegen.generate_moves`) and the play analysis
(:mod:`gcgtools.analysis.analyse`).

While the bag holds tiles, a move is worth its score plus the value of the tiles it keeps
(its leave, from a leave table; 0 without one). With the bag empty, a play that goes out
gets its score plus the opponent's rack as the end-of-game rule counts it (twice its value
under standard rules; nothing when that rack is not known), and any other move its score
minus the value of the tiles it keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gcgtools.rules.rulesets import EndRule, tiles_value
from gcgtools.rules.tiles import TileSet

__all__ = ["LeaveValue", "equity", "leave_equity"]

#: A leave table's value of the tiles kept (``Leaves.value``).
LeaveValue = Callable[[Sequence[str]], float]


def leave_equity(
    kept: Sequence[str],
    *,
    bag: int,
    tiles: TileSet,
    end_rule: EndRule,
    leave_value: LeaveValue | None = None,
    opponent: Sequence[str] | None = None,
    strict: bool = True,
) -> float:
    """What keeping ``kept`` (tile names, ``?`` a blank) adds to a move's score; ``bag``
    tiles in the bag, ``opponent`` the opponent's rack when known. ``strict``: a tile
    ``tiles`` lacks raises ``TileError`` (else it counts nothing)."""
    if bag > 0:
        return float(leave_value(kept)) if leave_value is not None and kept else 0.0
    if not kept:
        if opponent is None:
            return 0.0
        return float(end_rule.out_multiplier * tiles_value(tiles, opponent, strict=strict))
    return -float(tiles_value(tiles, kept, strict=strict))


def equity(
    score: int,
    kept: Sequence[str],
    *,
    bag: int,
    tiles: TileSet,
    end_rule: EndRule,
    leave_value: LeaveValue | None = None,
    opponent: Sequence[str] | None = None,
    strict: bool = True,
) -> float:
    """The equity of a move scoring ``score`` and keeping ``kept``: ``score`` plus
    :func:`leave_equity`."""
    return score + leave_equity(
        kept,
        bag=bag,
        tiles=tiles,
        end_rule=end_rule,
        leave_value=leave_value,
        opponent=opponent,
        strict=strict,
    )
