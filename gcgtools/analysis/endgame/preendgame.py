"""The pre-endgame: 1 to 4 tiles in the bag, the opponent's rack unknown.

**Scenarios** (:mod:`gcgtools.analysis.endgame.draws`): every order of letters the bag
may hold, weighted by the ordered draws of physical tiles that give it; the opponent
holds the unseen tiles less the bag. In a scenario the game is one of perfect
information (both players know both racks and the order of the bag), solved by the
endgame solver with the bag in that order: a play of ``n`` tiles draws the first
``min(n, k)`` of them; a play that leaves tiles in the bag leaves the opponent a smaller
pre-endgame, in which every later play draws from the same known order; passes are legal,
exchanges are not (the bag holds fewer than 7 tiles). The candidate, the move of the
player to move now, is the same in every scenario: it is chosen without knowing the bag.

**Stages** (one total :class:`Limit` for the whole solve, see :mod:`budget`):

1. *greedy*: every candidate, scenario after scenario (a fixed shuffled order, the same
   for every candidate), valued by a playout in which both players play their
   generator's best move (end-of-game equity) until the game ends. It gets a part of
   the budget (:data:`GREEDY_NODES` of the nodes, :data:`GREEDY_SECONDS` of the
   seconds) and stops at the first scenario it cannot finish (a partly done scenario
   is dropped) or after :data:`GREEDY_VALUES` values. In the first scenario it values
   at least :data:`FIRST_SEARCHED` candidates, in the generator's order, unless the whole
   budget is spent; the candidates it does not reach there are dropped.
2. *search*: the best half of the candidates (at most :data:`FIRST_SEARCHED`; the moves
   named in ``keep`` always), by win% then spread, searched by the endgame solver
   scenario after scenario (all of them valued in one search per scenario); then the
   best half of those, and so on down to :data:`FINALISTS`. Each search stage gets an
   equal share of the budget left among the stages left (the last one all that is
   left), shared by the scenarios it searches, at least :data:`ROOT_NODES` nodes a
   candidate per search: a stage searches as many scenarios, in order, as that affords.
   A value proved in a scenario is not searched again. The last stage is repeated, each
   search capped twice as high, while the budget lasts and a value is unproved.

Without any budget (:data:`EXACT`) there is one stage: every candidate solved exactly in
every scenario. A candidate's value in a scenario is from its deepest search (a search
stage that did not reach a scenario leaves the earlier stage's value there); it is
**proved** when every scenario is valued and proved. Candidates come best first by the
last stage that valued them, then win% and mean spread.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace

from gcgtools.analysis.endgame.budget import Budget
from gcgtools.analysis.endgame.draws import Draw, draws, orderings
from gcgtools.analysis.endgame.moves import EgMove, MoveSource
from gcgtools.analysis.endgame.position import (
    MAX_PREENDGAME_BAG,
    EndgameError,
    EndgamePosition,
    PreendgamePosition,
)
from gcgtools.analysis.endgame.result import EXACT, STOPPED, Limit
from gcgtools.analysis.endgame.search import solve_endgame
from gcgtools.analysis.endgame.state import SearchState
from gcgtools.console import stop_requested
from gcgtools.movegen.move import Move

__all__ = ["Candidate", "PreendgameResult", "Scenario", "Stage", "solve_preendgame"]

#: the share of the budget the greedy stage may spend, in nodes and in seconds: a
#: playout's position costs some 10 times a search's node (every move of a full rack,
#: nothing cached; measured on a 4-tile pre-endgame), so both take about a fifth of the time
GREEDY_NODES, GREEDY_SECONDS = 0.025, 0.2
#: the greedy stage's values at most (candidates times scenarios: memory)
GREEDY_VALUES = 250_000
#: candidates kept by the first search stage at most
FIRST_SEARCHED = 32
#: candidates of the last stage (the halving stops there)
FINALISTS = 2
#: a search of a scenario gets at least this many nodes, and seconds, per candidate
ROOT_NODES = 50
ROOT_SECONDS = 0.005
#: the seed of the order the scenarios are taken in
ORDER_SEED = 0x9E6


#: a search's caps: nodes and seconds (None: none)
Caps = tuple[float | None, float | None]


@dataclass(frozen=True)
class Scenario:
    """A candidate in one scenario: the ``bag`` in draw order (text, ``EI``: E first),
    its ``weight`` (see :mod:`draws`), the candidate's ``value`` (as
    :attr:`RootMove.value`), whether ``proved``, its line and the ``depth`` (plies) of
    the search that gave it (0: a greedy playout)."""

    bag: str
    weight: int
    value: int
    proved: bool
    pv: tuple[str, ...]
    depth: int = 0


@dataclass
class Candidate:
    """One move of the player to move over the scenarios valued so far. ``total``: the
    weight of every scenario; ``stage``: the last stage that valued it."""

    move: Move
    base: int = 0  # the spread now: the player to move's score minus the opponent's
    total: int = 0
    stage: int = 0
    by_bag: dict[str, Scenario] = field(default_factory=dict)

    @property
    def scenarios(self) -> list[Scenario]:
        return [self.by_bag[b] for b in sorted(self.by_bag)]

    @property
    def weight(self) -> int:
        return sum(s.weight for s in self.by_bag.values())

    @property
    def coverage(self) -> float:
        """The probability of the scenarios valued (1.0: every one)."""
        return self.weight / self.total if self.total else 0.0

    @property
    def spread(self) -> float:
        """The mean final spread, by weight."""
        weight = self.weight
        if not weight:
            return float(self.base)
        return self.base + sum(s.value * s.weight for s in self.by_bag.values()) / weight

    @property
    def win_pct(self) -> float:
        """Wins (a tie a half) in percent of the scenarios' weight."""
        wins = 0.0
        for s in self.by_bag.values():
            final = self.base + s.value
            wins += s.weight * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
        weight = self.weight
        return 100.0 * wins / weight if weight else 0.0

    @property
    def proved(self) -> bool:
        """Every scenario valued, and each proved."""
        return self.weight == self.total and all(s.proved for s in self.by_bag.values())

    def record(self, s: Scenario) -> None:
        old = self.by_bag.get(s.bag)
        if old is None or not old.proved and (s.proved or s.depth >= old.depth):
            self.by_bag[s.bag] = s

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.move.notation(),
            "score": self.move.score,
            "win_pct": round(self.win_pct, 3),
            "spread": round(self.spread, 3),
            "proved": self.proved,
            "scenarios": {s.bag: s.value for s in self.scenarios},
        }


