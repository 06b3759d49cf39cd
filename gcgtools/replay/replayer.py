"""The replayer: the state of a replay and the step through one record line (an event, a
line the parser could not read, a final ``#rackN``). The state is in
:mod:`~gcgtools.replay.state`, the checks every event shares in
:mod:`~gcgtools.replay.checks`, the event handlers (functions of the state) in
:mod:`~gcgtools.replay.moves`, :mod:`~gcgtools.replay.turns` and
:mod:`~gcgtools.replay.ending`; the walk that drives a
visitor over the record, and the entry points, in :mod:`~gcgtools.replay.walk`. The
replayer reads no record line itself: the lines the parser could not read come with what
the model recovered from them (``Game.lost``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator

from gcgtools.findings import Code, Finding, make
from gcgtools.model.game import Game, LostLine
from gcgtools.replay import ending, moves, turns
from gcgtools.replay.board import Board
from gcgtools.replay.checks import check_drawable
from gcgtools.replay.position import Position, upper_tiles
from gcgtools.replay.scoring import Word, flat_score_play
from gcgtools.replay.state import ReplayState, start_state
from gcgtools.rules.rulesets import EndRule, RuleSet
from gcgtools.rules.tiles import TileError
from gcgtools.syntax.records import TURN_KINDS, Event, EventKind, Pragma

__all__ = ["Replayer"]

_RACK = re.compile(r"rack[1-9]$")


class Replayer:
    """The state of a replay (board, bag, racks, totals, findings) and the step through
    one record line: :meth:`events` replays the record, line by line, and
    :func:`~gcgtools.replay.walk.walk` drives a visitor over it. The final totals,
    ``findings``, ``end_reason`` and ``end_rule`` stay on the replayer. The replayer holds
    the state (``state``, :class:`~gcgtools.replay.state.ReplayState`), the findings it
    reports, and steps the rule checks through the record; what visitors read of the state
    it gives as read-only properties.

    ``scratch``: one position reused for every event, for a walk that reads none.
    """

    def __init__(
        self,
        game: Game,
        rules: RuleSet,
        *,
        detail: bool = True,
        scratch: bool = False,
        detect_end_rule: bool = True,
    ) -> None:
        self.findings: list[Finding] = []
        self.state = start_state(
            game, rules, self.findings.append, detail=detail, detect_end_rule=detect_end_rule
        )
        # a walk that reads no position reuses one for every event; others get one each
        self.scratch: Position | None = (
            Position(0, None, self.board, [], [], 0, self.pool, []) if scratch else None
        )
        nicks = [pl.nick for pl in game.players]
        self.shared = {nick for nick in nicks if nicks.count(nick) > 1}

    # ------------------------------------------ the state, read-only, for the visitors
    @property
    def game(self) -> Game:
        """The game replayed."""
        return self.state.game

    @property
    def rules(self) -> RuleSet:
        """The rules it is replayed under."""
        return self.state.rules

    @property
    def board(self) -> Board:
        """The live board."""
        return self.state.table.board

    @property
    def pool(self) -> Counter[str]:
        """The live unseen pool: the tiles not on the board."""
        return self.state.table.pool

    @property
    def bag(self) -> int:
        """Tiles in the bag."""
        return self.state.hands.bag

    @property
    def rack_counts(self) -> list[int]:
        """Tiles on each player's rack."""
        return self.state.hands.counts

    @property
    def racks(self) -> list[str | None]:
        """Each player's last recorded rack."""
        return self.state.hands.racks

    @property
    def kept(self) -> list[str | None]:
        """Each player's last leave."""
        return self.state.hands.kept

    @property
    def recorded(self) -> list[int]:
        """Each player's last recorded cumulative."""
        return self.state.totals.recorded

    @property
    def computed(self) -> list[int]:
        """Each player's total by the computed scores."""
        return self.state.totals.computed

    @property
    def plays_scored(self) -> int:
        """Plays whose score could be computed."""
        return self.state.totals.plays_scored

    @property
    def game_over(self) -> bool:
        """Whether the game has ended."""
        return self.state.ending.over

    @property
    def end_reason(self) -> str | None:
        """How the game ended (``out``, ``scoreless``, ``passes``, ``time``), if it has."""
        return self.state.ending.reason

    @property
    def end_rule(self) -> EndRule | None:
        """The end-of-game rule, given or read from the record so far."""
        return self.state.ending.rule

    # --------------------------------------------------------------- walk
    def words_now(self, pos: Position) -> list[Word]:
        """The words of the play of ``pos`` (as a walk with ``detail`` gives them in ``pos.words``),
        read off the live board: valid only while the walk stands at ``pos``."""
        e = pos.event
        if e is None or not pos.placed:
            return []
        rules, board = self.rules, self.board
        size = board.size
        flat = [r * size + c for r, c, _ in pos.placed]
        return flat_score_play(
            board, flat, e.direction or "across", rules.tiles, rules.rack_size,
            rules.bingo_bonus,
        ).words  # fmt: skip

    def start(self) -> Position:
        """The position before any event, and who moves first."""
        game = self.game
        start = self.position(0, None)
        start.to_move = turns.player_of(self.state, game.events[0]) if game.events else None
        return start

    def position(self, number: int, event: Event | None) -> Position:
        """The position now, after event ``number`` (1-based; 0 the start), with its own
        copies of the state (:meth:`snapshot`)."""
        pos = Position(number, event, self.board, (), self.recorded.copy(), 0, self.pool, ())
        self.snapshot(pos)
        return pos

    def snapshot(self, pos: Position) -> None:
        """Give ``pos`` copies of the state now: the board, the unseen pool, the computed
        totals, the racks and leaves, and the bag's count."""
        state = self.state
        table, hands = state.table, state.hands
        pos.board = table.board.copy()
        pos.pool = table.pool.copy()
        pos.scores = state.totals.computed.copy()
        pos.bag = hands.bag
        pos.racks = hands.racks.copy()
        pos.kept = hands.kept.copy()

    def events(self) -> Iterator[tuple[Position, int]]:
        """Replay every event in order, and the lines between them (unreadable event lines,
        final ``#rackN``); yield after each event its position (sharing the live board and
        pool; the scratch one if set) and how many findings there were before it. The
        record-wide checks (:func:`~gcgtools.replay.ending.finish`) run once the last
        event is replayed."""
        game = self.game
        first = game.events[0] if game.events else None
        between = sorted(
            [(lost.line, lost) for lost in game.lost]
            + [(pr.line, pr) for pr in game.pragmas if _RACK.match(pr.keyword) and first
               and pr.line > first.line],
            key=lambda item: item[0],
        )  # fmt: skip
        gap = 0  # index into between
        for i, e in enumerate(game.events):
            while gap < len(between) and between[gap][0] < e.line:
                self._between(*between[gap])
                gap += 1
            mark = len(self.findings)
            yield self._step(i, e), mark
        for line, pragma in between[gap:]:
            self._between(line, pragma)
        ending.finish(self.state, self.findings)

    def _step(self, i: int, e: Event) -> Position:
        """Replay one event; the returned position shares the live board and pool."""
        state = self.state
        order = state.order
        kind = e.kind
        turn = kind in TURN_KINDS
        if turn and e.nick in self.shared:
            # two players share the nickname (H201): the one whose turn it is moved
            owners = [pl.index for pl in state.game.players if pl.nick == e.nick]
            e.player = order.next if order.next in owners else owners[0]
        p = turns.player_of(state, e)
        pos = self.scratch
        if pos is None:
            pos = Position(i + 1, e, state.table.board, (), (), 0, state.table.pool, (), player=p)
        else:  # a walk for findings only: nobody keeps it
            pos.number, pos.event, pos.player, pos.leave = i + 1, e, p, None
        if p is not None:
            replayed = True
            if turn:
                replayed, p = turns.take_turn(state, e, p)
                pos.player = p
                if replayed and e.rack is not None:
                    state.hands.racks[p] = e.rack
            if replayed:
                _HANDLERS[kind](state, e, p, pos)
                if turn and pos.leave is not None:
                    state.hands.kept[p] = pos.leave
        if order.ignored:
            order.ignored = False  # the line changed nothing: the last line stays the last
        else:
            order.last = e
        return pos

    # ------------------------------------------------- lines between events
    def _between(self, line: int, item: Pragma | LostLine) -> None:
        """An unreadable event line or a final ``#rackN``, whose rack must come from the
        tiles not on the board at that point."""
        if isinstance(item, LostLine):
            self._lost(item)
            return
        number = item.keyword.removeprefix("rack")
        words = item.value.split()
        rack = words[0] if words else ""
        try:
            tokens = self.rules.tiles.split(rack)
        except TileError:
            self.findings.append(
                make(Code.NOT_A_TILE, f"#rack{number} {rack} has unknown tiles", line)
            )
            return
        check_drawable(self.state, upper_tiles(tokens), None, line)

    def _lost(self, lost: LostLine) -> None:
        """An event line the parser could not read. The event the model recovered from it
        (its fault is reported once, by the parser) is replayed; otherwise the replay
        leaves a gap there (see :meth:`_gap`)."""
        if lost.event is None:
            self._gap(lost.player)
        else:
            self._step(-1, lost.event)

    def _gap(self, p: int | None) -> None:
        """An event line of player ``p`` (None: unknown) the parser could not read: its
        player's next cumulative and the turn order are not judged across it (it may have
        been a turn, a bonus, ...), nor, from here on, what depends on every tile played
        being known (the tiles left at the end, whether a player went out)."""
        state = self.state
        gaps = state.gaps
        gaps.unjudged.update(range(state.order.players) if p is None else (p,))
        state.order.next = None
        gaps.tiles_unknown = True
        if state.ending.over:
            gaps.after_end = True


# The handler of each kind of event.
_HANDLERS: dict[EventKind, Callable[[ReplayState, Event, int, Position], None]] = {
    EventKind.PLAY: moves.play,
    EventKind.PASS: moves.pass_,
    EventKind.EXCHANGE: moves.exchange,
    EventKind.WITHDRAWN: turns.withdrawn,
    EventKind.CHALLENGE_BONUS: turns.challenge_bonus,
    EventKind.END_RACK_POINTS: ending.end_rack_points,
    EventKind.END_RACK_PENALTY: ending.end_rack_penalty,
    EventKind.TIME_PENALTY: ending.time_penalty,
}
