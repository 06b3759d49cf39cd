"""``gcgtools fix``: the scores and cumulatives the replay proves wrong, corrected.

PATH... as for every output command (:mod:`gcgtools.cli.outputs`); the job is
:class:`gcgtools.jobs.kinds.FixJob`; one record is the batch of one.
"""

from __future__ import annotations

from typing import Annotated

import typer

from gcgtools.cli.common import Paths, app, batch_command
from gcgtools.cli.groups import BATCH_GROUP, NO_BATCH, RULE_GROUP, BatchOptions, option_groups
from gcgtools.cli.outputs import InPlace, Output, render_single, run_batch, single, to_stdout, write
from gcgtools.console import echo
from gcgtools.edit.fix import FORCE_OPTION
from gcgtools.findings import EXIT_CLEAN, EXIT_FINDINGS
from gcgtools.jobs.kinds import FixJob
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.wording import plural


@app.command("fix")
@batch_command
@option_groups(rule_set=RULE_GROUP, batch=BATCH_GROUP)
def fix_command(
    paths: Paths,
    output: Output = None,
    in_place: InPlace = False,
    rule_set: RuleOptions = NO_OPTIONS,
    batch: BatchOptions = NO_BATCH,
    even_if_misscored: Annotated[
        bool,
        typer.Option(
            FORCE_OPTION,
            help="Fix a record even when most of its plays misscore (S609: usually another "
            "board or tile values; give those with --board/--tiles instead).",
        ),
    ] = False,
) -> None:
    """Correct the scores and cumulatives the replay proves wrong, and print each change,
    then every finding the corrected record still has, and when a final score or the
    winner changes. A record whose plays misscore by one pattern (S609) is refused
    unless --even-if-misscored. Exit 1 when errors remain or a record was refused."""
    file = single(paths, output, in_place)
    job = FixJob(rule_set, even_if_misscored)
    if file is None:
        run_batch(job, paths, output, batch, "record")
    target, outcome = render_single(job, file, output, in_place, report_lines=False)
    summary = outcome.summary or {}
    if summary.get("refused"):
        for line in outcome.messages:
            echo(line, err=True)
        raise typer.Exit(EXIT_FINDINGS)
    write(target, outcome.data)
    # the record itself may be on standard output: the report then goes to standard error
    err = to_stdout(target)
    for line in outcome.messages:
        echo(line, err=err)
    changes, errors, warnings = summary["changes"], summary["unfixable"], summary["warnings"]
    echo(
        f"{plural(changes, 'line')} changed, {plural(errors, 'error')} and "
        f"{plural(warnings, 'warning')} left to fix by hand",
        err=err,
    )
    raise typer.Exit(EXIT_FINDINGS if errors else EXIT_CLEAN)
