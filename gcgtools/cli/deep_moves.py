"""``gcgtools moves --sim`` and ``moves --endgame``: the deep analysis of one position
(:mod:`gcgtools.analysis.deep`), printed as text or JSON lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from gcgtools.cli.common import EXIT_INTERRUPTED
from gcgtools.console import echo, stopping_on_signals
from gcgtools.findings import EXIT_UNREADABLE
from gcgtools.movegen.record import PositionMoves

if TYPE_CHECKING:
    from gcgtools.analysis.winprob import WinModel

__all__ = ["deep_moves"]


def deep_moves(
    result: PositionMoves,
    where: str,
    label: str,
    format: str,
    top: int,
    *,
    sim: bool,
    budget: tuple[int, int, int, int, int],
    model: WinModel | None = None,
    seconds: float | None = None,
) -> None:
    """Simulate (``sim``) or solve the position of ``result`` and print its root moves.
    ``budget``: iterations, candidates, plies, endgame nodes, seed; ``model``: the win
    model of the simulation (None: the built-in one); ``seconds``: the endgame's budget
    in seconds (nodes and seconds: one budget for the whole endgame or pre-endgame,
    whichever runs out first). A position the
    solvers cannot take exits 2 with a one-line message naming ``label``."""
    from gcgtools.analysis.deep import (
        EndgameError,
        NotAnEndgame,
        simulate_position,
        solve_position,
    )
    from gcgtools.analysis.endgame import Limit
    from gcgtools.analysis.simulate import SimLimit
    from gcgtools.render.deep_moves import deep_json, endgame_lines, sim_lines

    iterations, candidates, plies, nodes, seed = budget
    try:
        # Ctrl-C or SIGTERM stops the search, which answers with what it found so far
        with stopping_on_signals():
            if sim:
                least = min(SimLimit.min_iterations, iterations)
                limit = SimLimit(iterations=iterations, candidates=candidates, plies=plies,
                                 min_iterations=least)  # fmt: skip
                deep = simulate_position(result, limit, seed, model=model)
                lines = sim_lines(result, deep, where, top)
            else:
                solved = solve_position(result, Limit(nodes=nodes, seconds=seconds))
                deep = solved
                lines = endgame_lines(result, solved, where, top)
    except (EndgameError, ValueError) as exc:
        hint = "; use --sim" if isinstance(exc, NotAnEndgame) else ""
        echo(f"{label}: {exc}{hint}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    as_json = format == "json"
    for line in deep_json(deep, top) if as_json else lines:
        echo(line, json=as_json)  # JSON's escapes in JSON: it stays JSON
    if deep.stopped == "interrupted":
        found = "simulated" if sim else "searched"
        echo(
            f"interrupted: the best moves {found} so far are shown; the search was not "
            f"finished{'' if sim else ' (not proved)'}",
            err=True,
        )
        raise typer.Exit(EXIT_INTERRUPTED)
