"""The board state: which tile stands on which square."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from gcgtools.rules.boards import BoardLayout
from gcgtools.rules.tiles import TileSet
from gcgtools.wording import plural

_PREMIUM_CHARS = {"TW": "=", "DW": "-", "TL": '"', "DL": "'", "QW": "~", "QL": "^", "": "."}


class Board:
    """Tiles on a board layout. A tile is its letter; a blank is the letter in lower case.

    Squares are addressed by 0-based ``(row, col)``; ``board[7, 7]`` is H8 on a 15x15 board.
    ``tileset`` (when known) gives the tiles' values, for pictures.
    ``last_play`` gives the squares of the most recent play, for highlighting
    (``last_placed`` its new tiles as ``(row, col, tile)``, as the replay sets them). ``cells`` is
    the flat list of squares, ``row * size + col``; ``letter_mult``, ``word_mult`` and
    ``premiums`` give the layout's premiums in the same order.
    """

    __slots__ = (
        "layout", "tileset", "size", "cells", "last_placed", "letter_mult", "word_mult",
        "premiums",
    )  # fmt: skip

    def __init__(self, layout: BoardLayout, tileset: TileSet | None = None) -> None:
        self.layout = layout
        self.tileset = tileset
        self.size = layout.size
        self.cells: list[str | None] = [None] * (self.size * self.size)
        self.last_placed: Sequence[tuple[int, int, str]] = ()
        self.letter_mult, self.word_mult, self.premiums = layout.flat

    def __getitem__(self, square: tuple[int, int]) -> str | None:
        row, col = square
        return self.cells[row * self.size + col]

    def __setitem__(self, square: tuple[int, int], tile: str | None) -> None:
        row, col = square
        self.cells[row * self.size + col] = tile

    @property
    def last_play(self) -> tuple[tuple[int, int], ...]:
        """The squares of the most recent play, for highlighting."""
        return tuple([(r, c) for r, c, _ in self.last_placed])

    @last_play.setter
    def last_play(self, squares: Iterable[tuple[int, int]]) -> None:
        # set by hand: the tiles are whatever stands on those squares
        self.last_placed = tuple((r, c, self[r, c] or "") for r, c in squares)

    def in_bounds(self, row: int, col: int) -> bool:
        return 0 <= row < self.size and 0 <= col < self.size

    def is_empty(self) -> bool:
        return self.cells.count(None) == len(self.cells)

    def tiles(self) -> Iterator[tuple[int, int, str]]:
        """Every tile on the board as ``(row, col, tile)``."""
        size = self.size
        for i, tile in enumerate(self.cells):
            if tile is not None:
                yield i // size, i % size, tile

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.layout = self.layout
        other.tileset = self.tileset
        other.size = self.size
        other.cells = self.cells.copy()
        other.last_placed = self.last_placed
        other.letter_mult, other.word_mult = self.letter_mult, self.word_mult
        other.premiums = self.premiums
        return other

    def rows(self) -> list[str]:
        """One string per row: tiles, and premium-square symbols on empty squares."""
        out = []
        for r in range(self.size):
            chars = []
            for c in range(self.size):
                tile = self[r, c]
                chars.append(tile if tile else _PREMIUM_CHARS[self.layout.premium(r, c)])
            out.append("".join(chars))
        return out

    def __str__(self) -> str:
        header = "    " + " ".join(chr(65 + c) for c in range(self.size))
        lines = [header]
        for r in range(self.size):
            cells = []
            for c in range(self.size):
                tile = self[r, c]
                cells.append(tile if tile else _PREMIUM_CHARS[self.layout.premium(r, c)])
            lines.append(f"{r + 1:>3} " + " ".join(c[:1] if len(c) > 1 else c for c in cells))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Board {self.layout.name} {plural(sum(1 for _ in self.tiles()), 'tile')}>"

    def _repr_svg_(self) -> str:
        """The board as an SVG picture, for Jupyter. The renderer is imported when a
        picture is asked for, as python-chess does: the replay knows nothing of it."""
        from gcgtools.render.svg import board_svg

        return board_svg(self, size=450, tiles=self.tileset)


def square_name(row: int, col: int, direction: str = "across") -> str:
    """GCG coordinate of a square: ``8D`` across (row first), ``D8`` down."""
    if direction == "down":
        return f"{chr(65 + col)}{row + 1}"
    return f"{row + 1}{chr(65 + col)}"
