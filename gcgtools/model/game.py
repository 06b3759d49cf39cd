"""The game model: a parsed record with its players, header, events and findings."""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice

from gcgtools.findings import Code, Family, Finding
from gcgtools.syntax.records import Event, Note, Pragma, Record, SourceLine
from gcgtools.wording import plural

# The finding codes that mean nothing of a record could be read.
UNREADABLE = frozenset({Code.UNREADABLE_FILE, Code.EMPTY_FILE, Code.PROCESSING_FAILED})


def unreadable_reason(findings: Iterable[Finding]) -> str:
    """Why a record (or a file's report) could not be read, as the commands list it:
    its first F, P or H error (``F002 line 1: the file holds no pragma ...``), else its
    first finding, else ``unreadable``."""
    findings = list(findings)
    fatal = [f for f in findings if f.is_error(*Family.READING)]
    f = fatal[0] if fatal else (findings[0] if findings else None)
    if f is None:
        return "unreadable"
    return f"{f.code} line {f.line}: {f.message}" if f.line else f"{f.code} {f.message}"


@dataclass(slots=True)
class Player:
    """A ``#playerN nick full name`` pragma. ``index`` is 0-based (N - 1)."""

    index: int
    nick: str
    name: str
    line: int

    @property
    def number(self) -> int:
        return self.index + 1


@dataclass(slots=True)
class LostLine:
    """An event line the parser could not read (see :mod:`gcgtools.model.salvage`): its
    line number, the player its nickname names (None: unknown), and the event a repair
    recovers from it (None: none does, and the replay leaves a gap there)."""

    line: int
    player: int | None
    event: Event | None = None


