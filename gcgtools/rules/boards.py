"""Board layouts: premium squares in one symbol set.

Symbols (as macondo ``board/board.go`` and ``shared/data/boards/boards_canonical.txt``):
``=`` triple word, ``-`` double word, ``"`` triple letter, ``'`` double letter,
``~`` quadruple word, ``^`` quadruple letter, space plain.

Layouts are checked square by square by ``tests/rules/test_rules_boards.py`` against
``boards_canonical.txt`` (macondo ``board/layouts.go`` CrosswordGame / SuperCrosswordGame,
liwords-ui WorldWildlifeFund, xanado ``editions/English_WWF.json``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from gcgtools.rules.named import named_or_file
from gcgtools.sources.limited import read_limited

__all__ = [
    "BOARDS",
    "PREMIUM_SYMBOLS",
    "BoardLayout",
    "board_layout",
    "load_board_file",
    "resolve_board",
]

#: Symbol -> premium code returned by :meth:`BoardLayout.premium`.
PREMIUM_SYMBOLS: dict[str, str] = {
    "=": "TW",
    "-": "DW",
    '"': "TL",
    "'": "DL",
    "~": "QW",
    "^": "QL",
    " ": "",
}
_LETTER_MULTIPLIER = {'"': 3, "'": 2, "^": 4}
_WORD_MULTIPLIER = {"=": 3, "-": 2, "~": 4}


@dataclass(frozen=True)
class BoardLayout:
    """A square board; ``rows[r][c]`` is the premium symbol of row ``r``, column ``c`` (0-based).

    ``start`` is the square the first play must cover; ``None`` means the centre square.
    """

    name: str
    size: int
    rows: tuple[str, ...]
    start: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        rows = tuple(self.rows)
        if len(rows) != self.size or any(len(row) != self.size for row in rows):
            raise ValueError(f"board {self.name}: rows must form a {self.size}x{self.size} grid")
        bad = {ch for row in rows for ch in row} - set(PREMIUM_SYMBOLS)
        if bad:
            raise ValueError(f"board {self.name}: unknown premium symbols {sorted(bad)}")
        object.__setattr__(self, "rows", rows)
        if self.start is not None:
            self._check(*self.start)

    def __repr__(self) -> str:
        return f"BoardLayout({self.name!r}, {self.size}x{self.size})"

    @cached_property
    def flat(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
        """``(letter multipliers, word multipliers, premium names)`` of every square by
        flat index (``row * size + col``), as scoring reads them."""
        symbols = "".join(self.rows)  # row by row: the flat index of each square
        return (
            tuple(_LETTER_MULTIPLIER.get(s, 1) for s in symbols),
            tuple(_WORD_MULTIPLIER.get(s, 1) for s in symbols),
            tuple(PREMIUM_SYMBOLS[s] for s in symbols),
        )

    def _check(self, row: int, col: int) -> None:
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise IndexError(f"square ({row}, {col}) is off the {self.size}x{self.size} board")

    def symbol(self, row: int, col: int) -> str:
        """Premium symbol of a square (0-based row and column)."""
        self._check(row, col)
        return self.rows[row][col]

    def letter_multiplier(self, row: int, col: int) -> int:
        """2, 3 or 4 on a letter premium, else 1."""
        return _LETTER_MULTIPLIER.get(self.symbol(row, col), 1)

    def word_multiplier(self, row: int, col: int) -> int:
        """2, 3 or 4 on a word premium, else 1."""
        return _WORD_MULTIPLIER.get(self.symbol(row, col), 1)

    def premium(self, row: int, col: int) -> str:
        """One of ``"TW"``, ``"DW"``, ``"TL"``, ``"DL"``, ``"QW"``, ``"QL"``, ``""``."""
        return PREMIUM_SYMBOLS[self.symbol(row, col)]

    @property
    def centre(self) -> tuple[int, int]:
        """The start square, 0-based ``(row, col)``: (7, 7) on 15x15, (10, 10) on 21x21."""
        if self.start is not None:
            return self.start
        return (self.size // 2, self.size // 2)

    def premium_counts(self) -> dict[str, int]:
        """Number of squares of each premium code (plain squares under ``""``)."""
        counts = dict.fromkeys(PREMIUM_SYMBOLS.values(), 0)
        for row in self.rows:
            for ch in row:
                counts[PREMIUM_SYMBOLS[ch]] += 1
        return counts


def _grid(text: str) -> tuple[str, ...]:
    """Rows written between ``|`` delimiters (so that trailing spaces survive editors)."""
    rows = []
    for line in text.strip().splitlines():
        line = line.strip()
        if not (line.startswith("|") and line.endswith("|")):
            raise ValueError(f"board row not delimited by '|': {line!r}")
        rows.append(line[1:-1])
    return tuple(rows)


# macondo board/layouts.go CrosswordGame (== liwords-ui, quackle, wolges "standard",
# xanado English_Scrabble): 8 TW, 17 DW (centre H8 included), 12 TL, 24 DL.
_STANDARD = _grid(
    """
|=  '   =   '  =|
| -   "   "   - |
|  -   ' '   -  |
|'  -   '   -  '|
|    -     -    |
| "   "   "   " |
|  '   ' '   '  |
|=  '   -   '  =|
|  '   ' '   '  |
| "   "   "   " |
|    -     -    |
|'  -   '   -  '|
|  -   ' '   -  |
| -   "   "   - |
|=  '   =   '  =|
"""
)

# macondo board/layouts.go SuperCrosswordGame (== liwords-ui, quackle SuperScrabbleBoard,
# wolges "super", xanado English_SuperScrabble). Start square: the centre K11, a DW.
_SUPER = _grid(
    """
