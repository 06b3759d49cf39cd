"""KLV and KLV2 leave files (wolges ``src/klv.rs``, MAGPIE ``src/ent/klv.h``).

Layout, all little-endian: u32 ``n``; ``n`` KWG nodes whose DAWG holds every leave as a
"word" of sorted tile numbers (blank = 0, so it sorts first); u32 ``m``; then ``m`` values,
float32 points (KLV2) or int16 in 1/256 points (KLV: recognised, as wolges does, by the file
being exactly two bytes a value). A leave's value is at the index of its word in the
DAWG's enumeration order (:meth:`Kwg.word_index`); a leave not in the graph is worth 0.
"""

from __future__ import annotations

import math
import struct
import sys
from array import array
from collections.abc import Iterable
from os import PathLike

from gcgtools.lexicon.alphabet import Alphabet
from gcgtools.lexicon.build import build_nodes
from gcgtools.lexicon.kwg import (
    IS_END,
    Kwg,
    KwgError,
    lanes_at_most,
    nodes_from_bytes,
    nodes_to_bytes,
)
from gcgtools.sources.limited import read_limited

__all__ = ["MAX_LEAVES_BYTES", "MAX_LEAVE_VALUE", "klv_bytes", "parse_klv", "read_klv"]

MAX_LEAVES_BYTES = 64 * 1024 * 1024
"""The largest leave file read (64 MiB; CSW21.klv2 is 3.7 MB)."""


MAX_LEAVE_VALUE = 1000.0
"""The largest leave value accepted, in points either way (real leaves lie within about
-30..+60; a value beyond this is a damaged file, not a leave)."""


def parse_klv(data: bytes, alphabet: Alphabet) -> tuple[Kwg, array]:
    """The leave graph and the values (``array('f')``, points) of a KLV/KLV2 file's bytes.

    The sizes must add up exactly: 4 bytes of node count ``n``, ``4n`` bytes of nodes, 4
    bytes of value count ``m``, then exactly ``4m`` bytes (KLV2, float32) or ``2m`` bytes
    (KLV, int16); the graph must be well-formed and hold exactly ``m`` leaves, and every
    value must be a finite number within :data:`MAX_LEAVE_VALUE` points. Raises
    :class:`KwgError` saying what does not fit."""
    if len(data) < 8:
        raise KwgError(f"{len(data)} bytes: too short for a leave file")
    (n,) = struct.unpack_from("<I", data, 0)
    end = 4 + 4 * n
    if n < 2 or end + 4 > len(data):
        raise KwgError(f"header says {n} nodes, the file holds {max(0, len(data) - 8) // 4}")
    kwg = Kwg(nodes_from_bytes(data[4:end]), alphabet)
    (m,) = struct.unpack_from("<I", data, end)
    rest = data[end + 4 :]
    values = _values(rest, m)
    words = kwg.count_words()
    if words != m:
        raise KwgError(f"the graph holds {words} leaves but the file {m} values")
    return kwg, values


def _values(rest: bytes, m: int) -> array:
    """The ``m`` values of ``rest``: float32 if it is exactly ``4m`` bytes, int16/256 if
    exactly ``2m`` (m > 0), else :class:`KwgError`; checked finite and in range."""
    values = array("f")
    if len(rest) == 4 * m:
        values.frombytes(rest)
        if sys.byteorder == "big":  # pragma: no cover
            values.byteswap()
    elif m and len(rest) == 2 * m:
        ints = array("h")
        ints.frombytes(rest)
        if sys.byteorder == "big":  # pragma: no cover
            ints.byteswap()
        values = array("f", [v / 256 for v in ints])
    else:
        raise KwgError(
            f"header says {m:,} values ({4 * m:,} bytes as KLV2, {2 * m:,} as KLV) but "
            f"{len(rest):,} bytes follow"
        )
    if values.itemsize == 4 and lanes_at_most(_little_endian(values), *_WITHIN_LIMIT):
        return values  # every value checked at once; else the loop says which is wrong
    for i, v in enumerate(values):
        if not math.isfinite(v) or abs(v) > MAX_LEAVE_VALUE:
            raise KwgError(f"value {i} is {v!r}: not a leave value (finite, within ±1000)")
    return values


# a float32 is finite and within MAX_LEAVE_VALUE either way exactly when its bits less the
# sign bit are at most those of MAX_LEAVE_VALUE (infinities and NaNs have larger bits)
_WITHIN_LIMIT = (3, 0x7F, struct.unpack("<I", struct.pack("<f", MAX_LEAVE_VALUE))[0])


def _little_endian(values: array) -> bytes:
    if sys.byteorder == "big":  # pragma: no cover
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


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
    """Read and parse a KLV/KLV2 file (OSError, KwgError)."""
    return parse_klv(read_limited(path, MAX_LEAVES_BYTES, "a leave file"), alphabet)
