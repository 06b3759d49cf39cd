"""Replaying a game event by event: board, bag, racks, scores, and every finding.

:func:`replay` yields a :class:`Position` after each event. :func:`validate` runs the
replay to the end and gathers the findings. The replay never stops at a problem: it
reports it at its own line and carries on from what the record says, so a single
mistake is reported once and later lines are judged on their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from gcgtools.findings import Finding, make
from gcgtools.model.game import Game
from gcgtools.replay.board import Board, square_name
from gcgtools.replay.scoring import PlayScore, Word, score_play
from gcgtools.replay.setup import rules_for
from gcgtools.rules.rulesets import EndRule, RuleSet
from gcgtools.rules.tiles import TileError
from gcgtools.syntax.records import TURN_KINDS, Event, EventKind

BLANK = "?"


@dataclass(slots=True)
class Position:
    """The state of the game after one event (``index`` -1 is the start).

    ``scores`` are the totals as recomputed by gcgtools; ``recorded`` the cumulatives
    the record gives. ``pool`` counts the tiles not on the board (bag plus racks, blanks
    as ``?``). ``placed`` are the squares the event put tiles on.
    """

    index: int
    event: Event | None
    board: Board
    scores: list[int]
    recorded: list[int]
    bag: int
    pool: Counter[str]
    racks: list[str | None]
    computed: int | None = None
    words: list[Word] = field(default_factory=list)
    placed: list[tuple[int, int, str]] = field(default_factory=list)
    bingo: bool = False
    premiums: list[str] = field(default_factory=list)
    leave: str | None = None
    findings: list[Finding] = field(default_factory=list)
    game_over: bool = False
    end_reason: str | None = None
    to_move: int | None = None

    @property
    def unseen(self) -> str:
        """Tiles not on the board, sorted (blanks last), as one string."""
        return "".join(t * n for t, n in sorted(self.pool.items(), key=_tile_order) if n > 0)

    def unseen_for(self, player: int) -> Counter[str]:
        """Tiles unseen by ``player``: not on the board and not on their known rack."""
        pool = self.pool.copy()
        pool.subtract(Counter(_rack_tokens(self.racks[player]) if self.racks[player] else ()))
        return +pool


def _tile_order(item: tuple[str, int]) -> tuple[int, str]:
    return (1 if item[0] == BLANK else 0, item[0])


def _rack_tokens(rack: str) -> list[str]:
    return [t.upper() if t != BLANK else t for t in rack]


@dataclass(slots=True)
class _Undo:
    """What a play changed, so that a withdrawn phony can be taken back."""

    event: Event
    player: int
    placed: list[tuple[int, int, str]]
    bag: int
    rack_counts: list[int]
    scoreless: int
    passes: int
    computed_before: int
    recorded_before: int
    computed_score: int | None
    game_over: bool


@dataclass(slots=True)
class Validation:
    """The outcome of replaying a whole record."""

    game: Game
    rules: RuleSet
    findings: list[Finding]
    recorded: list[int]
    computed: list[int]
    end_reason: str | None
    end_rule: EndRule | None
    events: int

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.game.path,
            "ok": self.ok,
            "events": self.events,
            "findings": [f.to_dict() for f in self.findings],
            "final_scores": self.recorded,
            "computed_scores": self.computed,
            "end_reason": self.end_reason,
            "end_rule": self.end_rule.value if self.end_rule else None,
            "tiles": self.rules.tiles.name,
            "board": self.rules.board.name,
        }


class Replayer:
    """Walks the events of a game, keeping board, bag and scores, and checking each line."""

    def __init__(
        self, game: Game, rules: RuleSet, *, snapshots: bool = True, detect_end_rule: bool = True
    ) -> None:
        self.game = game
        self.rules = rules
        self.tiles = rules.tiles
        self.snapshots = snapshots
        n = max(len(game.players), max((p.index + 1 for p in game.players), default=0), 2)
        self.n = n
        self.board = Board(rules.board)
        self.pool: Counter[str] = Counter(dict(rules.tiles.counts))
        self.bag = rules.tiles.total_tiles - rules.rack_size * n
        self.rack_counts = [rules.rack_size] * n
        self.racks: list[str | None] = [None] * n
        self.recorded = [0] * n
        self.computed = [0] * n
        self.next_turn: int | None = None
        self.scoreless = 0
        self.passes = 0
        self.undo: _Undo | None = None
        self.last: Event | None = None
        self.game_over = False
        self.end_reason: str | None = None
        self.out_player: int | None = None
        self.end_rule: EndRule | None = None if detect_end_rule else rules.end_rule
        self.points_lines = 0
        self.penalty_players: set[int] = set()
        self.time_players: set[int] = set()
        self.time_line = 0
        self.overdrawn: set[str] = set()
        self.findings: list[Finding] = []

    # ------------------------------------------------------------ helpers
    def _find(self, code: str, message: str, e: Event, **values: int | None) -> None:
        self.findings.append(make(code, message, e.line, e.column, **values))

    def _split(self, text: str, e: Event, what: str) -> list[str] | None:
        try:
            return self.tiles.split(text)
        except TileError as exc:
            bad = text[exc.index : exc.index + 1]
            self._find(
                "T403", f"{bad!r} in {what} {text!r} is not a tile of the {self.tiles.name} set", e
            )
            return None

    def _rack(self, e: Event) -> list[str] | None:
        """The event's rack as upper-case tiles, or None if absent or UNKNOWN."""
        if e.rack is None or e.rack.upper() == "UNKNOWN":
            return None
        tokens = self._split(e.rack, e, "rack")
        if tokens is None:
            return None
        if any(t in ".()" for t in tokens):
            self._find("P102", f"malformed rack {e.rack!r}", e)
            return None
        return [t if t == BLANK else t.upper() for t in tokens]

    def _check_drawable(self, rack: list[str], e: Event | None, line: int = 0) -> None:
        """A rack must come from the tiles not on the board."""
        need = Counter(rack)
        short = [t for t, k in need.items() if k > self.pool.get(t, 0)]
        if short:
            detail = ", ".join(f"{k} {t}" for t, k in need.items() if t in short)
            left = ", ".join(f"{self.pool.get(t, 0)} {t}" for t in short)
            msg = f"rack {''.join(rack)} has {detail} but only {left} unseen"
            if e is not None:
                self._find("T402", msg, e)
            else:
                self.findings.append(make("T402", msg, line))

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
        self._check_cumulative(e, p, e.score, computed)
        self.computed[p] += computed if computed is not None else e.score
        self.recorded[p] = e.cumulative

    def _check_cumulative(self, e: Event, p: int, recorded: int, computed: int | None) -> None:
        before = self.recorded[p]
        ok = {before + recorded}
        if computed is not None:
            ok.add(before + computed)
        if e.cumulative not in ok:
            expected = before + (computed if computed is not None else recorded)
            self._find(
                "S602",
                f"cumulative {e.cumulative}, expected {before} {recorded:+d} = {before + recorded}",
                e,
                recorded=e.cumulative,
                computed=expected,
            )

    # ------------------------------------------------------------- events
    def _turn(self, e: Event, p: int) -> bool:
        """Turn order for plays, passes and exchanges. False if the event is to be ignored."""
        if self.game_over:
            if (
                e.kind is EventKind.PASS
                and self.end_reason == "out"
                and p != self.out_player
                and self.points_lines == 0
                and e.score == 0
            ):
                self._find("O313", "final pass after the opponent went out is ignored", e)
                return False
            self._find("O302", f"{e.kind} after the game ended ({self.end_reason})", e)
        elif self.next_turn is not None and p != self.next_turn:
            expected = self.game.player(self.next_turn)
            who = expected.nick if expected else f"player {self.next_turn + 1}"
            self._find("O301", f"{e.nick} moves but it is {who}'s turn", e)
        self.next_turn = (p + 1) % self.n
        return True

    def _scoreless_turn(self, is_pass: bool) -> None:
        self.scoreless += 1
        self.passes = self.passes + 1 if is_pass else 0
        if self.game_over:
            return
        if self.scoreless >= self.rules.max_scoreless_turns:
            self.game_over, self.end_reason = True, "scoreless"
        elif self.rules.passes_to_end and self.passes >= self.rules.passes_to_end * self.n:
            self.game_over, self.end_reason = True, "passes"

    def play(self, e: Event, p: int, pos: Position) -> None:
        rack = self._rack(e)
        if rack is not None:
            self._check_drawable(rack, e)
        tokens = self._split(e.word or "", e, "word")
        board = self.board
        assert e.row is not None and e.col is not None
        dr, dc = (0, 1) if e.direction == "across" else (1, 0)
        r, c = e.row, e.col
        placed: list[tuple[int, int, str]] = []
        through = 0
        broken = tokens is None
        was_empty = board.is_empty()
        if not board.in_bounds(r, c):
            self._find("B504", f"{e.position} is off the {board.size}x{board.size} board", e)
            broken, tokens = True, []
        elif board.in_bounds(r - dr, c - dc) and board[r - dr, c - dc] is not None:
            self._find(
                "B505",
                f"{e.position} is not the first square of the word: "
                f"{square_name(r - dr, c - dc, e.direction or 'across')} holds "
                f"{board[r - dr, c - dc]}",
                e,
            )
        in_parens = False
        for tok in tokens or ():
            if tok == "(":
                in_parens = True
                continue
            if tok == ")":
                in_parens = False
                continue
            if not board.in_bounds(r, c):
                self._find("B504", f"{e.word} runs off the board at {square_name(r, c)}", e)
                broken = True
                break
            current = board[r, c]
            if tok == "." or in_parens:
                if current is None:
                    self._find(
                        "B508", f"{square_name(r, c)} is empty but {e.word} plays through it", e
                    )
                    broken = True
                elif tok != "." and tok.upper() != current.upper():
                    self._find("B506", f"{square_name(r, c)} holds {current}, not {tok}", e)
                    broken = True
                through += 1
            elif current is not None:
                if tok.upper() != current.upper():
                    self._find("B506", f"{square_name(r, c)} holds {current}, not {tok}", e)
                    broken = True
                through += 1
            else:
                if tok == BLANK:
                    self._find("T406", f"blank at {square_name(r, c)} has no letter", e)
                placed.append((r, c, tok))
            r, c = r + dr, c + dc
        if not broken and board.in_bounds(r, c) and board[r, c] is not None:
            self._find("B510", f"the word continues past {e.word} onto {square_name(r, c)}", e)
        if not placed and not broken:
            self._find("B509", f"{e.word} places no new tile", e)
            broken = True
        if was_empty and placed:
            centre = self.rules.board.centre
            if all((pr, pc) != centre for pr, pc, _ in placed):
                name = square_name(*centre)
                self._find("B501", f"the first play must cover the centre square {name}", e)
            if len(placed) < 2:
                self._find("B502", "the first play must use at least two tiles", e)
        elif placed and not through:
            if not any(
                board.in_bounds(pr + a, pc + b) and board[pr + a, pc + b] is not None
                for pr, pc, _ in placed
                for a, b in ((-1, 0), (1, 0), (0, -1), (0, 1))
            ):
                self._find("B503", f"{e.word} at {e.position} touches no tile on the board", e)

        # tiles used must be in the rack
        used = [BLANK if t != t.upper() or t == BLANK else t for _, _, t in placed]
        if rack is not None:
            missing = Counter(used) - Counter(rack)
            if missing:
                self._find(
                    "T401",
                    f"{''.join(sorted(missing.elements()))} not in rack {e.rack}",
                    e,
                )
            leave = Counter(rack) - Counter(used)
            pos.leave = "".join(sorted(leave.elements(), key=lambda t: (t == BLANK, t)))

        # put the tiles down and score
        before = self.board
        undo = _Undo(
            e, p, placed, self.bag, self.rack_counts.copy(), self.scoreless, self.passes,
            self.computed[p], self.recorded[p], None, self.game_over,
        )  # fmt: skip
        for pr, pc, tok in placed:
            before[pr, pc] = tok
            key = BLANK if tok != tok.upper() or tok == BLANK else tok
            self.pool[key] -= 1
            if self.pool[key] < 0 and key not in self.overdrawn:
                self.overdrawn.add(key)
                self._find("T408", f"more {key} played than the {self.tiles.name} set holds", e)
        board.last_play = tuple((pr, pc) for pr, pc, _ in placed)
        result: PlayScore | None = None
        computed: int | None = None
        if placed:
            result = score_play(
                board,
                [(pr, pc) for pr, pc, _ in placed],
                e.direction or "across",
                self.tiles,
                bingo_size=self.rules.rack_size,
                bingo_bonus=self.rules.bingo_bonus,
            )
            pos.words, pos.bingo, pos.premiums = result.words, result.bingo, result.premiums
            if not broken:
                computed = result.score
        pos.placed = placed
        pos.computed = computed
        undo.computed_score = computed
        self.undo = undo
        self._check_totals(e, p, computed, "S601")

        # draw
        k = len(placed)
        self.rack_counts[p] = max(self.rack_counts[p] - k, 0)
        draw = min(k, self.bag)
        self.bag -= draw
        self.rack_counts[p] += draw
        if (e.score if computed is None else computed) == 0:
            self._scoreless_turn(False)
        else:
            self.scoreless = self.passes = 0
        if not self.game_over and self.bag == 0 and self.rack_counts[p] == 0:
            self.game_over, self.end_reason, self.out_player = True, "out", p

    def exchange(self, e: Event, p: int, pos: Position) -> None:
        rack = self._rack(e)
        if rack is not None:
            self._check_drawable(rack, e)
        if self.bag < self.rules.exchange_minimum_bag:
            self._find(
                "T404",
                f"exchange with {self.bag} tiles in the bag "
                f"(at least {self.rules.exchange_minimum_bag} needed)",
                e,
            )
        if e.count is not None:
            limit = len(rack) if rack is not None else self.rules.rack_size
            if not 0 < e.count <= limit:
                self._find("T405", f"exchange of {e.count} tiles from a rack of {limit}", e)
        elif e.tiles is not None:
            tokens = self._split(e.tiles, e, "exchange")
            if tokens is not None and any(t in ".()" for t in tokens):
                self._find("P104", f"malformed exchange -{e.tiles}", e)
            elif tokens is not None and rack is not None:
                swapped = [t if t == BLANK else t.upper() for t in tokens]
                missing = Counter(swapped) - Counter(rack)
                if missing:
                    self._find(
                        "T401", f"{''.join(sorted(missing.elements()))} not in rack {e.rack}", e
                    )
                leave = Counter(rack) - Counter(swapped)
                pos.leave = "".join(sorted(leave.elements(), key=lambda t: (t == BLANK, t)))
        pos.computed = 0
        self.undo = None
        self._check_totals(e, p, 0, "S601")
        self._scoreless_turn(False)

    def pass_(self, e: Event, p: int, pos: Position) -> None:
        rack = self._rack(e)
        if rack is not None:
            self._check_drawable(rack, e)
            pos.leave = "".join(rack)
        pos.computed = 0
        self.undo = None
        self._check_totals(e, p, 0, "S601")
        self._scoreless_turn(True)

    def withdrawn(self, e: Event, p: int, pos: Position) -> None:
        undo = self.undo
        self.undo = None
        if undo is None or self.last is not undo.event:
            self._find("O305", "phony withdrawn (--) but the previous line is not a play", e)
            self.recorded[p] = e.cumulative
            return
        if undo.player != p:
            self._find("O306", f"{e.nick} withdraws a play made by {undo.event.nick}", e)
        elif e.rack is not None and undo.event.rack is not None and e.rack != undo.event.rack:
            self._find(
                "O306", f"rack {e.rack} differs from the withdrawn play's {undo.event.rack}", e
            )
        q = undo.player
        board = self.board
        for pr, pc, tok in undo.placed:
            board[pr, pc] = None
            self.pool[BLANK if tok != tok.upper() or tok == BLANK else tok] += 1
        board.last_play = ()
        self.bag = undo.bag
        self.rack_counts = undo.rack_counts
        self.scoreless, self.passes = undo.scoreless, undo.passes
        self.game_over, self.end_reason, self.out_player = undo.game_over, None, None
        expected = -undo.event.score
        if e.score not in (expected, 0):
            self._find(
                "S605",
                f"recorded {e.score:+d} but the withdrawn play scored {undo.event.score:+d}",
                e,
                recorded=e.score,
                computed=expected,
            )
        if e.cumulative != undo.recorded_before:
            self._find(
                "S602",
                f"cumulative {e.cumulative}, expected {undo.recorded_before} (the total before "
                f"the withdrawn play)",
                e,
                recorded=e.cumulative,
                computed=undo.recorded_before,
            )
        pos.computed = -(
            undo.computed_score if undo.computed_score is not None else undo.event.score
        )
        self.computed[q] = undo.computed_before
        self.recorded[q] = e.cumulative
        self._scoreless_turn(False)

    def challenge_bonus(self, e: Event, p: int, pos: Position) -> None:
        undo = self.undo
        if undo is None or self.last is not undo.event:
            self._find("O303", "challenge bonus but the previous line is not a play", e)
        elif undo.player != p:
            self._find(
                "O304",
                f"challenge bonus to {e.nick} but the challenged play was {undo.event.nick}'s",
                e,
            )
        fixed = self.rules.challenge_bonus
        computed: int | None = None
        if fixed is not None and e.score != fixed:
            self._find(
                "S606", f"challenge bonus {e.score:+d}, the rules give {fixed:+d}", e,
                recorded=e.score, computed=fixed,
            )  # fmt: skip
        elif fixed is None and (e.score < 0 or e.score % 5):
            self._find("S606", f"challenge bonus {e.score:+d} is not 0, 5 per word or 10", e)
        pos.computed = computed if computed is not None else e.score
        self._check_totals(e, p, None, "S606")

    def end_rack_points(self, e: Event, p: int, pos: Position) -> None:
        if not self.game_over:
            self._find("O307", "end-rack points but nobody has gone out yet", e)
        elif self.end_reason != "out":
            self._find("O314", f"end-rack points but the game ended by {self.end_reason}", e)
        elif p != self.out_player:
            who = self.game.player(self.out_player)
            self._find(
                "O314", f"end-rack points to {e.nick}, but {who.nick if who else '?'} went out", e
            )
        self.points_lines += 1
        if self.points_lines > self.n - 1:
            self._find("O308", "end-rack points given again", e)
        if self.time_line:
            self.findings.append(
                make("O309", "time penalty before the end-rack lines", self.time_line)
            )
            self.time_line = 0
        tokens = self._split(e.tiles or "", e, "end rack")
        tiles = [t if t == BLANK else t.upper() for t in tokens] if tokens is not None else None
        remaining = +self.pool
        if tiles is not None and self.game_over and self.end_reason == "out":
            if self.n == 2 and Counter(tiles) != remaining:
                left = "".join(sorted(remaining.elements()))
                self._find("T407", f"({e.tiles}) but the tiles left are ({left})", e)
            elif self.n > 2 and Counter(tiles) - remaining:
                self._find("T407", f"({e.tiles}) are not among the tiles left", e)
        value = sum(self.tiles.value(t) for t in (tiles if tiles is not None else ()))
        computed: int | None = None
        if tiles is not None:
            if self.end_rule is None:
                if e.score == value and value != 2 * value:
                    self.end_rule = EndRule.INTERNATIONAL
                elif e.score == 2 * value:
                    self.end_rule = EndRule.STANDARD
            rule = self.end_rule or EndRule.STANDARD
            computed = 2 * value if rule is EndRule.STANDARD else value
        pos.computed = computed
        self._check_totals(e, p, computed, "S603")

    def end_rack_penalty(self, e: Event, p: int, pos: Position) -> None:
        if not self.game_over:
            self._find("O307", "own-rack penalty before the game is over", e)
        elif self.end_reason == "out" and p == self.out_player:
            self._find("O314", f"{e.nick} went out and has no tiles to lose", e)
        if p in self.penalty_players:
            self._find("O308", f"own-rack penalty for {e.nick} given again", e)
        self.penalty_players.add(p)
        if self.end_reason == "out" and self.end_rule is None and p != self.out_player:
            self.end_rule = EndRule.INTERNATIONAL
        if self.time_line:
            self.findings.append(
                make("O309", "time penalty before the end-rack lines", self.time_line)
            )
            self.time_line = 0
        computed: int | None = None
        rack = self._rack(e)
        tokens = self._split(e.tiles or "", e, "end rack")
        if rack is not None and tokens is not None:
            tiles = [t if t == BLANK else t.upper() for t in tokens]
            if Counter(tiles) != Counter(rack):
                self._find("T407", f"{e.rack} ({e.tiles}): the two racks differ", e)
            missing = Counter(tiles) - +self.pool
            if missing:
                self._find(
                    "T402",
                    f"({e.tiles}) holds {''.join(sorted(missing.elements()))} that are not "
                    "left unplayed",
                    e,
                )
            computed = -sum(self.tiles.value(t) for t in tiles)
        pos.computed = computed
        self._check_totals(e, p, computed, "S604")

    def time_penalty(self, e: Event, p: int, pos: Position) -> None:
        if p in self.time_players:
            self._find("O310", f"time penalty for {e.nick} given again", e)
        self.time_players.add(p)
        if not self.game_over:
            later = self.game.events[self.game.events.index(e) + 1 :]
            if any(x.kind not in (EventKind.TIME_PENALTY,) for x in later):
                self._find("O307", "time penalty before the game is over", e)
            else:
                self.game_over, self.end_reason = True, "time"
        else:
            self.time_line = self.time_line or e.line
        if e.score > 0:
            self._find("S608", f"time penalty {e.score:+d} should be negative", e)
        elif e.score % self.rules.time_penalty_per_minute:
            self._find(
                "S607",
                f"time penalty {e.score:+d} is not a multiple of "
                f"{self.rules.time_penalty_per_minute}",
                e,
            )
        pos.computed = e.score
        self._check_totals(e, p, None, "S607")

    # --------------------------------------------------------------- walk
    def position(self, index: int, event: Event | None) -> Position:
        return Position(
            index=index,
            event=event,
            board=self.board.copy() if self.snapshots else self.board,
            scores=self.computed.copy(),
            recorded=self.recorded.copy(),
            bag=self.bag,
            pool=self.pool.copy() if self.snapshots else self.pool,
            racks=self.racks.copy(),
        )

    def run(self) -> Iterator[Position]:
        game = self.game
        start = self.position(-1, None)
        start.to_move = game.events[0].player if game.events else None
        yield start
        handlers = {
            EventKind.PLAY: self.play,
            EventKind.PASS: self.pass_,
            EventKind.EXCHANGE: self.exchange,
            EventKind.WITHDRAWN: self.withdrawn,
            EventKind.CHALLENGE_BONUS: self.challenge_bonus,
            EventKind.END_RACK_POINTS: self.end_rack_points,
            EventKind.END_RACK_PENALTY: self.end_rack_penalty,
            EventKind.TIME_PENALTY: self.time_penalty,
        }
        shared = {
            pl.nick for pl in game.players if sum(q.nick == pl.nick for q in game.players) > 1
        }
        for i, e in enumerate(game.events):
            mark = len(self.findings)
            pos = Position(i, e, self.board, [], [], 0, self.pool, [])
            if e.nick in shared and self.next_turn is not None:
                # two players share the nickname (H201): the one whose turn it is moved
                owners = [pl.index for pl in game.players if pl.nick == e.nick]
                if self.next_turn in owners and e.kind in TURN_KINDS:
                    e.player = self.next_turn
            p = e.player
            if p is not None:
                if e.rack is not None and e.kind in (EventKind.PLAY, EventKind.PASS,
                                                     EventKind.EXCHANGE):  # fmt: skip
                    self.racks[p] = e.rack
                if e.kind in (EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE):
                    if not self._turn(e, p):
                        self.last = e
                        continue
                handlers[e.kind](e, p, pos)
            elif e.kind is EventKind.PLAY:
                # an unknown player's play still changes the board for later lines
                self.play(e, 0, Position(i, e, self.board, [], [], 0, self.pool, []))
                self.findings = self.findings[:mark]
            self.last = e
            snap = self.position(i, e)
            snap.computed, snap.words, snap.placed = pos.computed, pos.words, pos.placed
            snap.bingo, snap.premiums, snap.leave = pos.bingo, pos.premiums, pos.leave
            snap.findings = self.findings[mark:]
            snap.game_over, snap.end_reason = self.game_over, self.end_reason
            snap.to_move = self.next_turn
            yield snap
        self.finish()

    def finish(self) -> None:
        """Checks on the record as a whole, once every event is replayed."""
        game = self.game
        last_line = game.events[-1].line if game.events else 0
        for index, rack in game.final_racks.items():
            line = next(
                (pr.line for pr in reversed(game.pragmas) if pr.keyword == f"rack{index + 1}"), 0
            )
            try:
                tokens = self.tiles.split(rack)
            except TileError:
                self.findings.append(
                    make("T403", f"#rack{index + 1} {rack} has unknown tiles", line)
                )
                continue
            self._check_drawable([t if t == BLANK else t.upper() for t in tokens], None, line)
        if not game.events:
            return
        if not self.game_over:
            if not game.incomplete and not game.final_racks:
                self.findings.append(
                    make("O312", f"the game is not over: {self.bag} tiles in the bag", last_line)
                )
        elif self.end_reason == "out" and not self.points_lines and not self.penalty_players:
            self.findings.append(
                make("R702", "a player went out but no end-rack points follow", last_line)
            )
        elif self.end_reason == "scoreless" and not self.penalty_players:
            self.findings.append(
                make("R702", "six scoreless turns ended the game but no rack penalties follow",
                     last_line)
            )  # fmt: skip


