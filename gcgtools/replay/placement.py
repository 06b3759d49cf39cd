"""Reading a play's word onto the board: which squares get new tiles, which letters are
played through, and what is wrong with the play as written (the B5xx findings, T406).

:func:`read_play` only reads the board: the replayer puts the tiles down afterwards. It
runs once per play, so it returns a plain tuple and keeps its walks in local variables.
"""

from __future__ import annotations

from collections.abc import Mapping

from gcgtools.findings import Code
from gcgtools.replay.board import Board, square_name
from gcgtools.rules.tiles import BLANK, is_blank_tile
from gcgtools.syntax.records import Event

#: A finding as ``(code, message)``.
Problem = tuple[str, str]
#: What :func:`read_play` returns: ``(placed, used, broken, problems)``. ``placed`` are
#: the new tiles as ``(row, col, tile)``; ``used`` every tile the record puts down, on the
#: board or not, as it is in the bag (a blank ``?``): what leaves the rack. ``broken`` is
#: true when the play cannot be put down as written (no score is computed for it);
#: ``problems`` are the findings in the order they were found.
Placement = tuple[list[tuple[int, int, str]], list[str], bool, list[Problem]]
#: What a walk along the word finds: ``(placed, used, through, end, empty, conflicts,
#: off)``: the squares played through, the square after the word, the played-through
#: squares that are empty (name, row, col) and those that hold another letter, and whether
#: the word ran off the board.
Square = tuple[str, int, int]
_Walked = tuple[
    list[tuple[int, int, str]], list[str], int, tuple[int, int], list[Square], list[str], bool
]


def read_play(
    board: Board,
    e: Event,
    tokens: list[str],
    broken: bool,
    first: bool,
    uncertain: Mapping[int, int] | None = None,
) -> Placement:
    """Read the tiles ``tokens`` of play ``e`` onto ``board`` from the event's square.

    ``broken`` says whether the word was already found faulty (a character that is no
    tile); ``first`` whether this is the first play on the board. ``uncertain`` maps the
    empty squares (flat indices) that an earlier play which could not be put down may have
    covered to that play's line: a play through one of them is not scored, and not
    reported as playing through an empty square (B511, an info). The board is not changed.
    """
    assert e.row is not None and e.col is not None
    problems: list[Problem] = []
    direction = e.direction or "across"
    if not _starts_on_board(board, e, direction, problems):
        return [], _from_rack(tokens), True, problems
    room = board.size - (e.col if direction == "across" else e.row)
    if len(tokens) <= room and "(" not in tokens and ")" not in tokens:
        walked = _walk_flat(board, e.row, e.col, direction, tokens, problems)
    else:
        walked = _walk(board, e, direction, tokens, problems)
    placed, used, through, (r, c), empty, conflicts, off = walked
    if empty and uncertain:
        size = board.size
        unknown = [sq for sq in empty if _flat(sq, size) in uncertain]
        if unknown:
            empty = [sq for sq in empty if sq not in unknown]
            line = uncertain[_flat(unknown[0], size)]
            where = ", ".join(sq[0] for sq in unknown)
            problems.append(
                (
                    Code.UNCERTAIN_SQUARE,
                    f"{e.word} plays through {where}, which the play on line {line} that could "
                    "not be put down may cover: not scored",
                )
            )
            broken = True
    if off:
        # where the play really went is anybody's guess: no tile of it lands on a square
        # (the tiles still leave the rack), so that no later play is judged by them
        placed = []
    # the tiles of a play that cannot be put down as written, but that stays on the board,
    # go on their own written squares only: say so
    kept = "; its new tiles are put on their own squares" if placed else ""
    if conflicts:
        problems.append((Code.BOARD_MISMATCH, "; ".join(conflicts) + kept))
    if empty:
        verb = "it is" if len(empty) == 1 else "they are"
        names = ", ".join(sq[0] for sq in empty)
        problems.append(
            (Code.GAP_IN_PLAY, f"{e.word} plays through {names}, but {verb} empty{kept}")
        )
    broken = broken or off or bool(empty) or bool(conflicts)
    size = board.size
    if not broken and r < size and c < size and board.cells[r * size + c] is not None:
        where = square_name(r, c, direction)
        problems.append((Code.WORD_CUT_SHORT, f"the word continues past {e.word} onto {where}"))
    if not placed:
        if not broken:
            problems.append((Code.NO_TILE_PLACED, f"{e.word} places no new tile"))
            broken = True
    elif first:
        _check_first(board, placed, problems)
    elif not through and not _touches(board, placed) and not uncertain_touched(problems):
        problems.append(
            (Code.NOT_CONNECTED, f"{e.word} at {e.position} touches no tile on the board")
        )
    return placed, used, broken, problems


