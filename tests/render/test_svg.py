"""Board pictures, checked from the SVG's structure (xml.etree), not from pixels."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from support.samples_annotator import BINGO, GAME
from typer.testing import CliRunner

import gcgtools
from gcgtools import parse_string, replay
from gcgtools.cli import app
from gcgtools.jobs.picture import picture
from gcgtools.render.svg import (
    BLANK_LETTER,
    PREMIUM_COLOURS,
    board_png,
    board_svg,
    picture_format,
)
from gcgtools.replay.board import Board
from gcgtools.rules.boards import board_layout
from gcgtools.rules.tiles import tile_set

NS = {"s": "http://www.w3.org/2000/svg"}
PNG = b"\x89PNG\r\n\x1a\n"


def _final_board(text: str = GAME) -> Board:
    return list(replay(parse_string(text)))[-1].board


def _tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _squares(root: ET.Element) -> dict[str, ET.Element]:
    return {
        r.get("data-square", ""): r
        for r in root.iterfind(".//s:rect", NS)
        if "square" in (r.get("class") or "").split()
    }


def _tiles(root: ET.Element) -> dict[str, ET.Element]:
    return {
        g.get("data-square", ""): g
        for g in root.iterfind(".//s:g", NS)
        if "tile" in (g.get("class") or "").split()
    }


def test_squares_and_premium_colours() -> None:
    root = _tree(board_svg(Board(board_layout("standard"))))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    squares = _squares(root)
    assert len(squares) == 225
    expected = {"1A": "TW", "1H": "TW", "2B": "DW", "2F": "TL", "1D": "DL", "8H": "DW", "8A": "TW"}
    for name, premium in expected.items():
        assert squares[name].get("data-premium") == premium
        assert squares[name].get("fill") == PREMIUM_COLOURS[premium]
        assert premium.lower() in squares[name].get("class", "").split()
    assert squares["2A"].get("data-premium") is None
    assert squares["2A"].get("fill") == PREMIUM_COLOURS[""]
    counts: dict[str, int] = {}
    for sq in squares.values():
        counts[sq.get("data-premium") or ""] = counts.get(sq.get("data-premium") or "", 0) + 1
    assert counts == {"TW": 8, "DW": 17, "TL": 12, "DL": 24, "": 164}
    # the classic colours: red, pink, dark blue, light blue
    assert PREMIUM_COLOURS["TW"] != PREMIUM_COLOURS["DW"] != PREMIUM_COLOURS["TL"]
    star = root.find(".//s:polygon[@class='star']", NS)
    assert star is not None and star.get("data-square") == "8H"
    assert "centre" in squares["8H"].get("class", "").split()
    assert not _tiles(root)


def test_tiles_values_blanks_and_last_play() -> None:
    board = _final_board()
    root = _tree(board_svg(board))
    tiles = _tiles(root)
    on_board = {f"{r + 1}{chr(65 + c)}": t for r, c, t in board.tiles()}
    assert set(tiles) == set(on_board) and len(tiles) == 3 + 5 + 6 + 3
    x = tiles["8I"]
    assert x.get("data-letter") == "X" and x.get("data-value") == "8"
    assert x.find("s:text[@class='letter']", NS).text == "X"  # type: ignore[union-attr]
    assert x.find("s:text[@class='value']", NS).text == "8"  # type: ignore[union-attr]
    blank = tiles["12H"]  # the blank e of MATURe.
    assert "blank" in blank.get("class", "").split()
    assert blank.get("data-blank") == "true" and blank.get("data-letter") == "e"
    assert blank.get("data-value") is None
    assert blank.find("s:text[@class='value']", NS) is None
    letter = blank.find("s:text[@class='letter']", NS)
    assert letter is not None and letter.text == "E" and letter.get("fill") == BLANK_LETTER
    last = {name for name, g in tiles.items() if "last" in g.get("class", "").split()}
    assert last == {"13B", "13C", "13D"}  # FEW, the last play
    assert "last" not in tiles["8G"].get("class", "")
    plain = _tree(board_svg(board, last_play=False))
    assert not [g for g in _tiles(plain).values() if "last" in g.get("class", "")]


def test_tile_values_from_a_tile_set_or_a_mapping() -> None:
    board = _final_board()
    mapping = _tiles(_tree(board_svg(board, tiles={"X": 10, "H": 3})))
    assert mapping["8I"].get("data-value") == "10" and mapping["8G"].get("data-value") == "3"
    assert mapping["8H"].get("data-value") is None  # E is not in the mapping
    german = _tiles(_tree(board_svg(board, tiles=tile_set("german"))))
    assert german["8I"].get("data-value") == str(tile_set("german").value("X"))


def test_scores_band() -> None:
    root = _tree(board_svg(_final_board(), players=["Ann", "Bob"], scores=[73, 16]))
    scores = root.findall(".//s:text[@class='score']", NS)
    assert [(s.get("data-player"), s.get("data-score"), s.text) for s in scores] == [
        ("1", "73", "Ann 73"),
        ("2", "16", "Bob 16"),
    ]


def test_bingo_board_and_super_board() -> None:
    tiles = _tiles(_tree(board_svg(_final_board(BINGO))))
    assert [t.get("data-letter") for t in tiles.values()] == list("NASTIER")
    assert all("last" in t.get("class", "") for t in tiles.values())
    root = _tree(board_svg(Board(board_layout("super"))))
    squares = _squares(root)
    assert len(squares) == 441
    assert squares["1A"].get("data-premium") == "QW"
    assert squares["1A"].get("fill") == PREMIUM_COLOURS["QW"]
    assert root.get("data-size") == "21"


def test_repr_svg_on_a_replayed_board() -> None:
    board = list(gcgtools.replay(parse_string(GAME)))[-1].board
    svg = board._repr_svg_()
    assert svg is not None
    assert len(_tiles(_tree(svg))) == 17


def test_repr_svg_of_a_position_holds_its_tiles_and_marks_its_play() -> None:
    positions = list(gcgtools.replay(parse_string(GAME)))
    second = positions[2]  # after >Bob: I7 O.IDES (through the X of HEX)
    root = _tree(second._repr_svg_())  # valid SVG (XML), as Jupyter shows it
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    tiles = _tiles(root)
    assert {sq: t.get("data-letter") for sq, t in tiles.items()} == {
        "8G": "H", "8H": "E", "8I": "X", "7I": "O", "9I": "I", "10I": "D", "11I": "E",
        "12I": "S",
    }  # fmt: skip
    last = {sq for sq, t in tiles.items() if "last" in (t.get("class") or "").split()}
    assert last == {"7I", "9I", "10I", "11I", "12I"}  # the squares Bob's play put tiles on
    scores = [t.text for t in root.findall(".//s:text[@class='score']", NS)]
    assert scores == ["player 1 26", "player 2 16"]
    # the start: an empty board, nothing marked
    assert _tiles(_tree(positions[0]._repr_svg_())) == {}


def test_svg_escapes_names() -> None:
    root = _tree(board_svg(_final_board(), players=["<Ann & Co>", "Bob"], scores=[1, 2]))
    assert root.findall(".//s:text[@class='score']", NS)[0].text == "<Ann & Co> 1"


def test_png() -> None:
    data = board_png(_final_board(), players=["Ann", "Bob"], scores=[73, 16], size=300)
    assert data.startswith(PNG)
    assert picture(parse_string(GAME), 2, fmt="png").startswith(PNG)


def test_picture_moves() -> None:
    game = parse_string(GAME)
    start = _tree(picture(game, 0).decode())
    assert not _tiles(start)
    after_one = _tiles(_tree(picture(game, 1).decode()))
    assert set(after_one) == {"8G", "8H", "8I"}
    end = _tree(picture(game).decode())
    assert [s.get("data-score") for s in end.findall(".//s:text[@class='score']", NS)] == [
        "73",
        "16",
    ]
    with pytest.raises(ValueError):
        picture(game, 6)
    assert picture_format("b.PNG") == "png" and picture_format(None) == "svg"
    with pytest.raises(ValueError):
        picture_format("board.jpg")


def test_cli_picture_and_board(tmp_path: Path) -> None:
    src = tmp_path / "game.gcg"
    src.write_text(GAME)
    runner = CliRunner()
    svg = tmp_path / "board.svg"
    result = runner.invoke(app, ["picture", str(src), "--move", "2", "-o", str(svg)])
    assert result.exit_code == 0, result.output
    assert set(_tiles(_tree(svg.read_text()))) == {
        "8G",
        "8H",
        "8I",
        "7I",
        "9I",
        "10I",
        "11I",
        "12I",
    }
    png = tmp_path / "board.png"
    result = runner.invoke(app, ["board", str(src), "--move", "3", "-o", str(png)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes().startswith(PNG)
    result = runner.invoke(app, ["board", str(src), "--move", "3"])
    assert result.exit_code == 0 and "Ann" in result.output  # still the text board
    result = runner.invoke(app, ["picture", str(src), "-o", str(tmp_path / "b.gif")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    result = runner.invoke(app, ["picture", str(src)])
    assert result.exit_code == 0 and result.output.startswith("<svg")


def test_picture_shows_the_study_view() -> None:
    from gcgtools.jobs.picture import picture
    from gcgtools.render.palette import player_colour

    game = parse_string(GAME)
    root = _tree(picture(game, 2).decode("utf-8"))
    notes = {
        " ".join((el.get("class") or "").split()[1:]): el
        for el in root.iterfind(".//s:text", NS)
        if "note" in (el.get("class") or "").split()
    }
    assert notes["move"].text == "event 2: Bob I7 O(X)IDES +16"
    assert notes["to-move"].text == "Ann to move, rack AEMRTU?"
    assert notes["to-move"].get("fill") == player_colour(0)  # the player's colour
    # and the rack as tiles: letters with their values, a blank with none
    rack = next(g for g in root.iterfind(".//s:g", NS) if "rack" in (g.get("class") or "").split())
    assert rack.get("data-rack") == "AEMRTU?"
    tiles = [g for g in rack.iterfind("s:g", NS)]
    assert [g.get("data-letter") for g in tiles] == list("AEMRTU?")
    assert "blank" in (tiles[-1].get("class") or "") and len(tiles[-1].findall("s:text", NS)) == 1
    assert [t.text for t in tiles[2].findall("s:text", NS)] == ["M", "3"]
    assert notes["unseen"].text == (
        "unseen 85 (Ann's view), bag 78: vowels 35, consonants 49, blanks 1"
    )
    counts = " ".join(
        el.text or ""
        for el in root.iterfind(".//s:text", NS)
        if "unseen-counts" in (el.get("class") or "").split()
    )
    assert counts.startswith("A×8 B×2 C×2 D×3 E×9") and counts.endswith("?×1")
    # the notes sit under the board: the picture grew to hold them
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    assert height > width
    # scores use the same palette
    texts = list(root.iterfind(".//s:text", NS))
    scores = [el for el in texts if "score" in (el.get("class") or "").split()]
    assert [el.get("fill") for el in scores] == [player_colour(0), player_colour(1)]
