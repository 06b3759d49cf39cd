"""A lexicon that does not fit the record is said (issue 18 item 4): W804 when its alphabet
is another than the record's tile set, W805 when the record names another lexicon, both in
the lexicon line; and an English list lacking QI, ZA, KI, ZO says so where it is picked."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.reference_data import DATA, needs_data

from gcgtools import parse_string
from gcgtools.analysis.analyse import analyse_record
from gcgtools.analysis.fit import MIN_WORDS_FOR_LETTERS, lexicon_fit
from gcgtools.findings import RULES
from gcgtools.lexicon import Lexicon, load_lexicon
from gcgtools.replay.setup import rules_for

GERMAN = (
    "#lexicon RD28\n#tile-distribution german\n#player1 a A\n#player2 b B\n"
    ">a: AHSUXYZ 8F HAUS +12 12\n"
)
ENGLISH = "#lexicon CSW21\n#player1 a A\n#player2 b B\n>a: AEINRST 8H RETAINS +66 66\n"


def codes(record: str, lexicon: Lexicon) -> dict[str, str]:
    game = parse_string(record)
    rules, _ = rules_for(game)
    return {f.code: f.message for f in lexicon_fit(game, rules.tiles, lexicon)}


def english_words(n: int) -> list[str]:
    """n distinct words over A..Z (every letter used)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [letters[i % 26] + letters[(i // 26) % 26] + letters[(i // 676) % 26] for i in range(n)]


def test_an_english_named_lexicon_on_a_german_record_is_w804() -> None:
    enable = Lexicon.from_words(["HAUS", "THA"], "german", name="ENABLE")
    found = codes(GERMAN, enable)
    assert "W804" in found and "english tiles" in found["W804"] and "german" in found["W804"]
    assert "W805" in found and "RD28" in found["W805"]
    assert RULES["W804"].severity == "warning" and RULES["W805"].severity == "info"


def test_a_list_never_using_the_records_letters_is_w804() -> None:
    # a list of no known name, compiled with German tiles, that never uses Ä, Ö, Ü
    words = english_words(MIN_WORDS_FOR_LETTERS)
    mine = Lexicon.from_words(words, "german", name="mylist")
    found = codes(GERMAN.replace("#lexicon RD28\n", ""), mine)
    assert "W804" in found and "Ä, Ö" in found["W804"] and "W805" not in found
    small = Lexicon.from_words(words[:50], "german", name="mylist")  # a test's tiny list
    assert "W804" not in codes(GERMAN.replace("#lexicon RD28\n", ""), small)


def test_a_fitting_lexicon_has_neither() -> None:
    lexicon = Lexicon.from_words(english_words(MIN_WORDS_FOR_LETTERS), name="CSW21")
    assert codes(ENGLISH, lexicon) == {}
    assert codes(ENGLISH.replace("CSW21", "CSW2021"), lexicon) == {}  # the same name
    assert codes(ENGLISH.replace("#lexicon CSW21\n", ""), lexicon) == {}  # no name: fine


def test_enable_and_enable2k_are_one_list() -> None:
    lexicon = Lexicon.from_words(["RETAINS"], name="ENABLE")
    assert codes(ENGLISH.replace("CSW21", "ENABLE2K"), lexicon) == {}
    assert "W805" in codes(ENGLISH, lexicon)


def test_the_analysis_says_it_in_its_findings_and_lexicon_line() -> None:
    enable = Lexicon.from_words(["HAUS", "THA"], "german", name="ENABLE")
    result = analyse_record(parse_string(GERMAN), lexicon=enable)
    assert [f.code for f in result.findings][:2] == ["W804", "W805"]
    assert result.findings[0].line == 1  # the #lexicon line
    assert "is for english tiles" in result.used and "names lexicon RD28" in result.used


@needs_data
def test_enable_on_the_german_example_says_w804() -> None:
    assert DATA is not None
    enable = load_lexicon(DATA / "lexica" / "ENABLE.kwg", "german")
    record = (Path(__file__).parents[2] / "examples" / "german.gcg").read_text(encoding="utf-8")
    result = analyse_record(parse_string(record), lexicon=enable)
    assert "W804" in {f.code for f in result.findings}


@needs_data
@pytest.mark.parametrize(
    ("relative", "lacks"),
    [
        ("wordlists/enable2k/enable2k.txt.gz", "QI, ZA, KI, ZO"),
        ("wordlists/cel/cel_2-21.txt.gz", "ZA, KI, ZO"),
        ("lexica/ENABLE.kwg", "QI, ZA, KI, ZO"),
    ],
)
def test_free_english_lists_say_which_modern_twos_they_lack(
    relative: str, lacks: str, private_cache: Path
) -> None:
    assert DATA is not None
    lexicon = load_lexicon(DATA / relative)
    (note,) = lexicon.notes
    assert f"lacks {lacks}" in note and lacks in lexicon.describe()


def test_a_list_with_the_modern_twos_has_no_note(tmp_path: Path, private_cache: Path) -> None:
    path = tmp_path / "NWL23.txt"
    path.write_text("QI\nZA\nKI\nZO\nCARE\n", encoding="utf-8")
    assert load_lexicon(path).notes == []
    other = tmp_path / "mine.txt"
    other.write_text("QI\nCARE\n", encoding="utf-8")  # lacks ZA, KI, ZO: not an older list
    assert load_lexicon(other).notes == []
