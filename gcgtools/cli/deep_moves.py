"""``gcgtools moves --sim`` and ``moves --endgame``: the deep analysis of one position
(:mod:`gcgtools.analysis.deep`), printed as text or JSON lines."""

from __future__ import annotations

import typer

from gcgtools.console import echo
from gcgtools.findings import EXIT_UNREADABLE
from gcgtools.movegen.record import PositionMoves

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
    seconds: float | None = None,
) -> None:
    """Simulate (``sim``) or solve the position of ``result`` and print its root moves.
    ``budget``: iterations, candidates, plies, endgame nodes, seed; ``seconds``: the
    endgame's budget in seconds (nodes and seconds: one budget for the whole endgame or
    pre-endgame, whichever runs out first). A position the
    solvers cannot take exits 2 with a one-line message naming ``label``."""
    from gcgtools.analysis.deep import EndgameError, simulate_position, solve_position
    from gcgtools.analysis.endgame import Limit
    from gcgtools.analysis.simulate import SimLimit
    from gcgtools.render.deep_moves import deep_json, endgame_lines, sim_lines

    iterations, candidates, plies, nodes, seed = budget
    try:
        if sim:
            limit = SimLimit(iterations=iterations, candidates=candidates, plies=plies,
                             min_iterations=min(SimLimit.min_iterations, iterations))  # fmt: skip
            deep = simulate_position(result, limit, seed)
            lines = sim_lines(result, deep, where, top)
        else:
            solved = solve_position(result, Limit(nodes=nodes, seconds=seconds))
            deep = solved
            lines = endgame_lines(result, solved, where, top)
    except (EndgameError, ValueError) as exc:
        echo(f"{label}: {exc}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    for line in deep_json(deep, top) if format == "json" else lines:
        echo(line)
