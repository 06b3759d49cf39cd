"""The one protocol every output kind implements, and what a render gives back.

A :class:`Renderer` is a frozen dataclass holding one output kind's options (the kinds
are in :mod:`gcgtools.jobs.kinds`): its ``suffix`` names the outputs, its ``label`` counts
them in the progress bar, ``findings`` says whether an output can be made with findings
left (status 1, as ``fix`` leaves the errors it cannot fix), and :meth:`Renderer.render`
makes the output of one record. A batch (:func:`gcgtools.jobs.outputs.write_outputs`) and a
single file (:func:`gcgtools.jobs.outputs.make_output`) both call it, so one record is a
batch of one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from gcgtools.findings import EXIT_CLEAN, EXIT_FINDINGS, EXIT_UNREADABLE
from gcgtools.model.game import Game

__all__ = ["FAILED", "FINDINGS", "OK", "Rendered", "Renderer"]

OK, FINDINGS, FAILED = EXIT_CLEAN, EXIT_FINDINGS, EXIT_UNREADABLE
"""The status of an output: made, made with findings left, not made (the exit statuses
of :mod:`gcgtools.findings`)."""


@dataclass(slots=True)
class Rendered:
    """The output of one record: its ``data`` (None: nothing to write, the ``messages``
    say why), its ``status`` (:data:`OK`, :data:`FINDINGS`), the ``messages`` to show the
    user and the ``summary`` of the game (a report's, for a site's index; a fix's
    counts; an annotation's ``analysis``: which lexicon its notes come from)."""

    data: bytes | None
    status: int = OK
    messages: list[str] = field(default_factory=list)
    summary: dict[str, Any] | None = None


@runtime_checkable
class Renderer(Protocol):
    """One output kind with its options: what every job of :mod:`gcgtools.jobs.kinds`
    is."""

    @property
    def suffix(self) -> str:
        """The outputs' file suffix (``.gcg``, ``.html``, ``.svg``, ``.png``)."""
        ...

    @property
    def label(self) -> str:
        """What the outputs are, counted in the progress bar (``records``)."""
        ...

    @property
    def findings(self) -> bool:
        """Whether an output can be made with findings left (status 1)."""
        ...

    def render(self, game: Game, target: str | None = None) -> Rendered:
        """The output of ``game``, to be written to ``target`` (None: standard output).
        Raises KeyError or ValueError for an option the record cannot be read with."""
        ...
