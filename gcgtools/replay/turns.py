"""Whose line it is: the turn order, the player an event is credited to, and the lines that
answer the previous play (a withdrawn phony ``--``, a challenge bonus), as functions of
the replay's state."""

from __future__ import annotations

from gcgtools.findings import Code
from gcgtools.replay.checks import check_totals, find, fits, nick, scoreless_turn
from gcgtools.replay.position import Position
from gcgtools.replay.state import ReplayState, Undo
from gcgtools.rules.rulesets import challenge_bonus_allowed
from gcgtools.syntax.records import TURN_KINDS, Event, EventKind


def player_of(state: ReplayState, e: Event) -> int | None:
    """The player an event is credited to. A nickname that names no player is read as
    the player whose turn it is (a turn), whose play it follows (``--``, a challenge
    bonus), or who went out (end-rack points)."""
    if e.player is not None:
        return e.player
    kind = e.kind
    if kind in TURN_KINDS:
        return state.order.next if state.order.next is not None else 0
    if kind in (EventKind.WITHDRAWN, EventKind.CHALLENGE_BONUS) and state.order.undo is not None:
        return state.order.undo.player
    if kind is EventKind.END_RACK_POINTS:
        return state.ending.out_player
    return None


def take_turn(state: ReplayState, e: Event, p: int) -> tuple[bool, int]:
    """Turn order for plays, passes and exchanges: whether the event is to be replayed,
    and the player it is credited to."""
    if state.ending.over:
        if (
            e.kind is EventKind.PASS
            and state.ending.reason == "out"
            and p != state.ending.out_player
            and state.ending.lines.points == 0
            and e.score == 0
        ):
            find(state, Code.PASS_AFTER_OUT, "final pass after the opponent went out is ignored", e)
        else:
            find(
                state,
                Code.AFTER_GAME_END,
                f"{e.kind} after the game ended ({state.ending.reason}) is ignored",
                e,
            )
        state.totals.recorded[p] = e.cumulative
        return False, p
    q = state.order.next
    if q is not None and p != q:
        who = nick(state, q)
        if fits(state, e, q) and not fits(state, e, p):
            find(
                state,
                Code.OUT_OF_TURN,
                f"{e.nick} moves but it is {who}'s turn; the cumulative follows {who}'s "
                f"total, so the line is read as {who}'s",
                e,
            )
            p = q
        else:
            find(state, Code.OUT_OF_TURN, f"{e.nick} moves but it is {who}'s turn", e)
    state.order.next = (p + 1) % state.order.players
    return True, p


def withdrawn(state: ReplayState, e: Event, p: int, pos: Position) -> None:
    """A withdrawn phony (``--``): the play just before it is taken back."""
    undo = state.order.undo
    if undo is None or state.order.last is not undo.event:
        find(
            state,
            Code.WITHDRAWN_WITHOUT_PLAY,
            "phony withdrawn (--) but the previous line is not a play; "
            + _ignored_text(state, e, p),
            e,
        )
        _ignore(state, e, p)
        return
    if undo.player != p:
        q = undo.player
        same_rack = e.rack is None or undo.event.rack is None or e.rack == undo.event.rack
        if not (same_rack and e.cumulative == undo.recorded_before != state.totals.recorded[p]):
            find(
                state,
                Code.WITHDRAWN_WITHOUT_PLAY,
                f"{e.nick} withdraws a play (--) but made none just before (the play is "
                f"{undo.event.nick}'s); {_ignored_text(state, e, p)}",
                e,
            )
            _ignore(state, e, p)
            return
        # the rack and the cumulative are those of the player whose play it was: a
        # mistyped nickname
        find(
            state,
            Code.WITHDRAWN_MISMATCH,
            f"{e.nick} withdraws a play made by {undo.event.nick}; the rack and the "
            f"cumulative are {undo.event.nick}'s, so the line is read as theirs",
            e,
        )
        p = q
    elif e.rack is not None and undo.event.rack is not None and e.rack != undo.event.rack:
        find(
            state,
            Code.WITHDRAWN_MISMATCH,
            f"rack {e.rack} differs from the withdrawn play's {undo.event.rack}",
            e,
        )
    state.order.undo = None
    pos.player = q = undo.player
    # the player after the one whose play it was moves next, even when a misplaced
    # ``--`` between the play and this line counted as that player's turn
    state.order.next = (q + 1) % state.order.players
    _take_back(state, undo)
    _check_withdrawal(state, e, undo)
    pos.computed = -(undo.computed_score if undo.computed_score is not None else undo.event.score)
    state.totals.computed[q] = undo.computed_before
    state.totals.recorded[q] = e.cumulative
    scoreless_turn(state, e, False)


