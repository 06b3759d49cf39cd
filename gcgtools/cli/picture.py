"""``gcgtools picture`` (and ``board -o``): the board after an event as SVG or PNG.

PATH... as for every output command (:mod:`gcgtools.cli.outputs`); the job is
:class:`gcgtools.jobs.kinds.PictureJob`; one record is the batch of one.
"""

from __future__ import annotations

import sys
from typing import Annotated, NoReturn

import typer

from gcgtools.cli.common import Move, Paths, app, batch_command
from gcgtools.cli.groups import (
    BATCH_GROUP,
    NO_BATCH,
    TILE_BOARD_GROUP,
    BatchOptions,
    option_groups,
)
from gcgtools.cli.outputs import Output, fail, render_single, run_batch, single, to_stdout, write
from gcgtools.console import echo, is_terminal
from gcgtools.findings import EXIT_CLEAN
from gcgtools.jobs.kinds import PictureJob
from gcgtools.rules.options import NO_OPTIONS, RuleOptions

Size = Annotated[int, typer.Option(help="Width in pixels.", min=100, max=4000)]
Format = Annotated[
    str | None,
    typer.Option("--format", "-f", help="svg or png, for a folder of pictures (default: svg)."),
]


@app.command("picture")
@batch_command
@option_groups(rule_set=TILE_BOARD_GROUP, batch=BATCH_GROUP)
def picture_command(
    paths: Paths,
    move: Move = None,
    output: Output = None,
    size: Size = 600,
    format: Format = None,
    rule_set: RuleOptions = NO_OPTIONS,
    batch: BatchOptions = NO_BATCH,
) -> None:
    """Draw the board after an event: SVG, or PNG when the output file ends in .png. Under
    the board: the scores, the last move, the player to move and their rack, and the
    unseen tiles. Several records: one picture each in -o DIR (--format svg or png)."""
    draw_pictures(paths, move, output, size, format, rule_set, batch)


def draw_pictures(
    paths: list[str],
    move: int | None,
    output: str | None,
    size: int = 600,
    fmt: str | None = None,
    rule_set: RuleOptions = NO_OPTIONS,
    batch: BatchOptions = NO_BATCH,
) -> NoReturn:
    """``picture`` and ``board -o``: one picture, or one per record in a folder (on the
    Dask cluster ``batch.scheduler`` names, if any); exits."""
    if fmt is not None and fmt not in ("svg", "png"):
        fail(f"unknown picture format {fmt!r}: use svg or png")
    file = single(paths, output, can_in_place=False)
    if file is None:
        run_batch(PictureJob(move, size, fmt or "svg", rule_set), paths, output, batch, "picture")
    if to_stdout(output) and fmt == "png" and is_terminal(sys.stdout):
        fail(
            "picture --format png: a PNG is binary, not written to a terminal; "
            "give -o FILE.png, or redirect standard output to a file"
        )
    # on standard output the format asked for; in a file, the one its name says
    job = PictureJob(move, size, fmt if to_stdout(output) else None, rule_set)
    target, outcome = render_single(job, file, output)
    write(target, outcome.data)
    if not to_stdout(output):
        when = "the last event" if move is None else f"event {move}"
        echo(f"wrote the board after {when} of {file} to {output}")
    raise typer.Exit(EXIT_CLEAN)
