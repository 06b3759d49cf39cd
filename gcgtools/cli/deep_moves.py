"""``gcgtools moves --sim`` and ``moves --endgame``: the deep analysis of one position
(:mod:`gcgtools.analysis.deep`), printed as text or JSON lines."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import typer

from gcgtools.cli.common import EXIT_INTERRUPTED
from gcgtools.console import echo, status_line, stopping_on_signals
from gcgtools.findings import EXIT_UNREADABLE
from gcgtools.movegen.record import PositionMoves

if TYPE_CHECKING:
    from gcgtools.analysis.endgame import Progress
    from gcgtools.analysis.inference import Inference
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
    early_stop: bool = True,
    inferred: Inference | None = None,
) -> None:
    """Simulate (``sim``) or solve the position of ``result`` and print its root moves.
    ``budget``: iterations, candidates, plies, endgame nodes, seed; ``model``: the win
    model of the simulation (None: the built-in one); ``seconds``: the endgame's budget
    in seconds (nodes and seconds: one budget for the whole endgame or pre-endgame,
    whichever runs out first); ``early_stop`` False: every candidate simulated runs all
    its iterations; ``inferred``: the opponent's rack is drawn from this inference
    (``--infer``). A position the
    solvers cannot take exits 2 with a one-line message naming ``label``."""
    from gcgtools.analysis.deep import EndgameError, NotAnEndgame, deep_position
    from gcgtools.analysis.endgame import Limit
    from gcgtools.analysis.simulate import SimLimit, SimResult, least_iterations
    from gcgtools.render.deep_moves import deep_json, endgame_lines, sim_lines

    iterations, candidates, plies, nodes, seed = budget
    least = least_iterations(iterations, early_stop)
    limit = SimLimit(iterations=iterations, candidates=candidates, plies=plies,
                     min_iterations=least) if sim else None  # fmt: skip
    try:
        # Ctrl-C or SIGTERM stops the search, which answers with what it found so far
        with stopping_on_signals(), status_line() as show:
            deep = deep_position(result, limit, Limit(nodes=nodes, seconds=seconds), seed,
                                 model=model, on_depth=_shown(show),
                                 kept=inferred.kept() if inferred else ())  # fmt: skip
    except (EndgameError, ValueError) as exc:
        hint = "; use --sim" if isinstance(exc, NotAnEndgame) else ""
        echo(f"{label}: {exc}{hint}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    simulated = isinstance(deep, SimResult)
    if sim and not simulated:
        echo("the bag is empty: solved as an endgame (--nodes, --seconds), not simulated",
             err=True)  # fmt: skip
    if isinstance(deep, SimResult):
        lines = sim_lines(result, deep, where, top)
    else:
        lines = endgame_lines(result, deep, where, top)
    as_json = format == "json"
    for line in deep_json(deep, top) if as_json else lines:
        echo(line, json=as_json)  # JSON's escapes in JSON: it stays JSON
    if deep.stopped == "interrupted":
        found = "simulated" if simulated else "searched"
        echo(
            f"interrupted: the best moves {found} so far are shown; the search was not "
            f"finished{'' if simulated else ' (not proved)'}",
            err=True,
        )
        raise typer.Exit(EXIT_INTERRUPTED)


def _shown(show: Callable[[str], None] | None) -> Callable[[Progress], None] | None:
    """What tells a terminal's status line of each depth the endgame search completes."""
    if show is None:
        return None

    def on_depth(p: Progress) -> None:
        show(f"endgame: depth {p.depth} done, {p.nodes:,} nodes, {p.seconds:.1f} s; "
             f"best so far {p.best} {p.value:+d}")  # fmt: skip

    return on_depth
