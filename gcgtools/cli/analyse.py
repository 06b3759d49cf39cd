"""``gcgtools analyse``: phonies, best moves, equity lost and missed bingos per turn."""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from gcgtools.batch.settings import DEFAULT_SETTINGS, AnalysisSettings
from gcgtools.cli.common import (
    MAX_TOP,
    NoCache,
    Paths,
    app,
    batch_command,
    report_unreadable,
)
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
from gcgtools.console import echo
from gcgtools.findings import EXIT_CLEAN, EXIT_UNREADABLE
from gcgtools.lexicon.choice import NO_CHOICE, LexiconChoice
from gcgtools.rules.options import NO_OPTIONS, RuleOptions

if TYPE_CHECKING:
    from collections.abc import Iterable

    from gcgtools.analysis.analyse import RecordAnalysis


class AnalyseFormat(str, Enum):
    text = "text"
    json = "json"


@app.command("analyse")
@batch_command(
    finished="records analysed",
    kept="results kept for those {done} (printed, and in the result cache)",
    unit="games",
)
@option_groups(choice=LEXICON_GROUP, rule_set=RULE_GROUP, batch=BATCH_GROUP, judging=JUDGE_GROUP)
def analyse_command(
    paths: Paths,
    choice: LexiconChoice = NO_CHOICE,
    top: Annotated[
        int | None,
        typer.Option(
            "--top",
            min=0,
            max=MAX_TOP,
            metavar="N",
            help="List the N best moves (score, leave, equity) under each turn of the text "
            "table, and keep N in the JSON. Default: the text shows the best move only, the "
            "JSON keeps 5.",
        ),
    ] = None,
    format: Annotated[AnalyseFormat, typer.Option("--format", "-f")] = AnalyseFormat.text,
    why: Annotated[
        bool,
        typer.Option(
            "--why",
            help="With --depth sim or full: under each judged turn of the text table, the "
            "facts that separate the move played from the best, one line each (the JSON "
            "always has them, as 'facts').",
        ),
    ] = False,
    rule_set: RuleOptions = NO_OPTIONS,
    no_cache: NoCache = False,
    batch: BatchOptions = NO_BATCH,
    judging: AnalysisSettings = DEFAULT_SETTINGS,
) -> None:
    """Check every play's words against a lexicon and, for every turn whose full rack is
    known, compare the move with the best moves: equity, equity lost, rank, missed bingos.
    Needs a lexicon: --lexicon FILE, or --lexica DIR / $GCGTOOLS_LEXICA holding the
    records' #lexicon. The text says which lexicon and leaves were used once, then a table
    per record that fits 80 columns. With --depth sim or full every such turn is also
    judged by win% (simulation, pre-endgame) or spread (endgame) and graded, with a Mistake
    Index per player."""
    from gcgtools.analysis.analyse import DEFAULT_TOP
    from gcgtools.batch.analyses import analyse_paths

    checked_lexicon(choice, rule_set.tiles, required=True)
    settings = replace(
        judging,
        top=DEFAULT_TOP if top is None else top,
        cache=not no_cache,
        options=rule_set,
        progress=batch.progress and format is AnalyseFormat.text,
    )
    results = analyse_paths(
        paths, lexicon=choice, jobs=batch.jobs, scheduler=batch.scheduler, settings=settings,
    )  # fmt: skip
    count, unreadable = _print_analyses(results, format, alternatives=top is not None, why=why)
    if unreadable:
        report_unreadable(dict(unreadable))
        raise typer.Exit(EXIT_UNREADABLE)
    if count == 0:
        echo("no game records found: name .gcg files, folders or globs", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(EXIT_CLEAN)


def _print_analyses(
    results: Iterable[RecordAnalysis], format: AnalyseFormat, *, alternatives: bool,
    why: bool = False,
) -> tuple[int, list[tuple[str, str]]]:  # fmt: skip
    """Print each result (JSON Lines, or a text table per record, the lexicon lines said
    once per run and again only when they change); how many records there were, and the
    unreadable ones with the reason."""
    from gcgtools.render.analysis import analysis_json, analysis_lines, used_lines
    from gcgtools.render.judgement import judgement_lines

    unreadable: list[tuple[str, str]] = []
    count = 0
    said: list[str] | None = None  # the lexicon lines last printed
    for result in results:
        count += 1
        if result.unreadable:
            unreadable.append((result.path, result.reason or "unreadable"))
        if format is AnalyseFormat.json:
            echo(analysis_json(result), json=True)
        elif not result.unreadable:
            used = used_lines(result)
            lines = analysis_lines(result, used=False, alternatives=alternatives)
            lines += judgement_lines(result, why=why)
            if used != said:  # said once per run, again only when it changes
                lines = [*used, "", *lines]
                said = used
            elif count > 1:
                lines.insert(0, "")
            echo("\n".join(lines))
    return count, unreadable
