"""Exact endgames (the bag empty, the opponent's rack the unseen tiles) and pre-endgames
(1 to 4 tiles in the bag): :func:`solve_endgame` and :func:`solve_preendgame`, on positions
made by :func:`endgame_position` / :func:`preendgame_position` from a record's position
or by :meth:`EndgamePosition.of`. See ``docs/endgame.md``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gcgtools.lazy import lazy_names

# The names are imported on first use (PEP 562): a simulation (``moves --sim``) that
# only names the endgame's budget and results does not load the solvers.
_LAZY = {
    "MoveSource": "gcgtools.analysis.endgame.moves",
    **dict.fromkeys(
        ("MAX_PREENDGAME_BAG", "EndgameError", "EndgamePosition", "PreendgamePosition",
         "endgame_position", "preendgame_position"),
        "gcgtools.analysis.endgame.position",
    ),
    **dict.fromkeys(
        ("Candidate", "PreendgameResult", "Scenario", "Stage", "solve_preendgame"),
        "gcgtools.analysis.endgame.preendgame",
    ),
    **dict.fromkeys(
        ("EXACT", "EndgameResult", "Limit", "Progress", "RootMove"),
        "gcgtools.analysis.endgame.result",
    ),
    "solve_endgame": "gcgtools.analysis.endgame.search",
}  # fmt: skip

if TYPE_CHECKING:
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
    from gcgtools.analysis.endgame.result import EXACT, EndgameResult, Limit, Progress, RootMove
    from gcgtools.analysis.endgame.search import solve_endgame

__getattr__, __dir__ = lazy_names(__name__, _LAZY)

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
