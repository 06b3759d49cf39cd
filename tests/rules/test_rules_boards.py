"""Board layouts: premium counts, multipliers, aliases, and every square against the reference."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.reference_data import DATA, needs_data

from gcgtools.rules import BOARDS, BoardLayout, board_layout


def _read_canonical(path: Path) -> dict[str, list[str]]:
    """Sections of boards_canonical.txt: every ``source:name`` in a header -> its rows."""
    sections: dict[str, list[str]] = {}
    rows: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            rows = []
            for label in line.strip("[]").split("=="):
                sections[label.strip()] = rows
        elif line.startswith("|") and rows is not None:
            rows.append(line.rstrip("\n")[1:-1])
    return sections


@pytest.fixture(scope="module")
def canonical() -> dict[str, list[str]]:
    assert DATA is not None
    return _read_canonical(DATA / "boards" / "boards_canonical.txt")


def _assert_same(
    board: BoardLayout, rows: list[str], skip: frozenset[tuple[int, int]] = frozenset()
) -> None:
    assert len(rows) == board.size
    for r, row in enumerate(rows):
        assert len(row) == board.size
        for c, symbol in enumerate(row):
            if (r, c) not in skip:
                assert board.symbol(r, c) == symbol, (board.name, r, c)


# ------------------------------------------------------------------------ reference data


@needs_data
@pytest.mark.parametrize(
    "label",
    [
        "macondo:CrosswordGame",
        "liwords-ui:CrosswordGame",
        "quackle:ScrabbleBoard",
        "wolges:standard",
        "xanado:English_Scrabble",
    ],
)
def test_standard_matches_reference(canonical: dict[str, list[str]], label: str) -> None:
    _assert_same(board_layout("CrosswordGame"), canonical[label])


@needs_data
@pytest.mark.parametrize(
    "label",
    [
        "macondo:SuperCrosswordGame",
        "liwords-ui:SuperCrosswordGame",
        "quackle:SuperScrabbleBoard",
        "wolges:super",
        "xanado:English_SuperScrabble",
    ],
)
def test_super_matches_reference(canonical: dict[str, list[str]], label: str) -> None:
    _assert_same(board_layout("SuperCrosswordGame"), canonical[label])


@needs_data
def test_wwf_matches_liwords(canonical: dict[str, list[str]]) -> None:
    _assert_same(board_layout("wwf"), canonical["liwords-ui:WorldWildlifeFund"])


@needs_data
def test_wwf_matches_xanado_except_start_square(canonical: dict[str, list[str]]) -> None:
    # xanado marks the start square "M", rendered as DW in boards_canonical.txt; in Words With
    # Friends the start square carries no premium (liwords-ui leaves it plain).
    wwf = board_layout("wwf")
    rows = canonical["xanado:English_WWF"]
    assert rows[7][7] == "-"
    assert wwf.premium(7, 7) == ""
    _assert_same(wwf, rows, skip=frozenset({(7, 7)}))


@needs_data
def test_wwf_matches_xanado_quadrant() -> None:
    assert DATA is not None
    edition = json.loads(
        (DATA / "tilesets" / "xanado" / "English_WWF.json").read_text(encoding="utf-8")
    )
    quadrant = edition["layout"]  # lower-right quadrant, [0][0] is the centre
    codes = {"d": "DL", "t": "TL", "q": "QL", "D": "DW", "T": "TW", "Q": "QW", "_": "", "M": ""}
    wwf = board_layout("wwf")
    half = wwf.size // 2
    assert len(quadrant) == half + 1
    for r in range(wwf.size):
        for c in range(wwf.size):
            expected = codes[quadrant[abs(r - half)][abs(c - half)]]
            assert wwf.premium(r, c) == expected, (r, c)
    assert quadrant[0][0] == "M"
    assert wwf.centre == (7, 7)


# ----------------------------------------------------------------------------- behaviour


def test_standard_premium_counts() -> None:
    counts = board_layout("CrosswordGame").premium_counts()
    assert counts["TW"] == 8
    assert counts["DW"] == 17
    assert counts["TL"] == 12
    assert counts["DL"] == 24
    assert counts["QW"] == counts["QL"] == 0


def test_super_premium_counts() -> None:
    board = board_layout("super")
    assert board.size == 21
    counts = board.premium_counts()
    assert counts["QW"] == 4
    assert counts["QL"] == 8
    assert sum(counts.values()) == 21 * 21


def test_board_symmetry() -> None:
    for board in BOARDS.values():
        n = board.size
        for r in range(n):
            for c in range(n):
                assert board.symbol(r, c) == board.symbol(c, r) == board.symbol(n - 1 - r, c)


def test_multipliers() -> None:
    std = board_layout("standard")
    assert std.centre == (7, 7)
    assert std.premium(7, 7) == "DW"
    assert std.word_multiplier(7, 7) == 2
    assert std.letter_multiplier(7, 7) == 1
    assert std.premium(0, 0) == "TW"
    assert std.word_multiplier(0, 0) == 3
    assert std.premium(0, 3) == "DL"
    assert std.letter_multiplier(0, 3) == 2
    assert std.premium(1, 5) == "TL"
    assert std.letter_multiplier(1, 5) == 3
    assert std.premium(0, 1) == ""
    assert std.letter_multiplier(0, 1) == std.word_multiplier(0, 1) == 1
    sup = board_layout("SuperCrosswordGame")
    assert sup.centre == (10, 10)
    assert sup.premium(10, 10) == "DW"
    assert sup.premium(0, 0) == "QW"
    assert sup.word_multiplier(0, 0) == 4
    assert sup.premium(2, 5) == "QL"
    assert sup.letter_multiplier(2, 5) == 4
    wwf = board_layout("WordsWithFriends")
    assert wwf.centre == (7, 7)
    assert wwf.premium(7, 7) == ""
    assert wwf.premium(0, 3) == "TW"


def test_off_board() -> None:
    std = board_layout("standard")
    for square in [(15, 0), (0, 15), (-1, 0), (0, -1)]:
        with pytest.raises(IndexError):
            std.premium(*square)


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("CrosswordGame", "CrosswordGame"),
        ("crosswordgame", "CrosswordGame"),
        ("standard15", "CrosswordGame"),
        ("Standard", "CrosswordGame"),
        ("SuperCrosswordGame", "SuperCrosswordGame"),
        ("standard21", "SuperCrosswordGame"),
        ("super", "SuperCrosswordGame"),
        ("wwf", "WordsWithFriends"),
        ("WordsWithFriends", "WordsWithFriends"),
        ("Words With Friends", "WordsWithFriends"),
        ("WorldWildlifeFund", "WordsWithFriends"),
    ],
)
def test_board_aliases(alias: str, name: str) -> None:
    assert board_layout(alias).name == name


def test_board_unknown() -> None:
    with pytest.raises(KeyError, match="Hexagonal"):
        board_layout("Hexagonal")


def test_bad_layouts_rejected() -> None:
    with pytest.raises(ValueError):
        BoardLayout("tiny", 2, ("  ", " "))
    with pytest.raises(ValueError):
        BoardLayout("tiny", 2, ("  ", " X"))
    with pytest.raises(IndexError):
        BoardLayout("tiny", 2, ("  ", "  "), start=(2, 0))
    assert BoardLayout("tiny", 2, ("  ", "= "), start=(1, 0)).centre == (1, 0)
