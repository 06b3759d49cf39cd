"""Writing a Game back to GCG bytes: lossless, or in the canonical modern form.

The writer is a visitor, as in python-chess: :func:`accept` walks the physical lines of a
record and calls one method of a :class:`GameVisitor` per line (a pragma, an event, a line of
a note, a blank line, ...), then :meth:`GameVisitor.end_event` where the lines that belong to
an event end. :class:`GCGExporter` writes every line back as it was read, so

    >>> game = parse_bytes(data)  # doctest: +SKIP
    >>> write_gcg(game) == data  # doctest: +SKIP
    True

for any file, bytes its encoding cannot decode included: same encoding, byte order mark,
line endings, spacing, notes, unknown pragmas and (missing) final newline.
:class:`NormalisingExporter` writes the canonical modern form instead; the annotator and the
fixer (``annotate.py``, ``fix.py``) are further subclasses of the same exporter.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Generic, TypeVar

from gcgtools.model.build import KNOWN, legacy_note
from gcgtools.model.game import Game
from gcgtools.replay.board import Board
from gcgtools.replay.info import ReplayInfo  # re-exported: it was defined here
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.rules.tiles import TileError, TileSet
from gcgtools.syntax.records import (
    CommentedEvent,
    Event,
    EventKind,
    Note,
    Pragma,
    Record,
    SourceLine,
    TextLine,
)

__all__ = [
    "BOM",
    "GCGExporter",
    "GameVisitor",
    "NormalisingExporter",
    "ReplayInfo",
    "accept",
    "canonical_event",
    "canonical_word",
    "line_ending",
    "write_gcg",
]

T = TypeVar("T")

BOM = b"\xef\xbb\xbf"
_NUMBERED = re.compile(r"^(player|rack)[1-9]$")


# ---------------------------------------------------------------------------------- visitor
class GameVisitor(Generic[T]):
    """Base class of everything that walks a record line by line (see :func:`accept`).

    Every ``visit_*`` method gets the physical line; the default implementations do
    nothing. Set ``wants_replay`` to have :func:`accept` replay the game first and hand the
    :class:`ReplayInfo` to :meth:`begin_game`.
    """

    wants_replay = False

    def begin_game(self, game: Game, info: ReplayInfo | None) -> None:
        """Called once, before the first line."""

    def visit_blank(self, line: SourceLine) -> None:
        """A line holding nothing but white space (outside a note)."""

    def visit_pragma(self, line: SourceLine, pragma: Pragma) -> None:
        """A ``#keyword value`` line that is not part of a note."""

    def visit_note_line(self, line: SourceLine, note: Note, first: bool) -> None:
        """A line of a ``#note``/``#comment``: its first line, or a continuation line."""

    def visit_text(self, line: SourceLine, text: TextLine) -> None:
        """A line starting with neither # nor > that continues no note (P105)."""

    def visit_event(self, line: SourceLine, event: Event) -> None:
        """A ``>nick: ...`` line."""

    def visit_commented(self, line: SourceLine, record: CommentedEvent) -> None:
        """A ``#>...`` line: an event somebody commented out."""

    def visit_unparsed(self, line: SourceLine) -> None:
        """A line the parser could not read (its finding is on the game)."""

    def end_event(self, event: Event) -> None:
        """Called after the last line that belongs to ``event`` (its notes, text lines and
        unknown pragmas; trailing blank lines excluded), before the next event's lines."""

    def end_game(self) -> T:
        """Called once, after the last line; its value is what :func:`accept` returns."""
        raise NotImplementedError


def _note_lines(game: Game) -> dict[int, tuple[Note, bool]]:
    """Line number -> (note, is its first line) for every line of every note."""
    out: dict[int, tuple[Note, bool]] = {}
    notes = [*game.notes, *(n for e in game.events for n in e.notes)]
    for note in notes:
        for number in range(note.line, note.end_line + 1):
            out[number] = (note, number == note.line)
    return out


def _is_stop(record: Record | None, in_note: bool) -> bool:
    """True for a line that ends the block of lines belonging to the event before it.

    Known pragmas (other than notes), events and commented-out events reset the reader's
    note state, so lines inserted before them cannot change how anything is read."""
    if in_note:
        return False
    if isinstance(record, (Event, CommentedEvent)):
        return True
    if isinstance(record, Pragma):
        kw = record.keyword
        return kw not in ("note", "comment") and (kw in KNOWN or bool(_NUMBERED.match(kw)))
    return False


def _block_ends(
    game: Game, records: dict[int, Record], notes: Mapping[int, object]
) -> dict[int, int]:
    """Line number of an event's last line -> index of the event in ``game.events``."""
    ends: dict[int, int] = {}
    lines = game.lines
    for index, e in enumerate(game.events):
        last = e.line
        for number in range(e.line + 1, len(lines) + 1):
            record = records.get(number)
            if _is_stop(record, number in notes):
                break
            if record is None and lines[number - 1].text.lstrip()[:1] == ">":
                break  # an event line the parser could not read: the next event's line
            if lines[number - 1].text.strip():
                last = number
        ends[last] = index
    return ends


