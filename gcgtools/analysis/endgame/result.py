"""What the endgame solver is given (:class:`Limit`) and what it answers
(:class:`EndgameResult`, one :class:`RootMove` per move of the player to move)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from gcgtools.movegen.move import Move

__all__ = ["STOPPED", "EndgameResult", "Limit", "Progress", "RootMove"]


class Progress(NamedTuple):
    """How far a search has come: the last ``depth`` completed (plies), the ``nodes``
    searched so far, the best move at that depth and its ``value``, the ``seconds`` taken."""

    depth: int
    nodes: int
    best: str
    value: int
    seconds: float


@dataclass(frozen=True)
class Limit:
    """A budget for one search: ``nodes`` (positions visited), ``seconds`` (wall clock)
    and ``depth`` (plies, one move of either player each); None is no limit. A search
    that runs out of budget answers with the best move of its last completed depth and
    says it is not proved."""

    nodes: int | None = None
    seconds: float | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        for name in ("nodes", "seconds", "depth"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"Limit.{name} must be positive, not {value}")


#: no limit at all: search until the value is proved
EXACT = Limit()


@dataclass(frozen=True)
class RootMove:
    """One move of the player to move: its ``value`` (the points the player to move
    gains over the opponent from the position to the end of the game, with best play by
    both after this move, end-of-game rack points included), whether that value is
    ``proved`` and the principal variation ``pv`` (this move first, in the project's
    notation: ``8D QUITE``, ``-`` for a pass) with each of its moves' ``pv_scores``, and
    ``ending``: what the line's last move gains beyond its score when it ends the game
    (twice the rack left to the other side when it goes out; negative for racks lost
    after the passes end it), None when the line stops before the end."""

    move: Move
    value: int
    proved: bool
    pv: list[str]
    pv_scores: list[int] = field(default_factory=list)
    ending: int | None = None

    @property
    def notation(self) -> str:
        return self.move.notation()

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.notation,
            "score": self.move.score,
            "value": self.value,
            "proved": self.proved,
            "pv": list(self.pv),
            "pv_scores": list(self.pv_scores),
            "ending": self.ending,
        }


@dataclass(frozen=True)
class EndgameResult:
    """The answer of the endgame solver: the best move (None when the player to move has
    no tiles), its ``value`` (as :class:`RootMove`), the principal variation, whether the
    value is ``proved`` (every line searched to the end of the game), the ``nodes``
    searched, the ``depth`` (plies) of the last completed iteration and the ``seconds``
    taken. ``moves``: the best move and the root moves the solver was asked to value
    exactly (every one with ``all_moves``), best first.
    ``stopped``: why the search ended (:data:`STOPPED`): ``proved``, or the budget or the
    interrupt that ended it first."""

    best: Move | None
    value: int
    pv: list[str]
    proved: bool
    nodes: int
    depth: int
    seconds: float
    moves: list[RootMove] = field(default_factory=list)
    stopped: str = "proved"

    @property
    def why(self) -> str:
        """Why the search ended, in words (:data:`STOPPED`)."""
        return STOPPED.get(self.stopped, self.stopped)

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.best.notation() if self.best is not None else None,
            "value": self.value,
            "pv": list(self.pv),
            "proved": self.proved,
            "nodes": self.nodes,
            "depth": self.depth,
            "seconds": round(self.seconds, 3),
            "stopped": self.stopped,
        }


#: why a search ended (:attr:`EndgameResult.stopped`), in words
STOPPED = {
    "proved": "proved",
    "nodes": "node budget spent",
    "seconds": "time budget spent",
    "depth": "depth limit reached",
    "hopeless": "stopped early: the next depth would need far more nodes than the budget has left",
    "interrupted": "interrupted",
    "budget": "budget spent",
}
