"""Bad option values are usage errors, checked before any file is read (issue 9, item 9)."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from gcgtools.cli import app
from gcgtools.cli.common import check_board, check_tiles

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAME = str(EXAMPLES / "club-final.gcg")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


BAD = [
    (["--tiles", "klingon"], "--tiles", ["english", "german", "polish", "FILE"]),
    (["--board", "nonsense"], "--board", ["standard", "super", "wwf", "FILE"]),
    (["--rules", "foo"], "--rules", ["standard", "international", "home"]),
    (["--challenge-bonus", "7"], "--challenge-bonus", ["0, 5, 10"]),
]


CASES = [
    pytest.param(command, *bad, id=f"{command}{bad[1]}")
    for command in ("validate", "stats", "bingos", "annotate", "fix", "write", "report")
    for bad in BAD
    # write and report take no end-of-game options
    if command not in ("write", "report") or bad[1] in ("--tiles", "--board")
]


@pytest.mark.parametrize(("command", "option", "name", "valid"), CASES)
def test_bad_value_is_a_usage_error_naming_the_valid_values(
    command: str, option: list[str], name: str, valid: list[str]
) -> None:
    code, out, err = run(command, GAME, *option)
    assert code == 2
    assert f"Invalid value for '{name}'" in err
    for word in valid:
        assert word in err
    # nothing was read: no per-file report, no "could not read"
    assert "could not read" not in out + err
    assert "H209" not in out + err


@pytest.mark.parametrize("command", ["chart", "export"])
def test_report_commands_check_before_writing(command: str, tmp_path: Path) -> None:
    out = tmp_path / ("c.svg" if command == "chart" else "m.csv")
    code, _, err = run(command, GAME, "-o", str(out), "--tiles", "klingon")
    assert code == 2 and "Invalid value for '--tiles'" in err
    assert not out.exists()


def test_picture_and_board_check_tiles_and_board(tmp_path: Path) -> None:
    code, _, err = run("picture", GAME, "--board", "nonsense", "-o", str(tmp_path / "p.svg"))
    assert code == 2 and "Invalid value for '--board'" in err
    code, _, err = run("board", GAME, "--tiles", "klingon")
    assert code == 2 and "Invalid value for '--tiles'" in err
    code, _, err = run("board", GAME, "--move", "-1")
    assert code == 2 and "Invalid value for '--move'" in err


def test_jobs_must_be_positive() -> None:
    code, _, err = run("validate", GAME, "--jobs", "0")
    assert code == 2 and "--jobs" in err


@pytest.mark.parametrize(
    "option",
    [
        ["--tiles", "German"],
        ["--tiles", "english"],
        ["--board", "super"],
        ["--board", "CrosswordGame"],
        ["--rules", "hasbro"],
        ["--rules", "international"],
        ["--challenge-bonus", "0"],
        ["--challenge-bonus", "10"],
    ],
)
def test_good_values_pass(option: list[str]) -> None:
    code, out, err = run("validate", GAME, *option, "--jobs", "1")
    assert code in (0, 1), err
    assert "1 file:" in out


def test_a_well_formed_file_passes_the_tiles_and_board_check(tmp_path: Path) -> None:
    table = tmp_path / "tiles.txt"
    table.write_text("A 9 1\nB 2 3\n? 2 0\n")
    assert check_tiles(str(table)) == str(table)
    grid = tmp_path / "board.txt"
    grid.write_text("\n".join(["." * 15] * 15) + "\n")
    assert check_board(str(grid)) == str(grid)


def test_a_malformed_file_is_a_usage_error_saying_what_is_wrong(tmp_path: Path) -> None:
    """The file is read when the option is checked, before any record: its problem is
    the usage error, not one failure per record."""
    table = tmp_path / "tiles.txt"
    table.write_text("A 9 1\n")
    with pytest.raises(typer.BadParameter, match="premium symbols"):
        check_board(str(table))
    with pytest.raises(typer.BadParameter, match="letter count value"):
        check_tiles(str(grid_file(tmp_path)))


def grid_file(folder: Path) -> Path:
    grid = folder / "grid.txt"
    grid.write_text("\n".join(["." * 15] * 15) + "\n")
    return grid
    assert check_tiles(None) is None


def test_board_move_out_of_range_names_the_option_the_library_does_not() -> None:
    from gcgtools.render.textboard import board_text

    view = board_text(GAME, 999)
    assert view.text is None and view.events is not None and view.events < 999
    assert view.problem == f"{GAME}: move must be between 0 and {view.events}"
    code, _, err = run("board", GAME, "--move", "999")
    assert code != 0 and f"{GAME}: --move must be between 0 and {view.events}" in err


def test_the_rule_group_builds_its_options_with_the_rules_own_rule_options(
    tmp_path: Path,
) -> None:
    from gcgtools.cli.common import rule_options_or_exit
    from gcgtools.rules.options import NO_OPTIONS, rule_options

    assert rule_options_or_exit() is NO_OPTIONS
    given = {"tiles": "english", "board": "super", "rules": "intl", "challenge_bonus": 5}
    assert rule_options_or_exit(**given) == rule_options(**given)
    with pytest.raises(typer.Exit) as stopped:
        rule_options_or_exit(tiles=str(tmp_path / "missing-tiles.txt"))
    assert stopped.value.exit_code == 2
