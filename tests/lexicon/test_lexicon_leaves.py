"""Leave values: CSW21.klv2 against its README's known values, CSV and KLV round trips, and
the built-in heuristic's documented formula."""

from __future__ import annotations

import pickle
import random
import struct
from itertools import islice
from pathlib import Path

import pytest
from support.lexicon_data import CSW21_KLV2, data_file, ladder, needs_data

from gcgtools.lexicon import (
    Leaves,
    LeavesError,
    alphabet_of,
    builtin_leaves,
    klv_bytes,
    leaves_csv,
    load_leaves,
)
from gcgtools.rules import TileError

# From shared/data/lexica/README.md (MAGPIE's own CSV export of CSW21.klv2)
KNOWN = {
    "?": 28.291,
    "S": 9.106,
    "Q": -7.653,
    "V": -6.491,
    "?S": 35.059,
    "QU": 2.254,
    "VV": -16.632,
    "ERS": 17.975,
    "?ERS": 41.150,
    "AEINST": 33.241,
}


@pytest.fixture(scope="module")
def csw21() -> Leaves:
    return load_leaves(data_file(CSW21_KLV2))


@needs_data
@pytest.mark.parametrize(("leave", "value"), KNOWN.items())
def test_csw21_known_values_in_any_order(csw21: Leaves, leave: str, value: float):
    orders = {leave, leave[::-1]}
    rng = random.Random(leave)
    for _ in range(5):
        tiles = list(leave)
        rng.shuffle(tiles)
        orders.add("".join(tiles))
    for order in orders:
        assert round(csw21.value(list(order)), 3) == value, order
        assert round(csw21.value(order), 3) == value, order  # a string is tiles too


@needs_data
def test_csw21_file_facts(csw21: Leaves):
    assert csw21.name == "CSW21" and csw21.kind == "klv2"
    assert "KLV2 file" in csw21.source and "CSW21.klv2" in csw21.source
    assert csw21.value([]) == 0.0
    assert csw21.value(list("QQQQQQ")) == 0.0  # not in the graph: worth 0
    # a blank designated as a letter ("e") is a blank
    assert csw21.value(["e", "S"]) == csw21.value(["?", "S"])
    with pytest.raises(TileError):
        csw21.value(["É"])
    # every value is reachable by its leave: the index is the enumeration order
    for i, (word, value) in enumerate(islice(csw21.items(), 0, 5000, 97)):
        assert csw21.value_of(word) == value, i


@needs_data
def test_csw21_to_csv_and_back(tmp_path: Path, csw21: Leaves):
    sample = list(islice(csw21.items(), 0, 300_000, 50))
    path = tmp_path / "part.csv"
    decode = csw21.alphabet.decode
    path.write_text("".join(f"{decode(k)},{v!r}\n" for k, v in sample), encoding="utf-8")
    table = load_leaves(path)
    assert table.kind == "csv" and "leave CSV" in table.source
    for key, value in sample:
        assert table.value_of(key) == value
    assert table.value("ZZZ") == 0.0  # not in the table


def test_csv_round_trip(tmp_path: Path):
    text = "leave,value\nS?,24.5\nERS,17.25\n\nqu,-1.5\r\nVV , -16.0\n?,25\n"
    path = tmp_path / "mine.csv"
    path.write_text(text, encoding="utf-8")
    leaves = load_leaves(path)
    assert leaves.name == "mine"
    assert leaves.value("?S") == 24.5 and leaves.value(["R", "E", "S"]) == 17.25
    assert leaves.value("UQ") == -1.5 and leaves.value("A") == 0.0
    written = leaves_csv(leaves)
    assert written.splitlines()[0] == "?,25.0"
    again = tmp_path / "again.csv"
    again.write_text(written, encoding="utf-8")
    assert leaves_csv(load_leaves(again)) == written


