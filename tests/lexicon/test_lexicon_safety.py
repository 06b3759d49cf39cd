"""Lexicon, leave and word-list files are checked, not trusted (issue 18 items 2 and 3):
exact KLV/KLV2 sizes, finite values, regular files only, size limits checked before
reading, and a word list decoded line by line."""

from __future__ import annotations

import gzip
import math
import os
import struct
from pathlib import Path

import pytest
from support.lexicon_data import CSW21_KLV2, data_file, needs_data

from gcgtools.lexicon import (
    LeavesError,
    Lexicon,
    LexiconError,
    alphabet_of,
    klv_bytes,
    load_leaves,
    load_lexicon,
)
from gcgtools.lexicon.wordlist import WordListTooLarge, gunzip_limited
from gcgtools.sources.limited import read_limited

ENGLISH = alphabet_of("english")


def _small_klv2(values: list[float]) -> bytes:
    leaves = [b"\x05", b"\x05\x12", b"\x05\x12\x13"][: len(values)]  # E, ER, ERS
    return klv_bytes(zip(leaves, values, strict=True))


def test_a_well_formed_small_klv2_is_read(tmp_path: Path) -> None:
    path = tmp_path / "small.klv2"
    path.write_bytes(_small_klv2([3.0, 5.5, 17.25]))
    leaves = load_leaves(path)
    assert leaves.kind == "klv2"
    assert leaves.value("SRE") == 17.25


@pytest.mark.parametrize("cut", [1, 2, 3, 5])
def test_a_klv2_cut_short_is_refused_not_read_as_klv(tmp_path: Path, cut: int) -> None:
    data = _small_klv2([3.0, 5.5, 17.25])
    path = tmp_path / "cut.klv2"
    path.write_bytes(data[:-cut])
    with pytest.raises(LeavesError, match=r"cut\.klv2: not a KLV file: header says 3 values"):
        load_leaves(path)


def test_a_klv2_with_bytes_added_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "long.klv2"
    path.write_bytes(_small_klv2([3.0, 5.5, 17.25]) + b"\0\0\0\0")
    with pytest.raises(LeavesError, match="long.klv2"):
        load_leaves(path)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, 1e6])
def test_non_finite_or_huge_klv2_values_are_refused(tmp_path: Path, bad: float) -> None:
    path = tmp_path / "bad.klv2"
    path.write_bytes(_small_klv2([3.0, bad, 17.25]))
    with pytest.raises(LeavesError, match=r"bad\.klv2: not a KLV file: value 1 is"):
        load_leaves(path)


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-Infinity", "1e999", "5000"])
def test_non_finite_csv_values_are_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "leaves.csv"
    path.write_text(f"leave,value\nERS,17.5\nQ,{text}\n", encoding="utf-8")
    with pytest.raises(LeavesError, match=r"leaves\.csv:3: .* is not a leave value") as info:
        load_leaves(path)
    assert info.value.path == path


@needs_data
def test_the_real_klv2_cut_to_2_000_000_bytes_is_refused(tmp_path: Path) -> None:
    real = data_file(CSW21_KLV2).read_bytes()
    assert math.isclose(load_leaves(data_file(CSW21_KLV2)).value("ERS"), 17.975, abs_tol=1e-3)
    for size in (2_000_000, len(real) - 1):
        path = tmp_path / f"cut{size}.klv2"
        path.write_bytes(real[:size])
        with pytest.raises(LeavesError, match=f"cut{size}.klv2: not a KLV file"):
            load_leaves(path)


@needs_data
def test_a_nan_in_the_real_klv2_is_refused(tmp_path: Path) -> None:
    data = bytearray(data_file(CSW21_KLV2).read_bytes())
    (n,) = struct.unpack_from("<I", data, 0)
    struct.pack_into("<f", data, 8 + 4 * n + 4 * 1000, math.nan)
    path = tmp_path / "nan.klv2"
    path.write_bytes(bytes(data))
    with pytest.raises(LeavesError, match="value 1000 is nan"):
        load_leaves(path)


# ------------------------------------------------------------ paths: FIFOs, devices, size


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("name", ["words.txt", "words.kwg"])
def test_a_fifo_lexicon_is_refused_at_once(tmp_path: Path, name: str) -> None:
    fifo = tmp_path / name
    os.mkfifo(fifo)
    with pytest.raises(LexiconError, match=r"not a regular file \(a FIFO\)"):
        load_lexicon(fifo)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_leave_file_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "leaves.klv2"
    os.mkfifo(fifo)
    with pytest.raises(LeavesError, match=r"not a regular file \(a FIFO\)"):
        load_leaves(fifo)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_is_refused_as_a_device() -> None:
    with pytest.raises(LexiconError, match="a character device"):
        load_lexicon("/dev/zero")
    with pytest.raises(LeavesError, match="a character device"):
        load_leaves("/dev/zero")


def test_a_file_over_the_limit_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.kwg"
    with open(big, "wb") as f:  # a sparse file: 65 MiB that take no disk
        f.truncate(65 * 1024 * 1024)
    with pytest.raises(LexiconError, match=r"big\.kwg: cannot read lexicon: file too large"):
        load_lexicon(big)
    with pytest.raises(OSError, match="the limit is 10"):
        read_limited(big, 10, "a test file")


def test_a_gzip_bomb_is_refused_without_unpacking_it_all() -> None:
    bomb = gzip.compress(b"A" * 5000)
    with pytest.raises(WordListTooLarge):
        gunzip_limited(bomb, 1000)
    assert gunzip_limited(bomb, 5000) == b"A" * 5000


# ------------------------------------------------------ word lists decoded line by line


def test_one_latin1_line_keeps_every_other_utf8_word(tmp_path: Path, private_cache: Path) -> None:
    path = tmp_path / "fise.txt"
    lines = ["ÑU", "ÑAME", "AÑO", "CASA"]
    data = "\n".join(lines).encode("utf-8") + "\nCAÑA\n".encode("latin-1")
    path.write_bytes(data)
    lexicon = load_lexicon(path, "spanish")
    for word in [*lines, "CAÑA"]:
        assert word in lexicon, word
    assert len(lexicon) == 5
    assert any("fise.txt:5" in n and "Latin-1" in n for n in lexicon.notes), lexicon.notes
    assert "Latin-1" in lexicon.describe()
    again = load_lexicon(path, "spanish")  # from the cache: the note is kept
    assert again.cached is True
    assert again.notes == lexicon.notes


def test_a_utf8_list_has_no_note(tmp_path: Path, private_cache: Path) -> None:
    path = tmp_path / "fise.txt"
    path.write_text("ÑU\nAÑO\n", encoding="utf-8")
    assert load_lexicon(path, "spanish").notes == []
    assert Lexicon.from_words(["ÑU"], "spanish").notes == []
