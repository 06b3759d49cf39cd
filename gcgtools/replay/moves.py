"""The moves a player makes on their turn: a play (read onto the board, scored, tiles
drawn), an exchange and a pass: a handler for each, a function of the replay's state."""

from __future__ import annotations

from gcgtools.findings import Code
from gcgtools.replay.checks import (
    check_totals,
    find,
    move_rack,
    scoreless_turn,
    split_lenient,
    split_tiles,
)
from gcgtools.replay.placement import read_play, uncertain_squares
from gcgtools.replay.position import Position, sorted_tiles, take, tiles_text, upper_tiles
from gcgtools.replay.scoring import flat_play_score, flat_score_play
from gcgtools.replay.state import ReplayState, Undo
from gcgtools.syntax.records import Event
from gcgtools.wording import plural


def play(state: ReplayState, e: Event, p: int, pos: Position) -> None:
    """A play: read onto the board, taken from the rack, scored, its tiles drawn."""
    rack = move_rack(state, e)
    tokens, broken = split_lenient(state, e.word or "", e, "word")
    placed, used, broken, problems = read_play(
        state.table.board, e, tokens, broken, state.table.on_board == 0, state.table.uncertain
    )
    for code, message in problems:
        find(state, code, message, e)
    if broken and any(code in (Code.OFF_BOARD, Code.GAP_IN_PLAY) for code, _ in problems):
        # where the play really went is unknown: later plays through these empty
        # squares are not judged by them (B511)
        for i in uncertain_squares(state.table.board, e, tokens, problems):
            state.table.uncertain.setdefault(i, e.line)
    if rack is not None:
        left = _take_tiles(state, e, used, rack)
        if state.detail:
            pos.leave = sorted_tiles(left)
    hands, order, ending = state.hands, state.order, state.ending
    undo = Undo(
        e, p, placed, used, None, state.totals.computed[p], state.totals.recorded[p],
        (hands.bag, hands.counts.copy()), (order.scoreless, order.passes),
        (ending.reason, ending.out_player),
    )  # fmt: skip
    flat = _put_down(state, e, placed, used)
    computed = _score(state, e, flat, broken, pos)
    pos.placed = placed
    pos.computed = undo.computed_score = computed
    if computed is not None:
        state.totals.plays_scored += 1
    state.order.undo = undo
    check_totals(state, e, p, computed, Code.PLAY_SCORE)
    _draw(state, e, p, len(used), computed)


def _take_tiles(state: ReplayState, e: Event, used: list[str], rack: list[str]) -> list[str]:
    """Take the tiles ``used`` from the event's ``rack`` (T401 for those it lacks);
    the tiles left."""
    missing, left = take(used, rack)
    if missing:
        find(state, Code.NOT_IN_RACK, f"{''.join(sorted(missing))} not in rack {e.rack}", e)
    return left


def _put_down(
    state: ReplayState, e: Event, placed: list[tuple[int, int, str]], used: list[str]
) -> list[int]:
    """Put the new tiles on the board and take ``used`` from the unseen pool (T408 when
    more of a tile are played than the set holds); the squares covered, as flat indices."""
    board = state.table.board
    cells, size = board.cells, board.size
    flat = []
    for r, c, tok in placed:
        i = r * size + c
        cells[i] = tok
        flat.append(i)
    state.table.on_board += len(placed)
    pool = state.table.pool
    for key in used:
        left = pool[key] - 1
        pool[key] = left
        if left < 0 and key not in state.table.overdrawn:
            state.table.overdrawn.add(key)
            find(
                state,
                Code.TILES_OVERPLAYED,
                f"more {key} played than the {state.rules.tiles.name} set holds",
                e,
            )
    board.last_placed = placed
    return flat


def _score(
    state: ReplayState, e: Event, flat: list[int], broken: bool, pos: Position
) -> int | None:
    """The computed score of a play put down on the squares ``flat`` (flat indices);
    None when there are none or the play is broken. Its bingo goes to ``pos``, and with
    detail its words and premiums."""
    if not flat:
        return None
    board, direction, rules = state.table.board, e.direction or "across", state.rules
    if state.detail:
        result = flat_score_play(
            board, flat, direction, state.rules.tiles, rules.rack_size, rules.bingo_bonus
        )
        pos.words, pos.bingo, pos.premiums = result.words, result.bingo, result.premiums
        score = result.score
    else:
        score = flat_play_score(
            board, flat, direction, state.rules.tiles, rules.rack_size, rules.bingo_bonus
        )
        pos.bingo = len(flat) >= rules.rack_size
    return None if broken else score


def _draw(state: ReplayState, e: Event, p: int, used: int, computed: int | None) -> None:
    """Refill player ``p``'s rack after a play of ``used`` tiles; a scoreless play
    counts as a scoreless turn, and emptying the rack with the bag empty ends the game."""
    counts = state.hands.counts
    left = counts[p] - used
    draw = used if used <= state.hands.bag else state.hands.bag
    state.hands.bag -= draw
    counts[p] = (left if left > 0 else 0) + draw
    if (e.score if computed is None else computed) == 0:
        scoreless_turn(state, e, False)
    else:
        state.order.scoreless = state.order.passes = 0
    if not state.ending.over and state.hands.bag == 0 and state.hands.counts[p] == 0:
        state.ending.end("out", p)


def exchange(state: ReplayState, e: Event, p: int, pos: Position) -> None:
    """An exchange: its tiles, and enough tiles in the bag for it (T404)."""
    rack = move_rack(state, e)
    count = _exchanged(state, e, rack, pos)
    need = max(state.rules.exchange_minimum_bag, count or 0)
    if state.hands.bag < need:
        what = plural(count, "tile") if count else "tiles"
        find(
            state,
            Code.EXCHANGE_BAG_LOW,
            f"exchange of {what} with {plural(state.hands.bag, 'tile')} in the bag (at least "
            f"{need} needed)",
            e,
        )
    _no_score(state, e, p, pos, is_pass=False)


def _exchanged(state: ReplayState, e: Event, rack: list[str] | None, pos: Position) -> int | None:
    """How many tiles an exchange swaps (T405, P104, T401 on the way), if known. With
    the tiles and the rack known, the leave goes to ``pos``."""
    if e.count is not None:
        limit = len(rack) if rack is not None else state.rules.rack_size
        if not 0 < e.count <= limit:
            find(
                state,
                Code.EXCHANGE_TOO_MANY,
                f"exchange of {plural(e.count, 'tile')} from a rack of {limit}",
                e,
            )
        return e.count
    if e.tiles is None:
        return None
    tokens = split_tiles(state, e.tiles, e, "exchange")
    if tokens is None:
        return None
    if any(t in ".()" for t in tokens):
        find(state, Code.MALFORMED_EXCHANGE, f"malformed exchange -{e.tiles}", e)
        return None
    if rack is not None:
        pos.leave = sorted_tiles(_take_tiles(state, e, upper_tiles(tokens), rack))
    return len(tokens)


def pass_(state: ReplayState, e: Event, p: int, pos: Position) -> None:
    """A pass: a scoreless turn."""
    rack = move_rack(state, e)
    if rack is not None:
        pos.leave = tiles_text(rack)
    _no_score(state, e, p, pos, is_pass=True)


def _no_score(state: ReplayState, e: Event, p: int, pos: Position, *, is_pass: bool) -> None:
    """An exchange or a pass: no score, nothing to withdraw, a scoreless turn."""
    pos.computed = 0
    state.order.undo = None
    check_totals(state, e, p, 0, Code.PLAY_SCORE)
    scoreless_turn(state, e, is_pass)
