"""A generated move: a play, an exchange or a pass, with its score, leave and equity; the
tiles it takes from a rack (:func:`move_tiles`, :func:`rack_after`) and a board with it
put down (:func:`apply_move`)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from gcgtools.replay.board import Board, square_name
from gcgtools.replay.notation import word_notation
from gcgtools.replay.position import tiles_text
from gcgtools.rules.tiles import BLANK, is_blank_tile

__all__ = ["Move", "MoveKind", "apply_move", "move_tiles", "rack_after"]


class MoveKind(str, Enum):
    """What a move does. A ``str``: ``move.kind == "play"`` holds for a play."""

    PLAY = "play"
    EXCHANGE = "exchange"
    PASS = "pass"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return self.value.__format__(spec)


class Move:
    """One move for the player to move.

    ``kind`` is a :class:`MoveKind` (``"play"``, ``"exchange"`` or ``"pass"``). A play has
    ``row``/``col`` (0-based, the first square of the whole word), ``across`` and ``coord``
    (the GCG coordinate: ``8D`` across, ``D8`` down); ``word`` is the whole word, tiles
    already on the board included, blanks in lower case; ``cells`` the same word tile by
    tile and ``new`` a bit mask of the new tiles in it (bit ``k`` = the word's ``k``-th
    tile). ``tiles`` are the tiles taken from the rack (a blank as ``?``; for an exchange
    the tiles thrown back), ``leave`` the tiles kept (sorted, blanks last), ``leave_value``
    what the leave is worth, ``equity`` the move's value (see :func:`generate_moves`),
    ``bingo`` whether the whole rack was played. Exchanges and passes have empty ``coord``
    and ``word`` and score 0.

    Moves are made by the thousand, so the strings derived from the word are computed on
    demand (``word``, ``tiles``, ``coord`` and :meth:`notation` are properties).
    """

    __slots__ = (
        "kind", "row", "col", "across", "score", "equity", "leave_value", "leave", "bingo",
        "cells", "new", "_tiles",
    )  # fmt: skip

    def __init__(
        self,
        kind: MoveKind | str,
        row: int,
        col: int,
        across: bool,
        cells: tuple[str, ...],
        new: int,
        score: int,
        leave: str,
        leave_value: float,
        equity: float,
        bingo: bool = False,
        tiles: str | None = None,
    ) -> None:
        self.kind = MoveKind(kind)
        self.row = row
        self.col = col
        self.across = across
        self.cells = cells
        self.new = new
        self.score = score
        self.leave = leave
        self.leave_value = leave_value
        self.equity = equity
        self.bingo = bingo
        self._tiles = tiles

    # ------------------------------------------------------------------ derived text
    @property
    def coord(self) -> str:
        if self.kind != "play":
            return ""
        return square_name(self.row, self.col, "across" if self.across else "down")

    @property
    def word(self) -> str:
        return "".join(self.cells)

    @property
    def tiles(self) -> str:
        """The tiles taken from the rack, in the order they stand on the board (``?`` for
        a blank); for an exchange, the tiles exchanged; empty for a pass."""
        if self._tiles is not None:
            return self._tiles
        new = self.new
        out = []
        for k, t in enumerate(self.cells):
            if new >> k & 1:
                out.append(BLANK if is_blank_tile(t) else t)
        return tiles_text(out)

    @property
    def tiles_played(self) -> int:
        """How many tiles leave the rack (0 for a pass and an exchange)."""
        return self.new.bit_count() if self.kind == "play" else 0

    @property
    def squares(self) -> list[tuple[int, int, str]]:
        """The new tiles as ``(row, col, tile)`` (blanks lower case)."""
        dr, dc = (0, 1) if self.across else (1, 0)
        new = self.new
        return [
            (self.row + k * dr, self.col + k * dc, t)
            for k, t in enumerate(self.cells)
            if new >> k & 1
        ]

    def notation(self) -> str:
        """``8D QUITE``, ``O1 HAN(G)OVER`` (tiles already on the board in parentheses),
        ``-ABC`` for an exchange, ``-`` for a pass."""
        if self.kind == "pass":
            return "-"
        if self.kind == "exchange":
            return "-" + self.tiles
        new = self.new
        through = [not new >> k & 1 for k in range(len(self.cells))]
        return word_notation(self.coord, self.cells, through)

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "coord": self.coord,
            "word": self.word,
            "tiles": self.tiles,
            "score": self.score,
            "leave": self.leave,
            "leave_value": round(self.leave_value, 3),
            "equity": round(self.equity, 3),
            "bingo": self.bingo,
            "notation": self.notation(),
        }

    def key(self) -> tuple[object, ...]:
        """What makes two moves the same move: kind, square, direction and tiles
        (for a one-tile play, the direction is the one its main word runs in)."""
        if self.kind != "play":
            return (self.kind, "".join(sorted(self.tiles)))
        return ("play", self.row, self.col, self.across, self.cells, self.new)

    def __repr__(self) -> str:
        return f"<Move {self.notation()} {self.score} eq {self.equity:.2f}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.key() == other.key() and self.score == other.score

    def __hash__(self) -> int:
        return hash(self.key())


def apply_move(board: Board, move: Move) -> Board:
    """A copy of ``board`` with the new tiles of ``move`` put down (blanks in lower case,
    as the replay puts them) and ``last_placed`` set to them; an exchange or a pass gives
    an unchanged copy. ``board`` itself is not changed."""
    out = board.copy()
    if move.kind != "play":
        return out
    squares = move.squares
    cells = out.cells
    size = out.size
    for r, c, t in squares:
        cells[r * size + c] = t
    out.last_placed = tuple(squares)
    return out


def rack_after(rack: Sequence[str], move: Move) -> list[str]:
    """What stays on ``rack`` (tiles as in the bag: upper case, blanks ``?``) after
    ``move``: a play's new tiles or an exchange's tiles leave it, a pass keeps it whole.
    Raises ValueError when the move uses a tile the rack lacks."""
    left = list(rack)
    for t in move_tiles(move):
        left.remove(t)
    return left


def move_tiles(move: Move) -> list[str]:
    """The tiles that leave the rack with ``move``, as in the bag (upper case, blanks
    ``?``): a play's new tiles, an exchange's thrown tiles, nothing for a pass."""
    if move.kind == "pass":
        return []
    if move.kind == "exchange":
        return _tile_list(move.tiles)
    new = move.new  # the new squares, as Move.squares lists them (without their places)
    return [t if t.isupper() else BLANK for k, t in enumerate(move.cells) if new >> k & 1]


def _tile_list(text: str) -> list[str]:
    """Tiles written as by :func:`gcgtools.replay.position.tiles_text` (``[CH]`` for a
    tile of several letters) back to a list."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "[":
            end = text.index("]", i)
            out.append(text[i + 1 : end])
            i = end + 1
        else:
            out.append(text[i])
            i += 1
    return out