@dataclass(frozen=True)
class Stage:
    """What one stage did: its ``number`` (1 first), ``method`` (``greedy`` or
    ``search``), the candidates it valued, the scenarios it finished, its nodes and
    seconds, and whether every candidate it valued ended proved."""

    number: int
    method: str
    candidates: int
    scenarios: int
    nodes: int
    seconds: float
    proved: bool


@dataclass(frozen=True)
class PreendgameResult:
    """Every candidate valued, best first (the last stage that valued it, then win%, then
    mean spread), the nodes searched over every stage and the seconds taken; the tiles
    in the bag, the number of scenarios and the stages."""

    candidates: list[Candidate]
    nodes: int
    seconds: float
    bag_size: int = 1
    scenarios: int = 0
    stages: list[Stage] = field(default_factory=list)
    stopped: str = "proved"

    @property
    def why(self) -> str:
        """Why the solve ended, in words (:data:`~gcgtools.analysis.endgame.result.STOPPED`):
        ``proved``, or the budget or the interrupt that ended it first."""
        return STOPPED.get(self.stopped, self.stopped)

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    @property
    def proved(self) -> bool:
        """Every candidate of the last stage (the best's) is proved."""
        if not self.candidates:
            return False
        last = self.best.stage
        return all(c.proved for c in self.candidates if c.stage == last)


@dataclass
class _Case:
    draw: Draw
    position: EndgamePosition


def scenarios(position: PreendgamePosition) -> list[_Case]:
    """Every scenario and its endgame position (sorted by bag)."""
    k = position.bag_size
    if not 1 <= k <= MAX_PREENDGAME_BAG:
        raise EndgameError(f"a pre-endgame has 1 to {MAX_PREENDGAME_BAG} tiles in the bag, not {k}")
    if len(position.unseen) <= k:
        raise EndgameError(f"a pre-endgame with {k} in the bag needs at least {k + 1} unseen tiles")
    theirs = len(position.unseen) - k
    if theirs > position.rules.rack_size:
        raise EndgameError(
            f"{len(position.unseen)} unseen tiles with {k} in the bag would leave the opponent "
            f"{theirs}, more than a rack holds: the rack to move with is not the whole rack"
        )
    out = []
    for d in draws(position.unseen, k):
        eg = EndgamePosition(
            position.board, (position.rack, d.opponent), position.lexicon, position.rules,
            bag=d.bag, zeros=position.zeros, scores=position.scores,
        )  # fmt: skip
        out.append(_Case(d, eg))
    return out


