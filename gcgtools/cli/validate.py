"""``gcgtools validate``: replay records and report every finding. A module of its own, so
that checking one record imports and builds no other command (start-up figures in
docs/install.md)."""

from __future__ import annotations

from itertools import chain
from typing import Annotated

import typer

from gcgtools.batch.checks import FileReport, check_game, checker
from gcgtools.batch.run import map_files
from gcgtools.cli.common import (
    JSONL_HELP,
    LintFormat,
    Paths,
    app,
    batch_command,
    read_stdin,
    report_unreadable,
)
from gcgtools.cli.groups import NO_BATCH, QUIET_FIRST_GROUP, RULE_GROUP, BatchOptions, option_groups
from gcgtools.console import echo
from gcgtools.findings import EXIT_CLEAN, EXIT_FINDINGS, EXIT_UNREADABLE, code_filter
from gcgtools.model.game import unreadable_reason
from gcgtools.render.lint import (
    github_lines,
    json_line,
    statistics_lines,
    summary_line,
    text_lines,
)
from gcgtools.render.lint import (
    statistics as count_findings,
)
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.sources.load import STDIN_NAME

Codes = Annotated[
    list[str] | None,
    typer.Option(
        metavar="CODES",
        help="Finding codes or prefixes (S601, S6, T), comma-separated or repeated.",
    ),
]


@app.command()
@batch_command
@option_groups(rule_set=RULE_GROUP, batch=QUIET_FIRST_GROUP)
def validate(
    paths: Paths,
    rule_set: RuleOptions = NO_OPTIONS,
    format: Annotated[
        LintFormat,
        typer.Option(
            "--format", "-f", help=f"text, github (Actions annotations), or json: {JSONL_HELP}"
        ),
    ] = LintFormat.text,
    select: Codes = None,
    ignore: Codes = None,
    statistics: Annotated[
        bool,
        typer.Option(
            "--statistics",
            help="Count the findings by code instead of listing them (JSON: one object "
            "per code: count, code, severity, title).",
        ),
    ] = False,
    info: Annotated[bool, typer.Option("--info", help="Also print info findings.")] = False,
    batch: BatchOptions = NO_BATCH,
) -> None:
    """Replay records and report every wrong score, placement, rack and order, one line
    per finding: path:line:col: CODE severity: message. '-' reads a record from standard
    input. Exit 0 clean, 1 errors found, 2 a file could not be read."""
    try:
        keep = code_filter(select, ignore)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--select/--ignore") from None
    files = [p for p in paths if p != "-"]
    reports: list[FileReport] = []
    first = [check_game(read_stdin(), STDIN_NAME, rule_set)] if "-" in paths else []
    progress = batch.progress
    stream = map_files(
        checker(rule_set), files, jobs=batch.jobs, progress=progress, scheduler=batch.scheduler
    )
    unreadable: dict[str, str] = {}
    for report in chain(first, stream):
        if report.unreadable:  # the reason, whatever codes are selected
            unreadable[report.path] = unreadable_reason(report.findings)
        report = report.only(keep)
        reports.append(report)
        if statistics:
            continue  # counted at the end
        if format is LintFormat.json:
            echo(json_line(report), json=True)
        elif format is LintFormat.github:
            for line in github_lines(report):
                echo(line)
        else:
            for text in text_lines(report, show_info=info):
                echo(text)
    if statistics and format is LintFormat.json:
        import json  # only here: a plain validate starts faster without it

        for row in count_findings(reports, show_info=info):
            echo(json.dumps(row, ensure_ascii=False), json=True)
    elif statistics:
        for text in statistics_lines(reports, show_info=info):
            echo(text)
    if format is LintFormat.text:
        echo(summary_line(reports))
    report_unreadable(unreadable)
    if not reports:
        echo("no game records found: name .gcg files, folders or globs", err=True)
    if any(r.unreadable for r in reports) or not reports:
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(EXIT_CLEAN if all(r.ok for r in reports) else EXIT_FINDINGS)
