"""A brute-force play enumerator for the move generator's tests.

It shares nothing with :mod:`gcgtools.movegen`: every line, every start and end square,
every order of the rack's tiles on the empty squares between them (a blank as every
letter), each placement checked word by word against a plain set of words and scored by
putting the tiles on a copy of the board and calling the replay's scorer.
"""

from __future__ import annotations

from itertools import permutations

from gcgtools.replay.board import Board
from gcgtools.replay.scoring import flat_play_score

#: A play as the brute force and the generator both describe it: ``(across, row, col,
#: word tiles, bit mask of the new tiles in the word)``.
PlayKey = tuple[bool, int, int, tuple[str, ...], int]


def brute_plays(
    board: Board,
    rack: list[str],
    words: set[tuple[str, ...]],
    alphabet: list[str],
    *,
    bingo_size: int = 7,
    bingo_bonus: int = 50,
) -> dict[PlayKey, int]:
    """Every legal play of ``rack`` (upper-case tiles, ``?`` blanks) with its score.
    ``words`` holds the words as tuples of upper-case tiles; ``alphabet`` the letters a
    blank may stand for. A one-tile play that forms words both ways is listed across."""
    size = board.size
    cells = board.cells
    empty_board = all(c is None for c in cells)
    centre = board.layout.centre
    tiles_of = board.tileset
    assert tiles_of is not None
    found: dict[PlayKey, int] = {}
    for across in (True, False):
        dr, dc = (0, 1) if across else (1, 0)
        for line in range(size):
            for start in range(size):
                r0, c0 = (line, start) if across else (start, line)
                pr, pc = r0 - dr, c0 - dc
                if pr >= 0 and pc >= 0 and cells[pr * size + pc] is not None:
                    continue
                for end in range(start + 1, size):
                    squares = [(r0 + k * dr, c0 + k * dc) for k in range(end - start + 1)]
                    nr, nc = squares[-1][0] + dr, squares[-1][1] + dc
                    if nr < size and nc < size and cells[nr * size + nc] is not None:
                        continue
                    empties = [k for k, (r, c) in enumerate(squares) if cells[r * size + c] is None]
                    if not empties or len(empties) > len(rack):
                        continue
                    if empty_board and (centre not in squares or len(empties) < 2):
                        continue
                    for order in set(permutations(rack, len(empties))):
                        for tiles in _designations(list(order), alphabet):
                            _try(board, across, squares, empties, tiles, words, empty_board,
                                 found, bingo_size, bingo_bonus)  # fmt: skip
    return found


def _designations(order: list[str], alphabet: list[str]) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for t in order:
        if t == "?":
            out = [o + [a.lower()] for o in out for a in alphabet]
        else:
            out = [o + [t] for o in out]
    return out


def _try(
    board: Board,
    across: bool,
    squares: list[tuple[int, int]],
    empties: list[int],
    tiles: list[str],
    words: set[tuple[str, ...]],
    empty_board: bool,
    found: dict[PlayKey, int],
    bingo_size: int,
    bingo_bonus: int,
) -> None:
    size = board.size
    cells = board.cells
    word = [cells[r * size + c] for r, c in squares]
    for k, t in zip(empties, tiles, strict=True):
        word[k] = t
    if tuple(w.upper() for w in word) not in words:  # type: ignore[union-attr]
        return
    touches = len(empties) < len(squares)
    crossed = False
    for k, t in zip(empties, tiles, strict=True):
        r, c = squares[k]
        cross = _cross_word(board, r, c, t, not across)
        if cross is None:
            continue
        touches = True
        crossed = True
        if tuple(x.upper() for x in cross) not in words:
            return
    if not empty_board and not touches:
        return
    if len(empties) == 1 and not across and crossed:
        return  # a one-tile play forming words both ways is listed across
    new = 0
    for k in empties:
        new |= 1 << k
    flat = [squares[k][0] * size + squares[k][1] for k in empties]
    trial = board.copy()
    for f, t in zip(flat, tiles, strict=True):
        trial.cells[f] = t
    direction = "across" if across else "down"
    assert trial.tileset is not None
    score = flat_play_score(trial, flat, direction, trial.tileset, bingo_size, bingo_bonus)
    key = (across, squares[0][0], squares[0][1], tuple(word), new)  # type: ignore[arg-type]
    found[key] = score


def _cross_word(board: Board, r: int, c: int, tile: str, across: bool) -> list[str] | None:
    """The word through ``(r, c)`` in direction ``across`` with ``tile`` there, or None
    when the square has no neighbour that way."""
    size = board.size
    cells = board.cells
    dr, dc = (0, 1) if across else (1, 0)
    before = []
    rr, cc = r - dr, c - dc
    while rr >= 0 and cc >= 0 and cells[rr * size + cc] is not None:
        before.append(cells[rr * size + cc])
        rr, cc = rr - dr, cc - dc
    after = []
    rr, cc = r + dr, c + dc
    while rr < size and cc < size and cells[rr * size + cc] is not None:
        after.append(cells[rr * size + cc])
        rr, cc = rr + dr, cc + dc
    if not before and not after:
        return None
    return [*reversed(before), tile, *after]  # type: ignore[list-item]