@pytest.mark.parametrize("klv2", [True, False])
def test_klv_write_and_read(tmp_path: Path, klv2: bool):
    english = alphabet_of("english")
    table = {
        bytes(sorted(english.encode_tiles(list(leave)))): value
        for leave, value in {"?": 25.5, "S": 8.25, "?S": 33.0, "ERS": 17.5, "QU": -1.75}.items()
    }
    path = tmp_path / ("mine.klv2" if klv2 else "mine.klv")
    path.write_bytes(klv_bytes(table.items(), klv2=klv2))
    leaves = load_leaves(path)
    assert leaves.kind == ("klv2" if klv2 else "klv")
    for key, value in table.items():
        assert leaves.value_of(key) == value  # all exact in float32 and in 1/256
    assert leaves.value("SRE") == 17.5 and leaves.value("Z") == 0.0


def test_bad_leave_files(tmp_path: Path):
    bad = tmp_path / "bad.klv2"
    bad.write_bytes(b"\x05\x00\x00\x00junk")
    with pytest.raises(LeavesError, match="not a KLV file"):
        load_leaves(bad)
    csv = tmp_path / "bad.csv"
    csv.write_text("ERS,1\nE#S,2\n", encoding="utf-8")
    with pytest.raises(LeavesError, match=r"bad\.csv:2"):
        load_leaves(csv)
    csv.write_text("ERS,1\nAB,x\n", encoding="utf-8")
    with pytest.raises(LeavesError, match="not a number"):
        load_leaves(csv)
    with pytest.raises(LeavesError, match="cannot read"):
        load_leaves(tmp_path / "none.klv2")


