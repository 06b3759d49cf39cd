"""Plain word lists: one word per line, ``.txt`` or gzipped ``.txt.gz``.

Any case, CRLF or LF endings, blank lines and surrounding spaces are accepted; a ``#`` line
is a comment; text after the word on its line (a definition) is ignored; letters written
decomposed (N + combining tilde) are composed (Ñ) first. Each word is split into the tile
set's tiles by the longest-match rule (so a Spanish list's ``CHICO`` is the four tiles CH,
I, C, O). Words that cannot be played are
skipped and counted: letters outside the tile set (``"letters"``), shorter than 2 tiles
(``"short"``), longer than the board (``"long"``).
"""

from __future__ import annotations

import gzip
import unicodedata
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from gcgtools.lexicon.alphabet import Alphabet

__all__ = ["WordList", "is_gzip", "read_word_list", "parse_word_list"]


@dataclass
class WordList:
    """The words of a list as sorted, unique tile-number strings, plus what was skipped."""

    words: list[bytes]
    skipped: dict[str, int] = field(default_factory=dict)

    @property
    def skipped_total(self) -> int:
        return sum(self.skipped.values())


def is_gzip(data: bytes) -> bool:
    return data[:2] == b"\x1f\x8b"


def decode_text(data: bytes) -> str:
    """Text of a word list's bytes: gunzipped if gzipped, UTF-8 (BOM allowed), else
    Latin-1."""
    if is_gzip(data):
        data = gzip.decompress(data)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def parse_word_list(text: str, alphabet: Alphabet, *, max_length: int = 15) -> WordList:
    """Words of a list's text, encoded in ``alphabet``, 2..``max_length`` tiles long."""
    encode = alphabet.encode
    if not text.isascii():  # composed letters: "Ñ" written as N + a combining tilde is Ñ
        text = unicodedata.normalize("NFC", text)
    out: set[bytes] = set()
    letters = short = long = 0
    for line in text.splitlines():
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        if " " in word or "\t" in word:  # "WORD definition": the first field is the word
            word = word.split()[0]
        tiles = encode(word)
        if tiles is None:
            letters += 1
        elif len(tiles) < 2:
            short += 1
        elif len(tiles) > max_length:
            long += 1
        else:
            out.add(tiles)
    skipped = {k: v for k, v in (("letters", letters), ("short", short), ("long", long)) if v}
    return WordList(sorted(out), skipped)


def read_word_list(
    path: str | PathLike[str], alphabet: Alphabet, *, max_length: int = 15
) -> WordList:
    """Read a ``.txt`` / ``.txt.gz`` word list (gzip recognised by content). Raises
    :class:`OSError` when unreadable, :class:`gzip.BadGzipFile`/:class:`EOFError` when a
    gzipped file is damaged."""
    return parse_word_list(decode_text(Path(path).read_bytes()), alphabet, max_length=max_length)
