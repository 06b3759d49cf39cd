"""Typed records for the lines of a GCG file: what the grammar recognised, nothing more.

Every record knows its 1-based source line. Meaning that depends on other lines (which
player a nickname is, whether a text line continues a note) is the model's job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class EventKind(str, Enum):
    """The kinds of event line in a GCG record."""

    PLAY = "play"
    PASS = "pass"
    EXCHANGE = "exchange"
    WITHDRAWN = "withdrawn"  # phony withdrawn after a successful challenge: --
    CHALLENGE_BONUS = "challenge_bonus"  # (challenge) +N
    END_RACK_POINTS = "end_rack_points"  # (TILES) +N, for the opponents' tiles
    END_RACK_PENALTY = "end_rack_penalty"  # RACK (RACK) -N, own tiles
    TIME_PENALTY = "time_penalty"  # (time) -N

    def __str__(self) -> str:
        return self.value


TURN_KINDS = frozenset({EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE})
END_KINDS = frozenset(
    {EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY, EventKind.TIME_PENALTY}
)


@dataclass(slots=True)
class SourceLine:
    """One physical line: its text without the line ending, and the ending itself.
    ``raw`` holds the line's bytes when they are not valid in the file's encoding (the
    text then has U+FFFD for them), so that the lossless writers give them back."""

    number: int
    text: str
    ending: str
    raw: bytes | None = None


@dataclass(slots=True)
class Note:
    """A #note (with its continuation lines) or a #comment attached to an event or the game."""

    text: str
    line: int
    end_line: int
    keyword: str = "note"


@dataclass(slots=True)
class Pragma:
    """A ``#keyword value`` line. ``keyword`` is lower case; ``value`` is stripped."""

    keyword: str
    value: str
    line: int
    column: int = 1


@dataclass(slots=True)
class TextLine:
    """A line that starts with neither # nor > (a note continuation, or stray text)."""

    text: str
    line: int


@dataclass(slots=True)
class CommentedEvent:
    """A ``#>...`` line: an event somebody commented out."""

    text: str
    line: int


@dataclass(slots=True)
class Event:
    """One ``>nick: ...`` line.

    ``position`` is the coordinate as written; ``row`` and ``col`` are 0-based and
    ``direction`` is ``"across"`` (row first, ``8D``) or ``"down"`` (column first, ``D8``).
    ``tiles`` holds the exchanged tiles, or the tiles in parentheses of an end-of-game
    line. ``count`` is N in the ``-N`` exchange form. ``text`` is the original line, as
    written (without its line ending). ``player`` (0-based) and ``notes`` are filled in by
    the model.
    """

    kind: EventKind
    nick: str
    rack: str | None
    score: int
    cumulative: int
    line: int
    column: int = 1
    position: str | None = None
    row: int | None = None
    col: int | None = None
    direction: str | None = None
    word: str | None = None
    tiles: str | None = None
    count: int | None = None
    score_text: str = ""
    extra: str | None = None
    player: int | None = None
    notes: list[Note] = field(default_factory=list)
    text: str = ""

    @property
    def note_text(self) -> str:
        """All notes of the event joined by newlines."""
        return "\n".join(n.text for n in self.notes)

    def __repr__(self) -> str:
        """``<Event line 5: >Ann: AEINRST 8H RETAINS +66 66>``: the line as written (at
        most 80 characters, control characters escaped)."""
        text = self.text or f">{self.nick}: {self.kind} {self.score:+d} {self.cumulative}"
        if len(text) > 80:
            text = text[:79] + "…"
        return f"<Event line {self.line}: {_printable(text)}>"


def _printable(text: str) -> str:
    """``text`` with control characters written as escapes (``\\x1b``)."""
    return "".join(
        c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii")
        for c in text
    )


Record = Pragma | Event | TextLine | CommentedEvent
