"""Commands that write records and pictures: annotate, fix, write, report, picture.

Each takes PATH... (files, folders, globs). One record: ``-o FILE``, or standard output
without ``-o`` (or with ``-o -``). Several records (or ``-o`` naming a folder: an existing
one, or a name ending in ``/``): one output per input in ``-o DIR``, named after it, or
``--in-place``; they run in parallel with the progress bar and go on past a bad file,
listed at the end. ``report`` with a folder writes a static site. None of them changes its
input file unless ``--in-place`` is given. Files are written atomically. Each command
builds its typed job (:mod:`gcgtools.jobs.kinds`) once; one record is the batch of one
(:mod:`gcgtools.cli.outputs`).
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Annotated, NoReturn

import typer

from gcgtools.batch.run import show_progress
from gcgtools.cli.analyse import (
    DepthChoice,
    DepthOpt,
    LeavesOpt,
    LexicaOpt,
    LexiconOpt,
    SeedOpt,
    SimCandidates,
    SimIterations,
    lexicon_choice,
)
from gcgtools.cli.common import (
    BATCH_GROUP,
    EXIT_CLEAN,
    EXIT_FINDINGS,
    NO_BATCH,
    RULE_GROUP,
    TILE_BOARD_GROUP,
    BatchOptions,
    Move,
    Paths,
    app,
    batch_command,
    cannot_write,
    option_groups,
)
from gcgtools.cli.outputs import (
    InPlace,
    Output,
    fail,
    list_failed,
    load,
    render_one,
    run_batch,
    single,
    target_of,
    to_stdout,
    write,
)
from gcgtools.console import echo, is_terminal
from gcgtools.edit.fix import FORCE_OPTION
from gcgtools.jobs.kinds import AnnotateJob, FixJob, PictureJob, ReportJob, WriteJob
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.sources.paths import display_name
from gcgtools.wording import plural


class Group(str, Enum):
    findings = "findings"
    words = "words"
    tracking = "tracking"
    analysis = "analysis"


@app.command("annotate")
@batch_command
@option_groups(rule_set=RULE_GROUP, batch=BATCH_GROUP)
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
    lexicon: LexiconOpt = None,
    lexica: LexicaOpt = None,
    leaves: LeavesOpt = None,
    batch: BatchOptions = NO_BATCH,
) -> None:
    """Add '#note gcgtools: ...' lines after each event: the play (O1 HAN(G)OVER), words
    and scores, findings, bingos, unseen tiles, and with a lexicon the analysis. Old
    gcgtools notes are replaced; everything else is kept byte for byte."""
    groups = [g.value for g in only] if only else None
    # --only analysis: the analysis is the whole job, so no lexicon at all is an error
    tiles = rule_set.tiles
    choice = lexicon_choice(lexicon, lexica, leaves, tiles, required=groups == ["analysis"])
    asked = groups is not None and "analysis" in groups
    chosen = choice if asked or choice.wanted else None
    file = single(paths, output, in_place)
    only = tuple(groups) if groups is not None else None
    job = AnnotateJob(only, rule_set, chosen)
    if file is None:
        run_batch(job, paths, output, batch, "record")
    game = load(file)
    target = target_of(file, output, in_place)
    outcome = render_one(job, file, game, target)
    used = (outcome.summary or {}).get("analysis")
    if used is not None:
        # which lexicon and leaves the notes come from, or why there are none
        echo(f"{display_name(str(file))}: {used}", err=True)
    write(target, outcome.data)


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
    game = load(file, report_lines=False)
    target = target_of(file, output, in_place)
    outcome = render_one(job, file, game, target)
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
    game = load(file)
    target = target_of(file, output, in_place)
    write(target, render_one(job, file, game, target).data)


@app.command("report")
@batch_command
@option_groups(rule_set=RULE_GROUP, batch=BATCH_GROUP)
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
    lexicon: LexiconOpt = None,
    lexica: LexicaOpt = None,
    leaves: LeavesOpt = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Top moves shown per turn.")] = 5,
    batch: BatchOptions = NO_BATCH,
    depth: DepthOpt = DepthChoice.static,
    seed: SeedOpt = 0,
    sim_iterations: SimIterations = None,
    sim_candidates: SimCandidates = None,
) -> None:
    """Write a self-contained HTML page: the board after each event (slider and buttons),
    the player to move, their rack and the unseen tiles, the move list with notes and
    findings, and the score chart; with a lexicon (--lexicon, --lexica or
    $GCGTOOLS_LEXICA) the top moves beside each recorded one. With several records (-o
    SITE/): a static site, an index of the games (a table sorted by clicking its headers)
    with the archive charts, and one page per game. With --depth sim or full: mistake
    badges, the judged candidates, a win-probability chart and the Mistake Index."""
    from gcgtools.analysis.judge import settings_for

    judge = None
    if depth is not DepthChoice.static:
        judge = settings_for(
            depth.value, seed=seed, sim_iterations=sim_iterations, sim_candidates=sim_candidates
        )
    choice = lexicon_choice(lexicon, lexica, leaves, rule_set.tiles)
    chosen = choice if choice.wanted else None
    file = single(paths, output, can_in_place=False)
    job = ReportJob(rule_set, chosen, top, depth.value, judge)
    if file is None:
        assert output is not None
        write_report_site(job, paths, output, title, batch)
    game = load(file)
    output = target_of(file, output, None)
    write(output, render_one(job, file, game, output).data)


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
            paths, folder, options=job.rules, jobs=batch.jobs, progress=show_progress(batch.quiet),
            title=title, lexicon=job.lexicon, top=job.top, scheduler=batch.scheduler,
            depth=job.depth, judge=job.judge,
        )  # fmt: skip
    except OSError as exc:
        fail(cannot_write(exc, folder))
    echo(f"wrote a site of {plural(site.pages, 'game')} to {site.index}")
    list_failed([(o.path, o.reason or "failed") for o in site.failed])
    raise typer.Exit(max((o.status for o in site.outcomes), default=EXIT_CLEAN))


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
    game = load(file)
    output = target_of(file, output, None)
    if to_stdout(output) and fmt == "png" and is_terminal(sys.stdout):
        fail(
            "picture --format png: a PNG is binary, not written to a terminal; "
            "give -o FILE.png, or redirect standard output to a file"
        )
    # on standard output the format asked for; in a file, the one its name says
    job = PictureJob(move, size, fmt if to_stdout(output) else None, rule_set)
    write(output, render_one(job, file, game, output).data)
    if not to_stdout(output):
        when = "the last event" if move is None else f"event {move}"
        echo(f"wrote the board after {when} of {file} to {output}")
    raise typer.Exit(EXIT_CLEAN)
