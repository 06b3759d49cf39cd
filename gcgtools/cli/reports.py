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
from gcgtools.cli.common import (
    EXIT_CLEAN,
    EXIT_UNREADABLE,
    BoardOpt,
    Bonus,
    Jobs,
    Paths,
    Quiet,
    RulesOpt,
    Tiles,
    app,
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
    jobs: Jobs = None,
    quiet: Quiet = False,
) -> None:
    """Per-player statistics (games, wins, averages, bingos, best plays, challenges) or a
    one-line summary per game."""
    from gcgtools.analysis.stats import archive_stats

    table = archive_stats(
        paths,
        by=by.value,
        jobs=jobs,
        progress=show_progress(quiet),
        **_rules(tiles, board, rules, challenge_bonus),
    )
    title = f"{table.attrs['games']} games"
    _print(table, format, title=title, index=by is StatsBy.player)
    _finish(table.attrs["unreadable"], table.attrs["reasons"], table.attrs["games"])


@app.command()
def bingos(
    paths: Paths,
    format: FormatOpt = ReportFormat.table,
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    jobs: Jobs = None,
    quiet: Quiet = False,
) -> None:
    """Every bingo (player, word, position, score, game); the table also counts them per
    player. JSON is a list with one object per bingo."""
    from gcgtools.analysis.stats import bingo_counts
    from gcgtools.analysis.stats import bingos as find_bingos

    table = find_bingos(
        paths,
        jobs=jobs,
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
            progress=show_progress(quiet),
            **_rules(tiles, board, rules, challenge_bonus),
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--output") from None
    if result.path is not None:
        typer.echo(f"wrote {result.kind} chart of {result.games} game(s) to {result.path}")
    _finish(result.unreadable, result.reasons, result.games)


@app.command()
def export(
    paths: Paths,
    out: Annotated[Path, typer.Option("--output", "-o", help="Moves table: .parquet or .csv.")],
    games: Annotated[
        Path | None, typer.Option("--games", help="Also the games table: .parquet or .csv.")
    ] = None,
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    jobs: Jobs = None,
    quiet: Quiet = False,
) -> None:
    """Write one row per event (and with --games one row per game) to Parquet or CSV,
    streamed chunk by chunk."""
    from gcgtools.analysis.frames import write_moves

    try:
        summary = write_moves(
            paths,
            out,
            games_out=games,
            jobs=jobs,
            progress=show_progress(quiet),
            **_rules(tiles, board, rules, challenge_bonus),
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    where = f"{out}" + (f" and {games}" if games is not None else "")
    typer.echo(f"wrote {summary.moves} moves of {summary.games} games to {where}")
    _finish(summary.unreadable, summary.reasons, summary.games)
