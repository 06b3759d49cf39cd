"""Commands for reports over archives: stats, bingos, chart, export.

Each reads PATH... (files, folders, globs) on all cores, shows a progress bar on a
terminal, goes on past files it cannot read and lists them on stderr at the end; the exit
code is 2 when a file could not be read, else 0.
"""

from __future__ import annotations

import json
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


def _cell(value: Any) -> str:
    import pandas as pd

    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


# Short headers for the terminal tables; CSV and JSON keep the full column names.
_SHORT = {
    "finished": "done", "wins": "W", "losses": "L", "ties": "T", "avg_score": "avg",
    "avg_spread": "spread", "points_per_turn": "pts/turn", "bingos_per_game": "b/game",
    "highest_game": "top game", "highest_play": "top play", "highest_play_word": "word",
    "exchanges": "exch", "passes": "pass", "phonies": "phony", "challenges_won": "ch+",
    "challenges_lost": "ch-", "player1": "player 1", "player2": "player 2",
    "score1": "score 1", "score2": "score 2", "bingos1": "b1", "bingos2": "b2",
    "best_score": "best", "best_word": "word", "best_player": "by",
}  # fmt: skip


def _print(frame: Any, fmt: ReportFormat, *, title: str, index: bool) -> None:
    """A DataFrame as a rich table, CSV or a JSON list of objects."""
    if index:
        frame = frame.reset_index()
    if fmt is ReportFormat.csv:
        typer.echo(frame.to_csv(index=False), nl=False)
    elif fmt is ReportFormat.json:
        records = json.loads(frame.to_json(orient="records", force_ascii=False))
        typer.echo(json.dumps(records, indent=2, ensure_ascii=False))
    else:
        from rich.console import Console
        from rich.table import Table

        if "game_id" in frame.columns:
            frame = frame.drop(columns=["file"], errors="ignore")
        table = Table(title=title)
        for column in frame.columns:
            numeric = frame[column].dtype.kind in "iuf" or str(frame[column].dtype) == "Int64"
            table.add_column(
                _SHORT.get(str(column), str(column)),
                justify="right" if numeric else "left",
                no_wrap=numeric,
            )
        for row in frame.itertuples(index=False):
            table.add_row(*(_cell(v) for v in row))
        console = Console()
        if not console.is_terminal:  # piped: as wide as the table needs, never cut
            wide = console.options.update_width(10_000)
            console = Console(
                width=max(console.width, console.measure(table, options=wide).maximum)
            )
        console.print(table)


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
    out: Annotated[Path, typer.Option("--output", "-o", help="The picture: .png or .svg.")],
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
