"""``gcgtools write``: the record written back, byte for byte or normalised.

PATH... as for every output command (:mod:`gcgtools.cli.outputs`); the job is
:class:`gcgtools.jobs.kinds.WriteJob`; one record is the batch of one.
"""

from __future__ import annotations

from typing import Annotated

import typer

from gcgtools.cli.common import Paths, app, batch_command
from gcgtools.cli.groups import (
    BATCH_GROUP,
    NO_BATCH,
    TILE_BOARD_GROUP,
    BatchOptions,
    option_groups,
)
from gcgtools.cli.outputs import InPlace, Output, render_single, run_batch, single, write
from gcgtools.jobs.kinds import WriteJob
from gcgtools.rules.options import NO_OPTIONS, RuleOptions


@app.command("write")
@batch_command
@option_groups(rule_set=TILE_BOARD_GROUP, batch=BATCH_GROUP)
def write_command(
    paths: Paths,
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
    rule_set: RuleOptions = NO_OPTIONS,
    batch: BatchOptions = NO_BATCH,
) -> None:
    """Write the record back: byte for byte (lossless), or --normalise'd to the canonical
    modern form (UTF-8, single spaces, '.' for played-through squares, upper-case
    coordinates, signed scores)."""
    file = single(paths, output, in_place)
    job = WriteJob(normalise, rule_set)
    if file is None:
        run_batch(job, paths, output, batch, "record")
    target, outcome = render_single(job, file, output, in_place)
    write(target, outcome.data)
