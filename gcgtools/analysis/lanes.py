"""The premium lanes and hook spots of a board, as the coach's facts count them
(:mod:`gcgtools.analysis.facts`).

* A triple-word square is *in reach* when it is empty and a play of at most a rack of
  tiles (7) along its row or its column could cover it and touch the tiles on the board:
  walking from it along the line, over empty squares only, a tile is met within a rack's
  length, or an empty square next to a tile (across the line) within one less. The
  lexicon is not asked: a lane in reach may still have no word that fits.
* A *hook spot* of a play is an empty square at either end of the word it makes along
  its line where a tile would make a longer word, and a word across the line too when
  the square has neighbours across it (by the lexicon). The *tiles that fit* it are the
  letters that do so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, Protocol

from gcgtools.movegen.move import Move
from gcgtools.replay.board import Board, square_name

__all__ = ["HookSpot", "Words", "hook_spots", "tws_in_reach"]

_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))


class Words(Protocol):
    """What the hook spots need of a lexicon: whether tiles spell a word."""

    def contains_tile_texts(self, tiles: list[str]) -> bool: ...


def tws_in_reach(board: Board, reach: int) -> frozenset[str]:
    """The triple-word squares in reach (see the module docstring) of a play of at most
    ``reach`` tiles, by name (``A1``, ``O8``: column then row); none on an empty board."""
    if board.is_empty():
        return frozenset()
    out = set()
    for r in range(board.size):
        for c in range(board.size):
            if board.layout.premium(r, c) == "TW" and board[r, c] is None:
                if _in_reach(board, r, c, reach):
                    out.add(square_name(r, c, "down"))
    return frozenset(out)


def _in_reach(board: Board, r: int, c: int, reach: int) -> bool:
    if _touches(board, r, c, (0, 1)) or _touches(board, r, c, (1, 0)):
        return True
    for dr, dc in _DIRECTIONS:
        for d in range(1, reach + 1):
            q = (r + d * dr, c + d * dc)
            if not board.in_bounds(*q):
                break
            if board[q] is not None:
                return True  # d new tiles from the square to the tile
            if d + 1 <= reach and _touches(board, q[0], q[1], (dc, dr)):
                return True  # d + 1 new tiles, the last one next to a tile
    return False


def _touches(board: Board, r: int, c: int, across: tuple[int, int]) -> bool:
    """Whether a tile stands next to (r, c) along ``across`` (either side)."""
    dr, dc = across
    for s in (1, -1):
        q = (r + s * dr, c + s * dc)
        if board.in_bounds(*q) and board[q] is not None:
            return True
    return False


class HookSpot(NamedTuple):
    """A hook spot: its square's name and the letters that fit it."""

    square: str
    letters: frozenset[str]


def hook_spots(board: Board, move: Move, words: Words, letters: Iterable[str]) -> list[HookSpot]:
    """The hook spots (see the module docstring) at the ends of the word ``move`` makes
    on ``board`` (the board after the move); ``letters``: the letters to try."""
    if move.kind != "play":
        return []
    step = (0, 1) if move.across else (1, 0)
    first = (move.row, move.col)
    last = (move.row + step[0] * (len(move.cells) - 1), move.col + step[1] * (len(move.cells) - 1))
    word = _run(board, first, step, forward=True)
    tried = list(letters)
    out = []
    for end, forward in ((last, True), (first, False)):
        sign = 1 if forward else -1
        spot = (end[0] + sign * step[0], end[1] + sign * step[1])
        if not board.in_bounds(*spot) or board[spot] is not None:
            continue
        beyond = _beyond(board, spot, step, forward)
        fits = frozenset(
            t for t in tried
            if words.contains_tile_texts(word + [t] + beyond if forward else beyond + [t] + word)
            and _fits_across(board, spot, step, t, words)
        )  # fmt: skip
        if fits:
            out.append(HookSpot(square_name(*spot, "down"), fits))
    return out


def _run(board: Board, start: tuple[int, int], step: tuple[int, int], forward: bool) -> list[str]:
    """The tiles from ``start`` along ``step`` (or back) to the first empty square, in
    reading order, upper case."""
    dr, dc = step if forward else (-step[0], -step[1])
    out = []
    r, c = start
    while board.in_bounds(r, c) and board[r, c] is not None:
        out.append(str(board[r, c]).upper())
        r, c = r + dr, c + dc
    return out if forward else out[::-1]


def _beyond(board: Board, spot: tuple[int, int], step: tuple[int, int], forward: bool) -> list[str]:
    """The tiles on the far side of ``spot`` along the line (a tile there joins the word)."""
    dr, dc = step if forward else (-step[0], -step[1])
    return _run(board, (spot[0] + dr, spot[1] + dc), step, forward)


def _fits_across(
    board: Board, spot: tuple[int, int], step: tuple[int, int], tile: str, words: Words
) -> bool:
    """Whether ``tile`` on ``spot`` makes a word across the line (true with no neighbours)."""
    across = (step[1], step[0])
    before = _beyond(board, spot, across, forward=False)
    after = _beyond(board, spot, across, forward=True)
    if not before and not after:
        return True
    return words.contains_tile_texts(before + [tile] + after)
