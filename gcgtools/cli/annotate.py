"""``gcgtools annotate``: '#note gcgtools:' lines after each event of a record.

PATH... (files, folders, globs). One record: ``-o FILE``, or standard output without
``-o`` (or with ``-o -``); several (or ``-o`` naming a folder): one output per input in
``-o DIR``, or ``--in-place`` (:mod:`gcgtools.cli.outputs`). The job is
:class:`gcgtools.jobs.kinds.AnnotateJob`; one record is the batch of one.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from gcgtools.batch.settings import DEFAULT_SETTINGS, AnalysisSettings
from gcgtools.cli.common import Paths, app, batch_command
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
from gcgtools.cli.outputs import InPlace, Output, render_single, run_batch, single, write
from gcgtools.console import echo
from gcgtools.jobs.kinds import AnnotateJob
from gcgtools.lexicon.choice import NO_CHOICE, LexiconChoice
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.sources.paths import display_name


class Group(str, Enum):
    findings = "findings"
    words = "words"
    tracking = "tracking"
    analysis = "analysis"


@app.command("annotate")
@batch_command
@option_groups(rule_set=RULE_GROUP, choice=LEXICON_GROUP, batch=BATCH_GROUP, judging=JUDGE_GROUP)
def annotate_command(
    paths: Paths,
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
    rule_set: RuleOptions = NO_OPTIONS,
    choice: LexiconChoice = NO_CHOICE,
    batch: BatchOptions = NO_BATCH,
    judging: AnalysisSettings = DEFAULT_SETTINGS,
) -> None:
    """Add '#note gcgtools: ...' lines after each event: the play (O1 HAN(G)OVER), words
    and scores, findings, bingos, unseen tiles, and with a lexicon the analysis. Old
    gcgtools notes are replaced; everything else is kept byte for byte. With --depth sim
    or full the analysis notes also give the judgement: the judged best move, the win%
    lost, and the facts that separate the move played from the best ('why:' for the best
    move, 'but:' for the move played, 'also:' for neither)."""
    groups = [g.value for g in only] if only else None
    # --only analysis: the analysis is the whole job, so no lexicon at all is an error
    checked_lexicon(choice, rule_set.tiles, required=groups == ["analysis"])
    asked = groups is not None and "analysis" in groups
    chosen = choice if asked or choice.wanted else None
    file = single(paths, output, in_place)
    only = tuple(groups) if groups is not None else None
    job = AnnotateJob(only, rule_set, chosen, judging.depth.value, judging.judge)
    if file is None:
        run_batch(job, paths, output, batch, "record")
    target, outcome = render_single(job, file, output, in_place)
    used = (outcome.summary or {}).get("analysis")
    if used is not None:
        # which lexicon and leaves the notes come from, or why there are none
        echo(f"{display_name(str(file))}: {used}", err=True)
    write(target, outcome.data)
