"""Rule sets, end-of-game arithmetic, and the choice of rules from pragmas and overrides."""

from __future__ import annotations

import dataclasses

import pytest

from gcgtools.rules import (
    DEFAULT_RULES,
    EndRule,
    RuleSet,
    TileError,
    board_layout,
    challenge_bonus_allowed,
    end_rack_points,
    exchange_allowed,
    lexicon_tile_set,
    parse_end_rule,
    rack_value,
    select_rules,
    tile_set,
)

# ------------------------------------------------------------------------------ rulesets


def test_default_rules() -> None:
    rules = DEFAULT_RULES
    assert rules.tiles.name == "english"
    assert rules.board.name == "CrosswordGame"
    assert rules.end_rule is EndRule.STANDARD
    assert rules.challenge_bonus is None
    assert rules.bingo_bonus == 50
    assert rules.rack_size == 7
    assert rules.max_scoreless_turns == 6
    assert rules.exchange_minimum_bag == 7
    assert rules.time_penalty_per_minute == 10
    assert rules.passes_to_end is None
    assert rules.name == "english/CrosswordGame/standard"
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.bingo_bonus = 35  # type: ignore[misc]
    assert hash(rules) == hash(dataclasses.replace(rules))


def test_rack_value_and_end_points() -> None:
    std = DEFAULT_RULES
    assert rack_value(std, ["O", "P", "E", "G"]) == 7
    assert rack_value(std, "OPEG") == 7
    assert rack_value(std, ["Q", "?", "q"]) == 10
    assert rack_value(std, []) == 0
    assert end_rack_points(std, ["O", "P", "E", "G"]) == 14  # >emely: (OPEG) +14
    assert end_rack_points(std, "G") == 4  # >Dave: (G) +4
    intl = dataclasses.replace(std, end_rule=EndRule.INTERNATIONAL)
    assert end_rack_points(intl, ["Z", "Z"]) == 20
    assert end_rack_points(intl, "T") == 1
    home = dataclasses.replace(std, end_rule=EndRule.HOME)
    assert end_rack_points(home, "OPEG") == 7
    with pytest.raises(TileError):
        rack_value(std, "A~")
    es = RuleSet(tiles=tile_set("spanish"), board=board_layout("standard"))
    assert rack_value(es, "[CH]RRll") == 5 + 8
    assert end_rack_points(es, ["CH", "RR", "ll"]) == 26


def test_end_rule_properties() -> None:
    assert EndRule("standard") is EndRule.STANDARD
    assert EndRule.STANDARD == "standard"
    assert str(EndRule.INTERNATIONAL) == "international"
    assert EndRule.STANDARD.out_multiplier == 2
    assert EndRule.INTERNATIONAL.out_multiplier == EndRule.HOME.out_multiplier == 1
    assert not EndRule.STANDARD.deducts_own_rack
    assert EndRule.INTERNATIONAL.deducts_own_rack and EndRule.HOME.deducts_own_rack
    assert EndRule.HOME.tie_break_before_adjustments
    assert not EndRule.STANDARD.tie_break_before_adjustments


def test_ruleset_coerces_end_rule_string() -> None:
    rules = RuleSet(tiles=tile_set("english"), board=board_layout("standard"), end_rule="home")  # type: ignore[arg-type]
    assert rules.end_rule is EndRule.HOME


def test_exchange_allowed() -> None:
    std = DEFAULT_RULES
    assert exchange_allowed(std, 7, 7)
    assert exchange_allowed(std, 7, 1)
    assert not exchange_allowed(std, 6, 1)
    assert not exchange_allowed(std, 50, 0)
    assert not exchange_allowed(std, 50, 8)
    home, _ = select_rules(end_rule="home")
    assert exchange_allowed(home, 3, 3)
    assert not exchange_allowed(home, 2, 3)


def test_challenge_bonus_allowed() -> None:
    any_rule = DEFAULT_RULES
    for points in (0, 5, 10, 15):
        assert challenge_bonus_allowed(any_rule, points)
    for points in (3, -5):
        assert not challenge_bonus_allowed(any_rule, points)
    five = dataclasses.replace(any_rule, challenge_bonus=5)
    assert challenge_bonus_allowed(five, 5)
    assert challenge_bonus_allowed(five, 10)  # 5 per word
    assert not challenge_bonus_allowed(five, 0)
    ten = dataclasses.replace(any_rule, challenge_bonus=10)
    assert challenge_bonus_allowed(ten, 10)
    assert not challenge_bonus_allowed(ten, 5)
    zero = dataclasses.replace(any_rule, challenge_bonus=0)
    assert challenge_bonus_allowed(zero, 0)
    assert not challenge_bonus_allowed(zero, 5)


