"""Judging a turn as engines do today (MAGPIE ``analyze -mistakes``, Macondo's
analyze-batch): the phase of the game, the size of a mistake and the Mistake Index.

* **Phase** (:func:`phase`): the opening is the first play (an empty board); the endgame
  has the bag empty; the pre-endgame 1 to 4 tiles in the bag (:data:`PREENDGAME_BAG`); every
  other turn is the mid-game.
* **Mistake size**: outside the endgame from the win probability lost, in percentage
  points (:func:`mistake_from_win_pct`): below 0.5 none, 0.5 to 3 small, 3 to 7 medium, 7
  or more large. In the endgame from the spread lost (:func:`mistake_from_spread`): below
  1 none, 1 to 7 small, 7 to 15 medium, 15 or more large; and a move that turns a won
  endgame (best play ends with a positive spread) into a draw or a loss is always large.
  A lower bound is inclusive: exactly 3 points of win% lost is medium. A negative loss
  (the move played did better than the "best" a budgeted search found) is no mistake.
* **Mistake Index** (:func:`mistake_index`): 0.2 per small, 0.5 per medium and 1.0 per
  large mistake, summed per game and player.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from enum import Enum

__all__ = [
    "PREENDGAME_BAG",
    "Mistake",
    "Phase",
    "grade",
    "mistake_from_spread",
    "mistake_from_win_pct",
    "mistake_index",
    "mistake_indices",
    "phase",
]

#: the pre-endgame: 1 to this many tiles in the bag (what the pre-endgame solver takes)
PREENDGAME_BAG = 4

#: lower bounds of small, medium and large, in win% lost (percentage points)
WIN_PCT_BOUNDS = (0.5, 3.0, 7.0)
#: lower bounds of small, medium and large, in endgame spread lost (points)
SPREAD_BOUNDS = (1.0, 7.0, 15.0)
#: losses are compared after rounding to this many decimals, so that 3.0000000001 or
#: 2.9999999999 from float arithmetic count as the 3 they stand for
_DECIMALS = 9


class Phase(str, Enum):
    """The phase of the game a turn is played in."""

    OPENING = "opening"
    MIDGAME = "midgame"
    PREENDGAME = "preendgame"
    ENDGAME = "endgame"

    def __str__(self) -> str:
        return self.value


class Mistake(str, Enum):
    """How large a mistake a move is."""

    NONE = "none"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"

    @property
    def weight(self) -> float:
        """What the mistake adds to the Mistake Index."""
        return _WEIGHTS[self]

    def __str__(self) -> str:
        return self.value


_WEIGHTS = {Mistake.NONE: 0.0, Mistake.SMALL: 0.2, Mistake.MEDIUM: 0.5, Mistake.LARGE: 1.0}
_SIZES = (Mistake.SMALL, Mistake.MEDIUM, Mistake.LARGE)


def phase(board_empty: bool, bag: int) -> Phase:
    """The phase of a turn played on a board (empty or not) with ``bag`` tiles in the bag."""
    if board_empty:
        return Phase.OPENING
    if bag <= 0:
        return Phase.ENDGAME
    if bag <= PREENDGAME_BAG:
        return Phase.PREENDGAME
    return Phase.MIDGAME


def _size(lost: float, bounds: tuple[float, float, float]) -> Mistake:
    lost = round(lost, _DECIMALS)
    size = Mistake.NONE
    for bound, name in zip(bounds, _SIZES, strict=True):
        if lost >= bound:
            size = name
    return size


def mistake_from_win_pct(lost: float) -> Mistake:
    """The mistake of a move that loses ``lost`` percentage points of win probability."""
    return _size(lost, WIN_PCT_BOUNDS)


def mistake_from_spread(lost: float, *, best_final: float | None = None) -> Mistake:
    """The mistake of an endgame move that loses ``lost`` points of spread. With
    ``best_final`` (the final spread best play reaches, current scores included), a move
    that turns a won game into a draw or a loss (``best_final - lost <= 0 < best_final``)
    is large whatever ``lost``."""
    if best_final is not None and best_final > 0 >= round(best_final - lost, _DECIMALS):
        return Mistake.LARGE
    return _size(lost, SPREAD_BOUNDS)


def grade(
    turn_phase: Phase,
    *,
    win_pct_lost: float | None = None,
    spread_lost: float | None = None,
    best_final: float | None = None,
) -> Mistake:
    """The mistake of a turn in ``turn_phase``: by ``spread_lost`` in the endgame (with
    ``best_final``, see :func:`mistake_from_spread`), else by ``win_pct_lost``."""
    if turn_phase is Phase.ENDGAME:
        if spread_lost is None:
            raise ValueError("an endgame turn is graded by the spread lost")
        return mistake_from_spread(spread_lost, best_final=best_final)
    if win_pct_lost is None:
        raise ValueError(f"a {turn_phase} turn is graded by the win% lost")
    return mistake_from_win_pct(win_pct_lost)


def mistake_index(mistakes: Iterable[Mistake]) -> float:
    """The Mistake Index of a player's mistakes (0.2 small, 0.5 medium, 1.0 large)."""
    return round(sum(m.weight for m in mistakes), 6)


def mistake_indices(turns: Iterable[tuple[Hashable, Mistake]]) -> dict[Hashable, float]:
    """The Mistake Index per player of ``(player, mistake)`` pairs (one per graded turn;
    a player with only good moves has 0.0), players in the order they first come."""
    out: dict[Hashable, list[Mistake]] = {}
    for player, mistake in turns:
        out.setdefault(player, []).append(mistake)
    return {player: mistake_index(ms) for player, ms in out.items()}
