"""KLV and KLV2 leave files (wolges ``src/klv.rs``, MAGPIE ``src/ent/klv.h``).

Layout, all little-endian: u32 ``n``; ``n`` KWG nodes whose DAWG holds every leave as a
"word" of sorted tile numbers (blank = 0, so it sorts first); u32 ``m``; then ``m`` values,
float32 points (KLV2) or int16 in 1/256 points (KLV: recognised, as wolges does, by the file
being too short for float32 values). A leave's value is at the index of its word in the
DAWG's enumeration order (:meth:`Kwg.word_index`); a leave not in the graph is worth 0.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Iterable
from os import PathLike
from pathlib import Path

from gcgtools.lexicon.alphabet import Alphabet
from gcgtools.lexicon.build import build_nodes
from gcgtools.lexicon.kwg import IS_END, Kwg, KwgError, nodes_from_bytes, nodes_to_bytes

__all__ = ["klv_bytes", "parse_klv", "read_klv"]


def parse_klv(data: bytes, alphabet: Alphabet) -> tuple[Kwg, array]:
    """The leave graph and the values (``array('f')``, points) of a KLV/KLV2 file's bytes.

    Raises :class:`KwgError` when the bytes are not a leave file."""
    if len(data) < 8:
        raise KwgError("too short for a leave file")
    (n,) = struct.unpack_from("<I", data, 0)
    end = 4 + 4 * n
    if n < 2 or end + 4 > len(data):
        raise KwgError(f"header says {n} nodes, more than the file holds")
    kwg = Kwg(nodes_from_bytes(data[4:end]), alphabet)
    (m,) = struct.unpack_from("<I", data, end)
    rest = data[end + 4 :]
    values = array("f")
    if len(rest) >= 4 * m:
        values.frombytes(rest[: 4 * m])
        if sys.byteorder == "big":  # pragma: no cover
            values.byteswap()
    elif len(rest) >= 2 * m:
        ints = array("h")
        ints.frombytes(rest[: 2 * m])
        if sys.byteorder == "big":  # pragma: no cover
            ints.byteswap()
        values = array("f", [v / 256 for v in ints])
    else:
        raise KwgError(f"header says {m} values, more than the file holds")
    words = kwg.count_words()
    if words != m:
        raise KwgError(f"the graph holds {words} leaves but the file {m} values")
    return kwg, values


def klv_bytes(table: Iterable[tuple[bytes, float]], *, klv2: bool = True) -> bytes:
    """A KLV2 (float32) or KLV (int16/256) file holding the leaves of ``table``: pairs of a
    leave (sorted tile numbers, blank 0) and its value."""
    entries = sorted({bytes(sorted(k)): v for k, v in table if k}.items())
    nodes = build_nodes([k for k, _ in entries], gaddag=False) if entries else _empty()
    values: array
    if klv2:
        values = array("f", [v for _, v in entries])
    else:
        values = array("h", [max(-32768, min(32767, round(v * 256))) for _, v in entries])
    if sys.byteorder == "big":  # pragma: no cover
        values.byteswap()
    return b"".join(
        (
            struct.pack("<I", len(nodes)),
            nodes_to_bytes(nodes),
            struct.pack("<I", len(entries)),
            values.tobytes(),
        )
    )


def _empty() -> array:
    return array("I", [IS_END, IS_END])


def read_klv(path: str | PathLike[str], alphabet: Alphabet) -> tuple[Kwg, array]:
    return parse_klv(Path(path).read_bytes(), alphabet)
