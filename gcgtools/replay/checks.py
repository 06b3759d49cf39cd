"""The checks every kind of event shares, as functions of the replay's state: a finding
reported at an event's line, reading a rack, tiles drawn from the unseen pool, a line's
score and cumulative, scoreless turns. The event handlers (:mod:`~gcgtools.replay.moves`,
:mod:`~gcgtools.replay.turns`, :mod:`~gcgtools.replay.ending`) build on them.
"""

from __future__ import annotations

from collections import Counter

from gcgtools.findings import Code, make
from gcgtools.replay.position import upper_tiles
from gcgtools.replay.state import ReplayState
from gcgtools.rules.tiles import TileError
from gcgtools.syntax.records import Event

__all__ = [
    "check_cumulative",
    "check_drawable",
    "check_totals",
    "find",
    "fits",
    "move_rack",
    "nick",
    "read_rack",
    "scoreless_turn",
    "split_lenient",
    "split_tiles",
]


def find(
    state: ReplayState,
    code: str,
    message: str,
    e: Event,
    *,
    recorded: int | None = None,
    computed: int | None = None,
) -> None:
    """Report a finding at the line and column of ``e``."""
    state.report(make(code, message, e.line, e.column, recorded=recorded, computed=computed))


def nick(state: ReplayState, index: int | None) -> str:
    """The nickname of player ``index``, else ``player N``."""
    player = state.game.player(index)
    if player is not None:
        return player.nick
    return f"player {index + 1}" if index is not None else "?"


def split_tiles(state: ReplayState, text: str, e: Event, what: str) -> list[str] | None:
    """Tiles of ``text``, or None (reported, T403) if a character is no tile."""
    try:
        return state.rules.tiles.split(text)
    except TileError as exc:
        bad = text[exc.index : exc.index + 1] if exc.index is not None else text
        find(
            state,
            Code.NOT_A_TILE,
            f"{bad!r} in {what} {text!r} is not a tile of the {state.rules.tiles.name} set",
            e,
        )
        return None


def split_lenient(state: ReplayState, text: str, e: Event, what: str) -> tuple[list[str], bool]:
    """Tiles of ``text``; characters that are no tile are reported (T403) and skipped,
    so that the rest of the play still reaches the board. True if any was skipped."""
    try:
        return state.rules.tiles.split(text), False
    except TileError:
        pass
    bad: list[str] = []
    rest = text
    while True:
        try:
            tokens = state.rules.tiles.split(rest)
            break
        except TileError as exc:
            i = exc.index if exc.index is not None else 0
            bad.append(rest[i : i + 1])
            rest = rest[:i] + rest[i + 1 :]
    shown = ", ".join(repr(b) for b in bad)
    find(
        state,
        Code.NOT_A_TILE,
        f"{shown} in {what} {text!r} not a tile of the {state.rules.tiles.name} set",
        e,
    )
    return tokens, True


def read_rack(state: ReplayState, e: Event) -> list[str] | None:
    """The event's rack as upper-case tiles, or None if absent or UNKNOWN."""
    text = e.rack
    if text is None:
        return None
    upper = text.isupper()
    if text == "UNKNOWN" or (not upper and text.upper() == "UNKNOWN"):
        return None
    tokens = split_tiles(state, text, e, "rack")
    if tokens is None:
        return None
    if "." in text or "(" in text or ")" in text:
        find(state, Code.MALFORMED_RACK, f"malformed rack {text!r}", e)
        return None
    return tokens if upper else upper_tiles(tokens)


def move_rack(state: ReplayState, e: Event) -> list[str] | None:
    """The rack of a play, exchange or pass (see :func:`read_rack`), which must come from
    the tiles not on the board."""
    rack = read_rack(state, e)
    if rack is not None and len(rack) > state.rules.rack_size:
        find(
            state,
            Code.RACK_TOO_BIG,
            f"rack {_shown(e.rack or '')} has {len(rack)} tiles; a rack holds at most "
            f"{state.rules.rack_size}",
            e,
        )
        return None  # not the player's rack: nothing is checked or analysed against it
    if rack is not None:
        check_drawable(state, rack, e)
    return rack


def check_drawable(state: ReplayState, rack: list[str], e: Event | None, line: int = 0) -> None:
    """A rack must come from the tiles not on the board (T402)."""
    pool = state.table.pool
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
        find(state, Code.NOT_DRAWABLE, msg, e)
    else:
        state.report(make(Code.NOT_DRAWABLE, msg, line))


def check_totals(state: ReplayState, e: Event, p: int, computed: int | None, code: str) -> None:
    """Compare the event's score with the computed one and its cumulative with the total."""
    if computed is not None and e.score != computed:
        find(
            state,
            code,
            f"recorded {e.score:+d}, computed {computed:+d}",
            e,
            recorded=e.score,
            computed=computed,
        )
    check_cumulative(state, e, p, computed)
    state.totals.computed[p] += computed if computed is not None else e.score
    state.totals.recorded[p] = e.cumulative


def check_cumulative(state: ReplayState, e: Event, p: int, computed: int | None) -> None:
    """The event's cumulative must follow player ``p``'s recorded or computed total,
    by the recorded or the computed score (S602)."""
    also = state.totals.also.pop(p, None) if state.totals.also else None
    if p in state.gaps.unjudged:
        state.gaps.unjudged.discard(p)
        return
    recorded = e.score
    before = state.totals.recorded[p]
    cumulative = e.cumulative
    if cumulative == before + recorded:
        return
    if computed is not None and (
        cumulative == before + computed or cumulative == state.totals.computed[p] + computed
    ):
        return
    if cumulative == state.totals.computed[p] + recorded:
        return
    if also is not None and cumulative in (also + recorded, also + (computed or 0)):
        return
    expected = before + (computed if computed is not None else recorded)
    message = f"cumulative {cumulative}, expected {before} {recorded:+d} = {before + recorded}"
    if expected != before + recorded:
        message += f" ({before} {computed:+d} = {expected} with the computed score)"
    find(state, Code.CUMULATIVE, message, e, recorded=cumulative, computed=expected)


def fits(state: ReplayState, e: Event, p: int) -> bool:
    """True if the event's cumulative follows player ``p``'s recorded total."""
    return e.cumulative == state.totals.recorded[p] + e.score


def scoreless_turn(state: ReplayState, e: Event, is_pass: bool) -> None:
    """Count a turn that scored nothing; enough of them in a row end the game."""
    state.order.scoreless += 1
    state.order.passes = state.order.passes + 1 if is_pass else 0
    if state.ending.over:
        return
    if state.order.scoreless >= state.rules.max_scoreless_turns:
        state.ending.end("scoreless")
        find(
            state,
            Code.SCORELESS_END,
            f"{state.order.scoreless} scoreless turns in a row end the game",
            e,
        )
    elif (
        state.rules.passes_to_end
        and state.order.passes >= state.rules.passes_to_end * state.order.players
    ):
        state.ending.end("passes")


def _shown(text: str, limit: int = 40) -> str:
    """``text`` as a message quotes it, cut to ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
