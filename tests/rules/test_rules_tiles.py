"""Tile sets: totals, lookups, tokenising, and every table against the reference data."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from support.reference_data import DATA, needs_data

from gcgtools.rules import TILE_SETS, TileError, TileSet, tile_set

# name of our tile set -> reference file name
MACONDO = {
    "english": "english",
    "english_super": "english_super",
    "french": "french",
    "german": "german",
    "dutch": "dutch",
    "spanish": "spanish",
    "catalan": "catalan",
    "polish": "polish",
    "norwegian": "norwegian",
    "slovene": "slovene",
}
WOLGES = {
    "english": "english.txt",
    "english_super": "super_english.txt",
    "french": "french.txt",
    "german": "german.txt",
    "dutch": "dutch.txt",
    "spanish": "spanish.txt",
    "catalan": "catalan.txt",
    "polish": "polish.txt",
    "norwegian": "norwegian.txt",
    "swedish": "swedish.txt",
    "slovene": "slovene.txt",
}
WOLGES_NOT_COVERED = {"hong_kong_english.txt", "super_catalan.txt"}


def _unbracket(label: str) -> str:
    return label[1:-1] if label.startswith("[") and label.endswith("]") else label


def _read_macondo(path: Path) -> list[tuple[str, int, int, bool]]:
    rows = []
    with path.open(encoding="utf-8", newline="") as handle:
        for letter, count, value, vowel in csv.reader(handle):
            # "1" is a vowel; the Catalan Ç row has the typo "10" (documented in README.md).
            rows.append((_unbracket(letter), int(count), int(value), vowel == "1"))
    return rows


def _read_wolges(path: Path) -> list[tuple[str, int, int, bool]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            label, _blank_label, freq, score, vowel, *_aliases = line.split()
            rows.append((_unbracket(label), int(freq), int(score), vowel == "1"))
    return rows


def _assert_same(ts: TileSet, rows: list[tuple[str, int, int, bool]], *, order: bool) -> None:
    letters = [letter for letter, _, _, _ in rows]
    assert sorted(ts.letters) == sorted(letters)
    if order:
        assert list(ts.letters) == letters
    for letter, count, value, vowel in rows:
        assert ts.counts[letter] == count, (ts.name, letter)
        assert ts.values[letter] == value, (ts.name, letter)
        assert (letter in ts.vowels) == vowel, (ts.name, letter)


# ------------------------------------------------------------------------ reference data


@needs_data
@pytest.mark.parametrize("name", sorted(MACONDO))
def test_table_matches_macondo(name: str) -> None:
    assert DATA is not None
    rows = _read_macondo(DATA / "tilesets" / "macondo" / MACONDO[name])
    _assert_same(TILE_SETS[name], rows, order=True)


@needs_data
@pytest.mark.parametrize("name", sorted(WOLGES))
def test_table_matches_wolges(name: str) -> None:
    assert DATA is not None
    rows = _read_wolges(DATA / "tilesets" / "wolges" / WOLGES[name])
    _assert_same(TILE_SETS[name], rows, order=True)


@needs_data
def test_every_wolges_alphabet_is_checked_or_listed() -> None:
    assert DATA is not None
    files = {p.name for p in (DATA / "tilesets" / "wolges").glob("*.txt")} - {"LICENSE.txt"}
    assert files == set(WOLGES.values()) | WOLGES_NOT_COVERED


@needs_data
def test_wwf_matches_xanado() -> None:
    assert DATA is not None
    edition = json.loads(
        (DATA / "tilesets" / "xanado" / "English_WWF.json").read_text(encoding="utf-8")
    )
    ts = tile_set("wwf_english")
    seen = set()
    for entry in edition["bag"]:
        letter = entry.get("letter", "?")  # xanado's blank has no letter
        seen.add(letter)
        assert ts.counts[letter] == entry["count"], letter
        assert ts.values[letter] == entry.get("score", 0), letter
    assert seen == set(ts.letters)
    assert edition["rackCount"] == 7
    assert edition["bonuses"] == {"7": 35}


# ------------------------------------------------------------------------------- totals


def test_english_totals() -> None:
    en = tile_set("english")
    assert en.total_tiles == 100
    assert en.total_points == 187
    assert en.count("?") == 2
    assert en.count("E") == 12
    assert en.count("e") == 12
    assert en.max_len == 1
    assert en.vowels == frozenset("AEIOU")


@pytest.mark.parametrize(
    ("name", "tiles"),
    [
        ("english_super", 200),
        ("french", 102),
        ("german", 102),
        ("dutch", 102),
        ("spanish", 100),
        ("catalan", 100),
        ("polish", 100),
        ("norwegian", 100),
        ("swedish", 100),
        ("slovene", 100),
        ("wwf_english", 104),
    ],
)
def test_bag_sizes(name: str, tiles: int) -> None:
    assert tile_set(name).total_tiles == tiles


def test_max_len() -> None:
    assert tile_set("spanish").max_len == 2
    assert tile_set("catalan").max_len == 3


def test_all_tile_sets_have_two_blanks_except_super() -> None:
    for name, ts in TILE_SETS.items():
        assert ts.letters[0] == "?"
        assert ts.count("?") == (4 if name == "english_super" else 2)


# ------------------------------------------------------------------------------ lookups


def test_value() -> None:
    en = tile_set("english")
    assert en.value("Q") == 10
    assert en.value("q") == 0
    assert en.value("?") == 0
    with pytest.raises(TileError):
        en.value("Ñ")
    with pytest.raises(TileError):
        en.value("QU")
    es = tile_set("spanish")
    assert es.value("CH") == 5
    assert es.value("ch") == 0
    assert es.value("Ñ") == 8
    assert es.value("ñ") == 0
    with pytest.raises(TileError):
        es.value("Ch")
    assert tile_set("catalan").value("L·L") == 10
    assert tile_set("catalan").value("l·l") == 0
    # a letter without tiles exists only as a blank designation
    assert tile_set("norwegian").value("q") == 0


def test_is_blank_and_letter_of() -> None:
    es = tile_set("spanish")
    assert es.is_blank("?")
    assert es.is_blank("ch")
    assert es.is_blank("a")
    assert not es.is_blank("CH")
    assert not es.is_blank("A")
    assert not es.is_blank(".")
    assert es.letter_of("ch") == "CH"
    assert es.letter_of("RR") == "RR"
    with pytest.raises(TileError):
        es.letter_of("K")


def test_count_unknown() -> None:
    with pytest.raises(TileError):
        tile_set("english").count("Ä")


def test_is_vowel() -> None:
    pl = tile_set("polish")
    assert pl.is_vowel("Ą")
    assert pl.is_vowel("ą")
    assert not pl.is_vowel("Ż")
    assert not pl.is_vowel("?")


# ---------------------------------------------------------------------------------- split


def test_split_english() -> None:
    en = tile_set("english")
    assert en.split("ANoTHER") == ["A", "N", "o", "T", "H", "E", "R"]
    assert en.split("B.DEL") == ["B", ".", "D", "E", "L"]
    assert en.split("(.A.)") == ["(", ".", "A", ".", ")"]
    assert en.split("RETAIN?") == ["R", "E", "T", "A", "I", "N", "?"]
    assert en.split("") == []


def test_split_spanish_digraphs() -> None:
    es = tile_set("spanish")
    assert es.split("[CH]ICO") == ["CH", "I", "C", "O"]
    assert es.split("CHICO") == ["CH", "I", "C", "O"]
    # lower-case "ch" is the longest match: a blank designated as CH
    assert es.split("chico") == ["ch", "i", "c", "o"]
    assert es.split("[ch]ICO") == ["ch", "I", "C", "O"]
    assert es.split("[C][H]") == ["C", "H"]
    assert es.split("CARRO") == ["C", "A", "RR", "O"]
    assert es.split("LLAMA") == ["LL", "A", "M", "A"]
    assert es.split("NIÑO") == ["N", "I", "Ñ", "O"]
    # a mixed-case run is not a tile name: C, then a blank H
    assert es.split("Ch") == ["C", "h"]


def test_split_catalan_and_polish() -> None:
    ca = tile_set("catalan")
    assert ca.split("L·LEU") == ["L·L", "E", "U"]
    assert ca.split("l·lEU") == ["l·l", "E", "U"]
    assert ca.split("[L·L]E") == ["L·L", "E"]
    assert ca.split("QUANY") == ["QU", "A", "NY"]
    assert ca.split("ÇA") == ["Ç", "A"]
    assert tile_set("polish").split("ŻÓŁW") == ["Ż", "Ó", "Ł", "W"]
    assert tile_set("polish").split("żółw") == ["ż", "ó", "ł", "w"]


def test_split_errors() -> None:
    en = tile_set("english")
    with pytest.raises(TileError) as info:
        en.split("A~B")
    assert info.value.index == 1
    with pytest.raises(TileError) as info:
        en.split("AB C")
    assert info.value.index == 2
    with pytest.raises(TileError) as info:
        en.split("AÑ")
    assert info.value.index == 1
    es = tile_set("spanish")
    with pytest.raises(TileError) as info:
        es.split("A[XY]")
    assert info.value.index == 1
    with pytest.raises(TileError) as info:
        es.split("A[Ch]")
    assert info.value.index == 1
    with pytest.raises(TileError) as info:
        es.split("AB[CH")
    assert info.value.index == 2
    with pytest.raises(TileError) as info:
        es.split("[.]")
    assert info.value.index == 0
    # "Q" is no Catalan tile (only QU)
    with pytest.raises(TileError) as info:
        tile_set("catalan").split("AQ")
    assert info.value.index == 1
    assert isinstance(info.value, ValueError)


def test_split_is_cached_and_stable() -> None:
    es = tile_set("spanish")
    first = es.split("[CH]ICO")
    assert es.split("[CH]ICO") == first
    assert es._token_re is es._token_re


# ------------------------------------------------------------------------------- lookup


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("English", "english"),
        ("ENGLISH", "english"),
        ("english_super", "english_super"),
        ("super_english", "english_super"),
        ("English-Super", "english_super"),
        ("Deutsch", "german"),
        ("slovenian", "slovene"),
        ("WWF", "wwf_english"),
        ("English_WWF", "wwf_english"),
        ("Swedish", "swedish"),
    ],
)
def test_tile_set_aliases(alias: str, name: str) -> None:
    assert tile_set(alias).name == name


def test_tile_set_unknown() -> None:
    with pytest.raises(KeyError, match="klingon"):
        tile_set("klingon")


def test_tile_sets_are_immutable_and_hashable() -> None:
    en = tile_set("english")
    with pytest.raises(TypeError):
        en.counts["A"] = 99  # type: ignore[index]
    assert hash(en) == hash(tile_set("english"))
    assert en == TileSet.from_table(
        "english", [(k, en.counts[k], en.values[k]) for k in en.letters], "AEIOU"
    )


def test_spells_says_whether_split_reads_a_text() -> None:
    english, spanish = TILE_SETS["english"], TILE_SETS["spanish"]
    assert english.spells("RETAINS.(Q)?ab")
    assert not english.spells("AÑO")
    assert spanish.spells("AÑO.[CH]ch")
    assert not spanish.spells("[XX]")
    assert not english.spells("A1")


def test_declared_spellings_decide_how_multi_character_tiles_are_split() -> None:
    from gcgtools.rules.tiles import declared_spellings

    es = tile_set("spanish")
    assert es.split("LLAVE") == ["LL", "A", "V", "E"]  # no #tile pragma: longest match
    bracketed = declared_spellings(es, ["[CH]", "[LL]", "[RR]"])
    assert bracketed.split("LLAVE") == ["L", "L", "A", "V", "E"]
    assert bracketed.split("[LL]AVE") == ["LL", "A", "V", "E"]
    assert bracketed.split("[ll]ave") == ["ll", "a", "v", "e"]
    assert bracketed.split("CHURRO") == ["C", "H", "U", "R", "R", "O"]
    assert bracketed.name == "spanish" and bracketed.counts == es.counts
    # declared without brackets: read unbracketed; a tile not declared at all: brackets only
    bare = declared_spellings(es, ["CH", "ch"])
    assert bare.split("CHURRO") == ["CH", "U", "R", "R", "O"]
    assert bare.split("LLAVE") == ["L", "L", "A", "V", "E"]
    assert declared_spellings(es, []) is es
    assert declared_spellings(tile_set("english"), ["[LL]"]) is tile_set("english")
