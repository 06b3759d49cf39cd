"""Boards and tile values of a record's own (issue 9, item 6): --board FILE, --tiles FILE,
and the S609 hint when most plays misscore."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.reference_data import DATA, needs_data
from typer.testing import CliRunner

from gcgtools import parse_string, read_game, validate
from gcgtools.cli import app
from gcgtools.rules.boards import BOARDS, load_board_file, resolve_board
from gcgtools.rules.tiles import TILE_SETS, load_tiles_file, resolve_tiles

RECORDS = Path(__file__).resolve().parents[1] / "support" / "data" / "records"
PLAIN_GAME = RECORDS / "plain-board.gcg"  # scored on a board without premium squares
PLAIN_BOARD = RECORDS / "plain-board.txt"
WWF_GAME = RECORDS / "wwf-scores.gcg"  # scored on the Words With Friends board and tiles
ONES = RECORDS / "ones.tiles"  # English counts, every letter worth 1
runner = CliRunner()


def errors(result) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in result.findings if f.severity == "error"]


# ------------------------------------------------------------------------ board files
def test_board_file_grid_of_symbols(tmp_path: Path) -> None:
    layout = load_board_file(PLAIN_BOARD)
    assert (layout.name, layout.size) == ("plain-board", 15)
    assert layout.premium_counts()[""] == 225
    # the standard board written with '|' delimiters and '.' for plain squares reads back
    standard = BOARDS["CrosswordGame"]
    path = tmp_path / "mine.board"
    rows = ["|" + row.replace(" ", ".") + "|" for row in standard.rows]
    path.write_text("# my board\n\n" + "\n".join(rows) + "\n", encoding="utf-8")
    assert load_board_file(path).rows == standard.rows
    # trailing plain squares may be left out
    path.write_text("\n".join(row.rstrip() for row in BOARDS["SuperCrosswordGame"].rows))
    assert load_board_file(path).rows == BOARDS["SuperCrosswordGame"].rows


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("\n".join(["." * 15] * 14), "14 rows; a board file has 15 or 21"),
        ("\n".join(["." * 15] * 14 + ["." * 14 + "x"]), "15: unknown premium symbols ['x']"),
        ("\n".join(["." * 16] * 15), "1: 16 squares in a row of a 15x15 board"),
        ("|...\n" + "\n".join(["." * 15] * 14), "1: a row that starts with '|' ends with '|'"),
    ],
)
def test_board_file_errors_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.board"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_board_file(path)


def test_resolve_board_takes_a_name_or_a_file() -> None:
    assert resolve_board("wwf") is BOARDS["WordsWithFriends"]
    assert resolve_board(str(PLAIN_BOARD)).size == 15
    with pytest.raises(KeyError, match="neither a known name"):
        resolve_board("no-such-board")


# ------------------------------------------------------------------------- tile files
def test_tiles_file_of_letter_count_value_lines(tmp_path: Path) -> None:
    ones = load_tiles_file(ONES)
    english = TILE_SETS["english"]
    assert dict(ones.counts) == dict(english.counts)
    assert set(ones.values.values()) == {0, 1} and ones.value("?") == 0
    assert ones.vowels == english.vowels
    # commas, a vowel flag, bracketed and multi-character names, and no blank line
    path = tmp_path / "mine.tiles"
    path.write_text("A,2,1,1\nB,1,3,0\n[CH],1,5,0\n", encoding="utf-8")
    mine = load_tiles_file(path)
    assert mine.letters == ("?", "A", "B", "CH") and mine.count("?") == 0
    assert mine.vowels == frozenset("A") and mine.split("CHAB") == ["CH", "A", "B"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A 9\n", "1: expected 'letter count value'"),
        ("A 9 1\nA 2 1\n", "2: A listed twice"),
        ("A nine 1\n", "1: count and value are whole numbers"),
        ("A 9 1 maybe\n", "1: the vowel flag is 1 or 0"),
        ("# nothing\n", "no tiles"),
        ("1 2 3\n", "cannot be a tile name"),
    ],
)
def test_tiles_file_errors_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.tiles"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_tiles_file(path)


@needs_data
def test_macondo_distribution_files_read_as_tile_files() -> None:
    assert DATA is not None
    folder = DATA / "tilesets" / "macondo"
    for name in ("english", "english_super", "spanish", "catalan", "german"):
        mine, ours = resolve_tiles(str(folder / name)), TILE_SETS[name]
        assert dict(mine.counts) == dict(ours.counts), name
        assert dict(mine.values) == dict(ours.values), name


# ---------------------------------------------------------------- replays with them
def test_a_record_on_its_own_board_is_clean_with_board_file() -> None:
    game = read_game(PLAIN_GAME)
    assert errors(validate(game, board=str(PLAIN_BOARD))) == []
    result = runner.invoke(app, ["validate", str(PLAIN_GAME), "--board", str(PLAIN_BOARD)])
    assert result.exit_code == 0, result.output


def test_most_plays_misscored_give_one_hint() -> None:
    result = validate(read_game(PLAIN_GAME))
    assert errors(result) == [("S601", 5), ("S601", 6), ("S601", 7), ("S601", 9)]
    (hint,) = [f for f in result.findings if f.code == "S609"]
    assert (hint.line, hint.severity) == (5, "warning")
    assert hint.message.startswith("4 of 5 plays misscored on the CrosswordGame board")
    assert "--board FILE, --tiles FILE" in hint.message  # no known board fits


def test_the_hint_names_a_known_board_and_tiles_that_fit() -> None:
    result = validate(read_game(WWF_GAME))
    (hint,) = [f for f in result.findings if f.code == "S609"]
    assert hint.message.endswith(
        "its scores fit the WordsWithFriends board with wwf_english tile values "
        "(--board WordsWithFriends --tiles wwf_english)"
    )
    fitted = validate(read_game(WWF_GAME), board="WordsWithFriends", tiles="wwf_english")
    assert fitted.findings == [f for f in fitted.findings if f.severity == "info"]


def test_a_few_wrong_scores_give_no_hint() -> None:
    text = PLAIN_GAME.read_text(encoding="utf-8")
    result = validate(parse_string(text), board=str(PLAIN_BOARD))
    assert not [f for f in result.findings if f.code == "S609"]
    wrong = text.replace("+6 6", "+9 9").replace("+5 11", "+5 14")
    result = validate(parse_string(wrong), board=str(PLAIN_BOARD))
    assert errors(result) == [("S601", 6)]
    assert not [f for f in result.findings if f.code == "S609"]


def test_tiles_file_option() -> None:
    # HEX: H 1 + E 1 on H8 (DW) + X 1 = 6; O.IDES: O on I7 (DL) 2 + X 1 + I on I9 (DL) 2
    # + D E S 3 = 8: right only when every letter is worth 1
    text = "#player1 A Ann\n#player2 B Bob\n>A: AEHMRTX 8G HEX +6 6\n>B: ADEIORS I7 O.IDES +8 8\n"
    assert errors(validate(parse_string(text), tiles=str(ONES))) == []
    assert errors(validate(parse_string(text))) == [("S601", 3), ("S601", 4)]
    path = RECORDS.parent / "records" / "ones.tiles"
    result = runner.invoke(app, ["board", str(PLAIN_GAME), "--tiles", str(path)])
    assert result.exit_code == 0, result.output
