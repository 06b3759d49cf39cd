"""Commands for reading records and the finding codes: parse, rules, explain, board
(``validate`` has a module of its own, :mod:`gcgtools.cli.validate`, so that checking a
record loads no more than it needs)."""

from __future__ import annotations

import json
from enum import Enum
from functools import partial
from itertools import chain
from typing import Annotated

import typer

from gcgtools.batch.run import map_files, map_window
from gcgtools.cli.common import (
    JSONL_HELP,
    Move,
    ParseFormat,
    Paths,
    app,
    batch_command,
    read_stdin,
    report_unreadable,
)
from gcgtools.cli.groups import (
    BATCH_GROUP,
    JOBS_GROUP,
    NO_BATCH,
    TILE_BOARD_GROUP,
    BatchOptions,
    option_groups,
)
from gcgtools.console import echo, echo_pieces
from gcgtools.findings import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    EXIT_UNREADABLE,
    RULES,
    cannot_read,
    rule,
)
from gcgtools.model.game import Game, unreadable_reason
from gcgtools.render.lint import (
    parse_summary,
)
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import display_name


def _parsed(game: Game, as_json: bool) -> tuple[int, list[str], tuple[str, str] | None]:
    """What ``parse`` prints for ``game``, its exit status (unreadable; some lines could not
    be read; clean) and, when it could not be read, its name and why."""
    name = game.path or "<gcg>"
    if game.unreadable:
        status = EXIT_UNREADABLE
    elif any(cannot_read(f) for f in game.findings):
        status = EXIT_FINDINGS  # some lines could not be read
    else:
        status = EXIT_CLEAN
    why = (name, unreadable_reason(game.findings)) if game.unreadable else None
    if as_json:  # in pieces: a huge record's JSON is never built as one string
        return status, list(game.json_chunks()), why
    return status, ["\n".join(parse_summary(game))], why


def parsed_text(path: str, as_json: bool = False) -> tuple[int, list[str], tuple[str, str] | None]:
    """Worker of ``parse``: :func:`_parsed` of the file."""
    return _parsed(load_game(path), as_json)


@app.command()
@batch_command
@option_groups(batch=JOBS_GROUP)
def parse(
    paths: Paths,
    format: Annotated[
        ParseFormat, typer.Option("--format", "-f", help=f"text, or json: {JSONL_HELP}")
    ] = ParseFormat.text,
    batch: BatchOptions = NO_BATCH,
) -> None:
    """Parse records and print a summary of each (or the parsed model as JSON). '-' reads
    a record from standard input. Exit 0 clean, 1 some lines could not be read, 2 a file
    could not be read at all."""
    as_json = format is ParseFormat.json
    first = [_parsed(read_stdin(), as_json)] if "-" in paths else []
    files = [p for p in paths if p != "-"]
    worker = partial(parsed_text, as_json=as_json)
    status = EXIT_CLEAN
    reasons: dict[str, str] = {}
    for file_status, text, unreadable in chain(
        first, map_files(worker, files, jobs=batch.jobs, scheduler=batch.scheduler)
    ):
        status = max(status, file_status)
        if unreadable is not None:
            reasons.update([unreadable])
        echo_pieces(text, json=as_json)
    report_unreadable(reasons)
    raise typer.Exit(status)


@app.command("rules")
def list_rules(
    format: Annotated[
        ParseFormat, typer.Option("--format", "-f", help=f"text, or json: {JSONL_HELP}")
    ] = ParseFormat.text,
) -> None:
    """List every finding code with its severity and title (JSON: also the explanation,
    an example and how to fix it)."""
    for r in RULES.values():
        if format is ParseFormat.json:
            echo(json.dumps(r.to_dict(), ensure_ascii=False), json=True)
        else:
            echo(f"{r.code}  {r.severity:<7}  {r.title}")


@app.command()
def explain(code: Annotated[str, typer.Argument(help="A finding code such as S601.")]) -> None:
    """Explain one finding code: what it means, an example record line, how to fix it."""
    try:
        r = rule(code)
    except KeyError:
        echo(f"unknown code {code!r}; `gcgtools rules` lists them", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    from textwrap import fill

    echo(f"{r.code} ({r.severity}): {r.title}\n\n{fill(r.explanation, 79, break_on_hyphens=False)}")
    if r.example:
        echo("\nExample:\n" + "\n".join(f"    {line}" for line in r.example.splitlines()))
    if r.fix:
        echo(
            "\nHow to fix it:\n"
            + fill(
                r.fix, 79, initial_indent="    ", subsequent_indent="    ", break_on_hyphens=False
            )
        )


class BoardFormat(str, Enum):
    text = "text"
    cgp = "cgp"
    svg = "svg"
    png = "png"


@app.command()
@batch_command
@option_groups(rule_set=TILE_BOARD_GROUP, batch=BATCH_GROUP)
def board(
    paths: Paths,
    move: Move = None,
    rule_set: RuleOptions = NO_OPTIONS,
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
    batch: BatchOptions = NO_BATCH,
) -> None:
    """Print the board after event N (default: the last) with a legend, the move, the
    scores, each player's rack after it and the unseen tiles; with --format cgp, the
    position as CGP; with -o, draw it as an SVG or PNG picture (several records: one
    picture each in -o DIR)."""
    from gcgtools.render.textboard import board_text
    from gcgtools.sources.paths import expand_paths

    picture = format in (BoardFormat.svg, BoardFormat.png)
    if output is not None or picture:
        from gcgtools.cli.picture import draw_pictures

        fmt = format.value if picture else None
        draw_pictures(paths, move, output, 600, fmt, rule_set, batch)
    files = list(expand_paths(paths))
    if not files:
        echo("no game records found: name .gcg files, folders or globs", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    status = EXIT_CLEAN
    cgp = format is BoardFormat.cgp
    worker = partial(board_text, move=move, options=rule_set, cgp=cgp)
    shown = map_window(worker, files, jobs=batch.jobs, scheduler=batch.scheduler)
    for number, (file, view) in enumerate(zip(files, shown, strict=True)):
        if len(files) > 1 and not cgp:
            echo(("\n" if number else "") + f"==> {display_name(file)} <==")
        if view.unreadable is not None:
            report_unreadable({file: view.unreadable})
        if view.events is not None:  # the event asked for is out of range
            echo(f"{display_name(file)}: --move must be between 0 and {view.events}", err=True)
        elif view.problem is not None:
            echo(view.problem, err=True)
        if view.text is None:
            status = EXIT_UNREADABLE
        else:
            echo(view.text)
    raise typer.Exit(status)
