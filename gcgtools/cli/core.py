"""Commands for reading and checking records: parse, validate, rules, explain, board."""

from __future__ import annotations

import json
from enum import Enum
from functools import partial
from typing import Annotated

import typer

from gcgtools.analysis.batch import map_files, show_progress
from gcgtools.analysis.checks import checker
from gcgtools.cli.common import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    EXIT_UNREADABLE,
    BoardOpt,
    Bonus,
    Jobs,
    LintFormat,
    ParseFormat,
    Paths,
    Quiet,
    RulesOpt,
    SchedulerOpt,
    Tiles,
    app,
    batch_command,
)
from gcgtools.findings import RULES, rule
from gcgtools.model.load import load_game
from gcgtools.outputs.lint import github_lines, json_line, parse_summary, summary_line, text_lines
from gcgtools.outputs.textboard import position_text
from gcgtools.replay.engine import replay


def parsed_text(path: str, as_json: bool = False) -> tuple[int, str]:
    """Worker of ``parse``: its exit status (unreadable; some lines could not be read;
    clean), and what to print."""
    game = load_game(path)
    if game.unreadable:
        status = EXIT_UNREADABLE
    elif any(f.severity == "error" and f.code[0] in "FP" for f in game.findings):
        status = EXIT_FINDINGS  # some lines could not be read
    else:
        status = EXIT_CLEAN
    if as_json:
        return status, json.dumps(game.to_dict(), ensure_ascii=False)
    return status, "\n".join(parse_summary(game))


@app.command()
@batch_command
def parse(
    paths: Paths,
    format: Annotated[ParseFormat, typer.Option("--format", "-f")] = ParseFormat.text,
    jobs: Jobs = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Parse records and print a summary of each (or the parsed model as JSON)."""
    status = EXIT_CLEAN
    worker = partial(parsed_text, as_json=format is ParseFormat.json)
    for file_status, text in map_files(worker, paths, jobs=jobs, scheduler=scheduler):
        status = max(status, file_status)
        typer.echo(text)
    raise typer.Exit(status)


@app.command()
@batch_command
def validate(
    paths: Paths,
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    format: Annotated[LintFormat, typer.Option("--format", "-f")] = LintFormat.text,
    info: Annotated[bool, typer.Option("--info", help="Also print info findings.")] = False,
    jobs: Jobs = None,
    quiet: Quiet = False,
    scheduler: SchedulerOpt = None,
) -> None:
    """Replay records and report every wrong score, placement, rack and order."""
    check = checker(tiles=tiles, board=board, end_rule=rules, challenge_bonus=challenge_bonus)
    reports = []
    progress = show_progress(quiet) and format is LintFormat.text
    for report in map_files(check, paths, jobs=jobs, progress=progress, scheduler=scheduler):
        reports.append(report)
        if format is LintFormat.json:
            typer.echo(json_line(report))
        elif format is LintFormat.github:
            for line in github_lines(report):
                typer.echo(line)
        else:
            for line in text_lines(report, show_info=info):
                typer.echo(line)
    if format is LintFormat.text:
        typer.echo(summary_line(reports))
        unreadable = [r.path for r in reports if r.unreadable]
        if unreadable:
            typer.echo("could not read: " + ", ".join(unreadable))
    if not reports:
        typer.echo("no game records found: name .gcg files, folders or globs", err=True)
    if any(r.unreadable for r in reports) or not reports:
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(EXIT_CLEAN if all(r.ok for r in reports) else EXIT_FINDINGS)


@app.command("rules")
def list_rules() -> None:
    """List every finding code with its severity and title."""
    for r in RULES.values():
        typer.echo(f"{r.code}  {r.severity:<7}  {r.title}")


@app.command()
def explain(code: Annotated[str, typer.Argument(help="A finding code such as S601.")]) -> None:
    """Explain one finding code."""
    try:
        r = rule(code)
    except KeyError:
        typer.echo(f"unknown code {code!r}; `gcgtools rules` lists them", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    typer.echo(f"{r.code} ({r.severity}): {r.title}\n\n{r.explanation}")


class BoardFormat(str, Enum):
    text = "text"
    cgp = "cgp"
    svg = "svg"
    png = "png"


@app.command()
def board(
    paths: Paths,
    move: Annotated[
        int | None,
        typer.Option(
            "--move", "-m", help="The board after event N (0: the empty board; default: the end)."
        ),
    ] = None,
    tiles: Tiles = None,
    board_layout: BoardOpt = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="Write a picture instead: board.svg or board.png ('-': SVG); with several "
            "records a folder, one picture each (--format svg or png).",
        ),
    ] = None,
    format: Annotated[
        BoardFormat,
        typer.Option(
            "--format",
            "-f",
            help="text, cgp (a Compact Game Position line), or svg/png: a picture (on "
            "standard output, or in -o DIR for several records).",
        ),
    ] = BoardFormat.text,
    jobs: Jobs = None,
    quiet: Quiet = False,
) -> None:
    """Print the board after event N (default: the end) with a legend, the move, the
    scores, each player's rack after it and the unseen tiles; with --format cgp, the
    position as CGP; with -o, draw it as an SVG or PNG picture (several records: one
    picture each in -o DIR)."""
    from gcgtools.model.paths import expand_paths

    picture = format in (BoardFormat.svg, BoardFormat.png)
    if output is not None or picture:
        from gcgtools.cli.annotate import draw_pictures

        fmt = format.value if picture else None
        draw_pictures(paths, move, output, 600, fmt, tiles, board_layout, jobs, quiet)
    files = list(expand_paths(paths))
    if not files:
        typer.echo("no game records found: name .gcg files, folders or globs", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    status = EXIT_CLEAN
    for number, file in enumerate(files):
        if len(files) > 1 and format is BoardFormat.text:
            typer.echo(("\n" if number else "") + f"==> {file} <==")
        status = max(status, _board_text(file, move, tiles, board_layout, format))
    raise typer.Exit(status)


def _board_text(
    file: str, move: int | None, tiles: str | None, layout: str | None, format: BoardFormat
) -> int:
    """Print the text board (or the CGP line) of one record after event ``move``; the
    exit status."""
    game = load_game(file)
    if game.unreadable:
        for f in game.findings:
            typer.echo(f.format(str(file)), err=True)
        return EXIT_UNREADABLE
    if move is not None and not 0 <= move <= len(game.events):
        typer.echo(f"{file}: --move must be between 0 and {len(game.events)}", err=True)
        return EXIT_UNREADABLE
    if format is BoardFormat.cgp:
        from gcgtools.movegen.record import record_cgp

        event = len(game.events) if move is None else move
        try:
            typer.echo(record_cgp(game, event, tiles=tiles, board=layout))
        except KeyError as exc:  # an unknown --tiles or --board name
            typer.echo(f"{file}: {exc.args[0] if exc.args else exc}", err=True)
            return EXIT_UNREADABLE
        return EXIT_CLEAN
    last = None
    try:
        for pos in replay(game, tiles=tiles, board=layout):
            last = pos
            if move is not None and pos.index + 1 == move:
                break
    except (KeyError, ValueError) as exc:  # an unknown --tiles/--board name, a bad file
        typer.echo(f"{file}: {exc.args[0] if exc.args else exc}", err=True)
        return EXIT_UNREADABLE
    assert last is not None
    typer.echo(position_text(game, last))
    return EXIT_CLEAN
