"""The replayer's state (board, bag, racks, totals, turn and end-of-game bookkeeping) and
the checks every kind of event shares: reading a rack, tiles drawn from the unseen pool,
a line's score and cumulative, scoreless turns.

The event handlers (:mod:`~gcgtools.replay.moves`, :mod:`~gcgtools.replay.turns`,
:mod:`~gcgtools.replay.endgame`) are mixins on :class:`ReplayState`;
:class:`~gcgtools.replay.engine.Replayer` combines them and walks the record.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from gcgtools.findings import Code, Finding, make
from gcgtools.model.game import Game
from gcgtools.replay.board import Board
from gcgtools.replay.position import upper_tiles
from gcgtools.rules.rulesets import EndRule, RuleSet
from gcgtools.rules.tiles import TileError
from gcgtools.syntax.records import Event


@dataclass(slots=True)
class Undo:
    """What a play changed, so that a withdrawn phony can be taken back."""

    event: Event
    player: int
    placed: list[tuple[int, int, str]]
    used: list[str]  # the tiles taken from the rack, as in the bag
    bag: int
    rack_counts: list[int]
    scoreless: int
    passes: int
    computed_before: int
    recorded_before: int
    computed_score: int | None
    game_over: bool
    end_reason: str | None
    out_player: int | None


@dataclass(slots=True)
class EndLines:
    """The end-of-game lines met so far."""

    points: int = 0  # end-rack points lines
    penalties: set[int] = field(default_factory=set)  # players given an own-rack penalty
    times: set[int] = field(default_factory=set)  # players given a time penalty
    early_time: int = 0  # the line of a time penalty before the end-rack lines (O309)


@dataclass(slots=True)
class Gaps:
    """What the event lines the parser could not read leave unknown."""

    # players whose next cumulative is not checked
    unjudged: set[int] = field(default_factory=set)
    tiles_unknown: bool = False  # a lost line may have been a play: not every tile is known
    after_end: bool = False  # a lost line came after the end of the game


@dataclass(slots=True)
class Table:
    """The board and the tiles in play."""

    board: Board
    pool: Counter[str]  # the tiles not on the board (the unseen pool; below 0: overplayed)
    on_board: int = 0  # tiles on the board
    overdrawn: set[str] = field(default_factory=set)  # tiles played more than the set holds
    # empty squares a play that could not be put down may cover -> its line (B511)
    uncertain: dict[int, int] = field(default_factory=dict)


@dataclass(slots=True)
class Hands:
    """The bag and the players' racks."""

    bag: int  # tiles in the bag
    counts: list[int]  # tiles on each player's rack
    racks: list[str | None]  # each player's last recorded rack
    kept: list[str | None]  # each player's last leave


@dataclass(slots=True)
class Totals:
    """The players' scores."""

    recorded: list[int]  # each player's last recorded cumulative
    computed: list[int]  # each player's total by the computed scores
    # the totals lines that change nothing recorded, which the player's next cumulative
    # may follow instead
    also: dict[int, int] = field(default_factory=dict)
    plays_scored: int = 0  # plays whose score could be computed (S609 counts them)


@dataclass(slots=True)
class Order:
    """Whose turn it is, and what the lines before this one leave to answer."""

    players: int  # how many players
    next: int | None = None  # the player to move, if known
    scoreless: int = 0  # scoreless turns in a row
    passes: int = 0  # passes in a row
    undo: Undo | None = None  # what the last play changed, while it can be withdrawn
    last: Event | None = None  # the last line that changed something
    # set by a handler for a line that changes nothing (the next line still follows
    # the one before it)
    ignored: bool = False


@dataclass(slots=True)
class Ending:
    """The end of the game: whether and how it ended, by what rule, the end lines met."""

    over: bool = False
    reason: str | None = None  # "out", "scoreless", "passes" or "time"
    out_player: int | None = None  # the player who went out
    rule: EndRule | None = None  # the end-of-game rule, given or read from the record
    lines: EndLines = field(default_factory=EndLines)


