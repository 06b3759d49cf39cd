"""Assembling a Game from parsed records: players, header pragmas, notes, events.

Structural checks that need only the record itself (duplicate players, pragmas in the
wrong place, notes with nothing to attach to) are made here; everything that needs the
board or the rules is the replay's job.
"""

from __future__ import annotations

from operator import attrgetter

from gcgtools.findings import Code, Family, Finding, make
from gcgtools.model.game import Game, Player
from gcgtools.model.salvage import lost_lines
from gcgtools.syntax.records import CommentedEvent, Event, Note, Pragma, Record, TextLine

# Header pragmas: before the first event. The ones in UNIQUE appear at most once.
HEADER = {
    "title",
    "description",
    "id",
    "lexicon",
    "game-type",
    "board-layout",
    "tile-distribution",
}
UNIQUE = {"title", "id", "lexicon", "game-type", "board-layout", "tile-distribution"}
# The #game-type values Woogles/Liwords and Macondo write (case-insensitive; "-" or a space
# may stand for "_"); gcgtools.rules.detect maps each to its rules.
GAME_TYPES = {"classic", "wordsmog", "classic_super", "wordsmog_super"}


def game_type_key(value: str) -> str:
    """``Classic-Super`` -> ``classic_super``: the form GAME_TYPES holds."""
    return "_".join(value.casefold().replace("-", " ").replace("_", " ").split())


KNOWN = HEADER | {
    "character-encoding", "note", "comment", "incomplete", "tile-set", "tile", "game-board", "-",
    "orientation",
}  # fmt: skip
UNSUPPORTED = {"orientation", "game-board", "tile-set"}
# #player1 ... #player9 and #rack1 ... #rack9 -> 0-based player index
_PLAYER = {f"player{n}": n - 1 for n in range(1, 10)}
_RACK = {f"rack{n}": n - 1 for n in range(1, 10)}
#: Header notes that Woogles wrote before September 2022 (``#note Variant: classic``
#: before the first event), by key, and the pragmas that replaced them.
LEGACY_NOTES = {
    "variant": "game-type",
    "boardlayout": "board-layout",
    "letterdistribution": "tile-distribution",
}


def legacy_note(text: str) -> tuple[str, str] | None:
    """``(pragma, value)`` of a legacy header note's text (``Board Layout: x`` ->
    ``("board-layout", "x")``), None for any other note (see :data:`LEGACY_NOTES`)."""
    key, colon, value = text.partition(":")
    pragma = LEGACY_NOTES.get(key.strip().lower().replace(" ", ""))
    return (pragma, value.strip()) if colon and pragma is not None else None


