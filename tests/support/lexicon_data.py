"""Shared helpers for the lexicon tests: where the shared reference data is, and the words
the ENABLE files should hold (computed here from the text list, independently of the code
under test)."""

from __future__ import annotations

import gzip
import struct
from pathlib import Path

from gcgtools.lexicon.kwg import ACCEPTS, IS_END, TILE_SHIFT
from support.reference_data import DATA, data_dir, needs_data  # noqa: F401

ENABLE_TXT = "wordlists/enable2k/enable2k.txt.gz"
ENABLE_KWG = "lexica/ENABLE.kwg"
CEL_TXT = "wordlists/cel/cel_2-21.txt.gz"
CSW21_KLV2 = "lexica/CSW21.klv2"


def data_file(relative: str) -> Path:
    assert DATA is not None
    path = DATA / relative
    assert path.is_file(), f"{path} is missing from the shared data"
    return path


def plain_words(relative: str, max_len: int = 15) -> list[str]:
    """The upper-cased words of 2..max_len letters of a gzipped list, sorted, unique."""
    with gzip.open(data_file(relative), "rt", encoding="utf-8") as fh:
        words = {line.strip().upper() for line in fh}
    return sorted(w for w in words if 2 <= len(w) <= max_len)


def english_tiles(word: str) -> bytes:
    """Tile numbers A=1 ... Z=26 (the KWG convention for English), written out here."""
    return bytes(ord(c) - 64 for c in word)


def gaddag_paths(word: bytes) -> list[bytes]:
    """The GADDAG paths of a word, spelt out from the format description (CARE: ERAC,
    RAC^E, AC^RE, C^ARE; ^ = tile 0)."""
    n = len(word)
    paths = [word[::-1]]
    for i in range(1, n):
        paths.append(word[:i][::-1] + b"\0" + word[i:])
    return paths


def ladder(levels: int) -> bytes:
    """The bytes of a KWG of 2 * levels + 2 nodes whose DAWG holds 2**levels words: every
    word of ``levels`` letters A or B (each level's two nodes lead to the next level's)."""
    nodes = [IS_END | 2, IS_END]
    for level in range(levels):
        last = level == levels - 1
        arc = 0 if last else 2 * level + 4
        flags = ACCEPTS if last else 0
        nodes += [1 << TILE_SHIFT | flags | arc, 2 << TILE_SHIFT | IS_END | flags | arc]
    return struct.pack(f"<{len(nodes)}I", *nodes)
