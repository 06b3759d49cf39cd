"""Replaying a game event by event: board, bag, racks, scores, and every finding.

:func:`replay` yields a :class:`Position` after each event. :func:`validate` runs the
replay to the end and gathers the findings. The replay never stops at a problem: it
reports it at its own line and carries on from what the record says, so a single
mistake is reported once and later lines are judged on their own:

* the cumulative of a line is checked against the player's previous *recorded* total (a
  wrong total is reported once; later lines that follow it, or that follow the computed
  total, are fine);
* a play whose recorded score is wrong still counts as recorded for the totals;
* a play that cannot be put on the board as written (off the board, through an empty
  square, an unknown letter) still takes its tiles from the rack and the bag, so the end
  of the game is still found; no tile of a play that runs off the board is put down (where
  it went is unknown), the other such plays put their new tiles on their own squares, and
  a later play through an empty square the play may cover is not judged (B511);
* a move after the end of the game is reported and then ignored;
* a line whose nickname is wrong (out of turn, or a challenge bonus to the wrong player)
  but whose cumulative follows the other player's total is read as that player's line; a
  nickname that names no player is read as the player whose turn it is;
* a ``--`` whose player made no play just before it changes nothing (O305);
* an event line the parser could not read is replayed as the model recovered it
  (``Game.lost``, :mod:`gcgtools.model.salvage`: with an unknown rack when only its rack
  was at fault, with the ``:`` a declared nickname lacked); any other unreadable event line
  leaves a gap: the turn order and the next cumulative of its player are not judged across
  it, nor from then on the tiles left at the end;
* when most plays misscore, one S609 says the record probably uses another board or other
  tile values (:func:`validate` names a known pair that fits, if any);

This module holds the :class:`Replayer` (the walk through the record's events, its lost
lines and final racks; it reads no record line itself) and the two entry points. The
state and the shared checks are in :mod:`~gcgtools.replay.state`; the event handlers in
:mod:`~gcgtools.replay.moves`, :mod:`~gcgtools.replay.turns` and
:mod:`~gcgtools.replay.endgame`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from gcgtools.findings import Code, Finding, make
from gcgtools.model.game import Game, LostLine
from gcgtools.replay.endgame import EndGame
from gcgtools.replay.moves import Moves
from gcgtools.replay.position import Position, Validation, upper_tiles
from gcgtools.replay.scoring import Word, flat_score_play
from gcgtools.replay.setup import resolve_rules
from gcgtools.replay.turns import Turns
from gcgtools.rules.boards import BOARDS
from gcgtools.rules.options import RuleOptions, rule_options
from gcgtools.rules.rulesets import EndRule, RuleSet, bingo_bonus_for
from gcgtools.rules.tiles import TILE_SETS, TileError
from gcgtools.syntax.records import TURN_KINDS, Event, EventKind, Pragma

__all__ = ["Position", "Replayer", "Validation", "replay", "validate"]

_RACK = re.compile(r"rack[1-9]$")


class Replayer(Moves, Turns, EndGame):
    """Walks the events of a game, keeping board, bag and scores, and checking each line.

    :meth:`run` yields the positions (copies of the board and pool unless ``snapshots`` is
    false); :meth:`check` only gathers the findings. Either way the final totals,
    ``findings``, ``end_reason`` and ``end_rule`` stay on the replayer.
    """

    def __init__(
        self, game: Game, rules: RuleSet, *, snapshots: bool = True, detect_end_rule: bool = True
    ) -> None:
        super().__init__(game, rules, detect_end_rule=detect_end_rule)
        self.snapshots = snapshots
        self.lost_lines = [lost.line for lost in game.lost]
        # each lost line, and the player it names (None: unknown), once the walk passed it
        self.lost_players: dict[int, int | None] = {}
        # check() reuses one position for every event; run() and steps() make one each
        self.scratch: Position | None = None
        nicks = [pl.nick for pl in game.players]
        self.shared = {nick for nick in nicks if nicks.count(nick) > 1}

    # --------------------------------------------------------------- walk
    def run(self) -> Iterator[Position]:
        """The start position, then the position after each event."""
        game = self.game
        start = self.position(0, None)
        start.to_move = self._player_of(game.events[0]) if game.events else None
        yield start
        snapshots = self.snapshots
        self.scratch = None
        for _, _, pos, mark in self._walk():
            # the step's own position (a new one per event), completed with the state now
            if snapshots:
                pos.board = self.board.copy()
                pos.pool = self.pool.copy()
            pos.scores = self.computed.copy()
            pos.recorded = self.recorded.copy()
            pos.bag = self.bag
            pos.racks = self.racks.copy()
            pos.kept = self.kept.copy()
            pos.findings = self.findings[mark:]
            pos.game_over, pos.end_reason = self.game_over, self.end_reason
            pos.to_move = self.next_turn
            yield pos

    def check(self) -> list[Finding]:
        """Replay the whole record for its findings only, without building positions."""
        self.detail = False
        self.scratch = Position(0, None, self.board, [], [], 0, self.pool, [])
        for _ in self._walk():
            pass
        return self.findings

    def steps(self, *, detail: bool = False) -> Iterator[Position]:
        """The position after each event (no start position), lean, for tables that read
        a few fields of every event. Filled are ``number``, ``event``, ``player``,
        ``computed``, ``placed``, ``bingo``, ``recorded`` (a copy), ``findings``,
        ``game_over``, ``end_reason`` and ``to_move``, and with ``detail`` also ``words``,
        ``premiums`` and ``leave`` (as :meth:`run` fills them); ``board`` and ``pool`` are
        the live ones (see :meth:`words_now`); ``scores``, ``racks`` and ``kept`` are left
        empty."""
        self.detail = detail
        self.scratch = None
        for _, _, pos, mark in self._walk():
            pos.recorded = self.recorded.copy()
            pos.findings = self.findings[mark:]
            pos.game_over, pos.end_reason = self.game_over, self.end_reason
            pos.to_move = self.next_turn
            yield pos

    def words_now(self, pos: Position) -> list[Word]:
        """The words of the play of ``pos`` (as :meth:`run` gives them in ``pos.words``),
        read off the live board: valid only while :meth:`steps` stands at ``pos``."""
        e = pos.event
        if e is None or not pos.placed:
            return []
        rules = self.rules
        size = self.board.size
        flat = [r * size + c for r, c, _ in pos.placed]
        return flat_score_play(
            self.board, flat, e.direction or "across", self.tiles, rules.rack_size,
            rules.bingo_bonus,
        ).words  # fmt: skip

    def position(self, number: int, event: Event | None) -> Position:
        """The position now, after event ``number`` (1-based; 0 the start)."""
        return Position(
            number=number,
            event=event,
            board=self.board.copy() if self.snapshots else self.board,
            scores=self.computed.copy(),
            recorded=self.recorded.copy(),
            bag=self.bag,
            pool=self.pool.copy() if self.snapshots else self.pool,
            racks=self.racks.copy(),
            kept=self.kept.copy(),
        )

    def _walk(self) -> Iterator[tuple[int, Event, Position, int]]:
        """Replay every event in order, and the lines between them (unreadable event lines,
        final ``#rackN``); yield ``(index, event, scratch position, findings mark)``."""
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
            yield i, e, self._step(i, e), mark
        for line, pragma in between[gap:]:
            self._between(line, pragma)
        self.finish()

    def _step(self, i: int, e: Event) -> Position:
        """Replay one event; the returned position shares the live board and pool."""
        kind = e.kind
        turn = kind in TURN_KINDS
        if turn and e.nick in self.shared:
            # two players share the nickname (H201): the one whose turn it is moved
            owners = [pl.index for pl in self.game.players if pl.nick == e.nick]
            e.player = self.next_turn if self.next_turn in owners else owners[0]
        p = self._player_of(e)
        pos = self.scratch
        if pos is None:
            pos = Position(i + 1, e, self.board, (), (), 0, self.pool, (), player=p)
        else:  # check(): nobody reads the position but the move's own handler
            pos.leave = None
        if p is not None:
            replayed = True
            if turn:
                replayed, p = self._turn(e, p)
                pos.player = p
                if replayed and e.rack is not None:
                    self.racks[p] = e.rack
            if replayed:
                _HANDLERS[kind](self, e, p, pos)
                if turn and pos.leave is not None:
                    self.kept[p] = pos.leave
        if self.ignored:
            self.ignored = False  # the line changed nothing: the last line stays the last
        else:
            self.last = e
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
            tokens = self.tiles.split(rack)
        except TileError:
            self.findings.append(
                make(Code.NOT_A_TILE, f"#rack{number} {rack} has unknown tiles", line)
            )
            return
        self._check_drawable(upper_tiles(tokens), None, line)

    def _lost(self, lost: LostLine) -> None:
        """An event line the parser could not read. The event the model recovered from it
        (its fault is reported once, by the parser) is replayed; otherwise the replay
        leaves a gap there (see :meth:`_gap`)."""
        if lost.event is None:
            self._gap(lost.player)
        else:
            self._step(-1, lost.event)
        self.lost_players[lost.line] = lost.player

    def _gap(self, p: int | None) -> None:
        """An event line of player ``p`` (None: unknown) the parser could not read: its
        player's next cumulative and the turn order are not judged across it (it may have
        been a turn, a bonus, ...), nor, from here on, what depends on every tile played
        being known (the tiles left at the end, whether a player went out)."""
        self.unjudged.update(range(self.n) if p is None else (p,))
        self.next_turn = None
        self.tiles_unknown = True
        if self.game_over:
            self.lost_after_end = True


# The handler of each kind of event (plain functions: no per-replayer table of bound
# methods, which would tie the replayer into a reference cycle).
_HANDLERS: dict[EventKind, Callable[[Replayer, Event, int, Position], None]] = {
    EventKind.PLAY: Replayer.play,
    EventKind.PASS: Replayer.pass_,
    EventKind.EXCHANGE: Replayer.exchange,
    EventKind.WITHDRAWN: Replayer.withdrawn,
    EventKind.CHALLENGE_BONUS: Replayer.challenge_bonus,
    EventKind.END_RACK_POINTS: Replayer.end_rack_points,
    EventKind.END_RACK_PENALTY: Replayer.end_rack_penalty,
    EventKind.TIME_PENALTY: Replayer.time_penalty,
}


def _name_what_fits(
    game: Game, rules: RuleSet, findings: list[Finding], *, detect_end_rule: bool
) -> None:
    """When most plays misscore (S609), replay the record on every known board with every
    known tile set that spells it; name in the finding the pair whose scores fit (at most
    one play in ten misscored, the fewest), if any."""
    hint = next((f for f in findings if f.code == Code.MOSTLY_MISSCORED), None)
    if hint is None:
        return
    texts = ".".join(t for e in game.events for t in (e.word, e.tiles, e.rack) if t)
    best: tuple[int, str, str] | None = None
    for layout in BOARDS.values():
        for tile_set in TILE_SETS.values():
            if (layout is rules.board and tile_set.name == rules.tiles.name) or not (
                tile_set.spells(texts)
            ):
                continue
            bonus = bingo_bonus_for(tile_set.name, layout.name)
            other = replace(rules, board=layout, tiles=tile_set, bingo_bonus=bonus, name="")
            trial = Replayer(game, other, snapshots=False, detect_end_rule=detect_end_rule)
            wrong = sum(1 for f in trial.check() if f.code == Code.PLAY_SCORE)
            if trial.plays_scored and wrong * 10 <= trial.plays_scored:
                if best is None or wrong < best[0]:
                    best = (wrong, layout.name, tile_set.name)
    if best is not None:
        _, layout_name, tiles_name = best
        hint.message = (
            hint.message.split(": the record", 1)[0]
            + f": its scores fit the {layout_name} board with {tiles_name} tile values "
            f"(--board {layout_name} --tiles {tiles_name})"
        )


def replay(
    game: Game,
    rules: RuleSet | None = None,
    *,
    options: RuleOptions | None = None,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> Iterator[Position]:
    """Yield the :class:`Position` after each event of ``game`` (first the empty start).

    ``rules`` defaults to what the record's pragmas imply, with the overrides given
    (``options``, or the keywords ``tiles``, ``board``, ``end_rule``, ``challenge_bonus``:
    see :class:`~gcgtools.rules.options.RuleOptions`); given ``rules`` still take the end
    rule and challenge bonus when those are passed. Without an end rule the end-of-game
    rule is read from the record itself.
    """
    chosen = rule_options(
        options, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
    )
    return _replay(game, rules, chosen)


def _replay(game: Game, rules: RuleSet | None, options: RuleOptions) -> Iterator[Position]:
    rules, _ = resolve_rules(game, rules, options)
    yield from Replayer(game, rules, detect_end_rule=options.end_rule is None).run()


def validate(
    game: Game,
    rules: RuleSet | None = None,
    *,
    options: RuleOptions | None = None,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> Validation:
    """Replay the whole record and return every finding, parse-level ones included. The
    rule overrides are as for :func:`replay`."""
    chosen = rule_options(
        options, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
    )
    rules, setup_findings = resolve_rules(game, rules, chosen)
    detect = chosen.end_rule is None
    replayer = Replayer(game, rules, snapshots=False, detect_end_rule=detect)
    replayer.check()
    if chosen.tiles is None and chosen.board is None:
        _name_what_fits(game, rules, replayer.findings, detect_end_rule=detect)
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
