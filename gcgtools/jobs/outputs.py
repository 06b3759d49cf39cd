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
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
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
        name = self.renamed.get(path, output_name(Path(path).stem))
        return str(Path(self.folder) / (name + self.suffix))


def _common_folder(paths: list[str]) -> Path:
    parents = [os.path.dirname(os.path.abspath(p)) for p in paths]
    return Path(os.path.commonpath(parents))


def output_name(name: str) -> str:
    """An input's name as an output's: a byte that is not UTF-8 (a lone surrogate, as
    Python reads such file names) becomes ``%XX``, so that every output name can be
    written, shown and linked to (``caf\\xe9.gcg`` -> ``caf%E9.html``)."""
    if name.isascii():
        return name
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"%{code - 0xDC00:02X}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append(f"%u{code:04X}")
        else:
            out.append(ch)
    return "".join(out)


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
        groups.setdefault(output_name(Path(f).stem).lower(), []).append(f)
    renamed: dict[str, str] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        root = _common_folder(group)
        for f in group:
            relative = Path(os.path.relpath(os.path.abspath(f), root))
            renamed[f] = output_name((relative.parent / Path(f).stem).as_posix())
    seen: Counter[str] = Counter()
    for f in files:
        name = renamed.get(f, output_name(Path(f).stem))
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

    Options: ``rules`` (all kinds: a :class:`~gcgtools.rules.options.RuleOptions`),
    ``only`` (annotate), ``normalise`` (write), ``move``, ``size``,
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
        except (KeyError, ValueError) as exc:  # a bad --move, a tile file gone bad
            return Outcome(path, None, FAILED, str(exc.args[0] if exc.args else exc))
        except Exception as exc:  # noqa: BLE001 - a batch goes on past any bad file
            return Outcome(path, None, FAILED, f"{type(exc).__name__}: {exc}")
        if data is None:  # refused (fix of a misscored record): nothing written
            return Outcome(path, None, status, "not fixed: see above", messages, summary)
        if target is None:
            return Outcome(path, None, status, None, messages, summary)
        made = Outcome(path, target, status, None, messages, summary, data)
        in_place = self.naming is not None and self.naming.folder is None
        return deliver(made, in_place) if self.writes else made

    def make(
        self, game: Game, target: str | None = None
    ) -> tuple[bytes | None, int, list[str], dict[str, Any] | None]:
        """The output of ``game`` (to be written to ``target``): its bytes (None: nothing
        to write, the messages say why), status, messages and summary."""
        o = self.options
        rules: RuleOptions = o.get("rules") or NO_OPTIONS
        if self.kind == "write":
            from gcgtools.render.writer import write_gcg

            return write_gcg(game, normalise=bool(o.get("normalise")), options=rules), OK, [], None
        if self.kind == "annotate":
            from gcgtools.edit.annotate import annotate_analysed

            data, analysis = annotate_analysed(
                game, o.get("only"), lexicon=o.get("lexicon"), options=rules
            )
            used = {"analysis": analysis.used} if analysis is not None else None
            return data, OK, [], used
        if self.kind == "fix":
            return self._fix(game, rules)
        if self.kind == "report":
            from gcgtools.render.html import game_report

            index = o.get("index")
            back = None
            if index is not None and target is not None:
                back = Path(os.path.relpath(index, Path(target).parent)).as_posix()
            report = game_report(
                game, back=back, lexicon=o.get("lexicon"), top=o.get("top") or 5, options=rules,
                depth=o.get("depth") or "static", judge=o.get("judge"),
            )  # fmt: skip
            return report.html.encode("utf-8"), OK, [], report.summary
        if self.kind == "picture":
            from gcgtools.render.svg import picture

            data = picture(
                game, o.get("move"), fmt=o.get("fmt") or "svg", size=o.get("size") or 600,
                options=rules,
            )  # fmt: skip
            return data, OK, [], None
        raise ValueError(f"unknown output kind {self.kind!r}: choose from {', '.join(KINDS)}")

    def _fix(
        self, game: Game, rules: RuleOptions
    ) -> tuple[bytes | None, int, list[str], dict[str, Any] | None]:
        """``fix``: the corrected record, or, for a record whose plays misscore by one
        pattern (S609) without ``even_if_misscored``, the record unchanged with status
        1 and the reason (``summary["refused"]``): nothing is written for it."""
        from gcgtools.edit.fix import fix_messages, fix_record

        o = self.options
        result = fix_record(game, options=rules)
        name = game.path or "<gcg>"
        refused = bool(
            result.misscored is not None and result.changes and not o.get("even_if_misscored")
        )
        summary = {
            "changes": 0 if refused else len(result.changes),
            "unfixable": len(result.unfixable),
            "refused": refused,
            "score_changed": result.score_changed and not refused,
            "winner_changed": result.winner_changed and not refused,
        }
        messages = fix_messages(result, name, refused=refused)
        status = FINDINGS if refused or result.unfixable else OK
        return (None if refused else result.data), status, messages, summary


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