def accept(game: Game, visitor: GameVisitor[T], info: ReplayInfo | None = None) -> T:
    """Walk every physical line of ``game`` with ``visitor``; return its :meth:`end_game`.

    >>> accept(game, GCGExporter())  # doctest: +SKIP
    b'#character-encoding UTF-8\\n#player1 ...'
    """
    if info is None and visitor.wants_replay:
        info = ReplayInfo.of(game)
    visitor.begin_game(game, info)
    records: dict[int, Record] = {}
    for r in game.records:
        records.setdefault(r.line, r)
    notes = _note_lines(game)
    ends = _block_ends(game, records, notes)
    for line in game.lines:
        number = line.number
        record = records.get(number)
        if number in notes:
            note, first = notes[number]
            visitor.visit_note_line(line, note, first)
        elif isinstance(record, Event):
            visitor.visit_event(line, record)
        elif isinstance(record, Pragma):
            visitor.visit_pragma(line, record)
        elif isinstance(record, TextLine):
            visitor.visit_text(line, record)
        elif isinstance(record, CommentedEvent):
            visitor.visit_commented(line, record)
        elif not line.text.strip():
            visitor.visit_blank(line)
        else:
            visitor.visit_unparsed(line)
        if number in ends:
            visitor.end_event(game.events[ends[number]])
    return visitor.end_game()


# --------------------------------------------------------------------------------- exporter
def line_ending(game: Game) -> str:
    """The file's usual line ending (the most common one; ``"\\n"`` if it has none)."""
    counts = Counter(line.ending for line in game.lines if line.ending)
    return counts.most_common(1)[0][0] if counts else "\n"


class GCGExporter(GameVisitor[bytes]):
    """Writes every line back exactly as it was read: the lossless writer.

    Subclasses change single lines by overriding the ``visit_*`` methods and calling
    :meth:`emit` (or not, to drop a line); :meth:`add` inserts a new line in the file's
    own line-ending style.
    """

    keep_bytes = True  # copy() gives back bytes not valid in the encoding (not normalising)

    def __init__(self) -> None:
        self.game = Game()
        self.info: ReplayInfo | None = None
        self.out: list[list[str]] = []  # [text, ending] per output line
        self.ending = "\n"
        self.last_ending = "\n"

    # ------------------------------------------------------------------ output
    def emit(self, text: str, ending: str) -> None:
        """Write one line with the given ending."""
        self.out.append([text, ending])

    def add(self, text: str) -> None:
        """Write one new line, ended like the other lines of the file."""
        self.out.append([text, self.ending])

    def copy(self, line: SourceLine) -> None:
        """Write a line exactly as it was read (its very bytes, when some were not valid
        in the file's encoding and the output keeps that encoding)."""
        if line.raw is not None and self.keep_bytes and self.encoding == self.game.encoding:
            self.emit(line.raw.decode(self.encoding, "surrogateescape"), line.ending)
            return
        self.emit(line.text, line.ending)

    @property
    def encoding(self) -> str:
        return self.game.encoding

    @property
    def bom(self) -> bool:
        return self.game.bom

    def encode(self, text: str) -> bytes:
        # surrogateescape: the bytes of lines copied as read (see copy) come back as they were
        return text.encode(self.encoding, "surrogateescape")

    # ----------------------------------------------------------------- visitor
    def begin_game(self, game: Game, info: ReplayInfo | None) -> None:
        self.game, self.info = game, info
        self.out = []
        self.ending = line_ending(game)
        self.last_ending = game.lines[-1].ending if game.lines else ""

    def visit_blank(self, line: SourceLine) -> None:
        self.copy(line)

    def visit_pragma(self, line: SourceLine, pragma: Pragma) -> None:
        self.copy(line)

    def visit_note_line(self, line: SourceLine, note: Note, first: bool) -> None:
        self.copy(line)

    def visit_text(self, line: SourceLine, text: TextLine) -> None:
        self.copy(line)

    def visit_event(self, line: SourceLine, event: Event) -> None:
        self.copy(line)

    def visit_commented(self, line: SourceLine, record: CommentedEvent) -> None:
        self.copy(line)

    def visit_unparsed(self, line: SourceLine) -> None:
        self.copy(line)

    def end_game(self) -> bytes:
        out = self.out
        # every line but the last ends; the last ends as the file's last line did
        for item in out[:-1]:
            if not item[1]:
                item[1] = self.ending
        if out:
            out[-1][1] = self.last_ending
        body = self.encode("".join(text + ending for text, ending in out))
        return (BOM if self.bom else b"") + body


# ------------------------------------------------------------------------- canonical form
def _segments(word: str, tokens: list[str]) -> list[str]:
    """The original spelling of each token of ``word`` (``[CH]`` keeps its brackets)."""
    out: list[str] = []
    pos = 0
    for tok in tokens:
        if word.startswith(tok, pos):
            out.append(tok)
            pos += len(tok)
        else:  # bracketed multi-letter tile: TileSet.split drops the brackets
            out.append(word[pos : pos + len(tok) + 2])
            pos += len(tok) + 2
    return out


