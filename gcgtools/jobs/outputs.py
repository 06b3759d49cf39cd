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

Each output kind is a typed job (:mod:`gcgtools.jobs.kinds`), every one a
:class:`~gcgtools.jobs.renderer.Renderer`; one record (a command given one file and
``-o FILE`` or standard output) goes through the same :func:`make_output` as each file
of a batch.

    >>> job = WriteJob(normalise=True)  # doctest: +SKIP
    >>> for outcome in write_outputs(job, ["archive/"], "clean/"):  # doctest: +SKIP
    ...     print(outcome.path, "->", outcome.target)
"""

from __future__ import annotations

import os
import warnings
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from gcgtools.batch.run import Scheduler, map_files
from gcgtools.jobs.kinds import KINDS, PictureJob
from gcgtools.jobs.renderer import FAILED, Renderer
from gcgtools.model.game import Game, unreadable_reason
from gcgtools.sources.atomic import write_atomic
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import expand_paths

__all__ = [
    "KINDS",
    "FileJob",
    "Naming",
    "Outcome",
    "OutputJob",
    "deliver",
    "make_output",
    "naming_for",
    "output_suffix",
    "write_outputs",
]


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
    """The suffix of the outputs of ``kind`` (a picture's ``fmt``: svg, png).

    Deprecated: a job's own ``suffix`` says it."""
    if kind == "picture":
        return PictureJob(fmt=fmt).suffix
    return _kind(kind).suffix


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
    data: bytes | None = None  # made for ``target`` but not written yet (see FileJob)


def make_output(renderer: Renderer, game: Game, target: str | None = None) -> Outcome:
    """The output of the readable record ``game`` by ``renderer``, to be written to
    ``target`` (None: standard output): an :class:`Outcome` carrying the bytes (not
    written), or saying why there are none. Never raises for a bad record. What every
    file of a batch goes through, and a single file too."""
    path = game.path or "<gcg>"
    try:
        made = renderer.render(game, target)
    except (KeyError, ValueError) as exc:  # a bad --move, a tile file gone bad
        return Outcome(path, None, FAILED, str(exc.args[0] if exc.args else exc))
    except Exception as exc:  # noqa: BLE001 - a batch goes on past any bad file
        return Outcome(path, None, FAILED, f"{type(exc).__name__}: {exc}")
    if made.data is None:  # refused (fix of a misscored record): nothing written
        reason = "not fixed: see above"
        return Outcome(path, None, made.status, reason, made.messages, made.summary)
    return Outcome(path, target, made.status, None, made.messages, made.summary, made.data)


@dataclass(frozen=True, slots=True)
class FileJob:
    """A :class:`~gcgtools.jobs.renderer.Renderer` run on files: calling it with a file
    (and its target; default: as ``naming`` names it) reads the record, makes the output
    (:func:`make_output`) and writes it (with ``writes`` False, the :class:`Outcome`
    carries the bytes instead, for :func:`deliver` to write: a Dask worker on another
    machine makes them, this one writes them); it never raises for a bad file (the
    :class:`Outcome` says what went wrong), so it can run in a worker."""

    renderer: Renderer
    naming: Naming | None = None
    writes: bool = True

    def __call__(self, path: str, target: str | None = None) -> Outcome:
        if target is None:
            target = self.naming.target(path) if self.naming is not None else None
        try:
            game = load_game(path)
        except Exception as exc:  # noqa: BLE001 - a batch goes on past any bad file
            return Outcome(path, None, FAILED, f"{type(exc).__name__}: {exc}")
        if game.unreadable:
            return Outcome(path, None, FAILED, unreadable_reason(game.findings))
        made = make_output(self.renderer, game, target)
        made.path = path
        if made.target is None:
            return made
        in_place = self.naming is not None and self.naming.folder is None
        return deliver(made, in_place) if self.writes else made


def _kind(kind: str) -> type[Renderer]:
    try:
        return KINDS[kind]  # type: ignore[return-value]
    except KeyError:
        raise ValueError(f"unknown output kind {kind!r}: choose from {', '.join(KINDS)}") from None


def OutputJob(  # noqa: N802 - the old class's name, kept for callers
    kind: str,
    options: dict[str, Any] | None = None,
    naming: Naming | None = None,
    writes: bool = True,
) -> FileJob:
    """Deprecated: the :class:`FileJob` of the output ``kind`` (a key of
    :data:`~gcgtools.jobs.kinds.KINDS`) with its ``options`` as a dict; build the typed
    job (:class:`~gcgtools.jobs.kinds.WriteJob` ...) instead."""
    warnings.warn(
        "OutputJob(kind, options) is deprecated: use the typed jobs of gcgtools.jobs.kinds",
        DeprecationWarning,
        stacklevel=2,
    )
    cls = _kind(kind)
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    given = {k: v for k, v in (options or {}).items() if k in names and v is not None}
    if "only" in given and not isinstance(given["only"], str):
        given["only"] = tuple(given["only"])
    return FileJob(cls(**given), naming, writes)


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
    job: Renderer | FileJob,
    paths: Iterable[str],
    folder: str | None,
    *,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Scheduler = None,
) -> Iterator[Outcome]:
    """Run ``job`` (a :class:`~gcgtools.jobs.renderer.Renderer`) over every file named by
    ``paths`` (files, folders, globs), writing each output into ``folder`` (named after
    its input, see the module doc) or, when ``folder`` is None, over the input itself.
    Yields an :class:`Outcome` per file, in order, as
    :func:`~gcgtools.batch.run.map_files` runs them. On the local pool the workers write
    the outputs; on a Dask ``scheduler``'s cluster the workers make them and this process
    writes them, so they land on this machine."""
    renderer = job.renderer if isinstance(job, FileJob) else job
    files = list(expand_paths(paths))
    here = scheduler is None
    named = FileJob(renderer, naming_for(files, folder, renderer.suffix), writes=here)
    outcomes = map_files(
        named, files, jobs=jobs, progress=progress, label=renderer.label, scheduler=scheduler
    )
    for outcome in outcomes:
        yield outcome if here else deliver(outcome, in_place=folder is None)
