"""Commands that write records and pictures: annotate, fix, write, report, picture.

None of them changes its input file unless ``--in-place`` is given; without ``-o`` (or with
``-o -``) the result goes to standard output. Files are written atomically.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from gcgtools.analysis.lexicons import LexiconChoice
from gcgtools.cli.analyse import LeavesOpt, LexicaOpt, LexiconOpt
from gcgtools.cli.common import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    EXIT_UNREADABLE,
    BoardOpt,
    Bonus,
    RulesOpt,
    Tiles,
    app,
    cannot_write,
    output_is_input,
)
from gcgtools.model.game import Game
from gcgtools.model.load import load_game
from gcgtools.model.paths import display_name
from gcgtools.outputs import annotate as annotating
from gcgtools.outputs.files import STDOUT, write_output
from gcgtools.outputs.fix import fix_record
from gcgtools.outputs.html import game_report_html
from gcgtools.outputs.svg import picture, picture_format
from gcgtools.outputs.writer import write_gcg


class Group(str, Enum):
    findings = "findings"
    words = "words"
    tracking = "tracking"
    analysis = "analysis"


FileArg = Annotated[Path, typer.Argument(help="A .gcg file.")]
Output = Annotated[
    str | None,
    typer.Option("--output", "-o", help="Output file; '-' or nothing: standard output."),
]
InPlace = Annotated[
    bool, typer.Option("--in-place", help="Replace the input file (atomically) with the result.")
]


def _fail(message: str) -> NoReturn:
    typer.echo(message, err=True)
    raise typer.Exit(EXIT_UNREADABLE)


def _load(file: Path, *, report_lines: bool = True) -> Game:
    """The parsed record; one that cannot be read at all prints its findings and exits
    with 2. Lines that could not be read are reported on standard error (unless
    ``report_lines`` is false) and the command goes on with the rest of the record."""
    game = load_game(file)
    if game.unreadable:
        for f in game.findings:
            if f.severity == "error" and f.code[0] in "FP":
                typer.echo(f.format(display_name(str(file))), err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    if report_lines:
        for f in game.findings:
            if f.severity == "error" and f.code[0] == "P":
                typer.echo(
                    f"{f.format(display_name(str(file)))} (the rest of the record is used)",
                    err=True,
                )
    return game


def _target(file: Path, output: str | None, in_place: bool | None) -> str | None:
    """Where the result goes: the input itself with ``--in-place`` (None: the command has
    no such option), else ``output``; an output that is the input file is refused."""
    if in_place and output is not None:
        _fail("use either -o/--output or --in-place, not both")
    if in_place:
        return str(file)
    if output_is_input(output, [str(file)]) is not None:
        hint = "; use --in-place to replace it" if in_place is not None else ""
        shown = display_name(str(file))
        _fail(f"{display_name(output)}: cannot write: it is the input file {shown}{hint}")
    return output


def _write(target: str | None, data: bytes) -> None:
    try:
        write_output(target, data)
    except OSError as exc:
        _fail(cannot_write(exc, target))


@app.command("annotate")
def annotate_command(
    file: FileArg,
    output: Output = None,
    only: Annotated[
        list[Group] | None,
        typer.Option(
            "--only",
            help="Only these notes (repeatable): findings, words, tracking or analysis "
            "(best move, equity lost, phonies, missed bingo: needs a lexicon).",
        ),
    ] = None,
    in_place: InPlace = False,
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    lexicon: LexiconOpt = None,
    lexica: LexicaOpt = None,
    leaves: LeavesOpt = None,
) -> None:
    """Add '#note gcgtools: ...' lines after each event: words and scores, findings, bingos,
    unseen tiles, and with a lexicon the analysis. Old gcgtools notes are replaced;
    everything else is kept byte for byte."""
    game = _load(file)
    target = _target(file, output, in_place)
    groups = [g.value for g in only] if only else None
    choice = LexiconChoice.of(lexicon, lexica, leaves)
    asked = groups is not None and "analysis" in groups
    try:
        data, analysis = annotating.annotate_analysed(
            game, groups, tiles=tiles, board=board, end_rule=rules,
            challenge_bonus=challenge_bonus,
            lexicon=choice if asked or choice.wanted else None,
        )  # fmt: skip
    except (KeyError, ValueError) as exc:
        _fail(f"{display_name(str(file))}: {exc.args[0] if exc.args else exc}")
    if analysis is not None:
        # which lexicon and leaves the notes come from, or why there are none
        typer.echo(f"{display_name(str(file))}: {analysis.used}", err=True)
    _write(target, data)


@app.command("fix")
def fix_command(
    file: FileArg,
    output: Output = None,
    in_place: InPlace = False,
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
) -> None:
    """Correct the scores and cumulatives the replay proves wrong, and print each change,
    then every finding the corrected record still has. Exit 1 when errors remain."""
    game = _load(file, report_lines=False)
    target = _target(file, output, in_place)
    try:
        result = fix_record(
            game, tiles=tiles, board=board, end_rule=rules, challenge_bonus=challenge_bonus
        )
    except (KeyError, ValueError) as exc:
        _fail(f"{display_name(str(file))}: {exc.args[0] if exc.args else exc}")
    _write(target, result.data)
    # the record itself may be on standard output: the report then goes to standard error
    err = target is None or target == STDOUT
    for c in result.changes:
        typer.echo(f"{display_name(str(file))}:{c.line}: {c.reason}", err=err)
        typer.echo(f"  - {c.old}", err=err)
        typer.echo(f"  + {c.new}", err=err)
    left = sorted([*result.unfixable, *result.warnings], key=lambda f: (f.line, f.code))
    for f in left:
        typer.echo(f"{f.format(display_name(str(file)))} (not fixed)", err=err)
    errors, warnings = len(result.unfixable), len(result.warnings)
    typer.echo(
        f"{len(result.changes)} line{'s' * (len(result.changes) != 1)} changed, "
        f"{errors} error{'s' * (errors != 1)} and {warnings} warning{'s' * (warnings != 1)} "
        "left to fix by hand",
        err=err,
    )
    raise typer.Exit(EXIT_FINDINGS if result.unfixable else EXIT_CLEAN)


@app.command("write")
def write_command(
    file: FileArg,
    output: Output = None,
    normalise: Annotated[
        bool,
        typer.Option(
            "--normalise",
            "--normalize",
            help="Write the canonical modern form instead of the bytes as read.",
        ),
    ] = False,
    in_place: InPlace = False,
    tiles: Tiles = None,
    board: BoardOpt = None,
) -> None:
    """Write the record back: byte for byte (lossless), or --normalise'd to the canonical
    modern form (UTF-8, single spaces, '.' for played-through squares, upper-case
    coordinates, signed scores)."""
    game = _load(file)
    target = _target(file, output, in_place)
    try:
        data = write_gcg(game, normalise=normalise, tiles=tiles, board=board)
    except (KeyError, ValueError) as exc:
        _fail(f"{display_name(str(file))}: {exc.args[0] if exc.args else exc}")
    _write(target, data)


@app.command("report")
def report_command(
    file: FileArg,
    output: Output = None,
    tiles: Tiles = None,
    board: BoardOpt = None,
    lexicon: LexiconOpt = None,
    lexica: LexicaOpt = None,
    leaves: LeavesOpt = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Top moves shown per turn.")] = 5,
) -> None:
    """Write a self-contained HTML page: the board after each move (slider and buttons),
    the move list with notes and findings, and the score chart; with a lexicon (--lexicon,
    --lexica or $GCGTOOLS_LEXICA) the top moves beside each recorded one."""
    game = _load(file)
    choice = LexiconChoice.of(lexicon, lexica, leaves)
    output = _target(file, output, None)
    try:
        html = game_report_html(
            game, tiles=tiles, board=board, lexicon=choice if choice.wanted else None, top=top
        )
    except (KeyError, ValueError) as exc:
        _fail(f"{display_name(str(file))}: {exc.args[0] if exc.args else exc}")
    _write(output, html.encode("utf-8"))


@app.command("picture")
def picture_command(
    file: FileArg,
    move: Annotated[
        int | None,
        typer.Option(
            "--move", "-m", min=0, help="The board after event N (1-based; default: the end)."
        ),
    ] = None,
    output: Output = None,
    size: Annotated[int, typer.Option(help="Width in pixels.", min=100, max=4000)] = 600,
    tiles: Tiles = None,
    board: BoardOpt = None,
) -> None:
    """Draw the board after a move: SVG, or PNG when the output file ends in .png."""
    game = _load(file)
    output = _target(file, output, None)
    try:
        fmt = picture_format(output)
        data = picture(game, move, fmt=fmt, tiles=tiles, board=board, size=size)
    except (KeyError, ValueError) as exc:
        _fail(f"{display_name(str(file))}: {exc.args[0] if exc.args else exc}")
    _write(output, data)