class _Solve:
    """The state of one solve: the scenarios in their order, the candidates, the budget."""

    def __init__(
        self, position: PreendgamePosition, limit: Limit, source: MoveSource | None
    ) -> None:
        self.budget = Budget(limit)
        self.cases = scenarios(position)
        self.order = list(range(len(self.cases)))
        random.Random(ORDER_SEED).shuffle(self.order)
        self.source = source or MoveSource(position.lexicon, position.rules)
        self.total = orderings(len(position.unseen), position.bag_size)
        self.base = position.scores[0] - position.scores[1]
        self.stages: list[Stage] = []

    def roots(self, case: _Case) -> tuple[SearchState, dict[str, EgMove]]:
        st = SearchState(case.position, self.source)
        moves = st.moves()
        self.budget.charge(1)
        return st, {m.notation(): m for m in moves}

    # ------------------------------------------------------------------ greedy
    def greedy(self, cands: dict[str, Candidate], first: list[str]) -> list[Candidate]:
        """Stage 1 (see the module): the candidates valued, the others dropped."""
        b = self.budget
        nodes0, t0 = b.nodes, b.elapsed()
        share_n, share_s = b.share(GREEDY_NODES)[0], b.share(GREEDY_SECONDS)[1]
        stop_n = None if share_n is None else b.nodes + share_n
        stop_s = None if share_s is None else t0 + share_s

        def over() -> bool:
            return (
                b.spent()
                or (stop_n is not None and b.nodes >= stop_n)
                or (stop_s is not None and b.elapsed() >= stop_s)
            )

        names = first + [n for n in cands if n not in first]
        done = 0
        for i, idx in enumerate(self.order):
            case = self.cases[idx]
            st, roots = self.roots(case)
            valued: list[str] = []
            for name in names:
                if b.spent() and valued or over() and (i > 0 or len(valued) >= FIRST_SEARCHED):
                    break
                value, nodes = _playout(st, roots[name])
                b.charge(nodes)
                cands[name].record(Scenario(case.draw.name, case.draw.weight, value, False, ()))
                valued.append(name)
            if len(valued) < len(names):  # stopped in this scenario
                if i > 0:
                    for name in valued:
                        del cands[name].by_bag[case.draw.name]
                else:
                    names = valued
                    done = 1
                break
            done += 1
            if over() or done * len(names) >= GREEDY_VALUES:
                break
        kept = [cands[n] for n in names]
        for c in kept:
            c.stage = 1
        self._report(1, "greedy", kept, done, nodes0, t0)
        return kept

    # ------------------------------------------------------------------ search
    def search(
        self, number: int, kept: list[Candidate], share: float | None, floor: Caps = (0, 0)
    ) -> tuple[Caps, int]:
        """One search stage (``share``: the part of the budget left it may spend; None:
        no budget), over the scenarios in their order where a candidate is unproved, as
        far as its share goes: each search capped at the share over those scenarios, but
        at least :data:`ROOT_NODES` nodes and :data:`ROOT_SECONDS` seconds per candidate
        and at least ``floor``. The caps it used and the scenarios it searched."""
        b = self.budget
        nodes0, t0 = b.nodes, b.elapsed()
        todo = [i for i in self.order if any(not _proved_in(c, self.cases[i]) for c in kept)]
        caps: Caps = (None, None)
        stop_n = stop_s = None
        if share is not None and todo:
            n, s = b.share(share)
            roots = len(kept)
            if n is not None:
                stop_n = nodes0 + n
                caps = (max(n / len(todo), ROOT_NODES * roots, floor[0] or 0), caps[1])
            if s is not None:
                stop_s = t0 + s
                caps = (caps[0], max(s / len(todo), ROOT_SECONDS * roots, floor[1] or 0))
        done = 0
        for idx in todo:
            if done and (
                (stop_n is not None and b.nodes >= stop_n)
                or (stop_s is not None and b.elapsed() >= stop_s)
            ):
                break
            case = self.cases[idx]
            names = {c.move.notation() for c in kept if not _proved_in(c, case)}
            limit = b.search_limit(*caps)
            if limit is None:
                break
            r = solve_endgame(case.position, limit, all_moves=True, roots=names, source=self.source)
            b.charge(r.nodes + 1)  # the root position too
            by_name = {c.move.notation(): c for c in kept}
            for root in r.moves:
                by_name[root.notation].record(
                    Scenario(
                        case.draw.name,
                        case.draw.weight,
                        root.value,
                        root.proved,
                        tuple(root.pv),
                        r.depth,
                    )  # fmt: skip
                )
            done += 1
        if done:
            for c in kept:
                c.stage = number
            self._report(number, "search", kept, done, nodes0, t0)
        return caps, done

    def _report(
        self, number: int, method: str, kept: list[Candidate], done: int, nodes0: int, t0: float
    ) -> None:
        b = self.budget
        proved = all(c.proved for c in kept)
        self.stages.append(
            Stage(number, method, len(kept), done, b.nodes - nodes0, b.elapsed() - t0, proved)
        )


