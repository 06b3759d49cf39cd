"""KWG files: the reader on MAGPIE's ENABLE.kwg, our builder on the same list and on small
lists (against the words and GADDAG paths spelt out independently)."""

from __future__ import annotations

import pickle
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.lexicon_data import (
    ENABLE_KWG,
    ENABLE_TXT,
    data_file,
    english_tiles,
    gaddag_paths,
    ladder,
    needs_data,
    plain_words,
)

from gcgtools.lexicon import (
    ARC_MASK,
    IS_END,
    TILE_SHIFT,
    Kwg,
    Lexicon,
    LexiconError,
    alphabet_of,
    build_nodes,
    load_lexicon,
)
from gcgtools.lexicon.lexicon import check_lexicon_file

ENGLISH = alphabet_of("english")


@pytest.fixture(scope="module")
def enable_words() -> list[str]:
    return plain_words(ENABLE_TXT)


@pytest.fixture(scope="module")
def enable_gaddag(enable_words: list[str]) -> list[bytes]:
    return sorted(p for w in enable_words for p in gaddag_paths(english_tiles(w)))


@pytest.fixture(scope="module")
def magpie_kwg() -> Kwg:
    return Kwg.read(data_file(ENABLE_KWG), ENGLISH)


@pytest.fixture(scope="module")
def own_enable(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Our builder's KWG of the ENABLE list, compiled once (through the cache, in a temp
    folder) and written as a .kwg file."""
    mp = pytest.MonkeyPatch()
    mp.setenv("GCGTOOLS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    try:
        lexicon = load_lexicon(data_file(ENABLE_TXT))
    finally:
        mp.undo()
    assert lexicon.cached is False
    out = tmp_path_factory.mktemp("own") / "ENABLE-own.kwg"
    out.write_bytes(lexicon.kwg.to_bytes())
    return out


def check_layout(nodes: list[int] | Kwg) -> None:
    """Every group reached by an arc is sorted by tile and ends inside the array."""
    seq = nodes.nodes if isinstance(nodes, Kwg) else nodes
    arcs = {n & ARC_MASK for n in seq} - {0}
    for arc in arcs:
        p, last = arc, -1
        while True:
            tile = seq[p] >> TILE_SHIFT
            assert tile > last, f"group at {arc} not sorted"
            last = tile
            if seq[p] & IS_END:
                break
            p += 1


# ------------------------------------------------------------------ MAGPIE's ENABLE.kwg


@needs_data
def test_magpie_enable_dawg_holds_exactly_the_list(magpie_kwg: Kwg, enable_words: list[str]):
    words = [ENGLISH.decode(w) for w in magpie_kwg.words()]
    assert len(words) == 169_266
    assert words == enable_words
    assert magpie_kwg.count_words() == 169_266


@needs_data
def test_magpie_enable_gaddag_holds_every_path_of_every_word(
    magpie_kwg: Kwg, enable_gaddag: list[bytes]
):
    assert magpie_kwg.gaddag_root != 0
    # every accepted GADDAG path, enumerated, is exactly the set of every word's paths
    assert list(magpie_kwg.gaddag_paths()) == enable_gaddag
    assert magpie_kwg.count_words(magpie_kwg.gaddag_root) == len(enable_gaddag)


@needs_data
def test_magpie_enable_lookups(magpie_kwg: Kwg):
    lexicon = load_lexicon(data_file(ENABLE_KWG))
    assert lexicon.name == "ENABLE" and "KWG file" in lexicon.source
    assert len(lexicon) == 169_266
    for word in ("quixotic", "CARE", "Zyzzyva", "aa", "OXYPHENBUTAZONE"):
        assert word in lexicon, word
    for word in ("QI", "ZA", "CARFQ", "A", "", "OXYPHENBUTAZONES", "caré", "c?re"):
        assert word not in lexicon, word
    assert lexicon.contains_tiles(english_tiles("CARE"))
    assert not lexicon.contains_tiles(english_tiles("CAR") + b"\0")
    kwg = lexicon.kwg
    assert kwg.letters[1] == "A" and kwg.letters[26] == "Z" and kwg.index["Q"] == 17
    assert kwg.gaddag_contains(english_tiles("CARE"))
    assert not kwg.gaddag_contains(english_tiles("CARFQ"))
    check_layout(kwg)


# ------------------------------------------------------------- our builder, same list


@needs_data
def test_own_enable_kwg_holds_the_same_words(
    own_enable: Path, enable_words: list[str], enable_gaddag: list[bytes], magpie_kwg: Kwg
):
    kwg = Kwg.read(own_enable, ENGLISH)  # the same reader as for MAGPIE's file
    assert [ENGLISH.decode(w) for w in kwg.words()] == enable_words
    assert list(kwg.gaddag_paths()) == enable_gaddag
    check_layout(kwg)
    # minimised: no bigger than MAGPIE's own KWG of the list
    assert len(kwg) <= len(magpie_kwg)
    # and it loads as a lexicon file
    lexicon = load_lexicon(own_enable)
    assert len(lexicon) == 169_266 and "quixotic" in lexicon


# ------------------------------------------------------------------------ small lists


def tiny_kwg(words: list[str]) -> Kwg:
    nodes = build_nodes([english_tiles(w) for w in words])
    return Kwg.from_bytes(Kwg(nodes, ENGLISH).to_bytes(), ENGLISH)  # through bytes


def test_tiny_list_round_trips():
    words = ["CARE", "CAR", "CARES", "ARE", "EAR", "EARS", "SCARE", "RACE", "ACRE"]
    kwg = tiny_kwg(words)
    assert [ENGLISH.decode(w) for w in kwg.words()] == sorted(set(words))
    expected = sorted(p for w in words for p in gaddag_paths(english_tiles(w)))
    assert list(kwg.gaddag_paths()) == expected
    # CARE's paths, spelt out in the format description
    for path in ("ERAC", "RAC^E", "AC^RE", "C^ARE"):
        tiles = bytes(0 if c == "^" else ord(c) - 64 for c in path)
        assert kwg.accepts(kwg.gaddag_root, tiles), path
    assert not kwg.contains(english_tiles("CA"))
    assert kwg.count_words() == len(set(words))
    # seek: the node of a tile in a group, or -1
    c = kwg.seek(kwg.dawg_root, 3)
    assert c > 0 and kwg.nodes[c] >> TILE_SHIFT == 3
    assert kwg.seek(kwg.dawg_root, 26) == -1 and kwg.seek(0, 3) == -1
    c_in_gaddag = kwg.seek(kwg.gaddag_root, 3)
    assert c_in_gaddag > 0
    # C^ARE: after C in the GADDAG comes the separator
    assert kwg.seek(kwg.nodes[c_in_gaddag] & ARC_MASK, 0) > 0
    check_layout(kwg)
    # node 0 and node 1 point at the roots, as wolges and MAGPIE expect
    assert kwg.nodes[0] & ARC_MASK == kwg.dawg_root and kwg.nodes[0] & IS_END
    assert kwg.nodes[1] & ARC_MASK == kwg.gaddag_root and kwg.nodes[1] & IS_END


def test_dawg_only_build_has_no_gaddag():
    nodes = build_nodes([english_tiles("AB"), english_tiles("ABC")], gaddag=False)
    kwg = Kwg(nodes, ENGLISH)
    assert kwg.gaddag_root == 0 and not kwg.has_gaddag
    assert [ENGLISH.decode(w) for w in kwg.words()] == ["AB", "ABC"]


def test_word_index_follows_enumeration_order():
    words = sorted({"AB", "ABC", "ABD", "B", "BA", "CAB", "CABS"})
    kwg = tiny_kwg(words)
    for i, word in enumerate(kwg.words()):
        assert kwg.word_index(word) == i
    assert kwg.word_index(english_tiles("ABE")) == -1
    assert kwg.word_index(english_tiles("CA")) == -1


@settings(max_examples=60, deadline=None, derandomize=True)  # the same examples every run
@given(st.sets(st.text(alphabet="ABCDE", min_size=1, max_size=7), min_size=1, max_size=40))
def test_builder_matches_brute_force(words: set[str]):
    kwg = tiny_kwg(sorted(words))
    assert [ENGLISH.decode(w) for w in kwg.words()] == sorted(words)
    expected = sorted(p for w in words for p in gaddag_paths(english_tiles(w)))
    assert list(kwg.gaddag_paths()) == expected
    for w in words:
        assert kwg.contains(english_tiles(w)) and kwg.gaddag_contains(english_tiles(w))
        assert not kwg.contains(english_tiles(w + "F"))
    check_layout(kwg)


# ----------------------------------------------------------------------- bad files


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x00\x00\x40", "multiple of 4"),
        (struct.pack("<I", IS_END | 9), "at least 2"),
        (struct.pack("<II", IS_END | 9, IS_END), "arc points to node 9"),
        (struct.pack("<III", IS_END | 2, IS_END, 1 << TILE_SHIFT), "past the end"),
        (struct.pack("<III", IS_END | 2, IS_END, 1 << TILE_SHIFT | IS_END | 2), "a cycle"),
        (struct.pack("<III", IS_END | 2, IS_END, 1 << TILE_SHIFT | IS_END), "DAWG is empty"),
        (ladder(33), "more than 4,294,967,295 words"),
        (ladder(25), "33,554,432 words: more than any lexicon"),
    ],
)
def test_malformed_kwg_is_a_clear_error(tmp_path: Path, data: bytes, reason: str):
    path = tmp_path / "bad.kwg"
    path.write_bytes(data)
    with pytest.raises(LexiconError, match=reason) as info:
        load_lexicon(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_a_kwg_checked_then_loaded_is_parsed_once_unless_its_bytes_changed(tmp_path: Path):
    path = tmp_path / "mini.kwg"
    Lexicon.from_words(["care", "race", "acre"]).kwg.write(path)
    check_lexicon_file(path)
    first, second = load_lexicon(path), load_lexicon(path)
    assert first.kwg is second.kwg and len(first) == 3  # the same bytes: kept
    path.write_bytes(struct.pack("<III", IS_END | 2, IS_END, 1 << TILE_SHIFT | IS_END | 2))
    with pytest.raises(LexiconError, match="a cycle"):  # changed since: parsed anew
        load_lexicon(path)
    Lexicon.from_words(["care", "race"]).kwg.write(path)
    assert len(load_lexicon(path)) == 2


def test_missing_file_is_a_clear_error(tmp_path: Path):
    with pytest.raises(LexiconError, match="cannot read lexicon"):
        load_lexicon(tmp_path / "nope.kwg")


def test_kwg_for_another_tile_set_is_a_clear_error(tmp_path: Path):
    catalan = Lexicon.from_words(["ÇA", "ANY"], "catalan")  # Ç is tile 5, NY is 17 ...
    big = Lexicon.from_words(["ZZ"], "polish")  # Ż is tile 32 of Polish
    path = tmp_path / "POLISH.kwg"
    big.kwg.write(path)
    with pytest.raises(LexiconError, match="outside the english tile set"):
        load_lexicon(path, "english")
    assert "ZZ" in load_lexicon(path, "polish")
    assert sorted(catalan.words()) == ["ANY", "ÇA"]


def test_from_words_write_and_pickle(tmp_path: Path):
    lexicon = Lexicon.from_words(["care", "Race", "x", "acre"], name="mini")
    assert lexicon.name == "mini" and len(lexicon) == 3 and lexicon.skipped == {"short": 1}
    path = tmp_path / "mini.kwg"
    lexicon.kwg.write(path)
    again = load_lexicon(path)
    assert list(again.words()) == ["ACRE", "CARE", "RACE"] and again.cached is None
    copy = pickle.loads(pickle.dumps(again))
    assert list(copy.words()) == ["ACRE", "CARE", "RACE"] and "race" in copy
    assert copy.kwg.gaddag_contains(english_tiles("CARE"))
    empty = Lexicon.from_words([])
    assert len(empty) == 0 and "A" not in empty and list(empty.words()) == []
