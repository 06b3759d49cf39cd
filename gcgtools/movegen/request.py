"""What one move generation asks for: :class:`MoveRequest`, made once by the caller and
passed down unchanged (``generate_moves`` / ``best_move``, an
:class:`~gcgtools.movegen.board_state.EngineBoard`, the simulation's and the endgame's
plies)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple, Protocol

from gcgtools.rules.rulesets import RuleSet

__all__ = ["LeaveValues", "MoveRequest"]


class LeaveValues(Protocol):
    """What the engine needs of a leave table (``gcgtools.lexicon.Leaves``)."""

    def value(self, tiles: Iterable[str]) -> float: ...


class MoveRequest(NamedTuple):
    """One generation's question: the moves of ``rack`` with the bag as it stands. A
    value that cannot be changed (``request._replace(top=3)`` makes another); a
    ``NamedTuple`` rather than a frozen dataclass because one is made per search (a
    simulation's ply) and a frozen dataclass took about a microsecond to make, 1% of a
    best-move search.

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
    move of it (the pass is always a move, so there is one). A negative ``top`` is a
    ValueError when the request is run.
    """

    rack: str | Sequence[str]
    leaves: LeaveValues | None
    bag_count: int
    opponent_rack: str | Sequence[str] | None = None
    exchanges: bool = True
    rules: RuleSet | None = None
    top: int = 0
