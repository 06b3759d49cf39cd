"""The end of a game: end-rack points, own-rack penalties and time penalties, the end-of-game
rule they reveal, and the checks on the record as a whole once every event is replayed,
as functions of the replay's state."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from gcgtools.findings import Code, Finding, make
from gcgtools.replay.checks import (
    check_cumulative,
    check_totals,
    find,
    nick,
    read_rack,
    split_tiles,
)
from gcgtools.replay.position import Position, upper_tiles
from gcgtools.replay.state import ReplayState
from gcgtools.rules.rulesets import EndRule, rack_value
from gcgtools.syntax.records import Event, EventKind
from gcgtools.wording import plural

#: S609 needs at least this many scored plays, three in five of them misscored.
HINT_MIN_PLAYS = 5


def _misscore_hint(state: ReplayState, findings: Sequence[Finding]) -> None:
    """One S609 when most plays misscore: the record probably uses another board or
    other tile values (the replay's caller may name the ones that fit)."""
    plays = state.totals.plays_scored
    wrong = [f for f in findings if f.code == Code.PLAY_SCORE and f.computed is not None]
    if plays < HINT_MIN_PLAYS or len(wrong) * 5 < plays * 3:
        return
    state.report(
        make(
            Code.MOSTLY_MISSCORED,
            f"{len(wrong)} of {plays} plays misscored on the {state.rules.board.name} board "
            f"with {state.rules.tiles.name} tile values: the record probably uses another board "
            "or other tile values (--board FILE, --tiles FILE)",
            wrong[0].line,
        )
    )


def end_rack_points(state: ReplayState, e: Event, p: int, pos: Position) -> None:
    """End-rack points: to the player who went out, for the tiles left to the others."""
    if not state.ending.over and state.gaps.tiles_unknown:
        # a lost line may have been the play that went out: take the record's word
        state.ending.end("out", p)
    if not state.ending.over:
        find(state, Code.END_LINE_TOO_EARLY, "end-rack points but nobody has gone out yet", e)
    elif state.ending.reason != "out":
        find(
            state,
            Code.END_LINE_WRONG_PLAYER,
            f"end-rack points but the game ended by {state.ending.reason}",
            e,
        )
    elif p != state.ending.out_player:
        who = nick(state, state.ending.out_player)
        find(
            state, Code.END_LINE_WRONG_PLAYER, f"end-rack points to {e.nick}, but {who} went out", e
        )
    state.ending.lines.points += 1
    if state.ending.lines.points > state.order.players - 1:
        find(state, Code.END_POINTS_TWICE, "end-rack points given again", e)
    _time_penalty_too_early(state)
    tiles = _end_tiles(state, e)
    computed: int | None = None
    if tiles is not None:
        if state.ending.over and state.ending.reason == "out" and not state.gaps.tiles_unknown:
            _check_tiles_left(state, e, tiles)
        computed = _out_points(state, e, tiles)
    pos.computed = computed
    check_totals(state, e, p, computed, Code.END_POINTS)


def _end_tiles(state: ReplayState, e: Event) -> list[str] | None:
    """The tiles of an end-rack line, upper case (blank ``?``); None if unreadable."""
    tokens = split_tiles(state, e.tiles or "", e, "end rack")
    if tokens is None:
        return None
    odd = [t for t in tokens if t in ".()"]  # squares of a board, not tiles of a rack
    if odd:
        find(state, Code.NOT_A_TILE, f"{odd[0]!r} in end rack ({e.tiles}) is not a tile", e)
        return None
    return upper_tiles(tokens)


def _check_tiles_left(state: ReplayState, e: Event, tiles: list[str]) -> None:
    """End-rack points are for the tiles left unplayed (T407): all of them in a
    two-player game."""
    remaining = +state.table.pool
    if state.order.players == 2 and Counter(tiles) != remaining:
        left = "".join(sorted(remaining.elements()))
        find(state, Code.END_TILES_MISMATCH, f"({e.tiles}) but the tiles left are ({left})", e)
    elif state.order.players > 2 and Counter(tiles) - remaining:
        find(state, Code.END_TILES_MISMATCH, f"({e.tiles}) are not among the tiles left", e)


def _out_points(state: ReplayState, e: Event, tiles: list[str]) -> int:
    """The points for going out with ``tiles`` left to the others. Without a known end
    rule, the recorded score tells it: once the tiles' value, international; twice,
    standard."""
    value = rack_value(state.rules, tiles)
    if state.ending.rule is None:
        if e.score == value and value != 0:
            state.ending.rule = EndRule.INTERNATIONAL
        elif e.score == 2 * value:
            state.ending.rule = EndRule.STANDARD
    rule = state.ending.rule or EndRule.STANDARD
    return value * rule.out_multiplier


def end_rack_penalty(state: ReplayState, e: Event, p: int, pos: Position) -> None:
    """An own-rack penalty: a player loses the value of the tiles left on their rack."""
    standard_out = _penalty_due(state, e, p)
    computed = _penalty_points(state, e)
    if standard_out:
        find(
            state,
            Code.RACK_PENALTY,
            f"{e.nick} loses {-e.score} for the tiles left, but under standard rules only "
            "the player who went out scores for them",
            e,
            recorded=e.score,
            computed=0,
        )
        pos.computed = 0
        check_cumulative(state, e, p, 0)
        state.totals.recorded[p] = e.cumulative
        return
    pos.computed = computed
    check_totals(state, e, p, computed, Code.RACK_PENALTY)


def _penalty_due(state: ReplayState, e: Event, p: int) -> bool:
    """Check when an own-rack penalty comes (O307, O314, O308, O309); True if the game
    ended by a player going out under a rule that deducts nothing from the others.
    Without a known end rule, such a line makes it international."""
    standard_out = False
    if not state.ending.over and state.gaps.tiles_unknown:
        state.ending.end("out")  # a lost line may have gone out
    if not state.ending.over:
        find(state, Code.END_LINE_TOO_EARLY, "own-rack penalty before the game is over", e)
    elif state.ending.reason == "out" and p == state.ending.out_player:
        find(state, Code.END_LINE_WRONG_PLAYER, f"{e.nick} went out and has no tiles to lose", e)
    elif state.ending.reason == "out":
        if state.ending.rule is None:
            state.ending.rule = EndRule.INTERNATIONAL
        standard_out = not state.ending.rule.deducts_own_rack
    if p in state.ending.lines.penalties:
        find(state, Code.END_POINTS_TWICE, f"own-rack penalty for {e.nick} given again", e)
    state.ending.lines.penalties.add(p)
    _time_penalty_too_early(state)
    return standard_out


def _penalty_points(state: ReplayState, e: Event) -> int | None:
    """The computed own-rack penalty, if the tiles can be read; the rack and the tiles
    must agree (T407) and be left unplayed (T402)."""
    rack = read_rack(state, e)
    tiles = _end_tiles(state, e)
    if tiles is None:
        return None
    if rack is not None and Counter(tiles) != Counter(rack):
        find(state, Code.END_TILES_MISMATCH, f"{e.rack} ({e.tiles}): the two racks differ", e)
    missing = Counter(tiles) - +state.table.pool
    if missing and not state.gaps.tiles_unknown:
        find(
            state,
            Code.NOT_DRAWABLE,
            f"({e.tiles}) holds {''.join(sorted(missing.elements()))} that are not left unplayed",
            e,
        )
    return -rack_value(state.rules, tiles)


def _time_penalty_too_early(state: ReplayState) -> None:
    """A time penalty recorded after the end of the game but before an end-rack line."""
    if state.ending.lines.early_time:
        state.report(
            make(
                Code.TIME_PENALTY_TOO_EARLY,
                "time penalty before the end-rack lines",
                state.ending.lines.early_time,
            )
        )
        state.ending.lines.early_time = 0


def time_penalty(state: ReplayState, e: Event, p: int, pos: Position) -> None:
    """A time penalty: once per player, negative, in the rules' unit, at the end."""
    if p in state.ending.lines.times:
        find(state, Code.TIME_PENALTY_TWICE, f"time penalty for {e.nick} given again", e)
    state.ending.lines.times.add(p)
    if not state.ending.over:
        later = (x for x in state.game.events if x.line > e.line)
        if any(x.kind is not EventKind.TIME_PENALTY for x in later):
            find(state, Code.END_LINE_TOO_EARLY, "time penalty before the game is over", e)
        else:
            state.ending.end("time")
    else:
        state.ending.lines.early_time = state.ending.lines.early_time or e.line
    if e.score > 0:
        find(state, Code.SCORE_SIGN, f"time penalty {e.score:+d} should be negative", e)
    elif e.score % state.rules.time_penalty_per_minute:
        find(
            state,
            Code.TIME_PENALTY_UNIT,
            f"time penalty {e.score:+d} is not a multiple of {state.rules.time_penalty_per_minute}",
            e,
        )
    pos.computed = e.score
    check_totals(state, e, p, None, Code.TIME_PENALTY_UNIT)


def finish(state: ReplayState, findings: Sequence[Finding]) -> None:
    """Checks on the record as a whole, once every event is replayed; ``findings``: those
    reported so far."""
    game = state.game
    if not game.events:
        return
    _misscore_hint(state, findings)
    last_line = max([game.events[-1].line, *(lost.line for lost in game.lost)])
    if not state.ending.over:
        if not game.incomplete and not game.final_racks:
            state.report(
                make(
                    Code.GAME_NOT_OVER,
                    f"the game is not over: {plural(state.hands.bag, 'tile')} in the bag",
                    last_line,
                )
            )
    elif state.gaps.after_end:
        pass  # an end-of-game line could not be read: it was reported where it is
    elif (
        state.ending.reason == "out"
        and not state.ending.lines.points
        and not state.ending.lines.penalties
    ):
        state.report(
            make(
                Code.END_ADJUSTMENT_MISSING,
                "a player went out but no end-rack points follow",
                last_line,
            )
        )
    elif state.ending.reason in ("scoreless", "passes") and not state.ending.lines.penalties:
        limit = state.rules.max_scoreless_turns
        why = f"{limit} scoreless turns" if state.ending.reason == "scoreless" else "passes"
        state.report(
            make(
                Code.END_ADJUSTMENT_MISSING,
                f"{why} ended the game but no rack penalties follow",
                last_line,
            )
        )
