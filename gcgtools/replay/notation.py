"""How a move is written for people, and what a player sees at the board.

:func:`play_notation` writes a play as Woogles and Quackle show it: the coordinate of the
whole word, then the whole word with the letters it plays through in parentheses
(``O1 HAN(G)OVER``; blanks lower case). :func:`event_notation` writes any event that way
(``pass``, ``exchange ABC``, ...). Every output (board text, pictures, the HTML report,
annotations, the bingo list) uses these, so a move reads the same everywhere.

:func:`study_view` gives what a study viewer shows after an event: whose turn it is, the
rack of the player to move (when the record shows it), every player's rack after the
event, and the unseen tiles from the player to move's side of the board, counted per
letter (:func:`unseen_counts_text`: ``A×3 B×1 ... ?×1``, vowels and consonants).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from gcgtools.model.game import Game
from gcgtools.replay.board import Board, square_name
from gcgtools.replay.position import Position, rack_tokens
from gcgtools.rules.tiles import BLANK, TileSet
from gcgtools.syntax.records import TURN_KINDS, Event, EventKind

__all__ = [
    "StudyView",
    "counts_text",
    "event_notation",
    "play_notation",
    "study_view",
    "word_notation",
    "unseen_counts_text",
    "vowels_text",
]


def word_notation(coord: str, tiles: Sequence[str], through: Sequence[bool]) -> str:
    """``COORD WORD``: the whole word's ``tiles`` with each run of those already on the
    board (``through``) in parentheses, a multi-letter tile in brackets (``O1 HAN(G)OVER``,
    ``8D QUITE``, ``8D [CH]E``). The one way every output writes a play: the replay's
    positions (:func:`play_notation`), generated moves and analyses all come here."""
    parts: list[str] = []
    inside = False
    for tile, old in zip(tiles, through, strict=True):
        if old != inside:
            parts.append("(" if old else ")")
            inside = old
        parts.append(tile if len(tile) == 1 else f"[{tile}]")
    if inside:
        parts.append(")")
    return f"{coord} {''.join(parts)}"


def play_notation(board: Board, placed: Sequence[tuple[int, int, str]], direction: str) -> str:
    """``COORD WORD`` for the tiles ``placed`` (``(row, col, tile)``, already on ``board``):
    the whole word along ``direction`` through them, with the letters that were on the
    board before in parentheses (``O1 HAN(G)OVER``, ``8D QUITE``). "" when nothing was
    placed."""
    if not placed:
        return ""
    down = direction == "down"
    dr, dc = (1, 0) if down else (0, 1)
    new = {(r, c): t for r, c, t in placed}
    r, c = min(new)
    while board.in_bounds(r - dr, c - dc) and board[r - dr, c - dc] is not None:
        r, c = r - dr, c - dc
    start = (r, c)
    tiles: list[str] = []
    through: list[bool] = []
    while board.in_bounds(r, c) and (board[r, c] is not None or (r, c) in new):
        tiles.append(board[r, c] or new[r, c])
        through.append((r, c) not in new)
        r, c = r + dr, c + dc
    return word_notation(square_name(*start, "down" if down else "across"), tiles, through)


def event_notation(event: Event, pos: Position | None = None) -> str:
    """One event as people read it: a play as :func:`play_notation` (from the position
    after it; as recorded when the replay could not place it), ``pass``, ``exchange ABC``
    (``exchange 3`` when only the number is known), ``phony withdrawn``, ``challenge
    bonus``, ``time penalty``, ``own rack (ABC)`` or ``opponent's rack (ABC)``."""
    kind = event.kind
    if kind is EventKind.PLAY:
        if pos is not None and pos.placed:
            return play_notation(pos.board, pos.placed, event.direction or "across")
        return f"{(event.position or '').upper()} {event.word or ''}".strip()
    if kind is EventKind.PASS:
        return "pass"
    if kind is EventKind.EXCHANGE:
        return f"exchange {event.tiles if event.tiles is not None else event.count}"
    if kind is EventKind.WITHDRAWN:
        return "phony withdrawn"
    if kind is EventKind.CHALLENGE_BONUS:
        return "challenge bonus"
    if kind is EventKind.TIME_PENALTY:
        return "time penalty"
    if kind is EventKind.END_RACK_PENALTY:
        return f"own rack ({event.tiles or ''})"
    return f"opponent's rack ({event.tiles or ''})"


def _tile_key(tile: str) -> tuple[int, str]:
    return (1 if tile == BLANK else 0, tile)