def _ignored_text(state: ReplayState, e: Event, p: int) -> str:
    """What becomes of a misplaced ``--`` line (see :func:`_ignore`)."""
    if state.order.next == p and not state.ending.over:
        return f"the line counts as {e.nick}'s turn and changes nothing else"
    return "the line is ignored"


def _ignore(state: ReplayState, e: Event, p: int) -> None:
    """A line that changes nothing (a misplaced ``--``): the state later lines are
    judged on stays as it was (the play before it can still be withdrawn), but the
    player's next cumulative may follow the line's own. When it is the line's
    player's turn, the line is that turn (a turn lost to a challenge, written ``--``
    by some programs): the next player moves next; nothing else changes."""
    if state.order.next == p and not state.ending.over:
        state.order.next = (p + 1) % state.order.players
    state.order.ignored = True
    state.totals.also[p] = e.cumulative


def _take_back(state: ReplayState, undo: Undo) -> None:
    """Undo a play: its tiles leave the board, and the bag, racks and end of the game
    are as they were before it."""
    board = state.table.board
    size = board.size
    for r, c, _ in undo.placed:
        board.cells[r * size + c] = None
    state.table.on_board -= len(undo.placed)
    for key in undo.used:
        state.table.pool[key] += 1
    board.last_placed = ()
    state.hands.bag, state.hands.counts = undo.hands
    state.order.scoreless, state.order.passes = undo.streak
    state.ending.reason, state.ending.out_player = undo.end


def _check_withdrawal(state: ReplayState, e: Event, undo: Undo) -> None:
    """A withdrawal takes back the play's score (S605) and returns the player's
    cumulative to the total before the play (S602)."""
    expected = -undo.event.score
    if e.score not in (expected, 0):
        find(
            state,
            Code.WITHDRAWN_SCORE,
            f"recorded {e.score:+d} but the withdrawn play scored {undo.event.score:+d}",
            e,
            recorded=e.score,
            computed=expected,
        )
    q = undo.player
    if e.cumulative != undo.recorded_before and q not in state.gaps.unjudged:
        find(
            state,
            Code.CUMULATIVE,
            f"cumulative {e.cumulative}, expected {undo.recorded_before} (the total before "
            f"the withdrawn play)",
            e,
            recorded=e.cumulative,
            computed=undo.recorded_before,
        )
    state.gaps.unjudged.discard(q)


def challenge_bonus(state: ReplayState, e: Event, p: int, pos: Position) -> None:
    """A challenge bonus: after a play, to its player, of an amount the rules allow."""
    undo = state.order.undo
    if undo is None or state.order.last is not undo.event:
        find(
            state, Code.BONUS_WITHOUT_PLAY, "challenge bonus but the previous line is not a play", e
        )
    elif undo.player != p:
        q = undo.player
        msg = f"challenge bonus to {e.nick} but the challenged play was {undo.event.nick}'s"
        if fits(state, e, q) and not fits(state, e, p):
            msg += f"; the cumulative follows {undo.event.nick}'s total: credited to them"
            p = q
        find(state, Code.BONUS_WRONG_PLAYER, msg, e)
    pos.player = p
    if not challenge_bonus_allowed(state.rules, e.score):
        fixed = state.rules.challenge_bonus
        if fixed is None:
            find(
                state,
                Code.CHALLENGE_BONUS,
                f"challenge bonus {e.score:+d} is not 0, 5 per word or 10",
                e,
            )
        else:
            find(
                state,
                Code.CHALLENGE_BONUS,
                f"challenge bonus {e.score:+d}, the rules give {fixed:+d} per word",
                e,
                recorded=e.score,
                computed=fixed,
            )
    pos.computed = e.score
    check_totals(state, e, p, None, Code.CHALLENGE_BONUS)
