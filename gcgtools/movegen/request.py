"""What one move generation asks for: :class:`MoveRequest`, made once by the caller and
passed down unchanged (``generate_moves`` / ``best_move``, an
:class:`~gcgtools.movegen.board_state.EngineBoard`, the simulation's and the endgame's
plies)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Protocol

from gcgtools.rules.rulesets import RuleSet

__all__ = ["LeaveValues", "MoveRequest"]


class LeaveValues(Protocol):
    """What the engine needs of a leave table (``gcgtools.lexicon.Leaves``)."""

    def value(self, tiles: Iterable[str]) -> float: ...


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """One generation's question: the moves of ``rack`` with the bag as it stands.

    ``rack``: tile texts (``["A", "?"]``) or a string the tile set splits (``"AE?[CH]"``).
    ``leaves``: a leave table (``gcgtools.lexicon.Leaves``) or None (every leave worth 0);
    ``bag_count``: tiles in the bag (0: the end-of-game values); ``opponent_rack``: the
    opponent's tiles, which going out earns once the bag is empty (None: unknown);
    ``exchanges``: whether exchanges are listed (only when the bag holds at least the
    rules' exchange minimum); ``rules``: a :class:`~gcgtools.rules.rulesets.RuleSet` (bingo
    bonus, rack size, end-of-game rule, exchange minimum), None for the board's own (an
    EngineBoard's, else the defaults for its tile set and layout); ``top``: 0 for every
    move, else only the best ``top`` (exactly the first ``top`` of the full list).

    What to return is the call's: ``generate`` gives the list, ``generate_best`` the first
    move of it (the pass is always a move, so there is one).
    """

    rack: str | Sequence[str]
    _: KW_ONLY
    leaves: LeaveValues | None
    bag_count: int
    opponent_rack: str | Sequence[str] | None = None
    exchanges: bool = True
    rules: RuleSet | None = None
    top: int = 0

    def __post_init__(self) -> None:
        if self.top < 0:
            raise ValueError(f"top must be 0 (every move) or more, not {self.top}")