def counts_text(counts: Counter[str]) -> str:
    """Tiles as counts per letter, blanks last: ``A×3 B×1 ... ?×2`` (``none`` when empty)."""
    items = sorted(((t, n) for t, n in counts.items() if n > 0), key=lambda tn: _tile_key(tn[0]))
    return " ".join(f"{t}×{n}" for t, n in items) or "none"


def vowels_text(counts: Counter[str], tileset: TileSet | None) -> str:
    """``vowels 12, consonants 30`` (and ``, blanks 2``) of ``counts``; "" when the tile
    set does not say which tiles are vowels."""
    if tileset is None or not tileset.vowels:
        return ""
    vowels = sum(n for t, n in counts.items() if n > 0 and t != BLANK and tileset.is_vowel(t))
    blanks = max(counts.get(BLANK, 0), 0)
    consonants = sum(n for n in counts.values() if n > 0) - vowels - blanks
    text = f"vowels {vowels}, consonants {consonants}"
    return text + (f", blanks {blanks}" if blanks else "")


def unseen_counts_text(counts: Counter[str], tileset: TileSet | None = None) -> str:
    """:func:`counts_text`, then (with a tile set that knows its vowels) ``;`` and
    :func:`vowels_text`: ``A×3 B×1 ... ?×2; vowels 12, consonants 30, blanks 2``."""
    text = counts_text(counts)
    vowels = vowels_text(counts, tileset) if text != "none" else ""
    return f"{text}; {vowels}" if vowels else text


@dataclass(slots=True)
class StudyView:
    """What a study viewer shows after an event.

    ``to_move`` is the 0-based player whose turn it is (None when the game is over);
    ``rack`` the rack that player holds, as the record shows it (None when unknown);
    ``racks`` every player's rack after the event: the rack the record shows them with at
    their next turn, or the tiles left at the end of the game (None when unknown);
    ``unseen`` the tiles not on the board and not on ``view``'s rack (``view`` is the
    player to move; after the last event, the last mover); ``count`` how many.
    """

    to_move: int | None
    rack: str | None
    racks: list[str | None]
    view: int | None
    unseen: Counter[str]
    count: int


def _next_racks(game: Game, after: int, players: int, over: bool) -> list[str | None]:
    """Each player's rack after event ``after`` (0-based; -1 is the start): the rack of
    their next turn, or the tiles counted at the end of the game (``over``: the game is
    over, the end-of-game lines before ``after`` count too)."""
    racks: list[str | None] = [None] * players
    later = game.events[after + 1 :]
    if over:
        later = [e for e in game.events if e.kind not in TURN_KINDS] + later
    for e in later:
        p = e.player
        if p is None or not 0 <= p < players or racks[p] is not None:
            continue
        if e.kind in TURN_KINDS and e.rack:
            racks[p] = e.rack
        elif e.kind is EventKind.END_RACK_PENALTY and e.tiles is not None:
            racks[p] = e.tiles
    for e in later:  # the one who went out has no tiles, and gets the others' tiles
        if e.kind is EventKind.END_RACK_POINTS and e.tiles is not None:
            if e.player is not None and 0 <= e.player < players and racks[e.player] is None:
                racks[e.player] = ""
            others = [k for k in range(players) if racks[k] is None and k != e.player]
            if len(others) == 1:
                racks[others[0]] = e.tiles
    for k, rack in game.final_racks.items():
        if 0 <= k < players and racks[k] is None:
            racks[k] = rack
    return racks


def study_view(game: Game, pos: Position, tileset: TileSet | None = None) -> StudyView:
    """The :class:`StudyView` after ``pos`` (a position of a replay of ``game``)."""
    players = len(pos.recorded)
    racks = _next_racks(game, pos.number - 1, players, pos.game_over)
    to_move = None if pos.game_over else pos.to_move
    if to_move is not None and not 0 <= to_move < players:
        to_move = None
    view = to_move if to_move is not None else pos.player
    rack = racks[to_move] if to_move is not None else None
    tiles = tileset if tileset is not None else pos.board.tileset
    if view is not None and racks[view] is not None:
        unseen = pos.pool.copy()
        unseen.subtract(Counter(rack_tokens(racks[view] or "", tiles)))
        unseen = +unseen
    elif view is not None:
        unseen = pos.unseen_for(view)
    else:
        unseen = +pos.pool
    return StudyView(to_move, rack, racks, view, unseen, sum(unseen.values()))
