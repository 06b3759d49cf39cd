"""Commands for reading and checking records: parse, validate, rules, explain, board."""

from __future__ import annotations

import json
from enum import Enum
from functools import partial
from pathlib import Path
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
    cannot_write,
    output_is_input,
)
from gcgtools.findings import RULES, rule
from gcgtools.model.load import load_game
from gcgtools.model.paths import display_name
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


@app.command()
def board(
    file: Annotated[Path, typer.Argument(help="A .gcg file.")],
    move: Annotated[
        int | None,
        typer.Option("--move", "-m", min=0, help="Show the board after event N (1-based)."),
    ] = None,
    tiles: Tiles = None,
    board_layout: BoardOpt = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output", "-o", help="Write a picture instead: board.svg or board.png ('-': SVG)."
        ),
    ] = None,
    format: Annotated[
        BoardFormat,
        typer.Option("--format", "-f", help="text, or cgp (a Compact Game Position line)."),
    ] = BoardFormat.text,
) -> None:
    """Print the board after event N (default: the end), with scores and racks; with -o,
    draw it as an SVG or PNG picture; with --format cgp, print the position as CGP."""
    game = load_game(file)
    if game.unreadable:
        for f in game.findings:
            typer.echo(f.format(display_name(str(file))), err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    if move is not None and not 0 <= move <= len(game.events):
        typer.echo(f"--move must be between 0 and {len(game.events)}", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    if format is BoardFormat.cgp:
        from gcgtools.movegen.record import record_cgp

        event = len(game.events) if move is None else move
        try:
            typer.echo(record_cgp(game, event, tiles=tiles, board=board_layout))
        except KeyError as exc:  # an unknown --tiles or --board name
            typer.echo(f"{file}: {exc.args[0] if exc.args else exc}", err=True)
            raise typer.Exit(EXIT_UNREADABLE) from None
        return
    if output is not None:
        from gcgtools.outputs.files import write_output
        from gcgtools.outputs.svg import picture, picture_format

        if output_is_input(output, [str(file)]) is not None:
            shown = display_name(str(file))
            typer.echo(
                f"{display_name(output)}: cannot write: it is the input file {shown}", err=True
            )
            raise typer.Exit(EXIT_UNREADABLE)
        try:
            fmt = picture_format(output)
            data = picture(game, move, fmt=fmt, tiles=tiles, board=board_layout)
        except (KeyError, ValueError) as exc:
            typer.echo(f"{display_name(str(file))}: {exc.args[-1] if exc.args else exc}", err=True)
            raise typer.Exit(EXIT_UNREADABLE) from None
        try:
            write_output(output, data)
        except OSError as exc:
            typer.echo(cannot_write(exc, output), err=True)
            raise typer.Exit(EXIT_UNREADABLE) from None
        return
    last = None
    try:
        for pos in replay(game, tiles=tiles, board=board_layout):
            last = pos
            if move is not None and pos.index + 1 == move:
                break
    except (KeyError, ValueError) as exc:  # an unknown --tiles/--board name, a bad file
        typer.echo(f"{display_name(str(file))}: {exc.args[0] if exc.args else exc}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    assert last is not None
    typer.echo(position_text(game, last))
