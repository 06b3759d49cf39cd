"""Scoring a play: letter premiums, then word premiums, for newly placed tiles only.

Every word of two or more letters that the new tiles form is scored: the main word
along the play's direction and one cross-word per new tile. Blanks score 0 but still
trigger the word premium under them. Playing a full rack adds the bingo bonus.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gcgtools.replay.board import Board
from gcgtools.rules.tiles import TileSet


@dataclass(slots=True)
class Word:
    """A word formed by a play: its letters (blanks lower case), start, direction, score."""

    text: str
    row: int
    col: int
    direction: str
    score: int
    main: bool = False


@dataclass(slots=True)
class PlayScore:
    """The computed result of placing tiles."""

    score: int
    words: list[Word] = field(default_factory=list)
    bingo: bool = False
    premiums: list[str] = field(default_factory=list)

    @property
    def main_word(self) -> Word | None:
        for w in self.words:
            if w.main:
                return w
        return self.words[0] if self.words else None


def _word_at(
    board: Board, row: int, col: int, dr: int, dc: int
) -> tuple[int, int, list[tuple[int, int]]]:
    """The run of occupied squares through (row, col) along (dr, dc): start and squares."""
    r, c = row, col
    while board.in_bounds(r - dr, c - dc) and board[r - dr, c - dc] is not None:
        r, c = r - dr, c - dc
    start = (r, c)
    squares = []
    while board.in_bounds(r, c) and board[r, c] is not None:
        squares.append((r, c))
        r, c = r + dr, c + dc
    return start[0], start[1], squares


def _score_squares(
    board: Board, squares: list[tuple[int, int]], new: set[tuple[int, int]], tiles: TileSet
) -> int:
    layout = board.layout
    total = 0
    word_mult = 1
    for r, c in squares:
        tile = board[r, c]
        assert tile is not None
        value = tiles.value(tile)
        if (r, c) in new:
            value *= layout.letter_multiplier(r, c)
            word_mult *= layout.word_multiplier(r, c)
        total += value
    return total * word_mult


def score_play(
    board: Board,
    placed: list[tuple[int, int]],
    direction: str,
    tiles: TileSet,
    *,
    bingo_size: int = 7,
    bingo_bonus: int = 50,
) -> PlayScore:
    """Score tiles already put on ``board`` at the squares ``placed``.

    ``direction`` is the direction the play was recorded in ("across" or "down").
    """
    new = set(placed)
    dr, dc = (0, 1) if direction == "across" else (1, 0)
    result = PlayScore(0)
    if not placed:
        return result
    r0, c0 = placed[0]
    row, col, squares = _word_at(board, r0, c0, dr, dc)
    if len(squares) >= 2:
        score = _score_squares(board, squares, new, tiles)
        text = "".join(board[s] or "" for s in squares)
        result.words.append(Word(text, row, col, direction, score, main=True))
        result.score += score
    cross = "down" if direction == "across" else "across"
    for r, c in placed:
        row, col, squares = _word_at(board, r, c, dc, dr)
        if len(squares) >= 2:
            score = _score_squares(board, squares, new, tiles)
            text = "".join(board[s] or "" for s in squares)
            result.words.append(Word(text, row, col, cross, score, main=not result.words))
            result.score += score
    for r, c in placed:
        name = board.layout.premium(r, c)
        if name:
            result.premiums.append(name)
    if len(placed) >= bingo_size:
        result.bingo = True
        result.score += bingo_bonus
    return result