class ReplayState:
    """Board, bag, racks and scores part way through a record, and the findings so far."""

    def __init__(self, game: Game, rules: RuleSet, *, detect_end_rule: bool = True) -> None:
        self.game = game
        self.rules = rules
        n = game.player_count()
        tiles = rules.tiles
        self.table = Table(Board(rules.board, tiles), Counter(dict(tiles.counts)))
        self.hands = Hands(
            tiles.total_tiles - rules.rack_size * n, [rules.rack_size] * n, [None] * n, [None] * n
        )
        self.totals = Totals([0] * n, [0] * n)
        self.order = Order(n)
        self.ending = Ending(rule=None if detect_end_rule else rules.end_rule)
        self.gaps = Gaps()
        self.findings: list[Finding] = []
        self.detail = True  # words, premiums and leaves for the positions

    # ----------------------------------------------------------- findings
    def _find(
        self,
        code: str,
        message: str,
        e: Event,
        *,
        recorded: int | None = None,
        computed: int | None = None,
    ) -> None:
        self.findings.append(
            make(code, message, e.line, e.column, recorded=recorded, computed=computed)
        )

    def nick(self, index: int | None) -> str:
        """The nickname of player ``index``, else ``player N``."""
        player = self.game.player(index)
        if player is not None:
            return player.nick
        return f"player {index + 1}" if index is not None else "?"

    # -------------------------------------------------------------- tiles
    def _split(self, text: str, e: Event, what: str) -> list[str] | None:
        """Tiles of ``text``, or None (reported, T403) if a character is no tile."""
        try:
            return self.rules.tiles.split(text)
        except TileError as exc:
            bad = text[exc.index : exc.index + 1] if exc.index is not None else text
            self._find(
                Code.NOT_A_TILE,
                f"{bad!r} in {what} {text!r} is not a tile of the {self.rules.tiles.name} set",
                e,
            )
            return None

    def _split_lenient(self, text: str, e: Event, what: str) -> tuple[list[str], bool]:
        """Tiles of ``text``; characters that are no tile are reported (T403) and skipped,
        so that the rest of the play still reaches the board. True if any was skipped."""
        try:
            return self.rules.tiles.split(text), False
        except TileError:
            pass
        bad: list[str] = []
        rest = text
        while True:
            try:
                tokens = self.rules.tiles.split(rest)
                break
            except TileError as exc:
                i = exc.index if exc.index is not None else 0
                bad.append(rest[i : i + 1])
                rest = rest[:i] + rest[i + 1 :]
        shown = ", ".join(repr(b) for b in bad)
        self._find(
            Code.NOT_A_TILE,
            f"{shown} in {what} {text!r} not a tile of the {self.rules.tiles.name} set",
            e,
        )
        return tokens, True

    def _rack(self, e: Event) -> list[str] | None:
        """The event's rack as upper-case tiles, or None if absent or UNKNOWN."""
        text = e.rack
        if text is None:
            return None
        upper = text.isupper()
        if text == "UNKNOWN" or (not upper and text.upper() == "UNKNOWN"):
            return None
        tokens = self._split(text, e, "rack")
        if tokens is None:
            return None
        if "." in text or "(" in text or ")" in text:
            self._find(Code.MALFORMED_RACK, f"malformed rack {text!r}", e)
            return None
        return tokens if upper else upper_tiles(tokens)

    def _move_rack(self, e: Event) -> list[str] | None:
        """The rack of a play, exchange or pass (see :meth:`_rack`), which must come from
        the tiles not on the board."""
        rack = self._rack(e)
        if rack is not None and len(rack) > self.rules.rack_size:
            self._find(
                Code.RACK_TOO_BIG,
                f"rack {_shown(e.rack or '')} has {len(rack)} tiles; a rack holds at most "
                f"{self.rules.rack_size}",
                e,
            )
            return None  # not the player's rack: nothing is checked or analysed against it
        if rack is not None:
            self._check_drawable(rack, e)
        return rack

    def _check_drawable(self, rack: list[str], e: Event | None, line: int = 0) -> None:
        """A rack must come from the tiles not on the board (T402)."""
        pool = self.table.pool
        size = len(rack)
        for t in rack:
            have = pool.get(t, 0)
            # with as many unseen as the rack has tiles, no need to count
            if have < size and rack.count(t) > have:
                break
        else:
            return
        need = Counter(rack)
        short = [t for t, k in need.items() if k > pool.get(t, 0)]
        detail = ", ".join(f"{k} {t}" for t, k in need.items() if t in short)
        left = ", ".join(f"{pool.get(t, 0)} {t}" for t in short)
        msg = f"rack {''.join(rack)} has {detail} but only {left} unseen"
        if e is not None:
            self._find(Code.NOT_DRAWABLE, msg, e)
        else:
            self.findings.append(make(Code.NOT_DRAWABLE, msg, line))

    # ------------------------------------------------------------- scores
    def _check_totals(self, e: Event, p: int, computed: int | None, code: str) -> None:
        """Compare the event's score with the computed one and its cumulative with the total."""
        if computed is not None and e.score != computed:
            self._find(
                code,
                f"recorded {e.score:+d}, computed {computed:+d}",
                e,
                recorded=e.score,
                computed=computed,
            )
        self._check_cumulative(e, p, computed)
        self.totals.computed[p] += computed if computed is not None else e.score
        self.totals.recorded[p] = e.cumulative

    def _check_cumulative(self, e: Event, p: int, computed: int | None) -> None:
        """The event's cumulative must follow player ``p``'s recorded or computed total,
        by the recorded or the computed score (S602)."""
        also = self.totals.also.pop(p, None) if self.totals.also else None
        if p in self.gaps.unjudged:
            self.gaps.unjudged.discard(p)
            return
        recorded = e.score
        before = self.totals.recorded[p]
        cumulative = e.cumulative
        if cumulative == before + recorded:
            return
        if computed is not None and (
            cumulative == before + computed or cumulative == self.totals.computed[p] + computed
        ):
            return
        if cumulative == self.totals.computed[p] + recorded:
            return
        if also is not None and cumulative in (also + recorded, also + (computed or 0)):
            return
        expected = before + (computed if computed is not None else recorded)
        message = f"cumulative {cumulative}, expected {before} {recorded:+d} = {before + recorded}"
        if expected != before + recorded:
            message += f" ({before} {computed:+d} = {expected} with the computed score)"
        self._find(Code.CUMULATIVE, message, e, recorded=cumulative, computed=expected)

    def _fits(self, e: Event, p: int) -> bool:
        """True if the event's cumulative follows player ``p``'s recorded total."""
        return e.cumulative == self.totals.recorded[p] + e.score

    def _scoreless_turn(self, e: Event, is_pass: bool) -> None:
        """Count a turn that scored nothing; enough of them in a row end the game."""
        self.order.scoreless += 1
        self.order.passes = self.order.passes + 1 if is_pass else 0
        if self.ending.over:
            return
        if self.order.scoreless >= self.rules.max_scoreless_turns:
            self.ending.over, self.ending.reason = True, "scoreless"
            self._find(
                Code.SCORELESS_END,
                f"{self.order.scoreless} scoreless turns in a row end the game",
                e,
            )
        elif (
            self.rules.passes_to_end
            and self.order.passes >= self.rules.passes_to_end * self.order.players
        ):
            self.ending.over, self.ending.reason = True, "passes"


def _shown(text: str, limit: int = 40) -> str:
    """``text`` as a message quotes it, cut to ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