def _starts_on_board(board: Board, e: Event, direction: str, problems: list[Problem]) -> bool:
    """The word's first square must be on the board (B504) and have no tile before it
    (B505). False if it is off the board."""
    assert e.row is not None and e.col is not None
    size, r, c = board.size, e.row, e.col
    if not (0 <= r < size and 0 <= c < size):
        problems.append(
            (
                Code.OFF_BOARD,
                f"{e.position} is off the {size}x{size} board; no tile of it is put on the board",
            )
        )
        return False
    pr, pc = (r, c - 1) if direction == "across" else (r - 1, c)
    before = board.cells[pr * size + pc] if 0 <= pr and 0 <= pc else None
    if before is not None:
        where = square_name(pr, pc, direction)
        problems.append(
            (
                Code.NOT_WORD_START,
                f"{e.position} is not the first square of the word: {where} holds {before}",
            )
        )
    return True


def _walk_flat(
    board: Board, r: int, c: int, direction: str, tokens: list[str], problems: list[Problem]
) -> _Walked:
    """Walk a word from square ``(r, c)`` that stays on the board and has no parentheses,
    by flat square index (the common case)."""
    cells, size = board.cells, board.size
    across = direction == "across"
    placed: list[tuple[int, int, str]] = []
    used: list[str] = []
    empty: list[Square] = []
    conflicts: list[str] = []
    through = 0
    i = r * size + c
    step = 1 if across else size
    row, col = r, c
    for tok in tokens:
        current = cells[i]
        if current is None:
            if tok == ".":
                empty.append((square_name(row, col, direction), row, col))
                through += 1
            else:
                if tok == BLANK:
                    problems.append(_bare_blank(row, col, direction))
                placed.append((row, col, tok))
                used.append(BLANK if is_blank_tile(tok) else tok)
        else:
            if tok != "." and tok != current and tok.upper() != current.upper():
                conflicts.append(_conflict(row, col, direction, current, tok))
            through += 1
        i += step
        if across:
            col += 1
        else:
            row += 1
    return placed, used, through, (row, col), empty, conflicts, False


def _walk(
    board: Board, e: Event, direction: str, tokens: list[str], problems: list[Problem]
) -> _Walked:
    """Walk any word from a square on the board: parentheses mark played-through letters.
    A word that runs off the board (B504) is reported there; :func:`read_play` then puts
    none of its tiles on the board (they only leave the rack)."""
    assert e.row is not None and e.col is not None
    cells, size = board.cells, board.size
    r, c = e.row, e.col
    dr, dc = (0, 1) if direction == "across" else (1, 0)
    placed: list[tuple[int, int, str]] = []
    used: list[str] = []
    empty: list[Square] = []
    conflicts: list[str] = []
    through = 0
    in_parens = off = False
    for k, tok in enumerate(tokens):
        if tok == "(" or tok == ")":
            in_parens = tok == "("
            continue
        if r >= size or c >= size:
            where = square_name(r, c, direction)
            problems.append(
                (
                    Code.OFF_BOARD,
                    f"{e.word} runs off the board at {where}; no tile of it is put on the board",
                )
            )
            used += _from_rack(tokens[k:], in_parens)
            off = True
            break
        current = cells[r * size + c]
        if current is None:
            if tok == "." or in_parens:
                empty.append((square_name(r, c, direction), r, c))
                through += 1
            else:
                if tok == BLANK:
                    problems.append(_bare_blank(r, c, direction))
                placed.append((r, c, tok))
                used.append(BLANK if is_blank_tile(tok) else tok)
        else:
            if tok != "." and tok.upper() != current.upper():
                conflicts.append(_conflict(r, c, direction, current, tok))
            through += 1
        r, c = r + dr, c + dc
    return placed, used, through, (r, c), empty, conflicts, off


