"""Plain record builders shared by the LALR transformer and the fast path.

Both ways of reading a line end here, with the text of each terminal and its position,
so they cannot build different records for the same terminals. The functions take plain
strings (no lark Token), which keeps the fast path free of per-token objects.
"""

from __future__ import annotations

from gcgtools.syntax.records import CommentedEvent, Event, EventKind, Pragma, TextLine

# What an action rule gives the event rule, in the order of Event's fields:
# (kind, position, row, col, direction, word, tiles, count).
Action = tuple[
    EventKind, str | None, int | None, int | None, str | None, str | None, str | None, int | None
]

PASS_ACTION: Action = (EventKind.PASS, None, None, None, None, None, None, None)
WITHDRAWN_ACTION: Action = (EventKind.WITHDRAWN, None, None, None, None, None, None, None)
CHALLENGE_ACTION: Action = (EventKind.CHALLENGE_BONUS, None, None, None, None, None, None, None)
TIME_ACTION: Action = (EventKind.TIME_PENALTY, None, None, None, None, None, None, None)

#: Scores, cumulatives and exchange counts have at most this many digits (leading zeros
#: aside): -99,999 to 99,999 points. The highest play on any board is a few thousand points;
#: a longer number is a typo or garbage, refused with a located finding (P111) rather than
#: read into a value no output can hold (Python's int-string limit, Parquet's int64).
MAX_DIGITS = 5


class OutOfRange(ValueError):
    """A number with more than :data:`MAX_DIGITS` digits: ``token`` as written."""

    def __init__(self, what: str, token: str) -> None:
        super().__init__(f"{what} {token[:20]}{'...' if len(token) > 20 else ''}")
        self.what = what
        self.token = token


def number(text: str, what: str) -> int:
    """The value of ``text`` (ASCII digits with an optional sign, as the grammar's
    terminals match them); :class:`OutOfRange` beyond :data:`MAX_DIGITS` digits."""
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > MAX_DIGITS:
        raise OutOfRange(what, text)
    return int(text)


# Coordinates seen so far; a board has a few hundred, so this stays small.
_COORDINATES: dict[str, tuple[int, int, str]] = {}


def coordinate(text: str) -> tuple[int, int, str]:
    """``8D`` -> (7, 3, "across"); ``D8`` -> (7, 3, "down"). 0-based row and column."""
    found = _COORDINATES.get(text)
    if found is None:
        if text[0].isdigit():
            found = int(text[:-1]) - 1, ord(text[-1].upper()) - 65, "across"
        else:
            found = int(text[1:]) - 1, ord(text[0].upper()) - 65, "down"
        if len(_COORDINATES) < 4096:
            _COORDINATES[text] = found
    return found


def play_action(coord: str, word: str) -> Action:
    row, col, direction = coordinate(coord)
    return EventKind.PLAY, coord, row, col, direction, word, None, None


def exchange_action(token: str) -> Action:
    """``-TILES`` or ``-N``."""
    tiles = token[1:]
    if tiles.isdigit() and tiles.isascii():  # "-²" is no count: a tile the set lacks
        count = number(tiles, "exchange count")
        return EventKind.EXCHANGE, None, None, None, None, None, None, count
    return EventKind.EXCHANGE, None, None, None, None, None, tiles, None


def end_rack_action(token: str) -> Action:
    """``(TILES)``. Whether this is points for the opponents' tiles or a penalty for one's
    own depends on the rack before it; :func:`event` decides."""
    return EventKind.END_RACK_POINTS, None, None, None, None, None, token[1:-1], None


def event(
    nick: str,
    rack: str | None,
    action: Action,
    score_text: str,
    cumulative: str,
    extra: str | None,
    line: int,
    column: int,
) -> Event:
    """The record of an event line from its terminals; ``column`` is where ``>`` stands.
    The score is signed; Quackle's ``+-6`` is -6."""
    kind, position, row, col, direction, word, tiles, count = action
    if kind is EventKind.END_RACK_POINTS and rack is not None:
        kind = EventKind.END_RACK_PENALTY
    return Event(
        kind,
        nick,
        rack,
        -number(score_text[2:], "score")
        if score_text.startswith("+-")
        else number(score_text, "score"),
        number(cumulative, "cumulative"),
        line,
        column,
        position,
        row,
        col,
        direction,
        word,
        tiles,
        count,
        score_text,
        extra.rstrip() if extra is not None else None,
    )


def pragma(keyword: str, rest: str | None, line: int, column: int) -> Pragma:
    """``#keyword rest``; ``column`` is where ``#`` stands."""
    return Pragma(keyword.lower(), rest.rstrip() if rest is not None else "", line, column)


def commented_event(text: str, line: int) -> CommentedEvent:
    return CommentedEvent(text.rstrip(), line)


def text_line(text: str, line: int) -> TextLine:
    return TextLine(text.rstrip(), line)