def _proved_in(c: Candidate, case: _Case) -> bool:
    s = c.by_bag.get(case.draw.name)
    return s is not None and s.proved


def _playout(st: SearchState, first: EgMove) -> tuple[int, int]:
    """``first`` played, then each side's generator's best move until the game ends: the
    points the player to move gains over the opponent, and the positions generated."""
    gain, over, undo = st.play(first)
    played = [(first, undo)]
    value, sign, nodes = gain, -1, 0
    try:
        while not over:
            reply = st.moves(top=1)[0]
            nodes += 1
            gain, over, undo = st.play(reply)
            played.append((reply, undo))
            value += sign * gain
            sign = -sign
    finally:
        for m, u in reversed(played):
            st.undo(m, u)
    return value, nodes


def _ranked(cands: Iterable[Candidate]) -> list[Candidate]:
    return sorted(cands, key=lambda c: (-c.win_pct, -c.spread))


def solve_preendgame(
    position: PreendgamePosition,
    limit: Limit = EXACT,
    *,
    source: MoveSource | None = None,
    candidates: Collection[str] | None = None,
    keep: Collection[str] = (),
) -> PreendgameResult:
    """Solve a pre-endgame (see the module's description). ``limit``: the budget of the
    whole solve (nodes over every stage and scenario, wall-clock seconds; ``depth`` the
    plies of each scenario's search). ``candidates``: value only the moves of these
    notations (None: every move). ``keep``: notations never dropped by a stage (the
    move a player made, which the judge compares with the best)."""
    solve = _Solve(position, limit, source)
    b = solve.budget
    _, roots = solve.roots(solve.cases[solve.order[0]])
    names = [n for n in roots if candidates is None or n in candidates]
    cands = {
        n: Candidate(roots[n].move, base=solve.base, total=solve.total)
        for n in names
    }  # fmt: skip
    kept_names = [n for n in names if n in keep]
    number = 1
    kept = list(cands.values())
    if b.bounded and len(kept) > FINALISTS:
        kept = solve.greedy(cands, kept_names)
        kept = _halve(kept, kept_names, FIRST_SEARCHED)
        number = 2
    floor: Caps = (0, 0)
    while kept:
        share = None if not b.bounded else 1.0 / _stages_left(len(kept))
        caps, done = solve.search(number, kept, share, floor)
        if not done or all(c.proved for c in kept) or b.spent():
            break
        if len(kept) <= FINALISTS:  # the last stage again, each search capped twice as high
            floor = (2 * (caps[0] or 0), 2 * (caps[1] or 0))
        else:
            kept, floor = _halve(kept, kept_names, len(kept)), (0, 0)
        number += 1
    valued = [c for c in cands.values() if c.by_bag]
    ordered = sorted(valued, key=lambda c: (-c.stage, -c.win_pct, -c.spread))
    result = PreendgameResult(
        ordered, b.nodes, b.elapsed(), position.bag_size, len(solve.cases), solve.stages
    )
    if stop_requested():
        return replace(result, stopped="interrupted")
    return result if result.proved else replace(result, stopped=b.reason() or "budget")


def _stages_left(kept: int) -> int:
    """The search stages left with ``kept`` candidates: this one and one per halving
    down to :data:`FINALISTS`."""
    n = 1
    while kept > FINALISTS:
        kept = max(FINALISTS, math.ceil(kept / 2))
        n += 1
    return n


def _halve(kept: list[Candidate], names: list[str], most: int) -> list[Candidate]:
    """The best half of ``kept`` (at least :data:`FINALISTS`, at most ``most``) and the
    candidates named in ``names``."""
    n = max(FINALISTS, min(most, math.ceil(len(kept) / 2)))
    ranked = _ranked(kept)
    out = ranked[:n]
    out += [c for c in ranked[n:] if c.move.notation() in names]
    return out
