"""``gcgtools analyse``: phonies, best moves, equity lost and missed bingos per turn, and
the lexicon options every analysing command shares (``--lexicon``, ``--lexica``,
``--leaves``)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from gcgtools.batch.run import show_progress
from gcgtools.cli.common import (
    EXIT_CLEAN,
    EXIT_UNREADABLE,
    BoardOpt,
    Bonus,
    Jobs,
    NoCache,
    Paths,
    Quiet,
    RulesOpt,
    SchedulerOpt,
    Tiles,
    app,
    batch_command,
)

LexiconOpt = Annotated[
    str | None,
    typer.Option(
        "--lexicon",
        help="Lexicon file (.kwg, .txt, .txt.gz); default: the record's #lexicon looked up "
        "in --lexica.",
    ),
]
LexicaOpt = Annotated[
    str | None,
    typer.Option(
        "--lexica",
        help="Folder of lexicons (NAME.kwg, NAME.txt, NAME.txt.gz, leaves .klv2); default: "
        "$GCGTOOLS_LEXICA.",
    ),
]
LeavesOpt = Annotated[
    str | None,
    typer.Option(
        "--leaves",
        help="Leave values (.klv2, .klv, .csv); default: LEAVES.klv2 or NAME.klv2 in the "
        "lexicon folder, else the built-in heuristic.",
    ),
]


class DepthChoice(str, Enum):
    static = "static"
    sim = "sim"
    full = "full"


DepthOpt = Annotated[
    DepthChoice,
    typer.Option(
        "--depth",
        help="static: equity only (fast, the default); sim: judge every turn by simulation, "
        "pre-endgame and endgame solvers with small budgets; full: the same, larger budgets.",
    ),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the simulations (--depth sim/full).")]
SimIterations = Annotated[
    int | None,
    typer.Option("--sim-iterations", min=1, help="Simulation iterations per candidate."),
]
SimCandidates = Annotated[
    int | None, typer.Option("--sim-candidates", min=1, help="Moves simulated per turn.")
]
EndgameNodes = Annotated[
    int | None, typer.Option("--endgame-nodes", min=1, help="Endgame solver budget (nodes).")
]
PreendgameNodes = Annotated[
    int | None,
    typer.Option("--preendgame-nodes", min=1, help="Pre-endgame budget per tile in the bag."),
]


class AnalyseFormat(str, Enum):
    text = "text"
    json = "json"


@app.command("analyse")
@batch_command
def analyse_command(
    paths: Paths,
    lexicon: LexiconOpt = None,
    lexica: LexicaOpt = None,
    leaves: LeavesOpt = None,
    top: Annotated[int, typer.Option("--top", min=0, help="Best moves kept per turn.")] = 5,
    format: Annotated[AnalyseFormat, typer.Option("--format", "-f")] = AnalyseFormat.text,
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    no_cache: NoCache = False,
    jobs: Jobs = None,
    scheduler: SchedulerOpt = None,
    quiet: Quiet = False,
    depth: DepthOpt = DepthChoice.static,
    seed: SeedOpt = 0,
    sim_iterations: SimIterations = None,
    sim_candidates: SimCandidates = None,
    endgame_nodes: EndgameNodes = None,
    preendgame_nodes: PreendgameNodes = None,
) -> None:
    """Check every play's words against a lexicon and, for every turn whose full rack is
    known, compare the move with the best moves: equity, equity lost, rank, missed bingos.
    Without a lexicon the turns are listed and the analysis columns left empty. With
    --depth sim or full every such turn is also judged by win% (simulation, pre-endgame)
    or spread (endgame) and graded, with a Mistake Index per player."""
    from gcgtools.analysis.judge import settings_for
    from gcgtools.batch.analyses import analyse_paths
    from gcgtools.render.analysis import analysis_json, analysis_lines
    from gcgtools.render.judgement import judgement_lines

    judge = None
    if depth is not DepthChoice.static:
        judge = settings_for(
            depth.value, seed=seed, sim_iterations=sim_iterations,
            sim_candidates=sim_candidates, endgame_nodes=endgame_nodes,
            preendgame_nodes=preendgame_nodes,
        )  # fmt: skip

    unreadable: list[tuple[str, str]] = []
    count = 0
    results = analyse_paths(
        paths,
        lexicon=lexicon,
        lexica=lexica,
        leaves=leaves,
        top=top,
        jobs=jobs,
        progress=show_progress(quiet) and format is AnalyseFormat.text,
        cache=not no_cache,
        scheduler=scheduler,
        tiles=tiles,
        board=board,
        end_rule=rules,
        challenge_bonus=challenge_bonus,
        depth=depth.value,
        judge=judge,
    )
    for result in results:
        count += 1
        if result.unreadable:
            unreadable.append((result.path, result.reason or "unreadable"))
        if format is AnalyseFormat.json:
            typer.echo(analysis_json(result))
        elif not result.unreadable:
            typer.echo("\n".join(analysis_lines(result) + judgement_lines(result)))
    if unreadable:
        typer.echo(f"could not read {len(unreadable)} file(s):", err=True)
        for name, reason in unreadable:
            typer.echo(f"  {name}: {reason}", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    if count == 0:
        typer.echo("no game records found: name .gcg files, folders or globs", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(EXIT_CLEAN)
