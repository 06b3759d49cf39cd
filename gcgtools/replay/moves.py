"""The moves a player makes on their turn: a play (read onto the board, scored, tiles
drawn), an exchange and a pass, as handlers of the :class:`Moves` mixin."""

from __future__ import annotations

from gcgtools.findings import Code
from gcgtools.replay.placement import read_play, uncertain_squares
from gcgtools.replay.position import Position, sorted_tiles, take, tiles_text, upper_tiles
from gcgtools.replay.scoring import flat_play_score, flat_score_play
from gcgtools.replay.state import ReplayState, Undo
from gcgtools.syntax.records import Event
from gcgtools.wording import plural


class Moves(ReplayState):
    """Handlers for plays, exchanges and passes."""

    def play(self, e: Event, p: int, pos: Position) -> None:
        rack = self._move_rack(e)
        tokens, broken = self._split_lenient(e.word or "", e, "word")
        placed, used, broken, problems = read_play(
            self.table.board, e, tokens, broken, self.table.on_board == 0, self.table.uncertain
        )
        for code, message in problems:
            self._find(code, message, e)
        if broken and any(code in (Code.OFF_BOARD, Code.GAP_IN_PLAY) for code, _ in problems):
            # where the play really went is unknown: later plays through these empty
            # squares are not judged by them (B511)
            for i in uncertain_squares(self.table.board, e, tokens, problems):
                self.table.uncertain.setdefault(i, e.line)
        if rack is not None:
            left = self._take_tiles(e, used, rack)
            if self.detail:
                pos.leave = sorted_tiles(left)
        hands, order, ending = self.hands, self.order, self.ending
        undo = Undo(
            e, p, placed, used, hands.bag, hands.counts.copy(), order.scoreless, order.passes,
            self.totals.computed[p], self.totals.recorded[p], None, ending.over, ending.reason,
            ending.out_player,
        )  # fmt: skip
        flat = self._put_down(e, placed, used)
        computed = self._score(e, flat, broken, pos)
        pos.placed = placed
        pos.computed = undo.computed_score = computed
        if computed is not None:
            self.totals.plays_scored += 1
        self.order.undo = undo
        self._check_totals(e, p, computed, Code.PLAY_SCORE)
        self._draw(e, p, len(used), computed)

    def _take_tiles(self, e: Event, used: list[str], rack: list[str]) -> list[str]:
        """Take the tiles ``used`` from the event's ``rack`` (T401 for those it lacks);
        the tiles left."""
        missing, left = take(used, rack)
        if missing:
            self._find(Code.NOT_IN_RACK, f"{''.join(sorted(missing))} not in rack {e.rack}", e)
        return left

    def _put_down(self, e: Event, placed: list[tuple[int, int, str]], used: list[str]) -> list[int]:
        """Put the new tiles on the board and take ``used`` from the unseen pool (T408 when
        more of a tile are played than the set holds); the squares covered, as flat indices."""
        board = self.table.board
        cells, size = board.cells, board.size
        flat = []
        for r, c, tok in placed:
            i = r * size + c
            cells[i] = tok
            flat.append(i)
        self.table.on_board += len(placed)
        pool = self.table.pool
        for key in used:
            left = pool[key] - 1
            pool[key] = left
            if left < 0 and key not in self.table.overdrawn:
                self.table.overdrawn.add(key)
                self._find(
                    Code.TILES_OVERPLAYED,
                    f"more {key} played than the {self.rules.tiles.name} set holds",
                    e,
                )
        board.last_placed = placed
        return flat

    def _score(self, e: Event, flat: list[int], broken: bool, pos: Position) -> int | None:
        """The computed score of a play put down on the squares ``flat`` (flat indices);
        None when there are none or the play is broken. Its bingo goes to ``pos``, and with
        detail its words and premiums."""
        if not flat:
            return None
        board, direction, rules = self.table.board, e.direction or "across", self.rules
        if self.detail:
            result = flat_score_play(
                board, flat, direction, self.rules.tiles, rules.rack_size, rules.bingo_bonus
            )
            pos.words, pos.bingo, pos.premiums = result.words, result.bingo, result.premiums
            score = result.score
        else:
            score = flat_play_score(
                board, flat, direction, self.rules.tiles, rules.rack_size, rules.bingo_bonus
            )
            pos.bingo = len(flat) >= rules.rack_size
        return None if broken else score

    def _draw(self, e: Event, p: int, used: int, computed: int | None) -> None:
        """Refill player ``p``'s rack after a play of ``used`` tiles; a scoreless play
        counts as a scoreless turn, and emptying the rack with the bag empty ends the game."""
        counts = self.hands.counts
        left = counts[p] - used
        draw = used if used <= self.hands.bag else self.hands.bag
        self.hands.bag -= draw
        counts[p] = (left if left > 0 else 0) + draw
        if (e.score if computed is None else computed) == 0:
            self._scoreless_turn(e, False)
        else:
            self.order.scoreless = self.order.passes = 0
        if not self.ending.over and self.hands.bag == 0 and self.hands.counts[p] == 0:
            self.ending.over, self.ending.reason, self.ending.out_player = True, "out", p

    def exchange(self, e: Event, p: int, pos: Position) -> None:
        rack = self._move_rack(e)
        count = self._exchanged(e, rack, pos)
        need = max(self.rules.exchange_minimum_bag, count or 0)
        if self.hands.bag < need:
            what = plural(count, "tile") if count else "tiles"
            self._find(
                Code.EXCHANGE_BAG_LOW,
                f"exchange of {what} with {plural(self.hands.bag, 'tile')} in the bag (at least "
                f"{need} needed)",
                e,
            )
        self._no_score(e, p, pos, is_pass=False)

    def _exchanged(self, e: Event, rack: list[str] | None, pos: Position) -> int | None:
        """How many tiles an exchange swaps (T405, P104, T401 on the way), if known. With
        the tiles and the rack known, the leave goes to ``pos``."""
        if e.count is not None:
            limit = len(rack) if rack is not None else self.rules.rack_size
            if not 0 < e.count <= limit:
                self._find(
                    Code.EXCHANGE_TOO_MANY,
                    f"exchange of {plural(e.count, 'tile')} from a rack of {limit}",
                    e,
                )
            return e.count
        if e.tiles is None:
            return None
        tokens = self._split(e.tiles, e, "exchange")
        if tokens is None:
            return None
        if any(t in ".()" for t in tokens):
            self._find(Code.MALFORMED_EXCHANGE, f"malformed exchange -{e.tiles}", e)
            return None
        if rack is not None:
            pos.leave = sorted_tiles(self._take_tiles(e, upper_tiles(tokens), rack))
        return len(tokens)

    def pass_(self, e: Event, p: int, pos: Position) -> None:
        rack = self._move_rack(e)
        if rack is not None:
            pos.leave = tiles_text(rack)
        self._no_score(e, p, pos, is_pass=True)

    def _no_score(self, e: Event, p: int, pos: Position, *, is_pass: bool) -> None:
        """An exchange or a pass: no score, nothing to withdraw, a scoreless turn."""
        pos.computed = 0
        self.order.undo = None
        self._check_totals(e, p, 0, Code.PLAY_SCORE)
        self._scoreless_turn(e, is_pass)