def replay(
    game: Game,
    rules: RuleSet | None = None,
    *,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> Iterator[Position]:
    """Yield the :class:`Position` after each event of ``game`` (first the empty start).

    ``rules`` defaults to what the record's pragmas imply, with the overrides given.
    Without ``end_rule`` the end-of-game rule is read from the record itself.
    """
    if rules is None:
        rules, _ = rules_for(
            game, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
        )
    yield from Replayer(game, rules, detect_end_rule=end_rule is None).run()


def validate(
    game: Game,
    rules: RuleSet | None = None,
    *,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> Validation:
    """Replay the whole record and return every finding, parse-level ones included."""
    setup_findings: list[Finding] = []
    if rules is None:
        rules, setup_findings = rules_for(
            game, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
        )
    replayer = Replayer(game, rules, snapshots=False, detect_end_rule=end_rule is None)
    count = 0
    for _ in replayer.run():
        count += 1
    findings = sorted(
        [*game.findings, *setup_findings, *replayer.findings], key=lambda f: (f.line, f.code)
    )
    for f in findings:
        f.path = game.path
    return Validation(
        game=game,
        rules=rules,
        findings=findings,
        recorded=replayer.recorded,
        computed=replayer.computed,
        end_reason=replayer.end_reason,
        end_rule=replayer.end_rule,
        events=len(game.events),
    )