def _flat(square: Square, size: int) -> int:
    return square[1] * size + square[2]


def uncertain_touched(problems: list[Problem]) -> bool:
    """True when the play goes through a square an unplaceable play may cover (B511)."""
    return any(code == Code.UNCERTAIN_SQUARE for code, _ in problems)


def uncertain_squares(
    board: Board, e: Event, tokens: list[str], problems: list[Problem]
) -> list[int]:
    """The empty squares (flat indices) that a play which could not be put down as written
    may really cover: for one that runs off the board (B504), every empty square of its row
    (across) or column (down) within its length of the written start; for one that plays
    through empty squares (B508), those squares. ``tokens`` are the word's tiles."""
    if e.row is None or e.col is None:
        return []
    size, cells = board.size, board.cells
    codes = {code for code, _ in problems}
    across = (e.direction or "across") == "across"
    squares = [t for t in tokens if t != "(" and t != ")"]
    out: list[int] = []
    if Code.OFF_BOARD in codes:
        line, start = (e.row, e.col) if across else (e.col, e.row)
        if not 0 <= line < size:
            return []
        length = len(squares)
        for k in range(max(0, start - length), min(size, start + length)):
            i = line * size + k if across else k * size + line
            if cells[i] is None:
                out.append(i)
    elif Code.GAP_IN_PLAY in codes:
        r, c = e.row, e.col
        in_parens = False
        for tok in tokens:
            if tok == "(" or tok == ")":
                in_parens = tok == "("
                continue
            if not (0 <= r < size and 0 <= c < size):
                break
            i = r * size + c
            if (tok == "." or in_parens) and cells[i] is None:
                out.append(i)
            r, c = (r, c + 1) if across else (r + 1, c)
    return out


def _from_rack(tokens: list[str], in_parens: bool = False) -> list[str]:
    """The tiles of ``tokens`` that come from the rack (not ``.``, not in parentheses), as
    they are in the bag."""
    used = []
    for tok in tokens:
        if tok == "(" or tok == ")":
            in_parens = tok == "("
        elif tok != "." and not in_parens:
            used.append(BLANK if is_blank_tile(tok) else tok)
    return used


def _bare_blank(r: int, c: int, direction: str) -> Problem:
    return (Code.BLANK_WITHOUT_LETTER, f"blank at {square_name(r, c, direction)} has no letter")


def _conflict(r: int, c: int, direction: str, current: str, tok: str) -> str:
    return f"{square_name(r, c, direction)} holds {current}, not {tok}"


def _check_first(board: Board, placed: list[tuple[int, int, str]], problems: list[Problem]) -> None:
    """The first play must cover the centre (B501) with two tiles or more (B502)."""
    centre = board.layout.centre
    if all((r, c) != centre for r, c, _ in placed):
        where = square_name(*centre)
        problems.append(
            (Code.MISSES_CENTRE, f"the first play must cover the centre square {where}")
        )
    if len(placed) < 2:
        problems.append((Code.SINGLE_TILE_FIRST, "the first play must use at least two tiles"))


def _touches(board: Board, placed: list[tuple[int, int, str]]) -> bool:
    """True if a new tile is next to a tile already on the board."""
    cells, size = board.cells, board.size
    for r, c, _ in placed:
        if (
            (r > 0 and cells[(r - 1) * size + c] is not None)
            or (r + 1 < size and cells[(r + 1) * size + c] is not None)
            or (c > 0 and cells[r * size + c - 1] is not None)
            or (c + 1 < size and cells[r * size + c + 1] is not None)
        ):
            return True
    return False
