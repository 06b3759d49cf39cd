"""Commands for reports over archives: stats, bingos, chart, export.

Each reads PATH... (files, folders, globs) on all cores, shows a progress bar on a
terminal, goes on past files it cannot read and lists them on stderr at the end; the exit
code is 2 when a file could not be read, else 0.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from gcgtools.analysis.batch import show_progress
from gcgtools.cli.analyse import LeavesOpt, LexicaOpt, LexiconOpt
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
from gcgtools.outputs.tables import print_frame


class ReportFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


class StatsBy(str, Enum):
    player = "player"
    game = "game"


FormatOpt = Annotated[ReportFormat, typer.Option("--format", "-f", help="Output format.")]


def _rules(
    tiles: str | None, board: str | None, rules: str | None, bonus: int | None
) -> dict[str, Any]:
    return {"tiles": tiles, "board": board, "end_rule": rules, "challenge_bonus": bonus}


def _lexicon(
    lexicon: str | None, lexica: str | None, leaves: str | None, no_cache: bool = False
) -> dict[str, Any]:
    """The analysis options: only with --lexicon or --lexica (the analysis is slow, so
    $GCGTOOLS_LEXICA alone does not turn it on for stats and export)."""
    if lexicon is None and lexica is None:
        return {}
    return {"lexicon": lexicon, "lexica": lexica, "leaves": leaves, "cache": not no_cache}


def _finish(unreadable: list[str], reasons: dict[str, str], read: int) -> None:
    """List the files that could not be read on stderr and exit with the right code."""
    if unreadable:
        typer.echo(f"could not read {len(unreadable)} file(s):", err=True)
        for name in unreadable:
            typer.echo(f"  {name}: {reasons.get(name, 'unreadable')}", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    if read == 0:
        typer.echo("no game records found", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(EXIT_CLEAN)


def _print(frame: Any, fmt: ReportFormat, *, title: str, index: bool) -> None:
    print_frame(frame, fmt.value, title=title, index=index)


@app.command()
@batch_command
def stats(
    paths: Paths,
    by: Annotated[StatsBy, typer.Option("--by", help="One row per player or per game.")] = (
        StatsBy.player
    ),
    format: FormatOpt = ReportFormat.table,
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    lexicon: LexiconOpt = None,
    lexica: LexicaOpt = None,
    leaves: LeavesOpt = None,
    no_cache: NoCache = False,
    jobs: Jobs = None,
    quiet: Quiet = False,
    scheduler: SchedulerOpt = None,
) -> None:
    """Per-player statistics (games, wins, averages, bingos, best plays, challenges) or a
    one-line summary per game. With --lexicon or --lexica every game is also analysed:
    phonies played and stood, missed bingos, average equity lost per turn."""
    from gcgtools.analysis.stats import archive_stats

    table = archive_stats(
        paths,
        by=by.value,
        jobs=jobs,
        scheduler=scheduler,
        progress=show_progress(quiet),
        **_rules(tiles, board, rules, challenge_bonus),
        **_lexicon(lexicon, lexica, leaves, no_cache),
    )
    for used in table.attrs.get("analysis", []):
        typer.echo(f"analysis: {used}", err=True)
    if format is ReportFormat.table and not table.attrs.get("analysis"):
        # no lexicon: the terminal table leaves out the empty analysis columns (CSV and
        # JSON keep every column)
        from gcgtools.analysis.stats import ANALYSIS_STAT_COLUMNS

        table = table.drop(columns=ANALYSIS_STAT_COLUMNS, errors="ignore")
    title = f"{table.attrs['games']} games"
    _print(table, format, title=title, index=by is StatsBy.player)
    _finish(table.attrs["unreadable"], table.attrs["reasons"], table.attrs["games"])


@app.command()
@batch_command
def bingos(
    paths: Paths,
    format: FormatOpt = ReportFormat.table,
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    jobs: Jobs = None,
    quiet: Quiet = False,
    scheduler: SchedulerOpt = None,
) -> None:
    """Every bingo (player, word, position, score, game); the table also counts them per
    player. JSON is a list with one object per bingo."""
    from gcgtools.analysis.stats import bingo_counts
    from gcgtools.analysis.stats import bingos as find_bingos

    table = find_bingos(
        paths,
        jobs=jobs,
        scheduler=scheduler,
        progress=show_progress(quiet),
        **_rules(tiles, board, rules, challenge_bonus),
    )
    games = table.attrs["games"]
    if format is ReportFormat.table:
        _print(table, format, title=f"{len(table)} bingos in {games} games", index=False)
        _print(bingo_counts(table), format, title="bingos per player", index=True)
    else:
        _print(table, format, title="", index=False)
    _finish(table.attrs["unreadable"], table.attrs["reasons"], games)


@app.command()
@batch_command
def chart(
    paths: Annotated[
        list[str], typer.Argument(help="One record for its score chart; several for archive.")
    ],
    out: Annotated[Path, typer.Option("--output", "-o", help="The picture: .png, .svg or .pdf.")],
    archive: Annotated[
        bool, typer.Option("--archive", help="Archive charts even for a single file.")
    ] = False,
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    jobs: Jobs = None,
    quiet: Quiet = False,
    scheduler: SchedulerOpt = None,
) -> None:
    """Draw the score progression of one game, or the archive charts of several (final
    scores, bingos per game, points per turn by player)."""
    from gcgtools.outputs.charts import write_chart

    try:
        result = write_chart(
            paths,
            out,
            archive=archive,
            jobs=jobs,
            scheduler=scheduler,
            progress=show_progress(quiet),
            **_rules(tiles, board, rules, challenge_bonus),
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--output") from None
    if result.path is not None:
        typer.echo(f"wrote {result.kind} chart of {result.games} game(s) to {result.path}")
    _finish(result.unreadable, result.reasons, result.games)


@app.command()
@batch_command
def export(
    paths: Paths,
    out: Annotated[
        str,
        typer.Option(
            "--output", "-o", help="Moves table: .parquet or .csv, or a folder (a dataset)."
        ),
    ],
    games: Annotated[
        str | None,
        typer.Option("--games", help="Also the games table: .parquet, .csv or a folder."),
    ] = None,
    partitioned: Annotated[
        bool,
        typer.Option(
            "--partitioned",
            help="Write each table as a folder of Parquet files, one per chunk (also when "
            "the name ends with / or is a folder).",
        ),
    ] = False,
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    lexicon: LexiconOpt = None,
    lexica: LexicaOpt = None,
    leaves: LeavesOpt = None,
    no_cache: NoCache = False,
    jobs: Jobs = None,
    quiet: Quiet = False,
    scheduler: SchedulerOpt = None,
) -> None:
    """Write one row per event (and with --games one row per game) to Parquet or CSV,
    streamed chunk by chunk. With --lexicon or --lexica the analysis columns are filled
    in (equity, best move, equity lost, phony words, bingo available)."""
    from gcgtools.analysis.frames import write_moves

    try:
        summary = write_moves(
            paths,
            out,
            games_out=games,
            partitioned=True if partitioned else None,
            jobs=jobs,
            scheduler=scheduler,
            progress=show_progress(quiet),
            **_rules(tiles, board, rules, challenge_bonus),
            **_lexicon(lexicon, lexica, leaves, no_cache),
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    for used in summary.analysis:
        typer.echo(f"analysis: {used}", err=True)
    where = f"{out}" + (f" and {games}" if games is not None else "")
    typer.echo(f"wrote {summary.moves} moves of {summary.games} games to {where}")
    _finish(summary.unreadable, summary.reasons, summary.games)
