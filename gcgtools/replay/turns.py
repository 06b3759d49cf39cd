"""Whose line it is: the turn order, the player an event is credited to, and the lines that
answer the previous play (a withdrawn phony ``--``, a challenge bonus), as the
:class:`Turns` mixin."""

from __future__ import annotations

from gcgtools.findings import Code
from gcgtools.replay.position import Position
from gcgtools.replay.state import ReplayState, Undo
from gcgtools.rules.rulesets import challenge_bonus_allowed
from gcgtools.syntax.records import TURN_KINDS, Event, EventKind


class Turns(ReplayState):
    """Turn order, withdrawn plays and challenge bonuses."""

    def _player_of(self, e: Event) -> int | None:
        """The player an event is credited to. A nickname that names no player is read as
        the player whose turn it is (a turn), whose play it follows (``--``, a challenge
        bonus), or who went out (end-rack points)."""
        if e.player is not None:
            return e.player
        kind = e.kind
        if kind in TURN_KINDS:
            return self.order.next if self.order.next is not None else 0
        if kind in (EventKind.WITHDRAWN, EventKind.CHALLENGE_BONUS) and self.order.undo is not None:
            return self.order.undo.player
        if kind is EventKind.END_RACK_POINTS:
            return self.ending.out_player
        return None

    def _turn(self, e: Event, p: int) -> tuple[bool, int]:
        """Turn order for plays, passes and exchanges: whether the event is to be replayed,
        and the player it is credited to."""
        if self.ending.over:
            if (
                e.kind is EventKind.PASS
                and self.ending.reason == "out"
                and p != self.ending.out_player
                and self.ending.lines.points == 0
                and e.score == 0
            ):
                self._find(
                    Code.PASS_AFTER_OUT, "final pass after the opponent went out is ignored", e
                )
            else:
                self._find(
                    Code.AFTER_GAME_END,
                    f"{e.kind} after the game ended ({self.ending.reason}) is ignored",
                    e,
                )
            self.totals.recorded[p] = e.cumulative
            return False, p
        q = self.order.next
        if q is not None and p != q:
            who = self.nick(q)
            if self._fits(e, q) and not self._fits(e, p):
                self._find(
                    Code.OUT_OF_TURN,
                    f"{e.nick} moves but it is {who}'s turn; the cumulative follows {who}'s "
                    f"total, so the line is read as {who}'s",
                    e,
                )
                p = q
            else:
                self._find(Code.OUT_OF_TURN, f"{e.nick} moves but it is {who}'s turn", e)
        self.order.next = (p + 1) % self.order.players
        return True, p

    def withdrawn(self, e: Event, p: int, pos: Position) -> None:
        undo = self.order.undo
        if undo is None or self.order.last is not undo.event:
            self._find(
                Code.WITHDRAWN_WITHOUT_PLAY,
                "phony withdrawn (--) but the previous line is not a play; "
                + self._ignored_text(e, p),
                e,
            )
            self._ignore(e, p)
            return
        if undo.player != p:
            q = undo.player
            same_rack = e.rack is None or undo.event.rack is None or e.rack == undo.event.rack
            if not (same_rack and e.cumulative == undo.recorded_before != self.totals.recorded[p]):
                self._find(
                    Code.WITHDRAWN_WITHOUT_PLAY,
                    f"{e.nick} withdraws a play (--) but made none just before (the play is "
                    f"{undo.event.nick}'s); {self._ignored_text(e, p)}",
                    e,
                )
                self._ignore(e, p)
                return
            # the rack and the cumulative are those of the player whose play it was: a
            # mistyped nickname
            self._find(
                Code.WITHDRAWN_MISMATCH,
                f"{e.nick} withdraws a play made by {undo.event.nick}; the rack and the "
                f"cumulative are {undo.event.nick}'s, so the line is read as theirs",
                e,
            )
            p = q
        elif e.rack is not None and undo.event.rack is not None and e.rack != undo.event.rack:
            self._find(
                Code.WITHDRAWN_MISMATCH,
                f"rack {e.rack} differs from the withdrawn play's {undo.event.rack}",
                e,
            )
        self.order.undo = None
        pos.player = q = undo.player
        # the player after the one whose play it was moves next, even when a misplaced
        # ``--`` between the play and this line counted as that player's turn
        self.order.next = (q + 1) % self.order.players
        self._take_back(undo)
        self._check_withdrawal(e, undo)
        pos.computed = -(
            undo.computed_score if undo.computed_score is not None else undo.event.score
        )
        self.totals.computed[q] = undo.computed_before
        self.totals.recorded[q] = e.cumulative
        self._scoreless_turn(e, False)

    def _ignored_text(self, e: Event, p: int) -> str:
        """What becomes of a misplaced ``--`` line (see :meth:`_ignore`)."""
        if self.order.next == p and not self.ending.over:
            return f"the line counts as {e.nick}'s turn and changes nothing else"
        return "the line is ignored"

    def _ignore(self, e: Event, p: int) -> None:
        """A line that changes nothing (a misplaced ``--``): the state later lines are
        judged on stays as it was (the play before it can still be withdrawn), but the
        player's next cumulative may follow the line's own. When it is the line's
        player's turn, the line is that turn (a turn lost to a challenge, written ``--``
        by some programs): the next player moves next; nothing else changes."""
        if self.order.next == p and not self.ending.over:
            self.order.next = (p + 1) % self.order.players
        self.order.ignored = True
        self.totals.also[p] = e.cumulative

    def _take_back(self, undo: Undo) -> None:
        """Undo a play: its tiles leave the board, and the bag, racks and end of the game
        are as they were before it."""
        board = self.table.board
        size = board.size
        for r, c, _ in undo.placed:
            board.cells[r * size + c] = None
        self.table.on_board -= len(undo.placed)
        for key in undo.used:
            self.table.pool[key] += 1
        board.last_placed = ()
        self.hands.bag = undo.bag
        self.hands.counts = undo.rack_counts
        self.order.scoreless, self.order.passes = undo.scoreless, undo.passes
        self.ending.over, self.ending.reason = undo.game_over, undo.end_reason
        self.ending.out_player = undo.out_player

    def _check_withdrawal(self, e: Event, undo: Undo) -> None:
        """A withdrawal takes back the play's score (S605) and returns the player's
        cumulative to the total before the play (S602)."""
        expected = -undo.event.score
        if e.score not in (expected, 0):
            self._find(
                Code.WITHDRAWN_SCORE,
                f"recorded {e.score:+d} but the withdrawn play scored {undo.event.score:+d}",
                e,
                recorded=e.score,
                computed=expected,
            )
        q = undo.player
        if e.cumulative != undo.recorded_before and q not in self.gaps.unjudged:
            self._find(
                Code.CUMULATIVE,
                f"cumulative {e.cumulative}, expected {undo.recorded_before} (the total before "
                f"the withdrawn play)",
                e,
                recorded=e.cumulative,
                computed=undo.recorded_before,
            )
        self.gaps.unjudged.discard(q)

    def challenge_bonus(self, e: Event, p: int, pos: Position) -> None:
        undo = self.order.undo
        if undo is None or self.order.last is not undo.event:
            self._find(
                Code.BONUS_WITHOUT_PLAY, "challenge bonus but the previous line is not a play", e
            )
        elif undo.player != p:
            q = undo.player
            msg = f"challenge bonus to {e.nick} but the challenged play was {undo.event.nick}'s"
            if self._fits(e, q) and not self._fits(e, p):
                msg += f"; the cumulative follows {undo.event.nick}'s total: credited to them"
                p = q
            self._find(Code.BONUS_WRONG_PLAYER, msg, e)
        pos.player = p
        if not challenge_bonus_allowed(self.rules, e.score):
            fixed = self.rules.challenge_bonus
            if fixed is None:
                self._find(
                    Code.CHALLENGE_BONUS,
                    f"challenge bonus {e.score:+d} is not 0, 5 per word or 10",
                    e,
                )
            else:
                self._find(
                    Code.CHALLENGE_BONUS,
                    f"challenge bonus {e.score:+d}, the rules give {fixed:+d} per word",
                    e,
                    recorded=e.score,
                    computed=fixed,
                )
        pos.computed = e.score
        self._check_totals(e, p, None, Code.CHALLENGE_BONUS)
