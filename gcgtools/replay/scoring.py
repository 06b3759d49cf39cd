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


def _runs(
    board: Board, flat: list[int], across: bool, tiles: TileSet
) -> list[tuple[int, int, int, int, bool]]:
    """:func:`_walk_words`; TileError for a tile on the board that ``tiles`` does not know."""
    try:
        return _walk_words(board, flat, across, tiles.token_values)
    except KeyError as exc:
        tiles.value(exc.args[0])  # raises TileError
        raise


def _walk_words(
    board: Board, flat: list[int], across: bool, values: dict[str, int]
) -> list[tuple[int, int, int, int, bool]]:
    """Every word the new tiles at ``flat`` (already on the board) form, as
    ``(start, stop, step, score, main)``, its squares being ``range(start, stop, step)``:
    the main word (along the play) first, then one cross-word per new tile that has a
    neighbour across the play. Runs of a single square are not words and are left out.
    Letter and word premiums count under the new tiles only."""
    size = board.size
    cells = board.cells
    lm, wm = board.letter_mult, board.word_mult
    last = size - 1
    out: list[tuple[int, int, int, int, bool]] = []
    i0 = flat[0]
    # the main word, along the play, within the line of the first new tile
    if across:
        step, cross = 1, size
        lo = i0 - i0 % size
        hi = lo + last
    else:
        step, cross = size, 1
        lo = i0 % size
        hi = lo + size * last
    start = i0
    while start - step >= lo and cells[start - step] is not None:
        start -= step
    total, mult, i = 0, 1, start
    while i <= hi:
        tile = cells[i]
        if tile is None:
            break
        value = values[tile]
        if i in flat:  # a new tile (a short list: no set to build)
            total += value * lm[i]
            mult *= wm[i]
        else:
            total += value
        i += step
    if i - start >= 2 * step:
        out.append((start, i, step, total * mult, True))
    # one cross-word per new tile with a neighbour across the play: the new tile is its
    # only new square, so only its premiums count
    for i in flat:
        if across:
            k = i // size  # row
            if (k == 0 or cells[i - size] is None) and (k == last or cells[i + size] is None):
                continue
            lo, hi = i - k * size, i + (last - k) * size
        else:
            k = i % size  # column
            if (k == 0 or cells[i - 1] is None) and (k == last or cells[i + 1] is None):
                continue
            lo, hi = i - k, i + last - k
        total = 0
        start = i
        while start - cross >= lo and cells[start - cross] is not None:
            start -= cross
            tile = cells[start]
            total += values[tile]  # type: ignore[index]
        stop = i + cross
        while stop <= hi and cells[stop] is not None:
            tile = cells[stop]
            total += values[tile]  # type: ignore[index]
            stop += cross
        tile = cells[i]
        assert tile is not None
        value = values[tile]
        out.append((start, stop, cross, (total + value * lm[i]) * wm[i], False))
    return out


def flat_play_score(
    board: Board, flat: list[int], direction: str, tiles: TileSet, bingo_size: int, bingo_bonus: int
) -> int:
    """The score of the tiles at flat indices ``flat`` (``row * size + col``), as
    :func:`flat_score_play` gives it, without building the words (for validation)."""
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
