"""Running an output job from the command line: one record, or a batch.

Every output command (``annotate``, ``fix``, ``write``, ``report``, ``picture``, ``board
-o``) builds its typed job (:mod:`gcgtools.jobs.kinds`) once and hands it here. Several
records (or ``-o`` naming a folder) run as a batch (:func:`run_batch`); one record is the
batch of one: the same :func:`gcgtools.jobs.outputs.make_output`, shown as a single file
has always been (:func:`render_one`: its findings on standard error, the output on
standard output or in ``-o FILE``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from gcgtools.cli.common import cannot_write, output_is_input, report_unreadable
from gcgtools.cli.groups import BatchOptions
from gcgtools.console import echo
from gcgtools.edit.fix import FORCE_OPTION
from gcgtools.findings import EXIT_CLEAN, EXIT_UNREADABLE, Family, cannot_read
from gcgtools.jobs.files import STDOUT, write_output
from gcgtools.jobs.kinds import FixJob
from gcgtools.jobs.outputs import Outcome, make_output, write_outputs
from gcgtools.jobs.renderer import FAILED, Renderer
from gcgtools.model.game import Game
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import display_name, expand_paths
from gcgtools.wording import plural

__all__ = [
    "FixTotals",
    "InPlace",
    "Output",
    "fail",
    "list_failed",
    "load",
    "render_one",
    "render_single",
    "run_batch",
    "single",
    "target_of",
    "to_stdout",
    "write",
]

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


def fail(message: str) -> NoReturn:
    echo(message, err=True)
    raise typer.Exit(EXIT_UNREADABLE)


def to_stdout(output: str | None) -> bool:
    return output is None or output == STDOUT


def load(file: Path, *, report_lines: bool = True) -> Game:
    """The parsed record; one that cannot be read at all prints its findings and exits
    with 2. Lines that could not be read are reported on standard error (unless
    ``report_lines`` is false) and the command goes on with the rest of the record."""
    game = load_game(file)
    if game.unreadable:
        for f in game.findings:
            if cannot_read(f):
                echo(f.format(display_name(str(file))), err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    if report_lines:
        for f in game.findings:
            if f.is_error(Family.SYNTAX):
                echo(
                    f"{f.format(display_name(str(file)))} (the rest of the record is used)",
                    err=True,
                )
    return game


def target_of(file: Path, output: str | None, in_place: bool | None) -> str | None:
    """Where the result goes: the input itself with ``--in-place`` (None: the command has
    no such option; with it, :func:`single` has refused ``-o`` too), else ``output``; an
    output that is the input file is refused."""
    if in_place:
        return str(file)
    if output_is_input(output, [str(file)]) is not None:
        hint = "; use --in-place to replace it" if in_place is not None else ""
        shown = display_name(str(file))
        fail(f"{display_name(output)}: cannot write: it is the input file {shown}{hint}")
    return output


def render_one(job: Renderer, file: Path, game: Game, target: str | None) -> Outcome:
    """The output of the one record ``game`` (read from ``file``) by ``job``, the batch
    of one; exits 2 with ``FILE: reason`` when it cannot be made."""
    outcome = make_output(job, game, target)
    if outcome.status == FAILED:
        fail(f"{display_name(str(file))}: {outcome.reason}")
    return outcome


def render_single(
    job: Renderer,
    file: Path,
    output: str | None,
    in_place: bool | None = None,
    *,
    report_lines: bool = True,
) -> tuple[str | None, Outcome]:
    """The one record ``file`` read (:func:`load`), where its output goes
    (:func:`target_of`) and the output ``job`` makes of it (:func:`render_one`); each
    step exits 2 when it fails."""
    game = load(file, report_lines=report_lines)
    target = target_of(file, output, in_place)
    return target, render_one(job, file, game, target)


def write(target: str | None, data: bytes | None) -> None:
    """Write ``data`` to ``target`` (None or ``-``: standard output); exit 2 if it fails."""
    assert data is not None
    try:
        write_output(target, data)
    except OSError as exc:
        fail(cannot_write(exc, target))


_FILE_SUFFIXES = {".gcg", ".html", ".htm", ".svg", ".png", ".pdf"}


def _is_folder(output: str | None) -> bool:
    """``-o`` names a folder: an existing one, or a name ending in a path separator."""
    if to_stdout(output):
        return False
    assert output is not None
    return output.endswith(("/", os.sep)) or Path(output).is_dir()


def single(
    paths: list[str], output: str | None, in_place: bool = False, can_in_place: bool = True
) -> Path | None:
    """The one input file when the command runs on one record (one file named, ``-o`` a
    file or standard output); None for a batch. Exits 2 for no record at all, for a batch
    with nowhere to write, and for -o together with --in-place."""
    if in_place and output is not None:
        fail("use either -o/--output or --in-place, not both")
    files = list(expand_paths(paths))
    if not files:
        fail("no game records found: name .gcg files, folders or globs")
    if len(files) == 1 and not _is_folder(output):
        return Path(files[0])
    if not to_stdout(output) and not _is_folder(output):
        if Path(output).suffix.lower() in _FILE_SUFFIXES:
            fail(f"{len(files)} records: -o must name a folder, not the file {output}")
    if not in_place and to_stdout(output):
        fail(
            f"{len(files)} records: name a folder for the outputs with -o DIR"
            + (" (or use --in-place)" if can_in_place else "")
        )
    return None


def run_batch(
    job: Renderer,
    paths: list[str],
    folder: str | None,
    batch: BatchOptions,
    what: str,
) -> NoReturn:
    """Run ``job`` over every record (on the Dask cluster ``batch.scheduler`` names, if any),
    print what each produced and what failed, and exit: 2 when a record could not be
    done, 1 when findings are left, else 0."""
    done = 0
    failed: list[tuple[str, str]] = []
    status = EXIT_CLEAN
    used: list[str] = []
    fixes = FixTotals() if isinstance(job, FixJob) else None
    progress = batch.progress
    outcomes = write_outputs(
        job, paths, folder, jobs=batch.jobs, progress=progress, scheduler=batch.scheduler
    )
    for outcome in outcomes:
        for message in outcome.messages:  # above the progress bar while it shows
            echo(message)
        summary = outcome.summary or {}
        analysis = summary.get("analysis")
        if analysis and analysis not in used:
            used.append(analysis)  # which lexicon the analysis notes come from
            echo(f"analysis: {analysis}", err=True)
        if fixes is not None:
            fixes.add(summary)
        if outcome.status == FAILED:
            failed.append((outcome.path, outcome.reason or "failed"))
        elif outcome.target is not None:
            done += 1  # else made nothing on purpose (a refused fix): said above
        status = max(status, outcome.status)
    where = "in place" if folder is None else f"to {folder}"
    echo(f"wrote {plural(done, what)} {where}")
    if fixes is not None:
        echo(fixes.line())
    list_failed(failed)
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


def list_failed(failed: list[tuple[str, str]]) -> None:
    """The files a batch could not do, with why (:func:`report_unreadable`'s lines)."""
    report_unreadable(dict(failed), verb="do")
