"""Custom tile files are bounded and blanks are defined explicitly (issue 18 item 7): more
than 200 tiles, a bag over 1,000 or a name that is no letter is refused naming the file
and line; a letter without case (Hebrew) is a real tile, never read as a blank."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gcgtools.cli import app
from gcgtools.lexicon import Lexicon
from gcgtools.movegen.generate import generate_moves
from gcgtools.replay import Board
from gcgtools.rules import BLANK, board_layout
from gcgtools.rules.tiles import MAX_LETTERS, is_blank_tile, load_tiles_file
from gcgtools.sources import read_game

HEBREW = "אבגדהוזחטיכלמנסעפצקרשת"
runner = CliRunner()


def write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_more_than_the_limit_of_tiles_is_refused_naming_the_line(tmp_path: Path) -> None:
    rows = ["? 2 0"] + [f"{chr(0x4E00 + i)} 1 1" for i in range(300)]
    path = write(tmp_path, "cjk.tiles", rows)
    with pytest.raises(ValueError, match=rf"cjk\.tiles:{MAX_LETTERS + 1}: more than 200"):
        load_tiles_file(path)
    fits = write(tmp_path, "fits.tiles", rows[:MAX_LETTERS])
    assert len(load_tiles_file(fits).letters) == MAX_LETTERS


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["A 999 1", "B 2 1"], "more than 1000 tiles in the bag"),
        (["A 1001 1"], ":1: count goes from 0 to 1000"),
        (["A 1 1001"], ":1: count goes from 0 to 1000, value from 0 to 1000"),
        (["A 1 -1"], ":1: count goes from 0"),
        (["A?B 1 1"], ":1: 'A?B' cannot be a tile name"),
        (["ABCDEFGHI 1 1"], ":1: 'ABCDEFGHI' cannot be a tile name"),
        (["\x1b[2J 1 1"], "cannot be a tile name"),
        (["·L 1 1"], "cannot be a tile name"),
    ],
)
def test_bounds_name_the_file_and_line(tmp_path: Path, lines: list[str], message: str) -> None:
    path = write(tmp_path, "bad.tiles", lines)
    with pytest.raises(ValueError, match=re.escape(message)) as info:
        load_tiles_file(path)
    assert "bad.tiles" in str(info.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_tile_file_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "tiles.txt"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="a FIFO"):
        load_tiles_file(fifo)


def test_blanks_are_defined_explicitly_not_by_case() -> None:
    assert is_blank_tile(BLANK) and is_blank_tile("e") and is_blank_tile("ch")
    assert is_blank_tile("l·l")
    assert not is_blank_tile("E") and not is_blank_tile("CH") and not is_blank_tile("L·L")
    assert not any(is_blank_tile(letter) for letter in HEBREW)  # caseless: real tiles


@pytest.fixture
def hebrew(tmp_path: Path) -> tuple[Path, Path]:
    values = {letter: i % 5 + 1 for i, letter in enumerate(HEBREW)}
    tiles = write(tmp_path, "hebrew.tiles", ["? 2 0", *(f"{k} 4 {v}" for k, v in values.items())])
    score = 2 * (values["א"] + values["ב"] + values["ג"])  # 8F..8H, the centre doubles
    record = tmp_path / "hebrew.gcg"
    record.write_text(
        f"#player1 A A\n#player2 B B\n>A: אבגדהוז 8F אבג +{score} {score}\n", encoding="utf-8"
    )
    return tiles, record


def test_a_correct_hebrew_record_validates_clean(hebrew: tuple[Path, Path]) -> None:
    tiles, record = hebrew
    result = runner.invoke(app, ["validate", str(record), "--tiles", str(tiles)])
    assert result.exit_code == 0, result.output
    assert "T401" not in result.output and "T408" not in result.output


def test_moves_with_caseless_letters_keep_them_as_tiles(hebrew: tuple[Path, Path]) -> None:
    tiles_path, _ = hebrew
    tiles = load_tiles_file(tiles_path)
    lexicon = Lexicon.from_words(["אב", "אבג", "גבא"], tiles)
    board = Board(board_layout("CrosswordGame"), tiles)
    found = generate_moves(board, list("אבגדהוז"), lexicon, leaves=None, bag_count=50)
    plays = [m for m in found if m.word == "אבג"]
    assert plays, [m.word for m in found]
    # every tile played is a real tile, not a blank (the leave and tiles say so)
    assert all(BLANK not in m.tiles for m in plays) and all(m.score > 0 for m in plays)


def test_a_caseless_record_with_a_blank_written_as_question_mark(hebrew: tuple[Path, Path]):
    # the documented way: such a blank cannot be lower case; "?" in the word is a blank
    # whose letter the record does not say (T406), never a false T401/T408
    tiles, record = hebrew
    record.write_text("#player1 A A\n#player2 B B\n>A: אב?דהוז 8F א?ב +0 0\n", encoding="utf-8")
    game = read_game(record)
    assert not game.unreadable
    result = runner.invoke(app, ["validate", str(record), "--tiles", str(tiles)])
    assert "T401" not in result.output and "T408" not in result.output
