"""CGP positions, the ``moves`` command and ``board --format cgp``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.movegen_cases import MAGPIE_README_CGP
from support.reference_data import DATA, needs_data
from typer.testing import CliRunner

from gcgtools.cli import app
from gcgtools.movegen.cgp import CgpError, parse_cgp, write_cgp
from gcgtools.movegen.record import record_position
from gcgtools.replay import Board
from gcgtools.replay.walk import replay
from gcgtools.rules import board_layout, tile_set
from gcgtools.sources.load import load_game

runner = CliRunner()

# A hand-made record (ENABLE words): QUITE 8D and MES(QUITE) are the seeds' examples.
GAME = """\
#character-encoding UTF-8
#lexicon ENABLE
#player1 ann Ann Example
#player2 bob Bob Example
>ann: AEIQTUX 8D QUITE +48 48
>bob: AEMRSTW 8A MES..... +57 57
>ann: ABDELOX 7H OX +19 67
>bob: ADEORTW -ADW +0 57
#rack1 ABDELNS
"""


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.gcg"
    path.write_text(GAME, encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


# ----------------------------------------------------------------------------- CGP
def test_magpie_readme_example_parses_and_writes_back() -> None:
    pos = parse_cgp(MAGPIE_README_CGP)
    assert pos.cgp() == MAGPIE_README_CGP
    assert pos.board[1, 3] == "Q" and pos.board[7, 5] == "p" and pos.board[9, 2] == "y"
    assert pos.racks == (list("ENOSTXY"), list("ACEISUY"))
    assert pos.scores == (356, 378) and pos.zeros == 0 and pos.lexicon == "NWL20"
    assert pos.rules.tiles.name == "english" and pos.board.size == 15
    letters = sum(ch.isalpha() for ch in MAGPIE_README_CGP.split()[0])
    assert sum(1 for _ in pos.board.tiles()) == letters == 85


def test_cgp_round_trip_of_every_position_of_a_record(game_file: Path) -> None:
    game = load_game(game_file)
    for pos in replay(game):
        text = write_cgp(pos.board, (["A", "?"], []), (10, 20), 2, {"lex": "ENABLE"})
        back = parse_cgp(text)
        assert back.board.cells == pos.board.cells
        assert back.racks == (["A", "?"], []) and back.scores == (10, 20) and back.zeros == 2
        assert back.cgp() == text


def test_cgp_multi_letter_tiles_blanks_and_super_board() -> None:
    board = Board(board_layout("standard"), tile_set("spanish"))
    board[7, 7] = "CH"
    board[7, 8] = "ll"
    board[7, 9] = "Ñ"
    # (the opponent's rack holds no second CH: the Spanish set has one)
    text = write_cgp(board, (["RR", "?", "A"], ["LL"]), (5, 0), 0, {"lex": "FISE2"})
    assert text.startswith("15/15/15/15/15/15/15/7[CH][ll]Ñ5/")
    assert " [RR]?A/[LL] 5/0 0 lex FISE2;" in text
    back = parse_cgp(text)
    assert back.rules.tiles.name == "spanish"
    assert back.board.cells == board.cells and back.racks == (["RR", "?", "A"], ["LL"])
    big = Board(board_layout("super"), tile_set("english_super"))
    big[10, 10] = "Z"
    back = parse_cgp(write_cgp(big, ([], []), (0, 0), 0))
    assert back.board.size == 21 and back.board[10, 10] == "Z"


@pytest.mark.parametrize(
    "bad",
    [
        "15/15 A/ 0/0 0",  # two rows
        "16/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 0",  # a row too long
        "14/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 0",  # a row too short
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A 0/0 0",  # one rack only
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ x/0 0",  # scores
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/",  # fields missing
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/7$7 A/ 0/0 0",  # not a tile
    ],
)
def test_bad_cgp_raises_a_clear_error(bad: str) -> None:
    with pytest.raises(CgpError):
        parse_cgp(bad)


EMPTY = "/".join(["15"] * 15)


@pytest.mark.parametrize(
    ("cgp", "said"),
    [
        (
            f"{EMPTY} ANXIETYABC/ 0/0 0",
            "the rack 'ANXIETYABC' has 10 tiles; a rack holds at most 7",
        ),
        (f"{EMPTY} AB/ABCDEFGH 0/0 0", "the opponent's rack 'ABCDEFGH' has 8 tiles"),
        (f"{EMPTY} ZZZZZZZ/QQQQQQQ 0/0 0", "7 Q (the set has 1), 7 Z (the set has 1)"),
        (f"{EMPTY} ????/ 0/0 0", "4 ? (the set has 2)"),
        (EMPTY.replace("15", "7zz6", 1) + " ?A/ 0/0 0", "3 ? (the set has 2)"),  # 2 on the board
        (EMPTY.replace("15", "7?7", 1) + " AB/ 0/0 0", "'?' at character 2: a blank on the board"),
        (f"{EMPTY} AB/ 0/0 0 ld nosuch;", "ld 'nosuch': no such tile set (catalan, dutch, english"),
        (f"{EMPTY} AB/ 0/0 0 bdn SuperCrosswordGame;", "a 21x21 board (bdn SuperCrosswordGame)"),
        (f"{EMPTY} AB/ 0/0 0 bdn nosuch;", "bdn 'nosuch': no such board (CrosswordGame, "),
        (f"{EMPTY} AB/ 0/0 0 lex NWL20; foo 1; bar;", "unknown CGP opcodes 'bar', 'foo'"),
        (f"{EMPTY} AB/ 0/0 \uff12", "consecutive zeros '\uff12': expected a number"),
        (f"{EMPTY} AB/ 0/0 \u00b2", "consecutive zeros '\u00b2': expected a number"),
        (f"{EMPTY} AB/ \uff13/0 0", "score '\uff13': expected a number"),
        (EMPTY.replace("15", "1\uff15", 1) + " AB/ 0/0 0", "'\uff15' is not a tile of english"),
        (EMPTY.replace("15", "99999999999", 1) + " AB/ 0/0 0", "expected a number"),
        (f"{EMPTY} {'A' * 5000}/ 0/0 0", "has 5000 tiles"),
    ],
)
def test_positions_that_cannot_exist_are_refused(cgp: str, said: str) -> None:
    with pytest.raises(CgpError) as caught:
        parse_cgp(cgp)
    message = str(caught.value)
    assert said in message
    assert len(message) < 200  # the input is quoted, at most ~80 characters of it
    code, _, err = run("moves", "--cgp", cgp)
    assert code == 2 and said in err and "Traceback" not in err


def test_cgp_options_given_on_the_command_line_are_honoured(game_file: Path) -> None:
    assert parse_cgp(f"{EMPTY} A\u00d1/ 0/0 0", tiles="spanish").rules.tiles.name == "spanish"
    with pytest.raises(CgpError, match="is not a tile of english"):
        parse_cgp(f"{EMPTY} A\u00d1/ 0/0 0")
    code, _, err = run("moves", "--cgp", f"{EMPTY} AB/ 0/0 0", "--board", "super")
    assert code == 2 and "a 21x21 board (--board SuperCrosswordGame) has 21" in err
    for extra in ([str(game_file)], ["--move", "1"]):
        code, _, err = run("moves", *extra, "--cgp", f"{EMPTY} AB/ 0/0 0")
        assert code == 2 and "give one position" in err


def test_a_rack_longer_than_the_rules_allow_is_an_error_not_a_hang(tmp_path: Path) -> None:
    record = tmp_path / "long-rack.gcg"
    record.write_text(GAME.replace("AEIQTUX 8D", "ABCDEFGHIJKLMNOPQRSTUVWXYZ 8D"), "utf-8")
    code, _, err = run("moves", str(record), "--move", "0")  # refused before any lexicon
    assert code == 2 and "has 26 tiles; a rack holds at most 7 (T409)" in err
    code, _, err = run("moves", str(record), "--move", "0", "--rack", "ABCDEFGHIJK")
    assert code == 2 and "--rack 'ABCDEFGHIJK' has 11 tiles" in err
    code, _, err = run("board", str(record), "--move", "0", "--format", "cgp")
    assert code == 2 and "(T409)" in err
    code, out, _ = run("validate", str(record))
    assert code == 1
    assert f"{record}:5:1: T409 error: rack ABCDEFGHIJKLMNOPQRSTUVWXYZ has 26 tiles" in out


def test_board_format_cgp(game_file: Path) -> None:
    code, out, _ = run("board", str(game_file), "--move", "4", "--format", "cgp")
    assert code == 0
    assert out.strip() == (
        "15/15/15/15/15/15/7OX6/MESQUITE7/15/15/15/15/15/15/15 ABDELNS/ 67/57 1 lex ENABLE;"
    )
    code, out, _ = run("board", str(game_file), "--move", "2", "--format", "cgp")
    # after event 2 ann is to move with the rack of her next line
    assert out.split()[1:4] == ["ABDELOX/", "48/57", "0"]
    pos = record_position(load_game(game_file), 0)
    assert pos.rack == list("AEIQTUX") and pos.nick == "ann" and pos.bag == 86


# ----------------------------------------------------------------------- moves command
@needs_data
def test_moves_text_json_top_and_rack(game_file: Path) -> None:
    assert DATA is not None
    kwg = str(DATA / "lexica" / "ENABLE.kwg")
    code, out, _ = run("moves", str(game_file), "--move", "1", "--lexicon", kwg)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{game_file} after event 1: bob to move with AEMRSTW (bag 81)"
    # the lexicon and leaves lines wrap at 80 columns (ENABLE's note continues the first)
    assert lines[1].startswith("lexicon ENABLE") and all(len(ln) <= 80 for ln in lines[2:])
    leaves = next(i for i, ln in enumerate(lines) if ln.startswith("leaves builtin"))
    assert all(ln.startswith("  ") for ln in lines[2:leaves])
    assert lines[leaves + 1].split() == ["#", "move", "score", "leave", "equity"]
    assert [int(ln.split()[0]) for ln in lines[leaves + 2 : -1]] == list(range(1, 11))
    assert lines[-1].endswith("; 10 shown") and "exchanges, 1 pass" in lines[-1]
    code, out, _ = run("moves", str(game_file), "--move", "1", "--lexicon", kwg,
                       "--format", "json", "--top", "0")  # fmt: skip
    moves = [json.loads(line) for line in out.splitlines()]
    assert len(moves) > 500
    assert {"kind", "coord", "word", "tiles", "score", "leave", "equity"} <= set(moves[0])
    assert [m["equity"] for m in moves] == sorted((m["equity"] for m in moves), reverse=True)
    mes = [m for m in moves if m["coord"] == "8A" and m["word"] == "MESQUITE"]
    assert len(mes) == 1 and mes[0]["score"] == 57 and mes[0]["tiles"] == "MES"
    assert mes[0]["leave"] == "ARTW"
    assert {m["kind"] for m in moves} == {"play", "exchange", "pass"}
    code, out, _ = run("moves", str(game_file), "--move", "1", "--lexicon", kwg,
                       "--rack", "CAT", "--format", "json", "--top", "0")  # fmt: skip
    moves = [json.loads(line) for line in out.splitlines()]
    plays = [m for m in moves if m["kind"] == "play"]
    assert plays and all(sorted(m["tiles"] + m["leave"]) == sorted("CAT") for m in plays)
    assert not [m for m in moves if m["kind"] == "exchange" and len(m["tiles"]) > 3]


@needs_data
def test_moves_of_a_cgp() -> None:
    assert DATA is not None
    kwg = str(DATA / "lexica" / "ENABLE.kwg")
    code, out, _ = run("moves", "--cgp", MAGPIE_README_CGP, "--lexicon", kwg, "--format",
                       "json", "--top", "3")  # fmt: skip
    assert code == 0
    moves = [json.loads(line) for line in out.splitlines()]
    assert len(moves) == 3
    assert moves[0]["score"] >= moves[0]["equity"] - 50  # scores, leaves and equities given
    assert all(set(m["tiles"]) <= set("ENOSTXY") for m in moves if m["kind"] == "play")


def test_no_lexicon_is_a_one_line_message(game_file: Path, tmp_path: Path) -> None:
    code, out, err = run("moves", str(game_file), "--move", "1", "--lexica", str(tmp_path))
    assert code == 2
    assert (
        err.count("\n") == 1
        and "no lexicon: ENABLE not found in the lexicon folder" in err
        and "ENABLE" in err
    )
    code, _, err = run("moves", str(game_file), "--move", "99", "--lexica", str(tmp_path))
    assert code == 2 and "--move must be between 0 and 4" in err
    code, _, err = run("moves", "--cgp", "15/15 A/ 0/0 0")
    assert code == 2 and err.startswith("cgp: CGP:")
