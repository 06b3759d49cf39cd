"""``gcgtools report``: a self-contained HTML page per game; with several records, a
static site (:mod:`gcgtools.jobs.site`).

One record: ``-o FILE`` or standard output; the job is
:class:`gcgtools.jobs.kinds.ReportJob`; one record is the batch of one.
"""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer

from gcgtools.batch.settings import DEFAULT_SETTINGS, AnalysisSettings
from gcgtools.cli.common import MAX_TOP, Paths, app, batch_command, cannot_write
from gcgtools.cli.groups import (
    BATCH_GROUP,
    JUDGE_GROUP,
    LEXICON_GROUP,
    NO_BATCH,
    RULE_GROUP,
    BatchOptions,
    checked_lexicon,
    option_groups,
)
from gcgtools.cli.outputs import fail, list_failed, render_single, single, to_stdout, write
from gcgtools.console import echo
from gcgtools.findings import EXIT_CLEAN
from gcgtools.jobs.judged import is_judged, with_analysis
from gcgtools.jobs.kinds import ReportJob
from gcgtools.lexicon.choice import NO_CHOICE, LexiconChoice
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.wording import plural


@app.command("report")
@batch_command(
    finished="records done",
    kept="the pages of those {done} are written (their analyses in the result cache); "
    "the index is not",
)
@option_groups(
    rule_set=RULE_GROUP,
    choice=LEXICON_GROUP,
    batch=BATCH_GROUP,
    judging=JUDGE_GROUP.only("depth", "seed", "sim_iterations", "sim_candidates", "winpct"),
)
def report_command(
    paths: Paths,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="The HTML file ('-' or nothing: standard output); with several records a "
            "folder, where a site is written: index.html and one page per game.",
        ),
    ] = None,
    title: Annotated[str, typer.Option(help="The site's title (default: N games).")] = "",
    rule_set: RuleOptions = NO_OPTIONS,
    choice: LexiconChoice = NO_CHOICE,
    top: Annotated[
        int, typer.Option("--top", min=1, max=MAX_TOP, help="Top moves shown per turn.")
    ] = 5,
    batch: BatchOptions = NO_BATCH,
    judging: AnalysisSettings = DEFAULT_SETTINGS,
) -> None:
    """Write a self-contained HTML page: the board after each event (slider and buttons),
    the player to move, their rack and the unseen tiles, the move list with notes and
    findings, and the score chart; with a lexicon (--lexicon, --lexica or
    $GCGTOOLS_LEXICA) the top moves beside each recorded one. With several records (-o
    SITE/): a static site, an index of the games (a table sorted by clicking its headers)
    with the archive charts, and one page per game. With --depth sim or full: mistake
    badges, the judged candidates, a win-probability chart and the Mistake Index."""
    checked_lexicon(choice, rule_set.tiles)
    chosen = choice if choice.wanted else None
    file = single(paths, output, can_in_place=False)
    job = ReportJob(rule_set, chosen, top, judging.depth.value, judging.judge)
    if file is None:
        assert output is not None
        write_report_site(job, paths, output, title, batch)
    if is_judged(job):  # judged by every worker, turn by turn; the page made here
        job = with_analysis(
            job, str(file), jobs=batch.jobs, progress=batch.progress, scheduler=batch.scheduler
        )
    target, outcome = render_single(job, file, output)
    write(target, outcome.data)
    if not to_stdout(target):
        echo(f"wrote {target} (1 game)", err=True)


def write_report_site(
    job: ReportJob,
    paths: list[str],
    folder: str,
    title: str,
    batch: BatchOptions,
) -> NoReturn:
    """``report`` of several records: the site in ``folder``; exits."""
    from gcgtools.jobs.site import write_site

    try:
        site = write_site(
            paths, folder, job=job, jobs=batch.jobs, progress=batch.progress,
            title=title, scheduler=batch.scheduler,
        )  # fmt: skip
    except OSError as exc:
        fail(cannot_write(exc, folder))
    echo(f"wrote a site of {plural(site.pages, 'game')} to {site.index}")
    list_failed([(o.path, o.reason or "failed") for o in site.failed])
    raise typer.Exit(max((o.status for o in site.outcomes), default=EXIT_CLEAN))
