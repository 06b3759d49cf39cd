"""``gcgtools analyse``: phonies, best moves, equity lost and missed bingos per turn, and
the lexicon options every analysing command shares (``--lexicon``, ``--lexica``,
``--leaves``)."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from gcgtools.batch.run import show_progress
from gcgtools.cli.common import (
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
    lexicon_given,
    rule_options,
)
from gcgtools.console import echo
from gcgtools.findings import EXIT_CLEAN, EXIT_UNREADABLE
from gcgtools.wording import no_lexicon, plural

if TYPE_CHECKING:
    from collections.abc import Iterable

    from gcgtools.analysis.analyse import RecordAnalysis
    from gcgtools.lexicon.choice import LexiconChoice

LexiconOpt = Annotated[
    str | None,
    typer.Option(
        "--lexicon",
        callback=lexicon_given,
        help="Lexicon file (.kwg, .txt, .txt.gz); default: the record's #lexicon looked up "
        "in --lexica.",
    ),
]
LexicaOpt = Annotated[
    str | None,
    typer.Option(
        "--lexica",
        callback=lexicon_given,
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


def lexicon_choice(
    lexicon: str | None,
    lexica: str | None,
    leaves: str | None,
    tiles: str | None = None,
    *,
    required: bool = False,
) -> LexiconChoice:
    """The lexicon options of every analysing command, checked before any record is read:
    a lexicon or leave file that is missing, unreadable or damaged, or a lexicon folder
    that is none, is one line naming it on standard error and exit 2 (and so is no lexicon
    at all when ``required``)."""
    from gcgtools.lexicon import LeavesError, LexiconError
    from gcgtools.lexicon.choice import LexiconChoice
    from gcgtools.rules.tiles import resolve_tiles

    choice = LexiconChoice.of(lexicon, lexica, leaves)
    if required and not choice.wanted:
        echo(f"gcgtools: {no_lexicon()}", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    try:
        choice.check(resolve_tiles(tiles) if tiles is not None else None)
    except (LexiconError, LeavesError) as exc:
        echo(f"gcgtools: {exc.message}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    return choice


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
    top: Annotated[
        int | None,
        typer.Option(
            "--top",
            min=0,
            metavar="N",
            help="List the N best moves (score, leave, equity) under each turn of the text "
            "table, and keep N in the JSON. Default: the text shows the best move only, the "
            "JSON keeps 5.",
        ),
    ] = None,
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
    Needs a lexicon: --lexicon FILE, or --lexica DIR / $GCGTOOLS_LEXICA holding the
    records' #lexicon. The text says which lexicon and leaves were used once, then a table
    per record that fits 80 columns. With --depth sim or full every such turn is also
    judged by win% (simulation, pre-endgame) or spread (endgame) and graded, with a Mistake
    Index per player."""
    from gcgtools.analysis.analyse import DEFAULT_TOP
    from gcgtools.analysis.judge import Depth, settings_for
    from gcgtools.batch.analyses import analyse_paths
    from gcgtools.batch.settings import AnalysisSettings

    lexicon_choice(lexicon, lexica, leaves, tiles, required=True)
    judge = None
    if depth is not DepthChoice.static:
        judge = settings_for(
            depth.value, seed=seed, sim_iterations=sim_iterations,
            sim_candidates=sim_candidates, endgame_nodes=endgame_nodes,
            preendgame_nodes=preendgame_nodes,
        )  # fmt: skip
    settings = AnalysisSettings(
        top=DEFAULT_TOP if top is None else top,
        cache=not no_cache,
        options=rule_options(tiles, board, rules, challenge_bonus),
        depth=Depth(depth.value),
        judge=judge,
        progress=show_progress(quiet) and format is AnalyseFormat.text,
    )
    results = analyse_paths(
        paths, lexicon=lexicon, lexica=lexica, leaves=leaves, jobs=jobs, scheduler=scheduler,
        settings=settings,
    )  # fmt: skip
    count, unreadable = _print_analyses(results, format, alternatives=top is not None)
    if unreadable:
        echo(f"could not read {plural(len(unreadable), 'file')}:", err=True)
        for name, reason in unreadable:
            echo(f"  {name}: {reason}", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    if count == 0:
        echo("no game records found: name .gcg files, folders or globs", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(EXIT_CLEAN)


def _print_analyses(
    results: Iterable[RecordAnalysis], format: AnalyseFormat, *, alternatives: bool
) -> tuple[int, list[tuple[str, str]]]:
    """Print each result (JSON Lines, or a text table per record, the lexicon lines said
    once per run and again only when they change); how many records there were, and the
    unreadable ones with the reason."""
    from gcgtools.render.analysis import analysis_json, analysis_lines, used_lines
    from gcgtools.render.judgement import judgement_lines

    unreadable: list[tuple[str, str]] = []
    count = 0
    said: list[str] | None = None  # the lexicon lines last printed
    for result in results:
        count += 1
        if result.unreadable:
            unreadable.append((result.path, result.reason or "unreadable"))
        if format is AnalyseFormat.json:
            echo(analysis_json(result), json=True)
        elif not result.unreadable:
            used = used_lines(result)
            lines = analysis_lines(result, used=False, alternatives=alternatives)
            lines += judgement_lines(result)
            if used != said:  # said once per run, again only when it changes
                lines = [*used, "", *lines]
                said = used
            elif count > 1:
                lines.insert(0, "")
            echo("\n".join(lines))
    return count, unreadable
