"""Plain word lists: one word per line, ``.txt`` or gzipped ``.txt.gz``.

Any case, CRLF or LF endings, blank lines and surrounding spaces are accepted; a ``#`` line
is a comment; text after the word on its line (a definition) is ignored; letters written
decomposed (N + combining tilde) are composed (Ñ) first. Each word is split into the tile
set's tiles by the longest-match rule (so a Spanish list's ``CHICO`` is the four tiles CH,
I, C, O). Words that cannot be played are
skipped and counted: letters outside the tile set (``"letters"``), shorter than 2 tiles
(``"short"``), longer than the board (``"long"``).

The bytes are decoded line by line (:func:`decode_lines`): UTF-8, and a line that is not
UTF-8 is read as Latin-1 and its number kept (the lexicon line names the first), so a stray
byte changes one line, not every Ñ word. A list is at most :data:`MAX_WORD_LIST_BYTES`
bytes, gzipped or unpacked.
"""

from __future__ import annotations

import gzip
import io
import unicodedata
from dataclasses import dataclass, field
from os import PathLike

from gcgtools.lexicon.alphabet import Alphabet
from gcgtools.sources.limited import read_limited

__all__ = [
    "MAX_WORD_LIST_BYTES",
    "Decoded",
    "WordList",
    "WordListTooLarge",
    "decode_lines",
    "decode_text",
    "gunzip_limited",
    "is_gzip",
    "parse_word_list",
    "read_word_list",
]


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


MAX_WORD_LIST_BYTES = 64 * 1024 * 1024
"""The largest word list read, gzipped or not, and the largest text a gzipped one may
unpack to (64 MiB; the largest real lists, CSW and NWL, are about 3 MB)."""


class WordListTooLarge(ValueError):
    """A gzipped word list that unpacks to more than :data:`MAX_WORD_LIST_BYTES`."""


def gunzip_limited(data: bytes, limit: int = MAX_WORD_LIST_BYTES) -> bytes:
    """The unpacked bytes of gzipped ``data``, at most ``limit`` of them (a small file
    that unpacks to gigabytes is refused without unpacking it all). Raises
    :class:`WordListTooLarge`, :class:`gzip.BadGzipFile`, :class:`EOFError` or
    :class:`zlib.error`."""
    with gzip.GzipFile(fileobj=io.BytesIO(data)) as f:
        out = f.read(limit + 1)
    if len(out) > limit:
        raise WordListTooLarge(f"unpacks to more than {limit:,} bytes (the limit of a word list)")
    return out


@dataclass
class Decoded:
    """A word list's text, and the lines that were not UTF-8 (read as Latin-1)."""

    text: str
    latin1_lines: list[int] = field(default_factory=list)


def decode_lines(data: bytes) -> Decoded:
    """Text of a word list's bytes: gunzipped if gzipped, then UTF-8 (BOM allowed) line by
    line; a line that is not UTF-8 is read as Latin-1 (and its number kept), so one stray
    byte changes only its own line."""
    if is_gzip(data):
        data = gunzip_limited(data)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return Decoded(data.decode("utf-8"))
    except UnicodeDecodeError:
        pass
    lines: list[str] = []
    fallback: list[int] = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append(raw.decode("latin-1"))
            fallback.append(number)
    return Decoded("\n".join(lines), fallback)


def decode_text(data: bytes) -> str:
    """Text of a word list's bytes (see :func:`decode_lines`)."""
    return decode_lines(data).text


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
    data = read_limited(path, MAX_WORD_LIST_BYTES, "a word list")
    return parse_word_list(decode_text(data), alphabet, max_length=max_length)
