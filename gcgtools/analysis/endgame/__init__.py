"""Exact endgames (the bag empty, the opponent's rack the unseen tiles) and pre-endgames
(1 to 4 tiles in the bag): :func:`solve_endgame` and :func:`solve_preendgame`, on positions
made by :func:`endgame_position` / :func:`preendgame_position` from a record's position
or by :meth:`EndgamePosition.of`. See ``docs/endgame.md``."""

from gcgtools.analysis.endgame.moves import MoveSource
from gcgtools.analysis.endgame.position import (
    MAX_PREENDGAME_BAG,
    EndgameError,
    EndgamePosition,
    PreendgamePosition,
    endgame_position,
    preendgame_position,
)
from gcgtools.analysis.endgame.preendgame import (
    Candidate,
    PreendgameResult,
    Scenario,
    Stage,
    solve_preendgame,
)
from gcgtools.analysis.endgame.result import EXACT, EndgameResult, Limit, RootMove
from gcgtools.analysis.endgame.search import Progress, solve_endgame

__all__ = [
    "EXACT",
    "MAX_PREENDGAME_BAG",
    "Candidate",
    "EndgameError",
    "EndgamePosition",
    "EndgameResult",
    "Limit",
    "MoveSource",
    "PreendgamePosition",
    "PreendgameResult",
    "Progress",
    "RootMove",
    "Scenario",
    "Stage",
    "endgame_position",
    "preendgame_position",
    "solve_endgame",
    "solve_preendgame",
]
