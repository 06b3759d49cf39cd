"""Word lists: reading rules, splitting into multi-letter tiles, the CEL list."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from support.lexicon_data import CEL_TXT, data_file, needs_data, plain_words

from gcgtools.lexicon import LexiconError, alphabet_of, load_lexicon
from gcgtools.lexicon.wordlist import parse_word_list
from gcgtools.rules import tile_set

pytestmark = pytest.mark.usefixtures("private_cache")  # each test its own cache


def test_reading_rules(tmp_path: Path):
    text = (
        "# a comment\r\n"
        "care\r\n"
        "  Cares  \r\n"
        "\r\n"
        "RACE\r\n"
        "race\r\n"  # a duplicate in another case
        "a\r\n"  # one tile: cannot be played
        "ABCDEFGHIJKLMNOP\r\n"  # 16 letters: longer than the board
        "café\r\n"  # é is no English tile
        "n't\r\n"
        "ACRE definition after a space\r\n"
    )
    path = tmp_path / "mini.txt"
    path.write_bytes(text.encode("utf-8"))
    lexicon = load_lexicon(path)
    assert list(lexicon.words()) == ["ACRE", "CARE", "CARES", "RACE"]
    assert len(lexicon) == 4
    assert lexicon.skipped == {"letters": 2, "short": 1, "long": 1}
    assert lexicon.name == "mini" and lexicon.tiles.name == "english"
    assert "word list" in lexicon.source and str(path) in lexicon.source
    assert "Care" in lexicon and "cAREs" in lexicon and "CAR" not in lexicon


def test_gzipped_list_and_latin1(tmp_path: Path):
    path = tmp_path / "mini.txt.gz"
    path.write_bytes(gzip.compress("zoo\nzoos\n".encode("latin-1")))
    assert list(load_lexicon(path).words()) == ["ZOO", "ZOOS"]
    latin = tmp_path / "fr.txt"
    latin.write_bytes("ÉTÉ\nCAFÉ\nEAU\n".encode("latin-1"))
    # French tiles have no É: those words are skipped, EAU kept
    lexicon = load_lexicon(latin, "french")
    assert list(lexicon.words()) == ["EAU"] and lexicon.skipped == {"letters": 2}


def test_super_tiles_keep_21_letter_words(tmp_path: Path):
    path = tmp_path / "long.txt"
    path.write_text("ABCDEFGHIJKLMNOPQRSTU\nAB\n", encoding="utf-8")
    assert len(load_lexicon(path)) == 1
    assert len(load_lexicon(path, "english_super")) == 2
    assert len(load_lexicon(path, max_length=21)) == 2


def test_empty_and_damaged_lists_are_clear_errors(tmp_path: Path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(LexiconError, match="no words"):
        load_lexicon(empty)
    binary = tmp_path / "enable.dat"
    binary.write_bytes(b"\x02\x00\x40\x00" * 8)
    with pytest.raises(LexiconError, match="binary file, not a word list"):
        load_lexicon(binary)
    broken = tmp_path / "broken.txt.gz"
    whole = gzip.compress(b"care\n" * 100)
    broken.write_bytes(whole[: len(whole) - 12])  # the end of the stream cut off
    with pytest.raises(LexiconError, match="damaged"):
        load_lexicon(broken)


# ------------------------------------------------------------------ multi-letter tiles


def test_spanish_digraphs_split_by_longest_match(tmp_path: Path):
    spanish = alphabet_of("spanish")
    assert spanish.letters[:6] == ("?", "A", "B", "C", "CH", "D")
    chico = spanish.encode("chico")
    assert chico is not None and [spanish.letters[n] for n in chico] == ["CH", "I", "C", "O"]
    path = tmp_path / "FISE2.txt"
    # 16 letters but 15 tiles (CH is one tile): playable; 16 tiles: too long
    path.write_text(
        "chico\nLLAMA\nperro\ncarro\nCHICHARRONCHICHA\nABCDEFGHIJLMNOPQ\nwow\n", encoding="utf-8"
    )
    with path.open("a", encoding="utf-8") as fh:
        fh.write("NIN\u0303O\n")  # NIÑO with the tilde as a combining character
    lexicon = load_lexicon(path)  # FISE implies Spanish tiles
    assert lexicon.tiles.name == "spanish"
    assert sorted(lexicon.words()) == sorted(
        ["CHICO", "LLAMA", "PERRO", "CARRO", "CHICHARRONCHICHA", "NIÑO"]
    )
    assert lexicon.skipped == {"long": 1, "letters": 1}  # W is not a Spanish tile
    assert "Chico" in lexicon and "[CH]ICO" in lexicon
    idx = lexicon.kwg.index
    assert lexicon.contains_tiles([idx["LL"], idx["A"], idx["M"], idx["A"]])
    assert lexicon.contains_tiles([idx["P"], idx["E"], idx["RR"], idx["O"]])
    # "PERRO" spelt with two R tiles is not the word
    assert not lexicon.contains_tiles([idx["P"], idx["E"], idx["R"], idx["R"], idx["O"]])
    assert lexicon.kwg.gaddag_contains([idx["CH"], idx["I"], idx["C"], idx["O"]])
    # tiles as played: the CH tile, or a blank played as CH, is the word; C + H tiles are not
    assert lexicon.contains_tile_texts(["CH", "I", "C", "O"])
    assert lexicon.contains_tile_texts(["ch", "I", "c", "O"])
    assert not lexicon.contains_tile_texts(["C", "H", "I", "C", "O"])
    assert not lexicon.contains_tile_texts(["CH", "I", "C", "?"])


def test_catalan_l_l_ny_and_qu(tmp_path: Path):
    path = tmp_path / "cat.txt"
    path.write_text("col·legi\nANY\nPANYS\nquè\nQUE\n", encoding="utf-8")
    lexicon = load_lexicon(path, tile_set("catalan"))
    assert lexicon.skipped == {"letters": 1}  # È is not a Catalan tile
    idx = lexicon.kwg.index
    assert lexicon.contains_tiles([idx["C"], idx["O"], idx["L·L"], idx["E"], idx["G"], idx["I"]])
    assert lexicon.contains_tiles([idx["A"], idx["NY"]])
    assert lexicon.contains_tiles([idx["QU"], idx["E"]])
    assert "Col·legi" in lexicon and "any" in lexicon and "panys" in lexicon
    assert sorted(lexicon.words()) == ["ANY", "COL·LEGI", "PANYS", "QUE"]


def test_parse_word_list_counts():
    result = parse_word_list("AB\nA\nAB\n", alphabet_of("english"), max_length=15)
    assert result.words == [bytes([1, 2])] and result.skipped == {"short": 1}


# ------------------------------------------------------------------------- CEL


@needs_data
def test_cel_list_loads():
    expected = plain_words(CEL_TXT)
    lexicon = load_lexicon(data_file(CEL_TXT))
    assert lexicon.name == "cel_2-21" and lexicon.tiles.name == "english"
    assert len(lexicon) == len(expected)
    assert list(lexicon.words()) == expected
    longer = len(plain_words(CEL_TXT, max_len=99)) - len(expected)
    assert lexicon.skipped.get("long", 0) == longer
    assert all(word in lexicon for word in expected[::500])
    assert lexicon.kwg.has_gaddag