class _Builder:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.findings: list[Finding] = game.findings
        self.seen_event = False
        self.last_note: Note | None = None
        self.unique_seen: dict[str, int] = {}
        self.final_rack_line = 0
        self.before_players: list[Event] = []  # events met while no #player was declared
        self.nicks: dict[str, int] = game.nicks  # kept up to date as players are added
        # id(note) -> (note, the parts of its text) for notes with continuation lines
        self.note_parts: dict[int, tuple[Note, list[str]]] = {}

    def warn(self, code: str, message: str, line: int, column: int = 1) -> None:
        self.findings.append(make(code, message, line, column))

    # ------------------------------------------------------------- pragmas
    def pragma(self, p: Pragma) -> None:
        game = self.game
        game.pragmas.append(p)
        kw = p.keyword
        if kw in ("note", "comment"):
            self.note(p)
            return
        player = _PLAYER.get(kw)
        rack = _RACK.get(kw)
        if kw in KNOWN or player is not None or rack is not None:
            self.last_note = None
        if kw == "character-encoding":
            return  # checked while decoding
        if player is not None:
            self.player_pragma(player, p)
            return
        if rack is not None:
            self.rack_pragma(rack, p)
            return
        if kw == "incomplete":
            game.incomplete = True
            return
        if kw in HEADER:
            self.header(p)
            return
        if kw in UNSUPPORTED:
            self.warn(Code.UNSUPPORTED_PRAGMA, f"#{kw} is read but not acted on", p.line)
            return
        if kw not in KNOWN:
            if self.last_note is not None:
                # Macondo and MAGPIE read an unknown pragma right after a note as note text
                # (a hashtag on its own line); so does gcgtools.
                self.game.pragmas.pop()
                self.text(TextLine(self.game.lines[p.line - 1].text.strip(), p.line))
                return
            self.warn(Code.UNKNOWN_PRAGMA, f"unknown pragma #{kw} kept as it is", p.line)

    def header(self, p: Pragma) -> None:
        game, kw = self.game, p.keyword
        if self.seen_event:
            self.warn(Code.HEADER_AFTER_EVENTS, f"#{kw} after the first event", p.line)
        if kw in UNIQUE:
            if kw in self.unique_seen:
                self.warn(
                    Code.PRAGMA_REPEATED,
                    f"#{kw} repeated (first on line {self.unique_seen[kw]})",
                    p.line,
                )
                return
            self.unique_seen[kw] = p.line
        if kw == "title":
            game.title = p.value
        elif kw == "description":
            game.descriptions.append(p.value)
        elif kw == "id":
            parts = p.value.split()
            if len(parts) != 2:
                self.warn(Code.MALFORMED_PRAGMA, "#id needs an authority and an identifier", p.line)
            game.id_authority = parts[0] if parts else None
            game.id = parts[1] if len(parts) > 1 else (parts[0] if parts else None)
        elif kw == "lexicon":
            game.lexicon = p.value or None
        elif kw == "game-type":
            game.game_type = p.value
            if game_type_key(p.value) not in GAME_TYPES:
                known = ", ".join(sorted(GAME_TYPES))
                self.warn(
                    Code.UNKNOWN_VARIANT,
                    f"unknown game variant {p.value!r} (known: {known}); classic rules used",
                    p.line,
                )
        elif kw == "board-layout":
            game.board_layout = p.value
        elif kw == "tile-distribution":
            game.tile_distribution = p.value

    def player_pragma(self, index: int, p: Pragma) -> None:
        game = self.game
        if self.seen_event:
            self.warn(Code.HEADER_AFTER_EVENTS, f"#player{index + 1} after the first event", p.line)
        nick, name = (p.value.split(None, 1) + ["", ""])[:2]
        name = name.strip()
        if not nick:
            self.warn(Code.MALFORMED_PRAGMA, f"#player{index + 1} needs a nickname", p.line)
            return
        if not name:
            self.warn(Code.NO_FULL_NAME, f"#player{index + 1} {nick} has no full name", p.line)
            name = nick
        for other in game.players:
            if other.index == index:
                self.warn(Code.PLAYER_DEFINED_TWICE, f"#player{index + 1} defined twice", p.line)
                return
            if other.nick == nick:
                # kept, so the game still has its players; the replay tells them apart by turn
                self.warn(Code.DUPLICATE_NICK, f"nickname {nick!r} used by two players", p.line)
            if other.name == name:
                self.warn(Code.DUPLICATE_NAME, f"full name {name!r} used by two players", p.line)
        game.players.append(Player(index, nick, name, p.line))
        game.players.sort(key=lambda pl: pl.index)
        self.nicks = game.nicks

    def rack_pragma(self, index: int, p: Pragma) -> None:
        rack = p.value.split()[0] if p.value.split() else ""
        if self.seen_event:
            self.game.final_racks[index] = rack
            self.final_rack_line = self.final_rack_line or p.line
        else:
            self.game.initial_racks[index] = rack

    # --------------------------------------------------------------- notes
    def note(self, p: Pragma) -> None:
        game = self.game
        events = game.events
        if p.keyword == "note" and not events:
            legacy = legacy_note(p.value)
            if legacy is not None:
                setattr(game, legacy[0].replace("-", "_"), legacy[1])
                self.last_note = None
                return
        note = Note(p.value, p.line, p.line, p.keyword)
        if not events:
            if p.keyword == "note":
                self.warn(
                    Code.NOTE_BEFORE_EVENTS,
                    "#note before the first event is kept as a game note",
                    p.line,
                )
            game.notes.append(note)
        else:
            events[-1].notes.append(note)
        self.last_note = note

    def text(self, t: TextLine) -> None:
        note = self.last_note
        if note is None:
            self.warn(Code.STRAY_TEXT, f"text outside a #note: {t.text[:60]!r}", t.line)
            return
        # blank lines between the note and this continuation belong to the note; the parts
        # are joined once at the end (adding to a string line by line is quadratic)
        parts = self.note_parts.get(id(note))
        if parts is None:
            parts = self.note_parts[id(note)] = (note, [note.text])
        parts[1].append("\n" * (t.line - note.end_line))
        parts[1].append(t.text)
        note.end_line = t.line

    def join_notes(self) -> None:
        """Give every note with continuation lines its whole text."""
        for note, parts in self.note_parts.values():
            note.text = "".join(parts)
        self.note_parts.clear()

    # -------------------------------------------------------------- events
    def event(self, e: Event) -> None:
        game = self.game
        self.last_note = None
        if self.final_rack_line:
            self.warn(
                Code.EVENT_AFTER_FINAL_RACK,
                f"event after the final #rack on line {self.final_rack_line}",
                e.line,
            )
        if not self.seen_event:
            self.seen_event = True
        index = self.nicks.get(e.nick)
        if index is None and game.players:
            known = ", ".join(p.nick for p in game.players)
            self.warn(
                Code.UNKNOWN_PLAYER,
                f"no player with nickname {e.nick!r} (players: {known})",
                e.line,
                e.column,
            )
        elif index is None:
            self.before_players.append(e)
        e.player = index
        if e.extra is not None:
            self.warn(
                Code.TEXT_AFTER_CUMULATIVE,
                f"extra text after the cumulative score: {e.extra!r}",
                e.line,
            )
        if e.score_text.startswith("+-") or e.score_text[:1] not in "+-":
            self.warn(
                Code.SCORE_SIGN_FORM,
                f"score written {e.score_text!r}; canonical is {e.score:+d}",
                e.line,
            )
        game.events.append(e)

    def resolve_players(self) -> None:
        """Events met before any #player pragma: if players were declared later, give the
        events their players (H207 each); with no #player pragma at all, take the players
        from the events' nicknames in order of appearance (one H213 warning)."""
        game = self.game
        pending = self.before_players
        if not pending:
            return
        if game.players:
            for e in pending:
                e.player = self.nicks.get(e.nick)
                self.warn(
                    Code.EVENT_BEFORE_PLAYER,
                    f"event by {e.nick!r} before its #player pragma",
                    e.line,
                )
            return
        index_of: dict[str, int] = {}
        for e in pending:
            if e.nick not in index_of:
                index_of[e.nick] = len(game.players)
                game.players.append(Player(len(game.players), e.nick, e.nick, 0))
            e.player = index_of[e.nick]
        self.nicks = game.nicks
        nicks = ", ".join(p.nick for p in game.players)
        message = f"no #player pragma: players taken from the events ({nicks})"
        self.warn(Code.PLAYERS_FROM_EVENTS, message, pending[0].line)


def build_game(records: list[Record], game: Game) -> Game:
    """Fill ``game`` (which already holds lines, encoding and syntax findings) from records."""
    builder = _Builder(game)
    on_event, on_pragma, on_text = builder.event, builder.pragma, builder.text
    for r in records:
        if isinstance(r, Event):
            on_event(r)
        elif isinstance(r, Pragma):
            on_pragma(r)
        elif isinstance(r, TextLine):
            on_text(r)
        elif isinstance(r, CommentedEvent):
            builder.last_note = None
            builder.warn(Code.COMMENTED_EVENT, "commented-out event ignored", r.line)
    builder.join_notes()
    builder.resolve_players()
    game.records = records
    if not any(isinstance(r, (Event, Pragma)) for r in records) and not any(
        f.family == Family.FILE for f in game.findings
    ):
        game.findings.append(make(Code.EMPTY_FILE, "the file holds no pragma and no event", 1))
    game.findings.sort(key=attrgetter("line"))
    game.lost = lost_lines(game)
    return game
