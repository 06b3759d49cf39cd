"""The deep analysis of one position (``gcgtools moves --sim`` and ``moves --endgame``):
a record's position or a CGP's, with the rack of the player to move, simulated
(:func:`simulate_position`) or solved to the end (:func:`solve_position`).

:func:`deep_position` simulates, except on an empty bag, where the exact endgame solver
answers instead (a simulation of an endgame only samples what the solver proves).

``solve_position`` takes an endgame (the bag empty: the exact solver, every root move's
value) or a pre-endgame (1 to 4 tiles in the bag: every draw that may be in the bag
solved, win% and mean spread per move); with more tiles in the bag it raises
:class:`NotAnEndgame` (an :class:`EndgameError`): such a position is simulated instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from gcgtools.analysis.endgame.position import EndgameError
from gcgtools.analysis.endgame.result import EndgameResult, Limit, Progress
from gcgtools.analysis.grading import PREENDGAME_BAG
from gcgtools.analysis.simulate import SimLimit, SimPosition, SimResult, position_from_board
from gcgtools.analysis.simulate import simulate as run_simulation
from gcgtools.analysis.winprob import WinModel
from gcgtools.movegen.record import PositionMoves
from gcgtools.wording import plural

if TYPE_CHECKING:
    from gcgtools.analysis.endgame.preendgame import PreendgameResult

__all__ = [
    "EndgameError",
    "NotAnEndgame",
    "deep_position",
    "sim_position",
    "simulate_position",
    "solve_position",
]


class NotAnEndgame(EndgameError):
    """A position with more tiles in the bag than the solvers take (``bag``): it is for
    the simulation."""

    def __init__(self, bag: int) -> None:
        super().__init__(
            f"the bag holds {bag} tiles: an endgame needs an empty bag "
            f"(1 to {PREENDGAME_BAG} tiles: a pre-endgame)"
        )
        self.bag = bag


def sim_position(pm: PositionMoves) -> SimPosition:
    """The position of ``pm`` for its player to move with ``pm.rack``: the unseen tiles
    are the tile set less the board and the rack. Raises ValueError when they do not
    add up."""
    rp = pm.position
    return position_from_board(rp.board, rp.rules, pm.rack, rp.scores, rp.zeros)


def simulate_position(
    pm: PositionMoves,
    limit: SimLimit,
    seed: int = 0,
    *,
    model: WinModel | None = None,
    kept: tuple[tuple[tuple[str, ...], float], ...] = (),
) -> SimResult:
    """Simulate the position of ``pm`` (see :mod:`gcgtools.analysis.simulate`) with the
    win ``model`` (None: the built-in one); ``kept``: the opponent's inferred leaves
    (``SimPosition.kept``), empty for a uniform draw."""
    sp = replace(sim_position(pm), kept=kept)
    return run_simulation(sp, pm.lexicon, pm.leaves, limit, seed, model=model)


def solve_position(
    pm: PositionMoves,
    limit: Limit,
    *,
    preendgame: bool = True,
    on_depth: Callable[[Progress], None] | None = None,
) -> EndgameResult | PreendgameResult:
    """Solve the position of ``pm``: the endgame (every root move, best first) when the
    bag is empty, the pre-endgame when it holds 1 to 4 tiles (``preendgame`` False: an
    error instead). ``limit``: the budget of the endgame, or of the whole pre-endgame;
    ``on_depth``: told of each depth the endgame search completes. Raises
    :class:`NotAnEndgame` (one line) for a position that is neither."""
    # the solvers are loaded here, when asked for: a simulation does without them
    from gcgtools.analysis.endgame import (
        EndgamePosition,
        PreendgamePosition,
        solve_endgame,
        solve_preendgame,
    )

    sp = sim_position(pm)
    rp = pm.position
    bag = sp.bag_count
    if bag == 0:
        eg = EndgamePosition.of(
            rp.board, sp.rack, sp.unseen, pm.lexicon, rp.rules, zeros=rp.zeros, scores=rp.scores
        )
        return solve_endgame(eg, limit, all_moves=True, on_depth=on_depth)
    if bag <= PREENDGAME_BAG and preendgame:
        pre = PreendgamePosition(
            rp.board, sp.rack, sp.unseen, pm.lexicon, rp.rules, bag, rp.zeros, rp.scores
        )
        return solve_preendgame(pre, limit)
    if bag <= PREENDGAME_BAG:
        raise EndgameError(f"the bag holds {plural(bag, 'tile')}: a pre-endgame, not an endgame")
    raise NotAnEndgame(bag)


def deep_position(
    pm: PositionMoves,
    sim: SimLimit | None,
    limit: Limit,
    seed: int = 0,
    *,
    model: WinModel | None = None,
    on_depth: Callable[[Progress], None] | None = None,
    kept: tuple[tuple[tuple[str, ...], float], ...] = (),
) -> SimResult | EndgameResult | PreendgameResult:
    """The deep analysis of the position of ``pm``: simulated with ``sim`` (the win
    ``model``, ``seed``), except when the bag is empty, where the endgame is solved within
    ``limit`` (a position nobody can play on, Q against Q, is then a certain draw, not a
    sampled win%); ``sim`` None: solved (:func:`solve_position`, told ``on_depth``)."""
    if sim is not None and sim_position(pm).bag_count > 0:
        return simulate_position(pm, sim, seed, model=model, kept=kept)
    return solve_position(pm, limit, on_depth=on_depth)