# ------------------------------------------------------------------------ parse_end_rule


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("standard", EndRule.STANDARD),
        ("STANDARD", EndRule.STANDARD),
        ("naspa", EndRule.STANDARD),
        ("international", EndRule.INTERNATIONAL),
        ("plus-minus", EndRule.INTERNATIONAL),
        ("plus minus", EndRule.INTERNATIONAL),
        ("x", EndRule.INTERNATIONAL),
        ("+x-x", EndRule.INTERNATIONAL),
        (" Home ", EndRule.HOME),
        ("hasbro", EndRule.HOME),
        (EndRule.HOME, EndRule.HOME),
    ],
)
def test_parse_end_rule(text: str, rule: EndRule) -> None:
    assert parse_end_rule(text) is rule


def test_parse_end_rule_unknown() -> None:
    with pytest.raises(ValueError, match="triple"):
        parse_end_rule("triple")


# -------------------------------------------------------------------------- select_rules


@pytest.mark.parametrize(
    ("lexicon", "tiles"),
    [
        ("CSW21", "english"),
        ("csw19", "english"),
        ("NWL20", "english"),
        ("TWL06", "english"),
        ("ECWL", "english"),
        ("CEL", "english"),
        ("OSPS49", "polish"),
        ("RD28", "german"),
        ("GERMAN", "german"),
        ("FRA24", "french"),
        ("DISC2", "catalan"),
        ("FILE2017", "spanish"),
        ("FISE2", "spanish"),
        ("NSF23", "norwegian"),
        ("NSWL2020", "english"),
        ("DSW", "dutch"),
        ("SLV", "slovene"),
        ("SAOL14", "swedish"),
    ],
)
def test_select_rules_from_lexicon(lexicon: str, tiles: str) -> None:
    rules, warnings = select_rules(lexicon=lexicon)
    assert rules.tiles.name == tiles
    assert rules.board.name == "CrosswordGame"
    assert rules.end_rule is EndRule.STANDARD  # whatever the language
    assert rules.bingo_bonus == 50
    assert warnings == []
    assert lexicon_tile_set(lexicon) == tiles


def test_select_rules_defaults() -> None:
    rules, warnings = select_rules()
    assert rules == DEFAULT_RULES
    assert warnings == []


def test_select_rules_unknown_lexicon_warns() -> None:
    rules, warnings = select_rules(lexicon="KLINGON1")
    assert rules.tiles.name == "english"
    assert len(warnings) == 1 and "KLINGON1" in warnings[0]
    assert lexicon_tile_set("KLINGON1") is None


def test_select_rules_tile_distribution_wins_over_lexicon() -> None:
    rules, warnings = select_rules(lexicon="CSW21", tile_distribution="english_super")
    assert rules.tiles.name == "english_super"
    assert rules.board.name == "SuperCrosswordGame"
    assert warnings == []
    rules, warnings = select_rules(lexicon="OSPS49", tile_distribution="english")
    assert rules.tiles.name == "english"
    assert len(warnings) == 1 and "OSPS49" in warnings[0]


def test_select_rules_unknown_tile_distribution_warns() -> None:
    rules, warnings = select_rules(tile_distribution="klingon")
    assert rules.tiles.name == "english"
    assert any("klingon" in w and "english" in w for w in warnings)
    # the lexicon still helps
    rules, warnings = select_rules(lexicon="OSPS49", tile_distribution="klingon")
    assert rules.tiles.name == "polish"
    assert any("klingon" in w for w in warnings)


def test_select_rules_board_layout() -> None:
    rules, warnings = select_rules(
        board_layout="SuperCrosswordGame", tile_distribution="english_super"
    )
    assert rules.board.name == "SuperCrosswordGame"
    assert warnings == []
    rules, warnings = select_rules(board_layout="Hexagonal")
    assert rules.board.name == "CrosswordGame"
    assert any("Hexagonal" in w and "CrosswordGame" in w for w in warnings)
    rules, warnings = select_rules(board_layout="Hexagonal", tile_distribution="english_super")
    assert rules.board.name == "SuperCrosswordGame"
    assert any("Hexagonal" in w and "SuperCrosswordGame" in w for w in warnings)
    rules, warnings = select_rules(board_layout="CrosswordGame", tile_distribution="english_super")
    assert rules.board.name == "CrosswordGame"
    assert warnings  # super tiles on a standard board


