"""Scoring a play: letter premiums, then word premiums, for newly placed tiles only.

Every word of two or more letters that the new tiles form is scored: the main word
along the play's direction and one cross-word per new tile. Blanks score 0 but still
trigger the word premium under them. Playing a full rack adds the bingo bonus.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from gcgtools.replay.board import Board
from gcgtools.rules.tiles import BLANK, TileSet


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


_VALUES: dict[TileSet, dict[str, int]] = {}


def tile_values(tiles: TileSet) -> dict[str, int]:
    """Points of every token of ``tiles``: upper-case names, lower-case (blank) names, ``?``."""
    table = _VALUES.get(tiles)
    if table is None:
        table = {BLANK: 0}
        for name, value in tiles.values.items():
            table[name] = value
            if name.lower() != name:
                table[name.lower()] = 0
        _VALUES[tiles] = table
    return table


def _word(
    board: Board,
    index: int,
    step: int,
    lo: int,
    hi: int,
    new: set[int],
    values: dict[str, int],
    tiles: TileSet,
) -> tuple[int, list[int], int]:
    """The run of occupied squares through flat ``index`` along ``step`` (within the line
    from ``lo`` to ``hi``, inclusive): its first square, its squares and its score."""
    cells = board.cells
    start = index
    while start - step >= lo and cells[start - step] is not None:
        start -= step
    squares = []
    i = start
    while i <= hi and cells[i] is not None:
        squares.append(i)
        i += step
    if len(squares) < 2:
        return start, squares, 0
    letter_mult, word_mult = board.letter_mult, board.word_mult
    total = 0
    mult = 1
    for i in squares:
        tile = cells[i]
        assert tile is not None
        try:
            value = values[tile]
        except KeyError:
            value = tiles.value(tile)  # raises TileError for a tile the set does not know
        if i in new:
            total += value * letter_mult[i]
            mult *= word_mult[i]
        else:
            total += value
    return start, squares, total * mult


def _runs(
    board: Board, flat: list[int], across: bool, tiles: TileSet
) -> Iterator[tuple[int, list[int], int, bool]]:
    """Every word the new tiles at ``flat`` form: ``(start, squares, score, main)``, the
    main word (along the play) first, then one cross-word per new tile. Runs of a single
    square are not words and are left out."""
    size = board.size
    cells = board.cells
    values = tile_values(tiles)
    new = set(flat)
    last = size - 1
    i0 = flat[0]
    if across:
        lo = i0 - i0 % size
        run = _word(board, i0, 1, lo, lo + last, new, values, tiles)
    else:
        c0 = i0 % size
        run = _word(board, i0, size, c0, c0 + size * last, new, values, tiles)
    if len(run[1]) >= 2:
        yield (*run, True)
    for i in flat:
        # most new tiles form no cross-word: both neighbours across the play are empty
        if across:
            r = i // size
            if (r == 0 or cells[i - size] is None) and (r == last or cells[i + size] is None):
                continue
            c = i - r * size
            run = _word(board, i, size, c, c + size * last, new, values, tiles)
        else:
            c = i % size
            if (c == 0 or cells[i - 1] is None) and (c == last or cells[i + 1] is None):
                continue
            lo = i - c
            run = _word(board, i, 1, lo, lo + last, new, values, tiles)
        if len(run[1]) >= 2:
            yield (*run, False)


def play_score(
    board: Board,
    placed: list[tuple[int, int]],
    direction: str,
    tiles: TileSet,
    *,
    bingo_size: int = 7,
    bingo_bonus: int = 50,
) -> int:
    """The score of :func:`score_play`, without building the words (for validation)."""
    if not placed:
        return 0
    size = board.size
    flat = [r * size + c for r, c in placed]
    total = sum(run[2] for run in _runs(board, flat, direction != "down", tiles))
    return total + bingo_bonus if len(placed) >= bingo_size else total


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
    if not placed:
        return PlayScore(0)
    size = board.size
    cells = board.cells
    flat = [r * size + c for r, c in placed]
    across = direction != "down"
    cross = "down" if across else "across"
    words: list[Word] = []
    total = 0
    for start, squares, score, main in _runs(board, flat, across, tiles):
        text = "".join([cells[k] or "" for k in squares])
        # a one-tile play whose only word runs across it: that cross-word is the main word
        words.append(
            Word(text, start // size, start % size, direction if main else cross, score,
                 main or not words)
        )  # fmt: skip
        total += score
    premiums = board.premiums
    bingo = len(placed) >= bingo_size
    if bingo:
        total += bingo_bonus
    return PlayScore(total, words, bingo, [premiums[i] for i in flat if premiums[i]])