|~  '   =  '  =   '  ~|
| -  "   -   -   "  - |
|  -  ^   - -   ^  -  |
|'  =  '   =   '  =  '|
| "  -   "   "   -  " |
|  ^  -   ' '   -  ^  |
|   '  -   '   -  '   |
|=      -     -      =|
| -  "   "   "   "  - |
|  -  '   ' '   '  -  |
|'  =  '   -   '  =  '|
|  -  '   ' '   '  -  |
| -  "   "   "   "  - |
|=      -     -      =|
|   '  -   '   -  '   |
|  ^  -   ' '   -  ^  |
| "  -   "   "   -  " |
|'  =  '   =   '  =  '|
|  -  ^   - -   ^  -  |
| -  "   -   -   "  - |
|~  '   =  '  =   '  ~|
"""
)

# Words With Friends: liwords-ui WorldWildlifeFund. Xanado editions/English_WWF.json has the
# same premiums; its centre is the start square "M", which carries no premium in WWF (liwords-ui
# leaves it plain), so the centre H8 is plain here.
_WWF = _grid(
    """
|   =  " "  =   |
|  '  -   -  '  |
| '  '     '  ' |
|=  "   -   "  =|
|  '   ' '   '  |
| -   "   "   - |
|"   '     '   "|
|   -       -   |
|"   '     '   "|
| -   "   "   - |
|  '   ' '   '  |
|=  "   -   "  =|
| '  '     '  ' |
|  '  -   -  '  |
|   =  " "  =   |
"""
)

BOARDS: dict[str, BoardLayout] = {
    layout.name: layout
    for layout in (
        BoardLayout("CrosswordGame", 15, _STANDARD),
        BoardLayout("SuperCrosswordGame", 21, _SUPER),
        BoardLayout("WordsWithFriends", 15, _WWF),
    )
}

# Normalised spelling (case-folded, only letters and digits) -> name in BOARDS.
_ALIASES: dict[str, str] = {
    "crosswordgame": "CrosswordGame",
    "standard15": "CrosswordGame",
    "standard": "CrosswordGame",
    "scrabble": "CrosswordGame",
    "scrabbleboard": "CrosswordGame",
    "15x15": "CrosswordGame",
    "supercrosswordgame": "SuperCrosswordGame",
    "standard21": "SuperCrosswordGame",
    "super": "SuperCrosswordGame",
    "superscrabble": "SuperCrosswordGame",
    "superscrabbleboard": "SuperCrosswordGame",
    "21x21": "SuperCrosswordGame",
    "wordswithfriends": "WordsWithFriends",
    "wwf": "WordsWithFriends",
    "englishwwf": "WordsWithFriends",
    "worldwildlifefund": "WordsWithFriends",
}


def board_layout(name: str) -> BoardLayout:
    """The layout called ``name`` (case-insensitive; aliases such as ``"standard15"``,
    ``"super"``, ``"wwf"`` accepted). Unknown names raise :class:`KeyError`."""
    key = _ALIASES.get(re.sub(r"[\W_]+", "", name.casefold()))
    if key is None:
        known = ", ".join(sorted(BOARDS))
        raise KeyError(f"unknown board layout {name!r}; known: {known}")
    return BOARDS[key]


#: Board files: the largest accepted, in bytes (a 21x21 grid is well under 1 KB).
MAX_BOARD_FILE = 64 * 1024


def load_board_file(path: str | os.PathLike[str]) -> BoardLayout:
    """A board layout from a text file: a 15x15 or 21x21 grid of premium symbols, one row
    per line, top row first.

    Symbols: ``=`` triple word, ``-`` double word, ``"`` triple letter, ``'`` double letter,
    ``~`` quadruple word, ``^`` quadruple letter, ``.`` or a space for a plain square. A row
    may be written between ``|`` delimiters (so that trailing spaces survive editors).
    Lines that are empty or start with ``#`` are comments. The first play covers the centre.
    The layout is named after the file. Raises ``ValueError`` (``FILE:LINE: what``) for a
    malformed file and ``OSError`` when it cannot be read.
    """
    source = Path(path)
    data = _read_small(source, MAX_BOARD_FILE)
    rows: list[str] = []
    numbers: list[int] = []
    for number, line in enumerate(data.splitlines(), 1):
        text = line.rstrip("\r\n")
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if text.lstrip().startswith("|"):
            body = text.strip()
            if not body.endswith("|") or len(body) < 2:
                raise ValueError(f"{source}:{number}: a row that starts with '|' ends with '|'")
            text = body[1:-1]
        else:
            text = text.rstrip()
        row = text.replace(".", " ")
        bad = sorted(set(row) - set(PREMIUM_SYMBOLS))
        if bad:
            raise ValueError(
                f"{source}:{number}: unknown premium symbols {bad}; use = - \" ' ~ ^ and . "
                "(or a space) for a plain square"
            )
        rows.append(row)
        numbers.append(number)
    size = len(rows)
    if size not in (15, 21):
        raise ValueError(f"{source}: {size} rows; a board file has 15 or 21")
    for row, number in zip(rows, numbers, strict=True):
        if len(row) > size:
            raise ValueError(
                f"{source}:{number}: {len(row)} squares in a row of a {size}x{size} board"
            )
    padded = tuple(row.ljust(size) for row in rows)
    return BoardLayout(source.stem or str(source), size, padded)


def _read_small(path: Path, limit: int) -> str:
    """The text of a small regular file (a FIFO or device is refused: OSError)."""
    data = read_limited(path, limit, "a board file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def resolve_board(value: str) -> BoardLayout:
    """The layout a ``--board`` option names: a known layout name (see
    :func:`board_layout`), else a board file (see :func:`load_board_file`). Raises
    ``KeyError`` for a value that is neither, ``ValueError`` for a malformed file."""
    return named_or_file(value, board_layout, load_board_file, "board layout", BOARDS)