def test_a_leave_graph_of_more_leaves_than_32_bits_count_is_a_clear_error(tmp_path: Path):
    nodes = ladder(33)  # 2**33 leaves: the count does not fit the 32-bit counts
    bad = tmp_path / "huge.klv2"
    bad.write_bytes(struct.pack("<I", len(nodes) // 4) + nodes + struct.pack("<I", 0))
    with pytest.raises(LeavesError, match="more than 4,294,967,295 words"):
        load_leaves(bad)


def test_spanish_csv_with_digraph_tiles(tmp_path: Path):
    path = tmp_path / "es.csv"
    path.write_text("CHA,1.5\n[LL]?,3\n", encoding="utf-8")
    leaves = load_leaves(path, "spanish")
    assert leaves.value(["A", "CH"]) == 1.5 and leaves.value(["?", "LL"]) == 3.0
    assert leaves.value(["C", "H", "A"]) == 0.0  # C and H tiles are not the CH tile


# ---------------------------------------------------------------------- built-in


def test_builtin_heuristic_formula():
    leaves = builtin_leaves()
    assert leaves.name == "builtin" and leaves.source == "built-in heuristic"
    assert leaves.value([]) == 0.0
    assert leaves.value("?") == 25.0
    assert leaves.value("??") == 50.0  # blanks: no duplicate or balance penalty
    assert leaves.value("ERS") == 3 + 1.5 + 8  # 1 vowel, 2 consonants: balanced
    assert leaves.value("EE") == 3 + 3 - 4 - 2 * (2 - 1)
    assert leaves.value("QU") == -7 - 3.5
    assert leaves.value("VVW") == -5.5 - 5.5 - 3.5 - 4 - 2 * (3 - 1)
    assert leaves.value("AEINST") == 0.5 + 3 - 1 + 0.5 + 8 + 0.5
    assert leaves.value("IIUO") == -1 - 1 - 3.5 - 1.5 - 4 - 2 * (4 - 1)


def test_builtin_heuristic_other_tile_sets():
    spanish = builtin_leaves("spanish")
    assert spanish.tiles.name == "spanish"
    assert spanish.value(["CH"]) == 2 - 5  # 5 points
    assert spanish.value(["A"]) == 1.0 and spanish.value(["Z"]) == -6.0  # clipped
    assert spanish.value(["?", "E"]) == 25 + 1.0


def test_leave_file_for_another_tile_set_is_refused(tmp_path: Path):
    polish = alphabet_of("polish")
    path = tmp_path / "pl.klv2"
    path.write_bytes(klv_bytes([(bytes(polish.encode_tiles(["Ż"])), 1.0)]))
    with pytest.raises(LeavesError, match="outside the english tile set"):
        load_leaves(path)
    assert load_leaves(path, "polish").value(["Ż"]) == 1.0


def test_leaves_pickle(tmp_path: Path):
    path = tmp_path / "mine.klv2"
    path.write_bytes(klv_bytes([(bytes([5, 18, 19]), 17.5), (bytes([0]), 25.0)]))
    for leaves in (load_leaves(path), builtin_leaves("spanish")):
        copy = pickle.loads(pickle.dumps(leaves))
        assert (copy.name, copy.source, copy.kind) == (leaves.name, leaves.source, leaves.kind)
        for leave in (["E", "R", "S"], ["?"], ["A", "A"]):
            assert copy.value(leave) == leaves.value(leave)


def test_builtin_leaves_shared_per_tile_set():
    from gcgtools.rules import tile_set

    assert builtin_leaves() is builtin_leaves("English") is builtin_leaves(tile_set("english"))
    assert builtin_leaves("spanish") is not builtin_leaves()
    assert alphabet_of("english") is alphabet_of(tile_set("english"))


# ------------------------------------------------- leaves longer than a file lists
def test_leave_longer_than_the_file_lists_is_the_mean_of_its_splits(tmp_path: Path):
    english = alphabet_of("english")
    listed = {"E": 3.0, "R": 1.0, "S": 8.0, "ER": 5.0, "ES": 12.0, "RS": 10.0}
    path = tmp_path / "two.klv2"
    path.write_bytes(
        klv_bytes((bytes(sorted(english.encode_tiles(list(k)))), v) for k, v in listed.items())
    )
    leaves = load_leaves(path)
    # ERS = mean of (RS + E), (ES + R), (ER + S)
    expected = ((10.0 + 3.0) + (12.0 + 1.0) + (5.0 + 8.0)) / 3
    assert leaves.value("SRE") == pytest.approx(expected)
    # a 2-tile leave the file does not list is worth 0, as before
    assert leaves.value("EE") == 0.0
    # four tiles: split again, each 3-tile part estimated the same way
    ers = expected
    eers = (leaves.value("ERS") + 3.0 + leaves.value("EES") + 1.0) / 4
    eers += (leaves.value("EER") + 8.0) / 4 + (ers + 3.0) / 4
    assert leaves.value("EERS") == pytest.approx(eers)
    # a CSV table the same way
    csv = tmp_path / "two.csv"
    csv.write_text("".join(f"{k},{v}\n" for k, v in listed.items()))
    assert load_leaves(csv).value("ERS") == pytest.approx(expected)


@needs_data
def test_a_seven_tile_keep_is_valued_by_the_klv2(csw21: Leaves):
    rack = "UUVVWQI"
    splits = [rack[:i] + rack[i + 1 :] for i in range(7)]
    expected = sum(csw21.value(six) + csw21.value(rack[i]) for i, six in enumerate(splits)) / 7
    assert csw21.value(rack) == pytest.approx(expected)
    assert csw21.value(rack) < -20  # a dreadful rack to keep, not 0.0


@needs_data
def test_the_pass_is_not_the_best_move_on_a_bad_rack(csw21: Leaves):
    from gcgtools.lexicon import Lexicon
    from gcgtools.movegen import generate_moves
    from gcgtools.replay import Board
    from gcgtools.rules import board_layout, tile_set

    lexicon = Lexicon.from_words(["QI", "VIEW"], tile_set("english"))
    board = Board(board_layout("standard"), tile_set("english"))
    moves = generate_moves(board, list("UUVVWQI"), lexicon, leaves=csw21, bag_count=60)
    best = moves[0]
    passed = next(m for m in moves if m.kind == "pass")
    assert best.kind != "pass"
    assert passed.equity == pytest.approx(csw21.value("UUVVWQI"))
    assert best.equity > passed.equity
