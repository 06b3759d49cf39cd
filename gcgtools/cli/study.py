"""``gcgtools study``: a player's mistakes in an archive, as a quiz (HTML) or puzzles (JSON)."""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from gcgtools.batch.settings import DEFAULT_SETTINGS, AnalysisSettings
from gcgtools.cli.common import NoCache, Paths, app, batch_command, report_unreadable
from gcgtools.cli.groups import (
    BATCH_GROUP,
    DEEP_JUDGE_GROUP,
    LEXICON_GROUP,
    NO_BATCH,
    RULE_GROUP,
    BatchOptions,
    checked_lexicon,
    option_groups,
)
from gcgtools.cli.outputs import to_stdout, write
from gcgtools.console import echo
from gcgtools.findings import EXIT_CLEAN, EXIT_UNREADABLE
from gcgtools.lexicon.choice import NO_CHOICE, LexiconChoice
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.wording import plural

if TYPE_CHECKING:
    from gcgtools.analysis.puzzles import Puzzle
    from gcgtools.jobs.study import PuzzleFilter

#: the tags --tags takes (gcgtools.analysis.puzzles.Tag, without importing it for --help)
TAG_NAMES = ("bingo", "only-bingo", "equity", "exchange", "preendgame", "endgame", "phony")


class StudyFormat(str, Enum):
    html = "html"
    json = "json"


class MistakeChoice(str, Enum):
    small = "small"
    medium = "medium"
    large = "large"


def _tags(value: str | None) -> str | None:
    """``--tags bingo,endgame``: each a known tag, else a usage error naming them."""
    for name in (value or "").split(","):
        if name.strip() and name.strip() not in TAG_NAMES:
            raise typer.BadParameter(f"{name.strip()!r} is not a tag: {', '.join(TAG_NAMES)}")
    return value


@app.command("study")
@batch_command(
    finished="records studied",
    kept="the puzzles of those {done} are written",
    unit="games",
)
@option_groups(
    choice=LEXICON_GROUP, rule_set=RULE_GROUP, batch=BATCH_GROUP, judging=DEEP_JUDGE_GROUP
)
def study_command(
    paths: Paths,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", help="The file to write ('-' or nothing: standard output)."),
    ] = None,
    format: Annotated[
        StudyFormat,
        typer.Option(
            "--format",
            "-f",
            help="html: a self-contained quiz page; json: one line per puzzle (path, event, "
            "player, cgp, rack, answer, played, win_pct_lost, tags, facts...).",
        ),
    ] = StudyFormat.html,
    player: Annotated[
        str | None,
        typer.Option("--player", metavar="NICK", help="Only this player's moves (any case)."),
    ] = None,
    min_mistake: Annotated[
        MistakeChoice,
        typer.Option("--min-mistake", help="The smallest graded mistake that makes a puzzle."),
    ] = MistakeChoice.small,
    tags: Annotated[
        str | None,
        typer.Option(
            "--tags",
            metavar="TAG,...",
            callback=_tags,
            help="Only puzzles with every one of these tags: " + ", ".join(TAG_NAMES) + ".",
        ),
    ] = None,
    title: Annotated[str, typer.Option(help="The quiz page's title.")] = "Study set",
    choice: LexiconChoice = NO_CHOICE,
    rule_set: RuleOptions = NO_OPTIONS,
    no_cache: NoCache = False,
    batch: BatchOptions = NO_BATCH,
    judging: AnalysisSettings = DEFAULT_SETTINGS,
) -> None:
    """Turn a player's mistakes in judged records into puzzles: a self-contained HTML quiz,
    or one JSON line per puzzle. A puzzle is a turn whose move was graded a mistake: the
    position, the rack, the best move as the answer, the move played, the win% lost, tags
    (bingo, only-bingo, equity, exchange, preendgame, endgame, phony) and the coach's
    facts. Every record is judged (--depth sim, the default, or full; the result cache
    keeps the judgements for analyse and report). The quiz shows each position and opens
    the answer under it; it works offline and on a phone. Needs a lexicon: --lexicon
    FILE, or --lexica DIR / $GCGTOOLS_LEXICA."""
    from gcgtools.jobs.study import PuzzleFilter

    checked_lexicon(choice, rule_set.tiles, required=True)
    settings = replace(judging, cache=not no_cache, options=rule_set, progress=batch.progress)
    wanted = PuzzleFilter(player, _mistake(min_mistake), _tag_values(tags))
    puzzles: list[Puzzle] = []
    unreadable: dict[str, str] = {}
    try:
        games = _collect(paths, choice, settings, wanted, batch, puzzles, unreadable)
    except KeyboardInterrupt:
        _write(output, format, puzzles, title)
        raise
    _write(output, format, puzzles, title)
    _said(output, format, puzzles, games)
    if unreadable:
        report_unreadable(unreadable)
        raise typer.Exit(EXIT_UNREADABLE)
    if games == 0:
        echo("no game records found: name .gcg files, folders or globs", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(EXIT_CLEAN)


def _collect(
    paths: list[str],
    choice: LexiconChoice,
    settings: AnalysisSettings,
    wanted: PuzzleFilter,
    batch: BatchOptions,
    puzzles: list[Puzzle],
    unreadable: dict[str, str],
) -> int:
    """Adds each record's puzzles to ``puzzles`` as it is judged (kept if interrupted) and
    the unreadable ones to ``unreadable``; answers how many records there were."""
    from gcgtools.jobs.study import study_records

    games = 0
    for found in study_records(
        paths, lexicon=choice, settings=settings, wanted=wanted, jobs=batch.jobs,
        scheduler=batch.scheduler,
    ):  # fmt: skip
        games += 1
        if found.analysis.unreadable:
            unreadable[found.analysis.path] = found.analysis.reason or "unreadable"
        puzzles.extend(found.puzzles)
    return games


def _mistake(choice: MistakeChoice) -> object:
    from gcgtools.analysis.grading import Mistake

    return Mistake(choice.value)


def _tag_values(value: str | None) -> tuple[object, ...]:
    from gcgtools.analysis.puzzles import Tag

    return tuple(Tag(name.strip()) for name in (value or "").split(",") if name.strip())


def _write(output: str | None, format: StudyFormat, puzzles: list[Puzzle], title: str) -> None:
    """The quiz page, or the JSON lines, to ``output`` (atomically) or standard output."""
    if format is StudyFormat.json:
        import json

        text = "".join(json.dumps(p.to_dict(), ensure_ascii=False) + "\n" for p in puzzles)
    else:
        from gcgtools.jobs.study import study_page

        text = study_page(puzzles, title=title)
    write(output, text.encode("utf-8"))


def _said(output: str | None, format: StudyFormat, puzzles: list[Puzzle], games: int) -> None:
    what = f"{plural(len(puzzles), 'puzzle')} from {plural(games, 'game')}"
    if not to_stdout(output):
        echo(f"wrote {output} ({what})", err=True)
    elif format is StudyFormat.html:
        echo(what, err=True)
