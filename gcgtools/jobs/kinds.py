"""The output kinds: one frozen dataclass per kind, each a
:class:`~gcgtools.jobs.renderer.Renderer`.

``annotate`` (:class:`AnnotateJob`), ``fix`` (:class:`FixJob`), ``write``
(:class:`WriteJob`), ``report`` (:class:`ReportJob`) and ``picture`` / ``board -o``
(:class:`PictureJob`). Each holds the options of its command, checked before any record
is read, and is picklable, so a worker process (or a Dask worker) renders with it.

    >>> job = WriteJob(normalise=True)  # doctest: +SKIP
    >>> job.render(gcgtools.read_game("game.gcg")).data  # doctest: +SKIP
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from gcgtools.jobs.renderer import FINDINGS, OK, Rendered
from gcgtools.model.game import Game
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.sources.paths import display_name

__all__ = ["KINDS", "AnnotateJob", "FixJob", "PictureJob", "ReportJob", "WriteJob"]


@dataclass(frozen=True, slots=True)
class WriteJob:
    """``write``: the record back, byte for byte, or ``normalise`` d to the canonical
    modern form."""

    normalise: bool = False
    rules: RuleOptions = NO_OPTIONS
    suffix: ClassVar[str] = ".gcg"
    label: ClassVar[str] = "records"
    findings: ClassVar[bool] = False

    def render(self, game: Game, target: str | None = None) -> Rendered:
        from gcgtools.render.writer import write_gcg

        return Rendered(write_gcg(game, normalise=self.normalise, options=self.rules))


@dataclass(frozen=True, slots=True)
class AnnotateJob:
    """``annotate``: the record with ``#note gcgtools:`` lines, ``only`` those groups
    (None: all), the analysis notes from ``lexicon`` (a
    :class:`~gcgtools.lexicon.choice.LexiconChoice`), judged at ``depth`` sim or full
    (``judge``: the :class:`~gcgtools.analysis.judge.JudgeSettings`). The summary's
    ``analysis`` says which
    lexicon and leaves the notes come from, or why there are none."""

    only: tuple[str, ...] | None = None
    rules: RuleOptions = NO_OPTIONS
    lexicon: Any = None
    depth: str = "static"
    judge: Any = None
    suffix: ClassVar[str] = ".gcg"
    label: ClassVar[str] = "records"
    findings: ClassVar[bool] = False

    def render(self, game: Game, target: str | None = None) -> Rendered:
        from gcgtools.edit.annotate import annotate_analysed

        only = list(self.only) if self.only is not None else None
        data, analysis = annotate_analysed(game, only, lexicon=self.lexicon, options=self.rules,
                                           depth=self.depth, judge=self.judge)  # fmt: skip
        used = {"analysis": analysis.used} if analysis is not None else None
        return Rendered(data, OK, [], used)


@dataclass(frozen=True, slots=True)
class FixJob:
    """``fix``: the corrected record, or, for a record whose plays misscore by one
    pattern (S609) without ``even_if_misscored``, nothing (status 1, the messages say
    why, ``summary["refused"]``). The summary counts the changes, the errors and warnings
    left, and whether the final score or the winner changed."""

    rules: RuleOptions = NO_OPTIONS
    even_if_misscored: bool = False
    suffix: ClassVar[str] = ".gcg"
    label: ClassVar[str] = "records"
    findings: ClassVar[bool] = True

    def render(self, game: Game, target: str | None = None) -> Rendered:
        from gcgtools.edit.fix import fix_messages, fix_record

        result = fix_record(game, options=self.rules)
        refused = bool(
            result.misscored is not None and result.changes and not self.even_if_misscored
        )
        summary = {
            "changes": 0 if refused else len(result.changes),
            "unfixable": len(result.unfixable),
            "warnings": len(result.warnings),
            "refused": refused,
            "score_changed": result.score_changed and not refused,
            "winner_changed": result.winner_changed and not refused,
        }
        messages = fix_messages(result, display_name(game.path or "<gcg>"), refused=refused)
        status = FINDINGS if refused or result.unfixable else OK
        return Rendered(None if refused else result.data, status, messages, summary)


@dataclass(frozen=True, slots=True)
class ReportJob:
    """``report``: the game's HTML page, with the ``top`` moves beside each recorded one
    from ``lexicon``, judged at ``depth`` sim or full (``judge``: the
    :class:`~gcgtools.analysis.judge.JudgeSettings`), linking back to a site's ``index``
    (a path; None: no site). The summary is the one a site's index lists. ``analysis``:
    the record's analysis made already, shown as it is (a judged one:
    :mod:`gcgtools.jobs.judged`)."""

    rules: RuleOptions = NO_OPTIONS
    lexicon: Any = None
    top: int = 5
    depth: str = "static"
    judge: Any = None
    index: str | None = None
    analysis: Any = None
    suffix: ClassVar[str] = ".html"
    label: ClassVar[str] = "reports"
    findings: ClassVar[bool] = False

    def render(self, game: Game, target: str | None = None) -> Rendered:
        from gcgtools.jobs.report import game_report

        back = None
        if self.index is not None and target is not None:
            back = Path(os.path.relpath(self.index, Path(target).parent)).as_posix()
        report = game_report(
            game, back=back, lexicon=self.lexicon, top=self.top, options=self.rules,
            depth=self.depth, judge=self.judge, analysis=self.analysis,
        )  # fmt: skip
        return Rendered(report.html.encode("utf-8"), OK, [], report.summary)


@dataclass(frozen=True, slots=True)
class PictureJob:
    """``picture`` and ``board -o``: the board after event ``move`` (None: the last),
    ``size`` pixels wide, as ``fmt`` (svg or png; None: as the target's name says, SVG
    on standard output)."""

    move: int | None = None
    size: int = 600
    fmt: str | None = None
    rules: RuleOptions = NO_OPTIONS
    label: ClassVar[str] = "pictures"
    findings: ClassVar[bool] = False

    @property
    def suffix(self) -> str:
        return f".{self.fmt or 'svg'}"

    def render(self, game: Game, target: str | None = None) -> Rendered:
        from gcgtools.jobs.picture import picture
        from gcgtools.render.svg import picture_format

        fmt = self.fmt or picture_format(target)
        return Rendered(picture(game, self.move, fmt=fmt, size=self.size, options=self.rules))


KINDS: dict[str, type] = {
    "annotate": AnnotateJob,
    "fix": FixJob,
    "write": WriteJob,
    "report": ReportJob,
    "picture": PictureJob,
}
"""The output kinds by their command's name."""