@dataclass(slots=True)
class Game:
    """Everything a GCG file says, in order, plus what was wrong with it.

    ``lines`` keeps every physical line with its ending, so the record can be written
    back byte for byte; ``records`` are the recognised lines; ``events`` the moves.
    """

    path: str | None = None
    players: list[Player] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    pragmas: list[Pragma] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    lines: list[SourceLine] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    encoding: str = "utf-8"
    declared_encoding: str | None = None
    bom: bool = False
    title: str | None = None
    descriptions: list[str] = field(default_factory=list)
    id_authority: str | None = None
    id: str | None = None
    lexicon: str | None = None
    game_type: str | None = None
    board_layout: str | None = None
    tile_distribution: str | None = None
    incomplete: bool = False
    initial_racks: dict[int, str] = field(default_factory=dict)
    final_racks: dict[int, str] = field(default_factory=dict)
    # the event lines the parser could not read, in order, with what they still say
    lost: list[LostLine] = field(default_factory=list)

    # ------------------------------------------------------------ display
    def _summary(self) -> tuple[str, str, str]:
        """(name, players, counts) for the short representations."""
        name = self.path or self.title or "<gcg>"
        players = " vs ".join(p.nick for p in self.players) or "no players"
        errors = sum(1 for f in self.findings if f.severity == "error")
        warnings = sum(1 for f in self.findings if f.severity == "warning")
        counts = (
            f"{plural(len(self.events), 'event')}, {plural(errors, 'error')}, "
            f"{plural(warnings, 'warning')} in parsing"
        )
        return name, players, counts

    def __repr__(self) -> str:
        name, players, counts = self._summary()
        lexicon = f", {self.lexicon}" if self.lexicon else ""
        return f"<Game {name!r}: {players}{lexicon}, {counts}>"

    def _repr_html_(self) -> str:
        """A small table for Jupyter: the record, its players, header and counts."""
        from html import escape  # for Jupyter only

        name, _, counts = self._summary()
        rows = [("record", name)]
        if self.title:
            rows.append(("title", self.title))
        rows.extend(
            (f"player {p.number}", f"{p.nick} ({p.name})" if p.name != p.nick else p.nick)
            for p in self.players
        )
        for label, value in (("lexicon", self.lexicon), ("tiles", self.tile_distribution),
                             ("board", self.board_layout)):  # fmt: skip
            if value:
                rows.append((label, value))
        rows.append(("events", counts))
        body = "".join(
            f"<tr><th style='text-align:left'>{escape(k)}</th>"
            f"<td style='text-align:left'>{escape(str(v))}</td></tr>"
            for k, v in rows
        )
        return f"<table class='gcgtools-game'>{body}</table>"

    # ------------------------------------------------------------ queries
    @property
    def description(self) -> str | None:
        return "\n".join(self.descriptions) if self.descriptions else None

    @property
    def nicks(self) -> dict[str, int]:
        """Nickname -> player index."""
        return {p.nick: p.index for p in self.players}

    def player_count(self, minimum: int = 2) -> int:
        """How many players the record has: its players, or more when a player's index says
        so, and at least ``minimum`` (a record of one player's moves is still a game of
        two)."""
        return max(len(self.players), *(p.index + 1 for p in self.players), minimum)

    def player(self, index: int | None) -> Player | None:
        for p in self.players:
            if p.index == index:
                return p
        return None

    def pragma(self, keyword: str) -> str | None:
        """The value of the first ``#keyword`` pragma, or None."""
        for p in self.pragmas:
            if p.keyword == keyword:
                return p.value
        return None

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def unreadable(self) -> bool:
        """True when nothing of the record could be read: the file cannot be opened (F001),
        no line of it is a pragma or an event (F002), or gcgtools failed on it (F010);
        exit code 2. A record with some unreadable lines (P1xx errors) is still readable:
        every command works on the lines that could be read, and the bad lines are
        findings like any other."""
        return any(f.code in UNREADABLE for f in self.findings)

    @property
    def display_name(self) -> str:
        return self.path or self.title or "<gcg>"

    def event_counts(self) -> dict[str, int]:
        return dict(Counter(str(e.kind) for e in self.events))

    def all_notes(self) -> list[dict[str, object]]:
        """Every ``#note`` of the record in line order: ``line``, ``event`` (the 1-based
        event number it follows, None for a game note) and ``text``."""
        return list(self.iter_notes())

    def iter_notes(self) -> Iterator[dict[str, object]]:
        """:meth:`all_notes` one at a time (merged in line order, never all at once)."""
        game_notes = ((n.line, 0, None, n.text) for n in sorted(self.notes, key=_line))
        event_notes = (
            (n.line, 1, i + 1, n.text)
            for i, e in enumerate(self.events)
            for n in sorted(e.notes, key=_line)
        )
        ordered = heapq.merge(game_notes, event_notes, key=lambda t: (t[0], t[1], t[2] or 0))
        for line, _, ev, text in ordered:
            yield {"line": line, "event": ev, "text": text}

    def _json_items(self) -> list[tuple[str, object]]:
        """The fields of :meth:`to_dict`, long lists as iterators (made as they are read)."""
        return [
            ("path", self.path),
            ("encoding", self.encoding),
            ("declared_encoding", self.declared_encoding),
            ("players", [
                {"number": p.number, "nick": p.nick, "name": p.name, "line": p.line}
                for p in self.players
            ]),
            ("title", self.title),
            ("description", self.description),
            ("id", [self.id_authority, self.id] if self.id else None),
            ("lexicon", self.lexicon),
            ("game_type", self.game_type),
            ("board_layout", self.board_layout),
            ("tile_distribution", self.tile_distribution),
            ("incomplete", self.incomplete),
            ("initial_racks", {str(k + 1): v for k, v in self.initial_racks.items()}),
            ("final_racks", {str(k + 1): v for k, v in self.final_racks.items()}),
            # every note of the record, in order: "event" is the number of the event it
            # annotates (null for a note about the game, before the first event)
            ("notes", self.iter_notes()),
            ("pragmas", (
                {"keyword": p.keyword, "value": p.value, "line": p.line} for p in self.pragmas
            )),
            ("events", (event_dict(e) for e in self.events)),
            ("findings", (f.to_dict() for f in self.findings)),
        ]  # fmt: skip

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready view of the parsed record."""
        return {k: list(v) if isinstance(v, Iterator) else v for k, v in self._json_items()}

    def json_chunks(self, size: int = 1 << 16) -> Iterator[str]:
        """``json.dumps(self.to_dict(), ensure_ascii=False)`` in pieces of about ``size``
        characters, made one list item at a time: a record of a million notes never
        holds its whole JSON view (or its text) in memory at once."""
        pending: list[str] = []
        length = 0
        for piece in self._json_pieces():
            pending.append(piece)
            length += len(piece)
            if length >= size:
                yield "".join(pending)
                pending, length = [], 0
        if pending:
            yield "".join(pending)

    def _json_pieces(self) -> Iterator[str]:
        import json  # not at import: checking a record writes no JSON (start-up time)

        encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(..., ensure_ascii=False)
        for i, (key, value) in enumerate(self._json_items()):
            yield ("{" if i == 0 else ", ") + encode(key) + ": "
            if not isinstance(value, Iterator):
                yield encode(value)
                continue
            yield "["
            first = True
            while batch := list(islice(value, _JSON_BATCH)):  # a few hundred items at a time
                yield ("" if first else ", ") + encode(batch)[1:-1]
                first = False
            yield "]"
        yield "}"


_JSON_BATCH = 512


def _line(note: Note) -> int:
    return note.line


def event_dict(e: Event) -> dict[str, object]:
    """A JSON-ready view of one event."""
    return {
        "line": e.line,
        "text": e.text,
        "kind": str(e.kind),
        "nick": e.nick,
        "player": e.player + 1 if e.player is not None else None,
        "rack": e.rack,
        "position": e.position,
        "row": e.row + 1 if e.row is not None else None,
        "column": chr(65 + e.col) if e.col is not None else None,
        "direction": e.direction,
        "word": e.word,
        "tiles": e.tiles,
        "count": e.count,
        "score": e.score,
        "cumulative": e.cumulative,
        "extra": e.extra,
        "notes": [n.text for n in e.notes],
    }
