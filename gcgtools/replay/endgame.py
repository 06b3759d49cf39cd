"""The end of a game: end-rack points, own-rack penalties and time penalties, the end-of-game
rule they reveal, and the checks on the record as a whole once every event is replayed,
as the :class:`EndGame` mixin."""

from __future__ import annotations

from collections import Counter

from gcgtools.findings import Code, make
from gcgtools.replay.position import Position, upper_tiles
from gcgtools.replay.state import ReplayState
from gcgtools.rules.rulesets import EndRule
from gcgtools.syntax.records import Event, EventKind
from gcgtools.wording import plural

#: S609 needs at least this many scored plays, three in five of them misscored.
HINT_MIN_PLAYS = 5


class EndGame(ReplayState):
    """Handlers for the end-of-game lines, and :meth:`finish`."""

    def _misscore_hint(self) -> None:
        """One S609 when most plays misscore: the record probably uses another board or
        other tile values (the replay's caller may name the ones that fit)."""
        plays = self.totals.plays_scored
        wrong = [f for f in self.findings if f.code == Code.PLAY_SCORE and f.computed is not None]
        if plays < HINT_MIN_PLAYS or len(wrong) * 5 < plays * 3:
            return
        self.findings.append(
            make(
                Code.MOSTLY_MISSCORED,
                f"{len(wrong)} of {plays} plays misscored on the {self.rules.board.name} board "
                f"with {self.rules.tiles.name} tile values: the record probably uses another board "
                "or other tile values (--board FILE, --tiles FILE)",
                wrong[0].line,
            )
        )

    def end_rack_points(self, e: Event, p: int, pos: Position) -> None:
        if not self.ending.over and self.gaps.tiles_unknown:
            # a lost line may have been the play that went out: take the record's word
            self.ending.over, self.ending.reason, self.ending.out_player = True, "out", p
        if not self.ending.over:
            self._find(Code.END_LINE_TOO_EARLY, "end-rack points but nobody has gone out yet", e)
        elif self.ending.reason != "out":
            self._find(
                Code.END_LINE_WRONG_PLAYER,
                f"end-rack points but the game ended by {self.ending.reason}",
                e,
            )
        elif p != self.ending.out_player:
            who = self.nick(self.ending.out_player)
            self._find(
                Code.END_LINE_WRONG_PLAYER, f"end-rack points to {e.nick}, but {who} went out", e
            )
        self.ending.lines.points += 1
        if self.ending.lines.points > self.order.players - 1:
            self._find(Code.END_POINTS_TWICE, "end-rack points given again", e)
        self._time_penalty_too_early()
        tiles = self._end_tiles(e)
        computed: int | None = None
        if tiles is not None:
            if self.ending.over and self.ending.reason == "out" and not self.gaps.tiles_unknown:
                self._check_tiles_left(e, tiles)
            computed = self._out_points(e, tiles)
        pos.computed = computed
        self._check_totals(e, p, computed, Code.END_POINTS)

    def _end_tiles(self, e: Event) -> list[str] | None:
        """The tiles of an end-rack line, upper case (blank ``?``); None if unreadable."""
        tokens = self._split(e.tiles or "", e, "end rack")
        if tokens is None:
            return None
        odd = [t for t in tokens if t in ".()"]  # squares of a board, not tiles of a rack
        if odd:
            self._find(Code.NOT_A_TILE, f"{odd[0]!r} in end rack ({e.tiles}) is not a tile", e)
            return None
        return upper_tiles(tokens)

    def _check_tiles_left(self, e: Event, tiles: list[str]) -> None:
        """End-rack points are for the tiles left unplayed (T407): all of them in a
        two-player game."""
        remaining = +self.table.pool
        if self.order.players == 2 and Counter(tiles) != remaining:
            left = "".join(sorted(remaining.elements()))
            self._find(Code.END_TILES_MISMATCH, f"({e.tiles}) but the tiles left are ({left})", e)
        elif self.order.players > 2 and Counter(tiles) - remaining:
            self._find(Code.END_TILES_MISMATCH, f"({e.tiles}) are not among the tiles left", e)

    def _out_points(self, e: Event, tiles: list[str]) -> int:
        """The points for going out with ``tiles`` left to the others. Without a known end
        rule, the recorded score tells it: once the tiles' value, international; twice,
        standard."""
        value = sum(self.rules.tiles.value(t) for t in tiles)
        if self.ending.rule is None:
            if e.score == value and value != 0:
                self.ending.rule = EndRule.INTERNATIONAL
            elif e.score == 2 * value:
                self.ending.rule = EndRule.STANDARD
        rule = self.ending.rule or EndRule.STANDARD
        return value * rule.out_multiplier

    def end_rack_penalty(self, e: Event, p: int, pos: Position) -> None:
        standard_out = self._penalty_due(e, p)
        computed = self._penalty_points(e)
        if standard_out:
            self._find(
                Code.RACK_PENALTY,
                f"{e.nick} loses {-e.score} for the tiles left, but under standard rules only "
                "the player who went out scores for them",
                e,
                recorded=e.score,
                computed=0,
            )
            pos.computed = 0
            self._check_cumulative(e, p, 0)
            self.totals.recorded[p] = e.cumulative
            return
        pos.computed = computed
        self._check_totals(e, p, computed, Code.RACK_PENALTY)

    def _penalty_due(self, e: Event, p: int) -> bool:
        """Check when an own-rack penalty comes (O307, O314, O308, O309); True if the game
        ended by a player going out under a rule that deducts nothing from the others.
        Without a known end rule, such a line makes it international."""
        standard_out = False
        if not self.ending.over and self.gaps.tiles_unknown:
            self.ending.over, self.ending.reason = True, "out"  # a lost line may have gone out
        if not self.ending.over:
            self._find(Code.END_LINE_TOO_EARLY, "own-rack penalty before the game is over", e)
        elif self.ending.reason == "out" and p == self.ending.out_player:
            self._find(Code.END_LINE_WRONG_PLAYER, f"{e.nick} went out and has no tiles to lose", e)
        elif self.ending.reason == "out":
            if self.ending.rule is None:
                self.ending.rule = EndRule.INTERNATIONAL
            standard_out = not self.ending.rule.deducts_own_rack
        if p in self.ending.lines.penalties:
            self._find(Code.END_POINTS_TWICE, f"own-rack penalty for {e.nick} given again", e)
        self.ending.lines.penalties.add(p)
        self._time_penalty_too_early()
        return standard_out

    def _penalty_points(self, e: Event) -> int | None:
        """The computed own-rack penalty, if the tiles can be read; the rack and the tiles
        must agree (T407) and be left unplayed (T402)."""
        rack = self._rack(e)
        tiles = self._end_tiles(e)
        if tiles is None:
            return None
        if rack is not None and Counter(tiles) != Counter(rack):
            self._find(Code.END_TILES_MISMATCH, f"{e.rack} ({e.tiles}): the two racks differ", e)
        missing = Counter(tiles) - +self.table.pool
        if missing and not self.gaps.tiles_unknown:
            self._find(
                Code.NOT_DRAWABLE,
                f"({e.tiles}) holds {''.join(sorted(missing.elements()))} that are not "
                "left unplayed",
                e,
            )
        return -sum(self.rules.tiles.value(t) for t in tiles)

    def _time_penalty_too_early(self) -> None:
        """A time penalty recorded after the end of the game but before an end-rack line."""
        if self.ending.lines.early_time:
            self.findings.append(
                make(
                    Code.TIME_PENALTY_TOO_EARLY,
                    "time penalty before the end-rack lines",
                    self.ending.lines.early_time,
                )
            )
            self.ending.lines.early_time = 0

    def time_penalty(self, e: Event, p: int, pos: Position) -> None:
        if p in self.ending.lines.times:
            self._find(Code.TIME_PENALTY_TWICE, f"time penalty for {e.nick} given again", e)
        self.ending.lines.times.add(p)
        if not self.ending.over:
            later = (x for x in self.game.events if x.line > e.line)
            if any(x.kind is not EventKind.TIME_PENALTY for x in later):
                self._find(Code.END_LINE_TOO_EARLY, "time penalty before the game is over", e)
            else:
                self.ending.over, self.ending.reason = True, "time"
        else:
            self.ending.lines.early_time = self.ending.lines.early_time or e.line
        if e.score > 0:
            self._find(Code.SCORE_SIGN, f"time penalty {e.score:+d} should be negative", e)
        elif e.score % self.rules.time_penalty_per_minute:
            self._find(
                Code.TIME_PENALTY_UNIT,
                f"time penalty {e.score:+d} is not a multiple of "
                f"{self.rules.time_penalty_per_minute}",
                e,
            )
        pos.computed = e.score
        self._check_totals(e, p, None, Code.TIME_PENALTY_UNIT)

    def finish(self) -> None:
        """Checks on the record as a whole, once every event is replayed."""
        game = self.game
        if not game.events:
            return
        self._misscore_hint()
        last_line = max([game.events[-1].line, *(lost.line for lost in game.lost)])
        if not self.ending.over:
            if not game.incomplete and not game.final_racks:
                self.findings.append(
                    make(
                        Code.GAME_NOT_OVER,
                        f"the game is not over: {plural(self.hands.bag, 'tile')} in the bag",
                        last_line,
                    )
                )
        elif self.gaps.after_end:
            pass  # an end-of-game line could not be read: it was reported where it is
        elif (
            self.ending.reason == "out"
            and not self.ending.lines.points
            and not self.ending.lines.penalties
        ):
            self.findings.append(
                make(
                    Code.END_ADJUSTMENT_MISSING,
                    "a player went out but no end-rack points follow",
                    last_line,
                )
            )
        elif self.ending.reason in ("scoreless", "passes") and not self.ending.lines.penalties:
            limit = self.rules.max_scoreless_turns
            why = f"{limit} scoreless turns" if self.ending.reason == "scoreless" else "passes"
            self.findings.append(
                make(
                    Code.END_ADJUSTMENT_MISSING,
                    f"{why} ended the game but no rack penalties follow",
                    last_line,
                )
            )
