"""One rule-options value (issue 17 item 3): RuleOptions parsed once, resolve(), equity."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import valid_files
from typer.testing import CliRunner

from gcgtools import parse_string
from gcgtools.cli import app
from gcgtools.replay.setup import rules_for
from gcgtools.rules import DEFAULT_RULES, EndRule, tile_set
from gcgtools.rules.equity import equity, leave_equity
from gcgtools.rules.options import RuleOptionError, RuleOptions, rule_options
from gcgtools.rules.resolve import resolve, resolve_with_findings
from gcgtools.rules.rulesets import bingo_bonus_for, tiles_value
from gcgtools.sources import read_game

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "club-final.gcg"


def test_parse_good_values() -> None:
    o = RuleOptions.parse(tiles="German", board="wwf", rules="hasbro", challenge_bonus=5)
    assert o == RuleOptions("German", "wwf", EndRule.HOME, 5)
    assert RuleOptions.parse() == RuleOptions()
    assert rule_options(end_rule="intl").end_rule is EndRule.INTERNATIONAL


@pytest.mark.parametrize(
    ("given", "option", "words"),
    [
        ({"tiles": "klingon"}, "tiles", ["english", "FILE"]),
        ({"board": "hexagonal"}, "board", ["standard", "wwf"]),
        ({"rules": "sudden-death"}, "rules", ["standard, international, home"]),
        ({"challenge_bonus": -5}, "challenge_bonus", ["0 or more"]),
    ],
)
def test_parse_bad_values(given: dict[str, object], option: str, words: list[str]) -> None:
    with pytest.raises(RuleOptionError) as caught:
        RuleOptions.parse(**given)  # type: ignore[arg-type]
    assert caught.value.option == option
    assert "\n" not in str(caught.value)
    for word in words:
        assert word in str(caught.value)
    # still what the lookups raised before: a KeyError and a ValueError
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, ValueError)


def test_files_are_read_when_parsed(tmp_path: Path) -> None:
    good = tmp_path / "tiles.txt"
    good.write_text("A 9 1\nB 2 3\n? 2 0\n")
    assert RuleOptions.parse(tiles=str(good)).tiles == str(good)
    bad = tmp_path / "bad.txt"
    bad.write_text("A 9\n")
    with pytest.raises(RuleOptionError, match="letter count value"):
        RuleOptions.parse(tiles=str(bad))


def test_hashable_picklable_and_identity_by_contents(tmp_path: Path) -> None:
    grid = tmp_path / "board.txt"
    grid.write_text("\n".join(["." * 15] * 15) + "\n")
    o = RuleOptions.parse(board=str(grid), rules="x")
    assert pickle.loads(pickle.dumps(o)) == o and hash(o) == hash(RuleOptions(**vars(o)))
    ident = o.identity()
    assert ident["end_rule"] == "international" and ident["board"].startswith("sha256:")
    copy = tmp_path / "copy.txt"
    copy.write_bytes(grid.read_bytes())
    assert RuleOptions.parse(board=str(copy), rules="x").identity() == ident
    grid.write_text("\n".join(["=" + "." * 14] + ["." * 15] * 14) + "\n")
    assert RuleOptions.parse(board=str(grid), rules="x").identity() != ident
    assert RuleOptions.parse(tiles="german").identity() == {"tiles": "german"}


def test_identity_is_the_same_in_another_process(tmp_path: Path) -> None:
    table = tmp_path / "tiles.txt"
    table.write_text("A 9 1\nB 2 3\n? 2 0\n")
    o = RuleOptions.parse(tiles=str(table), board="super", challenge_bonus=10)
    code = (
        "from gcgtools.rules.options import RuleOptions;"
        f"print(sorted(RuleOptions.parse(tiles={str(table)!r}, board='super',"
        " challenge_bonus=10).identity().items()))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(sorted(o.identity().items()))


@pytest.mark.parametrize(
    "given", [{}, {"end_rule": "international", "challenge_bonus": 5}, {"tiles": "english"}]
)
def test_resolve_equals_rules_for_on_the_corpus(given: dict[str, object]) -> None:
    options = rule_options(**given)  # type: ignore[arg-type]
    records = valid_files()[:300]  # skips without GCGTOOLS_CORPUS (conftest.py)
    for path in records:
        game = read_game(path)
        rules, findings = rules_for(game, **given)  # type: ignore[arg-type]
        assert resolve(game, options) == rules
        assert [f.message for f in resolve_with_findings(game, options)[1]] == [
            f.message for f in findings
        ]


def test_equity_bag_not_empty_uses_the_leave() -> None:
    english = tile_set("english")
    value = {("S",): 8.0}
    got = equity(
        20, ["S"], bag=5, tiles=english, end_rule=EndRule.STANDARD,
        leave_value=lambda kept: value[tuple(kept)],
    )  # fmt: skip
    assert got == 28.0
    assert equity(20, [], bag=5, tiles=english, end_rule=EndRule.STANDARD) == 20.0


def test_equity_bag_empty_going_out_and_not() -> None:
    english = tile_set("english")
    std, intl = EndRule.STANDARD, EndRule.INTERNATIONAL
    # going out: the opponent's tiles (Q 10 + E 1) twice under standard, once under +x/-x
    assert equity(20, [], bag=0, tiles=english, end_rule=std, opponent=["Q", "E"]) == 42.0
    assert equity(20, [], bag=0, tiles=english, end_rule=intl, opponent=["Q", "E"]) == 31.0
    assert equity(20, [], bag=0, tiles=english, end_rule=std) == 20.0  # rack not known
    # not going out: minus the tiles kept
    assert equity(20, ["Z", "?"], bag=0, tiles=english, end_rule=std) == 10.0
    assert leave_equity(["?"], bag=0, tiles=english, end_rule=std) == 0.0


def test_one_rack_value_and_one_bingo_bonus() -> None:
    english = tile_set("english")
    assert tiles_value(english, "QE?") == 11
    with pytest.raises(ValueError):
        tiles_value(english, ["Q", "Ж"])
    assert tiles_value(english, ["Q", "Ж"], strict=False) == 10
    assert bingo_bonus_for("wwf_english", "CrosswordGame") == 35
    assert bingo_bonus_for("english", "WordsWithFriends") == 35
    assert bingo_bonus_for("english", "CrosswordGame") == DEFAULT_RULES.bingo_bonus == 50
    game = read_game(GAME)
    assert resolve(game, RuleOptions.parse(board="wwf")).bingo_bonus == 35


def test_report_takes_rules_and_challenge_bonus(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    runner = CliRunner()
    args = ["report", str(GAME), "-o", str(out), "--rules", "international"]
    result = runner.invoke(app, [*args, "--challenge-bonus", "5"])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    bad = runner.invoke(app, ["report", str(GAME), "-o", str(out), "--rules", "foo"])
    assert bad.exit_code == 2 and "unknown end rule 'foo'" in bad.stderr


def test_tiles_chosen_from_the_letters_leave_no_doubt_about_the_first_choice() -> None:
    """A #lexicon that names no tile set, in a record whose letters only German has: the
    letters choose German, and no finding still says English tiles are used."""
    game = parse_string(
        "#player1 A A\n#player2 B B\n#lexicon D25WL04\n>A: EHMSTUÜ H4 MÜHST +32 32\n"
    )
    rules, findings = resolve_with_findings(game)
    assert rules.tiles.name == "german"
    assert [(f.severity, f.message) for f in findings] == [
        ("info", "tile set german chosen from the letters in the record")
    ]
    english, doubts = resolve_with_findings(parse_string("#lexicon D25WL04\n>A: AB 8H AB +4 4\n"))
    assert english.tiles.name == "english" and "english tiles used" in doubts[0].message
