"""Writing one output per input record, for many records at once.

``annotate``, ``fix``, ``write``, ``report``, ``picture`` and ``board -o`` take PATH...
(files, folders, globs). With ``-o DIR`` each input gets one output in ``DIR`` named after
it (``game.gcg`` -> ``DIR/game.gcg``, ``DIR/game.html``, ``DIR/game.png``); with
``--in-place`` each input is replaced. The work runs through the one batch mechanism
(:func:`gcgtools.batch.run.map_files`): in parallel, in order, with the progress bar,
and going on past a bad file.

Names: when two inputs would give the same output name (``a/game.gcg`` and
``b/game.gcg``; the comparison ignores case, for case-insensitive file systems), every
output keeps its folder below the inputs' common folder instead (``DIR/a/game.gcg``,
``DIR/b/game.gcg``), so the layout is predictable and nothing is overwritten. An output
that would be its own input (``write *.gcg -o .``) is refused for that file: that is what
``--in-place`` is for.

    >>> job = OutputJob("write", {"normalise": True})  # doctest: +SKIP
    >>> for outcome in write_outputs(job, ["archive/"], "clean/"):  # doctest: +SKIP
    ...     print(outcome.path, "->", outcome.target)
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gcgtools.batch.run import Scheduler, map_files
from gcgtools.model.game import Game, unreadable_reason
from gcgtools.sources.atomic import write_atomic
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import expand_paths

__all__ = [
    "KINDS",
    "Naming",
    "OutputJob",
    "Outcome",
    "deliver",
    "naming_for",
    "output_suffix",
    "write_outputs",
]

KINDS = ("annotate", "fix", "write", "report", "picture")
"""What an :class:`OutputJob` can make of a record."""

OK, FINDINGS, FAILED = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Naming:
    """Where the output of an input goes: ``folder`` (None: the input itself, in place),
    the output ``suffix``, and ``renamed``: the names (below ``folder``, without the
    suffix) of the inputs whose plain names clash."""

    folder: str | None
    suffix: str
    renamed: dict[str, str] = field(default_factory=dict)

    def target(self, path: str) -> str:
        if self.folder is None:
            return path
        name = self.renamed.get(path, Path(path).stem)
        return str(Path(self.folder) / (name + self.suffix))


def _common_folder(paths: list[str]) -> Path:
    parents = [os.path.dirname(os.path.abspath(p)) for p in paths]
    return Path(os.path.commonpath(parents))


def naming_for(files: list[str], folder: str | None, suffix: str) -> Naming:
    """The :class:`Naming` of ``files`` written to ``folder`` (None: in place).

    An output is named after its input (``game.gcg`` -> ``game`` + ``suffix``). When
    several inputs have the same name (ignoring case), each of them keeps its path below
    their common folder instead (``a/game.gcg`` and ``b/game.gcg`` -> ``a/game``,
    ``b/game``); names that still clash get ``-2``, ``-3`` ..."""
    if folder is None:
        return Naming(None, suffix)
    groups: dict[str, list[str]] = {}
    for f in files:
        groups.setdefault(Path(f).stem.lower(), []).append(f)
    renamed: dict[str, str] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        root = _common_folder(group)
        for f in group:
            relative = Path(os.path.relpath(os.path.abspath(f), root))
            renamed[f] = (relative.parent / Path(f).stem).as_posix()
    seen: Counter[str] = Counter()
    for f in files:
        name = renamed.get(f, Path(f).stem)
        seen[name.lower()] += 1
        if seen[name.lower()] > 1:
            renamed[f] = f"{name}-{seen[name.lower()]}"
    return Naming(folder, suffix, renamed)


def output_suffix(kind: str, fmt: str | None = None) -> str:
    """The suffix of the outputs of ``kind`` (a picture's ``fmt``: svg, png)."""
    if kind == "report":
        return ".html"
    if kind == "picture":
        return f".{fmt or 'svg'}"
    return ".gcg"


@dataclass(slots=True)
class Outcome:
    """What became of one input: the ``target`` written (None when nothing was),
    ``status`` (0 done, 1 done with findings left, 2 not done), the ``reason`` when not
    done, ``messages`` to show the user (the changes ``fix`` made), and for a report the
    ``summary`` of the game (for the index of a site)."""

    path: str
    target: str | None
    status: int
    reason: str | None = None
    messages: list[str] = field(default_factory=list)
    summary: dict[str, Any] | None = None
    data: bytes | None = None  # made for ``target`` but not written yet (see OutputJob)


@dataclass(frozen=True, slots=True)
class OutputJob:
    """One kind of output (:data:`KINDS`) with its options, for every file of a batch.

    Options: ``tiles``, ``board`` (all kinds), ``end_rule``, ``challenge_bonus``
    (annotate, fix), ``only`` (annotate), ``normalise`` (write), ``move``, ``size``,
    ``fmt`` (picture), ``index`` (report: the site's index page, linked from each page),
    ``lexicon`` (annotate, report: a :class:`~gcgtools.lexicon.choice.LexiconChoice`)
    and ``top`` (report).
    Calling the job with a file and its target makes the output and writes it (with
    ``writes`` False, the :class:`Outcome` carries the bytes instead, for
    :func:`deliver` to write: a Dask worker on another machine makes them, this one
    writes them); it never raises for a bad file (the :class:`Outcome` says what went
    wrong), so it can run in a worker."""

    kind: str
    options: dict[str, Any] = field(default_factory=dict)
    naming: Naming | None = None
    writes: bool = True

    def __call__(self, path: str, target: str | None = None) -> Outcome:
        if target is None:
            target = self.naming.target(path) if self.naming is not None else None
        try:
            game = load_game(path)
            if game.unreadable:
                return Outcome(path, None, FAILED, unreadable_reason(game.findings))
            data, status, messages, summary = self.make(game, target)
        except (KeyError, ValueError) as exc:  # unknown tiles/board/rules, bad --move
            return Outcome(path, None, FAILED, str(exc.args[0] if exc.args else exc))
        except Exception as exc:  # noqa: BLE001 - a batch goes on past any bad file
            return Outcome(path, None, FAILED, f"{type(exc).__name__}: {exc}")
        if target is None:
            return Outcome(path, None, status, None, messages, summary)
        made = Outcome(path, target, status, None, messages, summary, data)
        in_place = self.naming is not None and self.naming.folder is None
        return deliver(made, in_place) if self.writes else made

    def make(
        self, game: Game, target: str | None = None
    ) -> tuple[bytes, int, list[str], dict[str, Any] | None]:
        """The output of ``game`` (to be written to ``target``): its bytes, status,
        messages and summary."""
        o = self.options
        rules = {"tiles": o.get("tiles"), "board": o.get("board")}
        more = {"end_rule": o.get("end_rule"), "challenge_bonus": o.get("challenge_bonus")}
        if self.kind == "write":
            from gcgtools.render.writer import write_gcg

            return write_gcg(game, normalise=bool(o.get("normalise")), **rules), OK, [], None
        if self.kind == "annotate":
            from gcgtools.edit.annotate import annotate_analysed

            data, analysis = annotate_analysed(
                game, o.get("only"), lexicon=o.get("lexicon"), **rules, **more
            )
            used = {"analysis": analysis.used} if analysis is not None else None
            return data, OK, [], used
        if self.kind == "fix":
            from gcgtools.edit.fix import fix_record

            result = fix_record(game, **rules, **more)
            name = game.path or "<gcg>"
            messages = []
            for c in result.changes:
                messages += [f"{name}:{c.line}: {c.reason}", f"  - {c.old}", f"  + {c.new}"]
            left = sorted([*result.unfixable, *result.warnings], key=lambda f: (f.line, f.code))
            messages += [f"{f.format(name)} (not fixed)" for f in left]
            status = FINDINGS if result.unfixable else OK
            counts = {"changes": len(result.changes), "unfixable": len(result.unfixable)}
            return result.data, status, messages, counts
        if self.kind == "report":
            from gcgtools.render.html import game_report

            index = o.get("index")
            back = None
            if index is not None and target is not None:
                back = Path(os.path.relpath(index, Path(target).parent)).as_posix()
            report = game_report(
                game, back=back, lexicon=o.get("lexicon"), top=o.get("top") or 5,
                depth=o.get("depth") or "static", judge=o.get("judge"), **rules,
            )  # fmt: skip
            return report.html.encode("utf-8"), OK, [], report.summary
        if self.kind == "picture":
            from gcgtools.render.svg import picture

            data = picture(
                game, o.get("move"), fmt=o.get("fmt") or "svg", size=o.get("size") or 600,
                **rules,
            )  # fmt: skip
            return data, OK, [], None
        raise ValueError(f"unknown output kind {self.kind!r}: choose from {', '.join(KINDS)}")


def deliver(outcome: Outcome, in_place: bool = False) -> Outcome:
    """Write the bytes ``outcome`` carries to its target (never over its input unless
    ``in_place``); the outcome, or what went wrong."""
    path, target, data = outcome.path, outcome.target, outcome.data
    if target is None or data is None:
        return outcome
    if not in_place and _same_file(path, target):
        reason = "the output would replace the input: use --in-place for that"
        return Outcome(path, None, FAILED, reason)
    try:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data)
    except OSError as exc:
        return Outcome(path, None, FAILED, f"cannot write {target}: {exc.strerror or exc}")
    return Outcome(path, target, outcome.status, None, outcome.messages, outcome.summary)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def write_outputs(
    job: OutputJob,
    paths: Iterable[str],
    folder: str | None,
    *,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Scheduler = None,
) -> Iterator[Outcome]:
    """Run ``job`` over every file named by ``paths`` (files, folders, globs), writing
    each output into ``folder`` (named after its input, see the module doc) or, when
    ``folder`` is None, over the input itself. Yields an :class:`Outcome` per file, in
    order, as :func:`~gcgtools.batch.run.map_files` runs them. On the local pool
    the workers write the outputs; on a Dask ``scheduler``'s cluster the workers make
    them and this process writes them, so they land on this machine."""
    files = list(expand_paths(paths))
    suffix = output_suffix(job.kind, job.options.get("fmt"))
    here = scheduler is None
    named = OutputJob(job.kind, job.options, naming_for(files, folder, suffix), writes=here)
    label = {"report": "reports", "picture": "pictures"}.get(job.kind, "records")
    outcomes = map_files(
        named, files, jobs=jobs, progress=progress, label=label, scheduler=scheduler
    )
    for outcome in outcomes:
        yield outcome if here else deliver(outcome, in_place=folder is None)