def test_select_rules_overrides_win() -> None:
    rules, warnings = select_rules(
        lexicon="CSW21",
        tile_distribution="english",
        board_layout="CrosswordGame",
        tiles="polish",
        board="super",
        end_rule="international",
        challenge_bonus=10,
    )
    assert rules.tiles.name == "polish"
    assert rules.board.name == "SuperCrosswordGame"
    assert rules.end_rule is EndRule.INTERNATIONAL
    assert rules.challenge_bonus == 10
    assert rules.passes_to_end is None
    rules, _ = select_rules(lexicon="OSPS49", end_rule=EndRule.INTERNATIONAL)
    assert rules.tiles.name == "polish"
    assert rules.end_rule is EndRule.INTERNATIONAL


def test_select_rules_unknown_override_raises() -> None:
    with pytest.raises(KeyError):
        select_rules(tiles="klingon")
    with pytest.raises(KeyError):
        select_rules(board="hexagonal")
    with pytest.raises(ValueError):
        select_rules(end_rule="sudden-death")


def test_select_rules_home() -> None:
    rules, warnings = select_rules(lexicon="NWL20", end_rule="home")
    assert rules.end_rule is EndRule.HOME
    assert rules.passes_to_end == 2
    assert rules.exchange_minimum_bag == 1
    assert warnings == []


@pytest.mark.parametrize(
    "kwargs",
    [
        {"game_type": "wwf"},
        {"game_type": "WordsWithFriends"},
        {"tile_distribution": "wwf_english"},
        {"board_layout": "WorldWildlifeFund"},
        {"tiles": "wwf"},
        {"board": "Words With Friends"},
    ],
)
def test_select_rules_wwf(kwargs: dict[str, str]) -> None:
    rules, warnings = select_rules(lexicon="NWL20", **kwargs)
    assert rules.tiles.name == "wwf_english"
    assert rules.board.name == "WordsWithFriends"
    assert rules.bingo_bonus == 35
    assert rules.end_rule is EndRule.STANDARD
    assert warnings == []


def test_select_rules_wwf_tiles_on_standard_board() -> None:
    rules, _ = select_rules(game_type="wwf", board="standard")
    assert rules.tiles.name == "wwf_english"
    assert rules.board.name == "CrosswordGame"
    assert rules.bingo_bonus == 35


def test_select_rules_game_type() -> None:
    rules, warnings = select_rules(game_type="classic")
    assert rules == DEFAULT_RULES and warnings == []
    # wordsmog is scored as classic: no warning, the variant is kept for word checks
    rules, warnings = select_rules(game_type="wordsmog")
    assert rules.tiles.name == "english" and rules.variant == "wordsmog"
    assert warnings == []


@pytest.mark.parametrize("game_type", ["classic_super", "wordsmog_super", "Classic-Super"])
def test_select_rules_super_game_types(game_type: str) -> None:
    # a Super game type alone chooses the Super board and tiles ...
    rules, warnings = select_rules(game_type=game_type)
    assert (rules.tiles.name, rules.board.size, warnings) == ("english_super", 21, [])
    assert rules.variant == game_type.casefold().split("_")[0].split("-")[0]
    # ... and its pragmas still decide
    rules, warnings = select_rules(
        game_type=game_type, board_layout="SuperCrosswordGame", tile_distribution="english_super"
    )
    assert (rules.tiles.name, rules.board.size, warnings) == ("english_super", 21, [])
    rules, _ = select_rules(game_type=game_type, board_layout="CrosswordGame")
    assert rules.board.size == 15


def test_game_types_known_to_the_model_have_rules() -> None:
    from gcgtools.model.build import GAME_TYPES
    from gcgtools.rules.detect import GAME_VARIANTS

    assert set(GAME_VARIANTS) == GAME_TYPES


def test_select_rules_blank_values_ignored() -> None:
    rules, warnings = select_rules(lexicon="  ", tile_distribution="", board_layout=" ")
    assert rules == DEFAULT_RULES and warnings == []
