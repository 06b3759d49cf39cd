"""Scoring a play: letter premiums, then word premiums, for newly placed tiles only.

Every word of two or more letters that the new tiles form is scored: the main word
along the play's direction and one cross-word per new tile. Blanks score 0 but still
trigger the word premium under them. Playing a full rack adds the bingo bonus.
"""

from __future__ import annotations

from collections.abc import Mapping
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


def tile_values(tiles: TileSet) -> Mapping[str, int]:
    """Points of every token of ``tiles``: upper-case names, lower-case (blank) names, ``?``."""
    return tiles.token_values


def _word(
    cells: list[str | None],
    index: int,
    step: int,
    lo: int,
    hi: int,
    new: set[int],
    values: Mapping[str, int],
    letter_mult: tuple[int, ...],
    word_mult: tuple[int, ...],
    tiles: TileSet,
) -> tuple[int, int, int]:
    """The run of occupied squares through flat ``index`` along ``step`` (within the line
    from ``lo`` to ``hi``, inclusive): ``(start, stop, score)``, its squares being
    ``range(start, stop, step)``. Premiums count under the ``new`` squares only."""
    start = index
    while start - step >= lo and cells[start - step] is not None:
        start -= step
    total = 0
    mult = 1
    i = start
    while i <= hi:
        tile = cells[i]
        if tile is None:
            break
        try:
            value = values[tile]
        except KeyError:
            value = tiles.value(tile)  # raises TileError for a tile the set does not know
        if i in new:
            total += value * letter_mult[i]
            mult *= word_mult[i]
        else:
            total += value
        i += step
    return start, i, total * mult


def _runs(
    board: Board, flat: list[int], across: bool, tiles: TileSet
) -> list[tuple[int, int, int, int, bool]]:
    """Every word the new tiles at ``flat`` form, as ``(start, stop, step, score, main)``
    (its squares being ``range(start, stop, step)``): the main word (along the play)
    first, then one cross-word per new tile. Runs of a single square are not words and
    are left out."""
    size = board.size
    cells = board.cells
    values = tile_values(tiles)
    lm, wm = board.letter_mult, board.word_mult
    new = set(flat)
    last = size - 1
    out: list[tuple[int, int, int, int, bool]] = []
    i0 = flat[0]
    # the main word, along the play; the cross-words run the other way
    if across:
        main_step, cross_step = 1, size
        lo = i0 - i0 % size
        hi = lo + last
    else:
        main_step, cross_step = size, 1
        lo = i0 % size
        hi = lo + size * last
    start, stop, score = _word(cells, i0, main_step, lo, hi, new, values, lm, wm, tiles)
    if stop - start >= 2 * main_step:
        out.append((start, stop, main_step, score, True))
    for i in flat:
        # most new tiles form no cross-word: both neighbours across the play are empty
        if across:
            r = i // size
            if (r == 0 or cells[i - size] is None) and (r == last or cells[i + size] is None):
                continue
            lo = i - r * size
            hi = lo + size * last
        else:
            c = i % size
            if (c == 0 or cells[i - 1] is None) and (c == last or cells[i + 1] is None):
                continue
            lo = i - c
            hi = lo + last
        start, stop, score = _word(cells, i, cross_step, lo, hi, new, values, lm, wm, tiles)
        if stop - start >= 2 * cross_step:
            out.append((start, stop, cross_step, score, False))
    return out


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
    size = board.size
    flat = [r * size + c for r, c in placed]
    return flat_play_score(board, flat, direction, tiles, bingo_size, bingo_bonus)


def flat_play_score(
    board: Board, flat: list[int], direction: str, tiles: TileSet, bingo_size: int, bingo_bonus: int
) -> int:
    """:func:`play_score` of the squares at flat indices ``flat`` (``row * size + col``)."""
    if not flat:
        return 0
    total = 0
    for run in _runs(board, flat, direction != "down", tiles):
        total += run[3]
    return total + bingo_bonus if len(flat) >= bingo_size else total


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
    size = board.size
    flat = [r * size + c for r, c in placed]
    return flat_score_play(board, flat, direction, tiles, bingo_size, bingo_bonus)


def flat_score_play(
    board: Board, flat: list[int], direction: str, tiles: TileSet, bingo_size: int, bingo_bonus: int
) -> PlayScore:
    """:func:`score_play` of the squares at flat indices ``flat`` (``row * size + col``)."""
    if not flat:
        return PlayScore(0)
    size = board.size
    cells = board.cells
    across = direction != "down"
    cross = "down" if across else "across"
    words: list[Word] = []
    total = 0
    for start, stop, step, score, main in _runs(board, flat, across, tiles):
        text = "".join(cells[start:stop:step])  # type: ignore[arg-type]  # no empty square
        # a one-tile play whose only word runs across it: that cross-word is the main word
        words.append(
            Word(text, start // size, start % size, direction if main else cross, score,
                 main or not words)
        )  # fmt: skip
        total += score
    premiums = board.premiums
    bingo = len(flat) >= bingo_size
    if bingo:
        total += bingo_bonus
    return PlayScore(total, words, bingo, [premiums[i] for i in flat if premiums[i]])
