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


# ---------------------------------------------------------------- score parts for move generators
# A move generator scores many plays in one position. It cannot afford to put each play on
# a board and call :func:`flat_score_play`, so the scoring rules above are also given here
# as parts that it adds up while it places tiles: the same rules, split by square. A
# test checks, play by play, that the parts give the score :func:`flat_score_play` gives.


def cross_sums(board: Board, across: bool, values: dict[str, int]) -> list[int]:
    """For every empty square of ``board`` (by flat index): the total value of the tiles
    of the word a tile put there would form across a play in direction ``across`` (the
    tiles above and below it for an across play, left and right of it for a down play),
    or -1 when it has no such neighbour (no cross-word). -1 on occupied squares.
    ``values`` maps tile texts to points (blanks, lower case, 0), as
    :attr:`TileSet.token_values`."""
    size = board.size
    cells = board.cells
    out = [-1] * (size * size)
    step = size if across else 1  # perpendicular to the play
    for i, tile in enumerate(cells):
        if tile is not None:
            continue
        k = i // size if across else i % size  # position along the perpendicular line
        before = k > 0 and cells[i - step] is not None
        after = k < size - 1 and cells[i + step] is not None
        if not (before or after):
            continue
        total = 0
        j, m = i - step, k - 1
        while m >= 0 and cells[j] is not None:
            total += values[cells[j]]  # type: ignore[index]
            j -= step
            m -= 1
        j, m = i + step, k + 1
        while m < size and cells[j] is not None:
            total += values[cells[j]]  # type: ignore[index]
            j += step
            m += 1
        out[i] = total
    return out


def square_parts(
    board: Board, flat: int, cross_sum: int, tile_values: list[int]
) -> tuple[list[int], list[int]]:
    """What a new tile on the empty square ``flat`` adds, for each tile value in
    ``tile_values``: its letter score in the main word (value x letter premium), and the
    score of the cross-word it forms (``cross_sum`` from :func:`cross_sums` plus its letter
    score, times the square's word premium; 0 when ``cross_sum`` is -1). The main word's
    letters, the word premiums of its new squares and the cross-words combine by
    :func:`parts_score`."""
    lm = board.letter_mult[flat]
    letters = [v * lm for v in tile_values]
    if cross_sum < 0:
        return letters, [0] * len(tile_values)
    wm = board.word_mult[flat]
    return letters, [(cross_sum + v) * wm for v in letters]


def parts_score(
    letters: int, word_mult: int, cross: int, placed: int, bingo_size: int, bingo_bonus: int
) -> int:
    """A play's score from its parts: ``letters`` the main word's letter scores (new tiles
    by :func:`square_parts`, tiles already on the board at face value), ``word_mult`` the
    product of the word premiums under the new tiles, ``cross`` the total of their
    cross-words, ``placed`` the number of new tiles (a full rack earns the bingo bonus).
    The main word must be two tiles or longer (a one-tile play is scored along the line
    in which it forms a word)."""
    total = letters * word_mult + cross
    return total + bingo_bonus if placed >= bingo_size else total
