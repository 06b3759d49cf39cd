"""The pre-endgame: one tile in the bag, the opponent's rack unknown.

Every distinct unseen tile ``t`` is a **scenario**, weighted by how many of it are unseen:
the bag holds ``t`` and the opponent holds every other unseen tile. Each scenario is a
game of perfect information, solved exactly (:func:`solve_endgame` with every root move,
the bag ``(t,)``):

* a candidate that plays tiles draws ``t`` (the last tile) and leaves the opponent, to
  move, an endgame with the bag empty;
* the pass leaves ``t`` in the bag: the opponent moves with one tile in the bag, and
  whatever they play draws it (a pass back ends the game as two passes do in an endgame).
  Exchanges are not allowed with one tile in the bag.

A candidate's **spread** is the scores' difference now plus its value, averaged over the
scenarios by weight; its **win%** the weighted share of scenarios whose final spread is
positive (a tie counts a half), in percent.

**Budget**: the :class:`Limit` is the whole pre-endgame's: its nodes and seconds are
shared by the scenarios, each getting an equal share of what the ones before left (a
scenario proved cheaply leaves more to the others), so the total holds as the endgame's
does.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field

from gcgtools.analysis.endgame.moves import MoveSource
from gcgtools.analysis.endgame.position import (
    EndgameError,
    EndgamePosition,
    PreendgamePosition,
)
from gcgtools.analysis.endgame.result import EXACT, STOPPED, Limit
from gcgtools.analysis.endgame.search import solve_endgame
from gcgtools.movegen.move import Move

__all__ = ["Candidate", "PreendgameResult", "Scenario", "solve_preendgame"]


@dataclass(frozen=True)
class Scenario:
    """One tile in the bag: how many of it are unseen (``weight``), the candidate's
    value in that endgame (as :attr:`RootMove.value`), whether proved, its line."""

    tile: str
    weight: int
    value: int
    proved: bool
    pv: list[str]


@dataclass
class Candidate:
    """One move of the player to move, over every scenario."""

    move: Move
    scenarios: list[Scenario] = field(default_factory=list)
    base: int = 0  # the spread now: the player to move's score minus the opponent's

    @property
    def weight(self) -> int:
        return sum(s.weight for s in self.scenarios)

    @property
    def spread(self) -> float:
        """The mean final spread, by weight."""
        return self.base + sum(s.value * s.weight for s in self.scenarios) / self.weight

    @property
    def win_pct(self) -> float:
        """Wins (a tie a half) in percent of the scenarios' weight."""
        wins = 0.0
        for s in self.scenarios:
            final = self.base + s.value
            wins += s.weight * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
        return 100.0 * wins / self.weight

    @property
    def proved(self) -> bool:
        return all(s.proved for s in self.scenarios)

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.move.notation(),
            "score": self.move.score,
            "win_pct": round(self.win_pct, 3),
            "spread": round(self.spread, 3),
            "proved": self.proved,
            "scenarios": {s.tile: s.value for s in self.scenarios},
        }


@dataclass(frozen=True)
class PreendgameResult:
    """Every candidate, best first (win%, then mean spread), the nodes searched over all
    scenarios and the seconds taken; ``stopped``: ``proved``, or why a scenario's search
    ended before (``interrupted`` when any was)."""

    candidates: list[Candidate]
    nodes: int
    seconds: float
    stopped: str = "proved"

    @property
    def why(self) -> str:
        """Why the search ended, in words (:data:`~gcgtools.analysis.endgame.result.STOPPED`)."""
        return STOPPED.get(self.stopped, self.stopped)

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    @property
    def proved(self) -> bool:
        return all(c.proved for c in self.candidates)


def scenarios(position: PreendgamePosition) -> list[tuple[str, int, EndgamePosition]]:
    """Every distinct tile that may be in the bag, its weight, and the endgame."""
    if position.bag_size != 1:
        raise EndgameError(f"a pre-endgame has 1 tile in the bag, not {position.bag_size}")
    unseen = Counter(position.unseen)
    if sum(unseen.values()) < 2:
        raise EndgameError("a pre-endgame needs at least 2 unseen tiles")
    out = []
    for tile in sorted(unseen):
        theirs = tuple(sorted((unseen - Counter({tile: 1})).elements()))
        eg = EndgamePosition(
            position.board, (position.rack, theirs), position.lexicon, position.rules,
            bag=(tile,), zeros=position.zeros, scores=position.scores,
        )  # fmt: skip
        out.append((tile, unseen[tile], eg))
    return out


def solve_preendgame(
    position: PreendgamePosition,
    limit: Limit = EXACT,
    *,
    source: MoveSource | None = None,
    candidates: Collection[str] | None = None,
) -> PreendgameResult:
    """Solve a pre-endgame (see the module's description); ``limit`` is the budget of
    the whole pre-endgame, shared by its scenarios. ``candidates``: solve only the moves
    of these notations (None: every move), each exactly in every scenario."""
    start = time.perf_counter()
    base = position.scores[0] - position.scores[1]
    by_key: dict[object, Candidate] = {}
    nodes = 0
    cases = scenarios(position)
    reasons: list[str] = []
    for index, (tile, weight, eg) in enumerate(cases):
        share = _share(limit, len(cases) - index, nodes, time.perf_counter() - start)
        result = solve_endgame(eg, share, all_moves=True, roots=candidates, source=source)
        nodes += result.nodes
        reasons.append(result.stopped)
        for root in result.moves:
            key = root.move.key()
            cand = by_key.get(key)
            if cand is None:
                cand = by_key[key] = Candidate(root.move, base=base)
            cand.scenarios.append(Scenario(tile, weight, root.value, root.proved, root.pv))
    total = sum(w for _, w, _ in cases)
    candidates = [c for c in by_key.values() if c.weight == total]
    candidates.sort(key=lambda c: (-c.win_pct, -c.spread))
    stopped = next((r for r in reasons if r == "interrupted"), None)
    stopped = stopped or next((r for r in reasons if r != "proved"), "proved")
    return PreendgameResult(candidates, nodes, time.perf_counter() - start, stopped)


def _share(limit: Limit, left: int, nodes: int, seconds: float) -> Limit:
    """The budget of the next of ``left`` scenarios: an equal share of the nodes and
    seconds of ``limit`` that the scenarios before left (``nodes`` searched, ``seconds``
    taken); at least a node and a millisecond, so that each still gets an answer."""
    share_nodes = share_seconds = None
    if limit.nodes is not None:
        share_nodes = max(1, (limit.nodes - nodes) // left)
    if limit.seconds is not None:
        share_seconds = max(0.001, (limit.seconds - seconds) / left)
    return Limit(share_nodes, share_seconds, limit.depth)
