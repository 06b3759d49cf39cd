"""Commands that write records and pictures: annotate, fix, write, report, picture.

Each takes PATH... (files, folders, globs). One record: ``-o FILE``, or standard output
without ``-o`` (or with ``-o -``). Several records (or ``-o`` naming a folder: an existing
one, or a name ending in ``/``): one output per input in ``-o DIR``, named after it, or
``--in-place``; they run in parallel with the progress bar and go on past a bad file,
listed at the end. ``report`` with a folder writes a static site. None of them changes its
input file unless ``--in-place`` is given. Files are written atomically.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, NoReturn

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
    EXIT_CLEAN,
    EXIT_FINDINGS,
    EXIT_UNREADABLE,
    BoardOpt,
    Bonus,
    Jobs,
    Move,
    Paths,
    Quiet,
    RulesOpt,
    SchedulerOpt,
    Tiles,
    app,
    batch_command,
    cannot_write,
    failed_on,
    output_is_input,
    rule_options,
)
from gcgtools.console import echo, is_terminal
from gcgtools.edit import annotate as annotating
from gcgtools.edit.fix import FORCE_OPTION, fix_messages, fix_record
from gcgtools.jobs.files import STDOUT, write_output
from gcgtools.jobs.kinds import AnnotateJob, FixJob, PictureJob, WriteJob
from gcgtools.jobs.outputs import write_outputs
from gcgtools.jobs.renderer import Renderer
from gcgtools.model.game import Game
from gcgtools.render.html import game_report_html
from gcgtools.render.svg import picture, picture_format
from gcgtools.render.writer import write_gcg
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import display_name, expand_paths
from gcgtools.wording import plural


class Group(str, Enum):
    findings = "findings"
    words = "words"
    tracking = "tracking"
    analysis = "analysis"


Output = Annotated[
    str | None,
    typer.Option(
        "--output",
        "-o",
        help="Output file ('-' or nothing: standard output); with several records a folder "
        "(one output per input, named after it).",
    ),
]
InPlace = Annotated[
    bool,
    typer.Option("--in-place", help="Replace each input file (atomically) with the result."),
]


def _fail(message: str) -> NoReturn:
    echo(message, err=True)
    raise typer.Exit(EXIT_UNREADABLE)


def _load(file: Path, *, report_lines: bool = True) -> Game:
    """The parsed record; one that cannot be read at all prints its findings and exits
    with 2. Lines that could not be read are reported on standard error (unless
    ``report_lines`` is false) and the command goes on with the rest of the record."""
    game = load_game(file)
    if game.unreadable:
        for f in game.findings:
            if f.severity == "error" and f.code[0] in "FP":
                echo(f.format(display_name(str(file))), err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    if report_lines:
        for f in game.findings:
            if f.severity == "error" and f.code[0] == "P":
                echo(
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


_FILE_SUFFIXES = {".gcg", ".html", ".htm", ".svg", ".png", ".pdf"}


def _is_folder(output: str | None) -> bool:
    """``-o`` names a folder: an existing one, or a name ending in a path separator."""
    if output is None or output == STDOUT:
        return False
    return output.endswith(("/", os.sep)) or Path(output).is_dir()


def _single(
    paths: list[str], output: str | None, in_place: bool = False, can_in_place: bool = True
) -> Path | None:
    """The one input file when the command runs on one record as before (one file named,
    ``-o`` a file or standard output); None for a batch. Exits 2 for no record at all, for
    a batch with nowhere to write, and for -o together with --in-place."""
    if in_place and output is not None:
        _fail("use either -o/--output or --in-place, not both")
    files = list(expand_paths(paths))
    if not files:
        _fail("no game records found: name .gcg files, folders or globs")
    if len(files) == 1 and not _is_folder(output):
        return Path(files[0])
    if output is not None and output != STDOUT and not _is_folder(output):
        if Path(output).suffix.lower() in _FILE_SUFFIXES:
            _fail(f"{len(files)} records: -o must name a folder, not the file {output}")
    if not in_place and (output is None or output == STDOUT):
        _fail(
            f"{len(files)} records: name a folder for the outputs with -o DIR"
            + (" (or use --in-place)" if can_in_place else "")
        )
    return None


def _run_batch(
    job: Renderer,
    paths: list[str],
    folder: str | None,
    jobs: int | None,
    quiet: bool,
    what: str,
    scheduler: str | None = None,
) -> NoReturn:
    """Run ``job`` over every record (on the Dask cluster ``scheduler`` names, if any),
    print what each produced and what failed, and exit: 2 when a record could not be
    done, 1 when findings are left, else 0."""
    done = 0
    failed: list[tuple[str, str]] = []
    status = EXIT_CLEAN
    used: list[str] = []
    fixes = FixTotals()
    outcomes = write_outputs(
        job, paths, folder, jobs=jobs, progress=show_progress(quiet), scheduler=scheduler
    )
    for outcome in outcomes:
        for message in outcome.messages:  # above the progress bar while it shows
            echo(message)
        summary = outcome.summary or {}
        analysis = summary.get("analysis")
        if analysis and analysis not in used:
            used.append(analysis)  # which lexicon the analysis notes come from
            echo(f"analysis: {analysis}", err=True)
        if isinstance(job, FixJob):
            fixes.add(summary)
        if summary.get("refused"):
            pass  # said above, counted in the fix totals
        elif outcome.target is None:
            failed.append((outcome.path, outcome.reason or "failed"))
        else:
            done += 1
        status = max(status, outcome.status)
    where = "in place" if folder is None else f"to {folder}"
    echo(f"wrote {plural(done, what)} {where}")
    if isinstance(job, FixJob):
        echo(fixes.line())
    _list_failed(failed)
    raise typer.Exit(status)


@dataclass(slots=True)
class FixTotals:
    """What a batch ``fix`` did, summed over its records (one line at the end)."""

    records: int = 0
    changed: int = 0
    lines: int = 0
    refused: int = 0
    scores: int = 0
    winners: int = 0

    def add(self, summary: dict[str, Any]) -> None:
        if "changes" not in summary:
            return  # not read: listed with the failures
        self.records += 1
        self.lines += summary["changes"]
        self.changed += summary["changes"] > 0
        self.refused += bool(summary.get("refused"))
        self.scores += bool(summary.get("score_changed"))
        self.winners += bool(summary.get("winner_changed"))

    def line(self) -> str:
        text = (
            f"fix: {plural(self.lines, 'line')} changed in {self.changed} of "
            f"{plural(self.records, 'record')}; final score changed in {self.scores}, "
            f"winner in {self.winners}"
        )
        if self.refused:
            text += (
                f"; {self.refused} refused (S609: most plays misscored; give --board/--tiles, "
                f"or {FORCE_OPTION})"
            )
        return text


def _list_failed(failed: list[tuple[str, str]]) -> None:
    if failed:
        echo(f"could not do {plural(len(failed), 'file')}:", err=True)
        for path, reason in failed:
            echo(f"  {display_name(path)}: {reason}", err=True)


@app.command("annotate")
@batch_command
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
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    lexicon: LexiconOpt = None,
    lexica: LexicaOpt = None,
    leaves: LeavesOpt = None,
    jobs: Jobs = None,
    scheduler: SchedulerOpt = None,
    quiet: Quiet = False,
) -> None:
    """Add '#note gcgtools: ...' lines after each event: the play (O1 HAN(G)OVER), words
    and scores, findings, bingos, unseen tiles, and with a lexicon the analysis. Old
    gcgtools notes are replaced; everything else is kept byte for byte."""
    groups = [g.value for g in only] if only else None
    # --only analysis: the analysis is the whole job, so no lexicon at all is an error
    choice = lexicon_choice(lexicon, lexica, leaves, tiles, required=groups == ["analysis"])
    asked = groups is not None and "analysis" in groups
    chosen = choice if asked or choice.wanted else None
    file = _single(paths, output, in_place)
    if file is None:
        only = tuple(groups) if groups is not None else None
        job = AnnotateJob(only, rule_options(tiles, board, rules, challenge_bonus), chosen)
        _run_batch(job, paths, output, jobs, quiet, "record", scheduler)
    game = _load(file)
    target = _target(file, output, in_place)
    try:
        data, analysis = annotating.annotate_analysed(
            game, groups, options=rule_options(tiles, board, rules, challenge_bonus),
            lexicon=choice if asked or choice.wanted else None,
        )  # fmt: skip
    except (KeyError, ValueError) as exc:
        _fail(failed_on(file, exc))
    if analysis is not None:
        # which lexicon and leaves the notes come from, or why there are none
        echo(f"{display_name(str(file))}: {analysis.used}", err=True)
    _write(target, data)


@app.command("fix")
@batch_command
def fix_command(
    paths: Paths,
    output: Output = None,
    in_place: InPlace = False,
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    jobs: Jobs = None,
    scheduler: SchedulerOpt = None,
    quiet: Quiet = False,
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
    file = _single(paths, output, in_place)
    if file is None:
        fix = FixJob(rule_options(tiles, board, rules, challenge_bonus), even_if_misscored)
        _run_batch(fix, paths, output, jobs, quiet, "record", scheduler)
    game = _load(file, report_lines=False)
    target = _target(file, output, in_place)
    try:
        result = fix_record(game, options=rule_options(tiles, board, rules, challenge_bonus))
    except (KeyError, ValueError) as exc:
        _fail(failed_on(file, exc))
    name = display_name(str(file))
    if result.misscored is not None and result.changes and not even_if_misscored:
        for line in fix_messages(result, name, refused=True):
            echo(line, err=True)
        raise typer.Exit(EXIT_FINDINGS)
    _write(target, result.data)
    # the record itself may be on standard output: the report then goes to standard error
    err = target is None or target == STDOUT
    for line in fix_messages(result, name):
        echo(line, err=err)
    errors, warnings = len(result.unfixable), len(result.warnings)
    echo(
        f"{plural(len(result.changes), 'line')} changed, {plural(errors, 'error')} and "
        f"{plural(warnings, 'warning')} left to fix by hand",
        err=err,
    )
    raise typer.Exit(EXIT_FINDINGS if result.unfixable else EXIT_CLEAN)


@app.command("write")
@batch_command
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
    tiles: Tiles = None,
    board: BoardOpt = None,
    jobs: Jobs = None,
    scheduler: SchedulerOpt = None,
    quiet: Quiet = False,
) -> None:
    """Write the record back: byte for byte (lossless), or --normalise'd to the canonical
    modern form (UTF-8, single spaces, '.' for played-through squares, upper-case
    coordinates, signed scores)."""
    file = _single(paths, output, in_place)
    if file is None:
        write = WriteJob(normalise, rule_options(tiles, board))
        _run_batch(write, paths, output, jobs, quiet, "record", scheduler)
    game = _load(file)
    target = _target(file, output, in_place)
    try:
        data = write_gcg(game, normalise=normalise, options=rule_options(tiles, board))
    except (KeyError, ValueError) as exc:
        _fail(failed_on(file, exc))
    _write(target, data)


@app.command("report")
@batch_command
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
    tiles: Tiles = None,
    board: BoardOpt = None,
    rules: RulesOpt = None,
    challenge_bonus: Bonus = None,
    lexicon: LexiconOpt = None,
    lexica: LexicaOpt = None,
    leaves: LeavesOpt = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Top moves shown per turn.")] = 5,
    jobs: Jobs = None,
    scheduler: SchedulerOpt = None,
    quiet: Quiet = False,
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
    choice = lexicon_choice(lexicon, lexica, leaves, tiles)
    chosen = choice if choice.wanted else None
    file = _single(paths, output, can_in_place=False)
    if file is None:
        assert output is not None
        from gcgtools.jobs.site import write_site

        try:
            site = write_site(
                paths, output, options=rule_options(tiles, board, rules, challenge_bonus),
                jobs=jobs, progress=show_progress(quiet), title=title, lexicon=chosen, top=top,
                scheduler=scheduler, depth=depth.value, judge=judge,
            )  # fmt: skip
        except OSError as exc:
            _fail(cannot_write(exc, output))
        echo(f"wrote a site of {plural(site.pages, 'game')} to {site.index}")
        failed = site.failed
        _list_failed([(o.path, o.reason or "failed") for o in failed])
        raise typer.Exit(max((o.status for o in site.outcomes), default=EXIT_CLEAN))
    game = _load(file)
    output = _target(file, output, None)
    try:
        options = rule_options(tiles, board, rules, challenge_bonus)
        html = game_report_html(
            game, options=options, lexicon=chosen, top=top, depth=depth.value, judge=judge
        )
    except (KeyError, ValueError) as exc:
        _fail(failed_on(file, exc))
    _write(output, html.encode("utf-8"))


Size = Annotated[int, typer.Option(help="Width in pixels.", min=100, max=4000)]
Format = Annotated[
    str | None,
    typer.Option("--format", "-f", help="svg or png, for a folder of pictures (default: svg)."),
]


@app.command("picture")
@batch_command
def picture_command(
    paths: Paths,
    move: Move = None,
    output: Output = None,
    size: Size = 600,
    format: Format = None,
    tiles: Tiles = None,
    board: BoardOpt = None,
    jobs: Jobs = None,
    scheduler: SchedulerOpt = None,
    quiet: Quiet = False,
) -> None:
    """Draw the board after an event: SVG, or PNG when the output file ends in .png. Under
    the board: the scores, the last move, the player to move and their rack, and the
    unseen tiles. Several records: one picture each in -o DIR (--format svg or png)."""
    draw_pictures(paths, move, output, size, format, tiles, board, jobs, quiet, scheduler)


def draw_pictures(
    paths: list[str],
    move: int | None,
    output: str | None,
    size: int = 600,
    fmt: str | None = None,
    tiles: str | None = None,
    board: str | None = None,
    jobs: int | None = None,
    quiet: bool = False,
    scheduler: str | None = None,
) -> NoReturn:
    """``picture`` and ``board -o``: one picture, or one per record in a folder (on the
    Dask cluster ``scheduler`` names, if any); exits."""
    if fmt is not None and fmt not in ("svg", "png"):
        _fail(f"unknown picture format {fmt!r}: use svg or png")
    file = _single(paths, output, can_in_place=False)
    if file is None:
        job = PictureJob(move, size, fmt or "svg", rule_options(tiles, board))
        _run_batch(job, paths, output, jobs, quiet, "picture", scheduler)
    game = _load(file)
    output = _target(file, output, None)
    to_stdout = output is None or output == STDOUT
    if to_stdout and fmt == "png" and is_terminal(sys.stdout):
        _fail(
            "picture --format png: a PNG is binary, not written to a terminal; "
            "give -o FILE.png, or redirect standard output to a file"
        )
    try:
        kind = fmt if fmt is not None and to_stdout else picture_format(output)
        data = picture(game, move, fmt=kind, options=rule_options(tiles, board), size=size)
    except (KeyError, ValueError) as exc:
        _fail(failed_on(file, exc))
    _write(output, data)
    if output is not None and output != STDOUT:
        when = "the last event" if move is None else f"event {move}"
        echo(f"wrote the board after {when} of {file} to {output}")
    raise typer.Exit(EXIT_CLEAN)