def canonical_word(event: Event, board: Board | None, tiles: TileSet) -> str:
    """The word of a play with every square already occupied written as ``.``.

    ``board`` is the board just before the play. Letters written in full for occupied squares
    and ``(..)`` runs become dots; new tiles keep their spelling (lower case = blank). When
    the placement cannot be rebuilt (off the board, a letter that contradicts the board, an
    unknown tile) the word is returned as written.
    """
    word = event.word or ""
    if board is None or event.row is None or event.col is None:
        return word
    try:
        tokens = tiles.split(word)
    except TileError:
        return word
    dr, dc = (0, 1) if event.direction == "across" else (1, 0)
    r, c = event.row, event.col
    out: list[str] = []
    in_parens = False
    for tok, text in zip(tokens, _segments(word, tokens), strict=True):
        if tok == "(":
            in_parens = True
            continue
        if tok == ")":
            in_parens = False
            continue
        if not board.in_bounds(r, c):
            return word
        current = board[r, c]
        if tok == "." or in_parens:
            if current is None:
                return word
            out.append(".")
        elif current is not None:
            if tok.upper() != current.upper():
                return word
            out.append(".")
        else:
            out.append(text)
        r, c = r + dr, c + dc
    return "".join(out)


def canonical_event(event: Event, word: str | None = None) -> str:
    """``>nick: RACK ACTION +SCORE CUMULATIVE`` with single spaces, an upper-case coordinate
    and a signed score. ``word`` replaces the play's word (see :func:`canonical_word`)."""
    parts = [f">{event.nick}:"]
    if event.rack is not None:
        parts.append(event.rack)
    kind = event.kind
    if kind is EventKind.PLAY:
        parts += [(event.position or "").upper(), word if word is not None else event.word or ""]
    elif kind is EventKind.PASS:
        parts.append("-")
    elif kind is EventKind.EXCHANGE:
        parts.append("-" + (event.tiles if event.tiles is not None else str(event.count)))
    elif kind is EventKind.WITHDRAWN:
        parts.append("--")
    elif kind is EventKind.CHALLENGE_BONUS:
        parts.append("(challenge)")
    elif kind is EventKind.TIME_PENALTY:
        parts.append("(time)")
    else:
        parts.append(f"({event.tiles or ''})")
    parts += [f"{event.score:+d}", str(event.cumulative)]
    if event.extra:
        parts.append(event.extra)
    return " ".join(parts)


class NormalisingExporter(GCGExporter):
    """Writes the canonical modern form: ``#character-encoding UTF-8`` first, single spaces,
    ``.`` for squares already on the board, upper-case coordinates, signed scores, ``\\n``
    line endings with a final newline, no trailing white space. Notes are kept word for
    word; lines the parser could not read are kept as they were; pre-2022 Woogles header
    notes (``#note Variant: classic``) become the pragmas that replaced them."""

    keep_bytes = False  # UTF-8 out: bytes that were not valid stay U+FFFD

    wants_replay = True

    def begin_game(self, game: Game, info: ReplayInfo | None) -> None:
        super().begin_game(game, info)
        self.ending = self.last_ending = "\n"
        if game.records:  # an empty file stays empty
            self.emit("#character-encoding UTF-8", "\n")

    @property
    def encoding(self) -> str:
        return "utf-8"

    @property
    def bom(self) -> bool:
        return False

    def copy(self, line: SourceLine) -> None:
        # UTF-8 out: bytes the record could not decode stay U+FFFD
        self.emit(line.text, line.ending)

    def emit(self, text: str, ending: str) -> None:
        super().emit(text.rstrip(), "\n")

    def visit_blank(self, line: SourceLine) -> None:
        self.emit("", "\n")

    def visit_pragma(self, line: SourceLine, pragma: Pragma) -> None:
        kw, value = pragma.keyword, pragma.value
        if kw == "character-encoding":
            return
        if kw == "note":
            # a #note outside every note range is a legacy header note the model consumed
            legacy = legacy_note(value)
            if legacy is not None:
                kw, value = legacy
        self.emit(f"#{kw} {value}" if value else f"#{kw}", "\n")

    def visit_note_line(self, line: SourceLine, note: Note, first: bool) -> None:
        if first:
            value = line.text.strip()[len(note.keyword) + 1 :].strip()
            self.emit(f"#{note.keyword} {value}" if value else f"#{note.keyword}", "\n")
        else:
            self.emit(line.text, "\n")

    def visit_event(self, line: SourceLine, event: Event) -> None:
        word = None
        if event.kind is EventKind.PLAY and self.info is not None:
            word = canonical_word(event, self.info.board_before(event), self.info.rules.tiles)
        self.emit(canonical_event(event, word), "\n")


def write_gcg(
    game: Game,
    *,
    normalise: bool = False,
    options: RuleOptions = NO_OPTIONS,
) -> bytes:
    """The record as GCG bytes: exactly as read, or (``normalise``) in canonical form.

    The rule ``options`` (their tile set and board) decide which squares of a play were
    already occupied (normalising only).
    """
    if not normalise:
        return accept(game, GCGExporter())
    info = ReplayInfo.of(game, options)
    return accept(game, NormalisingExporter(), info)
