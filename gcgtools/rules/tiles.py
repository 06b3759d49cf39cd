"""Tile sets (letter distributions): counts, values and vowels per language, plus tokenising.

Every table is written by hand and cross-checked by ``tests/rules/test_rules_tiles.py`` against the
reference files described in ``shared/data/SOURCES.tsv``:

* macondo  ``data/letterdistributions/<name>`` (domino14/macondo, commit d3ce7c76, GPL-3.0)
* wolges   ``src/alphabets/<name>.txt`` (andy-k/wolges, commit 2267824a, MIT)
* xanado   ``editions/English_WWF.json`` (cdot/Xanado, commit 6d927f1a, MIT)

Tile names are upper case; the blank is ``"?"``. A lower-case tile name (``"a"``, ``"ch"``,
``"l·l"``) is a blank designated as that letter and is worth 0. Blanks are defined
explicitly (:func:`is_blank_tile`): ``?``, or the lower-case spelling of a letter that has
one. A letter without case (Hebrew, Arabic, CJK) is always a real tile: it is its own upper
case, never read as a blank.

Letters with a count of 0 (e.g. Q, X, Z in Norwegian) exist only as blank designations; they
are kept in the table, as in the sources, so that a blank may stand for them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from types import MappingProxyType

from gcgtools.rules.named import named_or_file
from gcgtools.sources.limited import read_limited

__all__ = [
    "BLANK",
    "PASS_THROUGH",
    "TILE_SETS",
    "TileError",
    "TileSet",
    "declared_spellings",
    "is_blank_tile",
    "load_tiles_file",
    "resolve_tiles",
    "tile_set",
]

BLANK = "?"
#: Single characters that :meth:`TileSet.split` returns as tokens of their own:
#: ``.`` (square already occupied), ``?`` (blank), ``(`` and ``)`` (played-through runs).
PASS_THROUGH = frozenset(".?()")


def is_blank_tile(tile: str) -> bool:
    """True for a token that is a blank: ``"?"``, or a tile name in lower case (``"e"``,
    ``"ch"``: a blank designated as that letter). A caseless letter (``"א"``) equals its
    upper case, so it is a real tile, unlike ``not tile.isupper()``, which says True for it."""
    return tile == BLANK or tile != tile.upper()


class TileError(ValueError):
    """A tile name that the tile set does not know.

    ``index`` is the 0-based position in the text being split (``None`` when the error is not
    about a position in a text).
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.index = index

    def __reduce__(self) -> tuple[type[TileError], tuple[str, int | None]]:
        return (type(self), (self.message, self.index))


@dataclass(frozen=True)
class TileSet:
    """A letter distribution: which tiles exist, how many, and what they are worth."""

    name: str
    letters: tuple[str, ...]
    counts: Mapping[str, int] = field(hash=False)
    values: Mapping[str, int] = field(hash=False)
    vowels: frozenset[str] = frozenset()
    #: Multi-character tiles a record spells only in brackets (``#tile [LL] [ll]``): an
    #: unbracketed ``LL`` is then two ``L`` tiles. See :func:`declared_spellings`.
    bracket_only: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        letters = tuple(self.letters)
        if len(set(letters)) != len(letters):
            raise ValueError(f"tile set {self.name}: duplicate tile names")
        for letter in letters:
            if letter != BLANK and (not letter or letter != letter.upper()):
                raise ValueError(f"tile set {self.name}: tile name {letter!r} is not upper case")
        if set(self.counts) != set(letters) or set(self.values) != set(letters):
            raise ValueError(f"tile set {self.name}: counts and values must cover the letters")
        if not set(self.vowels) <= set(letters):
            raise ValueError(f"tile set {self.name}: vowels must be tile names")
        object.__setattr__(self, "letters", letters)
        object.__setattr__(self, "counts", MappingProxyType({k: self.counts[k] for k in letters}))
        object.__setattr__(self, "values", MappingProxyType({k: self.values[k] for k in letters}))
        object.__setattr__(self, "vowels", frozenset(self.vowels))
        object.__setattr__(self, "bracket_only", frozenset(self.bracket_only))
        if not self.bracket_only <= set(letters):
            raise ValueError(f"tile set {self.name}: bracket-only names must be tile names")

    @classmethod
    def from_table(
        cls, name: str, table: Iterable[tuple[str, int, int]], vowels: Iterable[str] = ()
    ) -> TileSet:
        """Build a tile set from ``(letter, count, value)`` rows, in canonical order."""
        rows = list(table)
        return cls(
            name=name,
            letters=tuple(letter for letter, _, _ in rows),
            counts={letter: count for letter, count, _ in rows},
            values={letter: value for letter, _, value in rows},
            vowels=frozenset(vowels),
        )

    def __reduce__(self) -> tuple[type[TileSet], tuple[object, ...]]:
        # pickled as its fields (a mappingproxy does not pickle): a judged turn's position
        # goes to a worker process whole (gcgtools.batch.analyses)
        fields = (dict(self.counts), dict(self.values), self.vowels, self.bracket_only)
        return (type(self), (self.name, self.letters, *fields))

    def __repr__(self) -> str:
        return f"TileSet({self.name!r}, {self.total_tiles} tiles, {self.total_points} points)"

    # ----------------------------------------------------------------- totals and lookups

    @cached_property
    def total_tiles(self) -> int:
        """Number of tiles in the full bag, blanks included."""
        return sum(self.counts.values())

    @cached_property
    def total_points(self) -> int:
        """Sum of the values of all tiles in the full bag."""
        return sum(self.counts[k] * self.values[k] for k in self.letters)

    @cached_property
    def max_len(self) -> int:
        """Length in characters of the longest tile name (1, 2 for ``CH``, 3 for ``L·L``)."""
        return max(len(letter) for letter in self.letters)

    def count(self, letter: str) -> int:
        """Number of tiles named ``letter`` in the full bag (``"?"`` for blanks).

        The name is matched case-insensitively (``count("a") == count("A")``).
        """
        key = letter if letter == BLANK else letter.upper()
        try:
            return self.counts[key]
        except KeyError:
            raise TileError(f"unknown tile {letter!r} in tile set {self.name}") from None

    def value(self, tile: str) -> int:
        """Points of one tile as written in a record.

        Upper-case name: the tile's value; lower-case name (a blank designated as that letter)
        and ``"?"``: 0. Anything else raises :class:`TileError`.
        """
        try:
            return self.token_values[tile]
        except KeyError:
            raise TileError(f"unknown tile {tile!r} in tile set {self.name}") from None

    def is_blank(self, tile: str) -> bool:
        """True for ``"?"`` and for a lower-case (designated blank) tile name."""
        return tile == BLANK or tile in self._blank_names

    def is_vowel(self, tile: str) -> bool:
        """True if the tile (or the letter a blank is designated as) is a vowel."""
        return tile in self.vowels or (tile in self._blank_names and tile.upper() in self.vowels)

    def letter_of(self, tile: str) -> str:
        """Upper-case tile name of a token: ``"ch"`` -> ``"CH"``, ``"A"`` -> ``"A"``."""
        if tile in self.values:
            return tile
        if tile in self._blank_names:
            return tile.upper()
        raise TileError(f"unknown tile {tile!r} in tile set {self.name}")

    # ----------------------------------------------------------------------- tokenising

    @cached_property
    def _blank_names(self) -> frozenset[str]:
        return frozenset(
            letter.lower()
            for letter in self.letters
            if letter != BLANK and letter.lower() != letter
        )

    @cached_property
    def token_values(self) -> dict[str, int]:
        """Points of every token a record may use: upper-case names, lower-case (blank)
        names (0) and ``?`` (0). A plain dict, for speed: do not change it."""
        table = dict(self.values)
        table.update(dict.fromkeys(self._blank_names, 0))
        return table

    @cached_property
    def _names(self) -> frozenset[str]:
        """Every accepted spelling of a tile: upper-case names, lower-case (blank) names."""
        return frozenset(self.values) | self._blank_names

    @cached_property
    def _single_characters(self) -> frozenset[str]:
        """With only one-character tile names: every character that is a token on its own
        (tile names in either case, ``.?()``); empty otherwise."""
        if self.max_len != 1:
            return frozenset()
        return self._names | PASS_THROUGH

    @cached_property
    def _token_re(self) -> re.Pattern[str]:
        # Upper- and lower-case spellings, longest first, so that greedy alternation is the
        # longest match (CH before C). A mixed-case run such as "Ch" is not a tile name: it
        # splits as "C", "h" (as macondo's ToMachineLetters does).
        only = self.bracket_only
        names = sorted(
            (n for n in self._names if n not in PASS_THROUGH and n.upper() not in only),
            key=lambda n: (-len(n), n),
        )
        alternatives = [r"\[[^\[\]]*\]", *(re.escape(n) for n in names), "[.?()]"]
        return re.compile("|".join(alternatives))

    def split(self, text: str) -> list[str]:
        """Tokenise a rack, a play word or exchanged tiles into tile names.

        * ``[CH]`` / ``[ch]`` (bracket form) gives ``"CH"`` / ``"ch"``;
        * otherwise the longest tile name matching at each position, upper or lower case, with
          the text's own case kept (``"ch"`` is a blank CH, ``"l·l"`` a blank L·L);
        * ``.``, ``?``, ``(`` and ``)`` are returned as tokens of their own.

        Raises :class:`TileError` with the 0-based ``index`` of the first character that starts
        no tile.
        """
        if self._single_characters.issuperset(text):
            return list(text)  # one-character tiles only: each character is a token
        tokens: list[str] = self._token_re.findall(text)
        if sum(map(len, tokens)) != len(text):  # some character was skipped: find it
            return self._split_slow(text)
        if "[" in text:
            names = self._names
            for i, token in enumerate(tokens):
                if token[0] == "[":
                    if token[1:-1] not in names:
                        return self._split_slow(text)  # a bad bracketed name: report its index
                    tokens[i] = token[1:-1]
        return tokens

    def spells(self, text: str) -> bool:
        """True if :meth:`split` reads ``text`` (every character belongs to a tile)."""
        if self._single_characters.issuperset(text):
            return True
        try:
            self.split(text)
        except TileError:
            return False
        return True

    def _split_slow(self, text: str) -> list[str]:
        pattern = self._token_re
        tokens: list[str] = []
        pos = 0
        end = len(text)
        while pos < end:
            match = pattern.match(text, pos)
            if match is None:
                raise TileError(
                    f"{text[pos]!r} at index {pos} of {text!r} starts no tile of tile set "
                    f"{self.name}",
                    pos,
                )
            token = match.group()
            if token[0] == "[" and len(token) > 1:
                inner = token[1:-1]
                if inner not in self._names:
                    raise TileError(
                        f"{token!r} at index {pos} of {text!r} is not a tile of tile set "
                        f"{self.name}",
                        pos,
                    )
                token = inner
            tokens.append(token)
            pos = match.end()
        return tokens


# --------------------------------------------------------------------------------- tables
# Rows are (tile, count, value); the order is the sources' canonical order, blank first.

# macondo data/letterdistributions/english == wolges src/alphabets/english.txt
_ENGLISH = (
    ("?", 2, 0), ("A", 9, 1), ("B", 2, 3), ("C", 2, 3), ("D", 4, 2), ("E", 12, 1),
    ("F", 2, 4), ("G", 3, 2), ("H", 2, 4), ("I", 9, 1), ("J", 1, 8), ("K", 1, 5),
    ("L", 4, 1), ("M", 2, 3), ("N", 6, 1), ("O", 8, 1), ("P", 2, 3), ("Q", 1, 10),
    ("R", 6, 1), ("S", 4, 1), ("T", 6, 1), ("U", 4, 1), ("V", 2, 4), ("W", 2, 4),
    ("X", 1, 8), ("Y", 2, 4), ("Z", 1, 10),
)  # fmt: skip

# macondo data/letterdistributions/english_super == wolges src/alphabets/super_english.txt
_ENGLISH_SUPER = (
    ("?", 4, 0), ("A", 16, 1), ("B", 4, 3), ("C", 6, 3), ("D", 8, 2), ("E", 24, 1),
    ("F", 4, 4), ("G", 5, 2), ("H", 5, 4), ("I", 13, 1), ("J", 2, 8), ("K", 2, 5),
    ("L", 7, 1), ("M", 6, 3), ("N", 13, 1), ("O", 15, 1), ("P", 4, 3), ("Q", 2, 10),
    ("R", 13, 1), ("S", 10, 1), ("T", 15, 1), ("U", 7, 1), ("V", 3, 4), ("W", 4, 4),
    ("X", 2, 8), ("Y", 4, 4), ("Z", 2, 10),
)  # fmt: skip

# macondo data/letterdistributions/french == wolges src/alphabets/french.txt
_FRENCH = (
    ("?", 2, 0), ("A", 9, 1), ("B", 2, 3), ("C", 2, 3), ("D", 3, 2), ("E", 15, 1),
    ("F", 2, 4), ("G", 2, 2), ("H", 2, 4), ("I", 8, 1), ("J", 1, 8), ("K", 1, 10),
    ("L", 5, 1), ("M", 3, 2), ("N", 6, 1), ("O", 6, 1), ("P", 2, 3), ("Q", 1, 8),
    ("R", 6, 1), ("S", 6, 1), ("T", 6, 1), ("U", 6, 1), ("V", 2, 4), ("W", 1, 10),
    ("X", 1, 10), ("Y", 1, 10), ("Z", 1, 10),
)  # fmt: skip

# macondo data/letterdistributions/german == wolges src/alphabets/german.txt
_GERMAN = (
    ("?", 2, 0), ("A", 5, 1), ("Ä", 1, 6), ("B", 2, 3), ("C", 2, 4), ("D", 4, 1),
    ("E", 15, 1), ("F", 2, 4), ("G", 3, 2), ("H", 4, 2), ("I", 6, 1), ("J", 1, 6),
    ("K", 2, 4), ("L", 3, 2), ("M", 4, 3), ("N", 9, 1), ("O", 3, 2), ("Ö", 1, 8),
    ("P", 1, 4), ("Q", 1, 10), ("R", 6, 1), ("S", 7, 1), ("T", 6, 1), ("U", 6, 1),
    ("Ü", 1, 6), ("V", 1, 6), ("W", 1, 3), ("X", 1, 8), ("Y", 1, 10), ("Z", 1, 3),
)  # fmt: skip

# macondo data/letterdistributions/dutch == wolges src/alphabets/dutch.txt
_DUTCH = (
    ("?", 2, 0), ("A", 6, 1), ("B", 2, 3), ("C", 2, 5), ("D", 5, 2), ("E", 18, 1),
    ("F", 2, 4), ("G", 3, 3), ("H", 2, 4), ("I", 4, 1), ("J", 2, 4), ("K", 3, 3),
    ("L", 3, 3), ("M", 3, 3), ("N", 10, 1), ("O", 6, 1), ("P", 2, 3), ("Q", 1, 10),
    ("R", 5, 2), ("S", 5, 2), ("T", 5, 2), ("U", 3, 4), ("V", 2, 4), ("W", 2, 5),
    ("X", 1, 8), ("Y", 1, 8), ("Z", 2, 4),
)  # fmt: skip

# macondo data/letterdistributions/spanish == wolges src/alphabets/spanish.txt
# (both write the digraph tiles as [CH], [LL], [RR]; the brackets are not part of the name)
_SPANISH = (
    ("?", 2, 0), ("A", 12, 1), ("B", 2, 3), ("C", 4, 3), ("CH", 1, 5), ("D", 5, 2),
    ("E", 12, 1), ("F", 1, 4), ("G", 2, 2), ("H", 2, 4), ("I", 6, 1), ("J", 1, 8),
    ("L", 4, 1), ("LL", 1, 8), ("M", 2, 3), ("N", 5, 1), ("Ñ", 1, 8), ("O", 9, 1),
    ("P", 2, 3), ("Q", 1, 5), ("R", 5, 1), ("RR", 1, 8), ("S", 6, 1), ("T", 4, 1),
    ("U", 5, 1), ("V", 1, 4), ("X", 1, 8), ("Y", 1, 4), ("Z", 1, 10),
)  # fmt: skip

# macondo data/letterdistributions/catalan == wolges src/alphabets/catalan.txt
# (macondo's Ç row has vowel flag 10, a typo; wolges says 0: Ç is a consonant)
_CATALAN = (
    ("?", 2, 0), ("A", 12, 1), ("B", 2, 3), ("C", 3, 2), ("Ç", 1, 10), ("D", 3, 2),
    ("E", 13, 1), ("F", 1, 4), ("G", 2, 3), ("H", 1, 8), ("I", 8, 1), ("J", 1, 8),
    ("L", 4, 1), ("L·L", 1, 10), ("M", 3, 2), ("N", 6, 1), ("NY", 1, 10), ("O", 5, 1),
    ("P", 2, 3), ("QU", 1, 8), ("R", 8, 1), ("S", 8, 1), ("T", 5, 1), ("U", 4, 1),
    ("V", 1, 4), ("X", 1, 10), ("Z", 1, 8),
)  # fmt: skip

# macondo data/letterdistributions/polish == wolges src/alphabets/polish.txt
_POLISH = (
    ("?", 2, 0), ("A", 9, 1), ("Ą", 1, 5), ("B", 2, 3), ("C", 3, 2), ("Ć", 1, 6),
    ("D", 3, 2), ("E", 7, 1), ("Ę", 1, 5), ("F", 1, 5), ("G", 2, 3), ("H", 2, 3),
    ("I", 8, 1), ("J", 2, 3), ("K", 3, 2), ("L", 3, 2), ("Ł", 2, 3), ("M", 3, 2),
    ("N", 5, 1), ("Ń", 1, 7), ("O", 6, 1), ("Ó", 1, 5), ("P", 3, 2), ("R", 4, 1),
    ("S", 4, 1), ("Ś", 1, 5), ("T", 3, 2), ("U", 2, 3), ("W", 4, 1), ("Y", 4, 2),
    ("Z", 5, 1), ("Ź", 1, 9), ("Ż", 1, 5),
)  # fmt: skip

# macondo data/letterdistributions/norwegian == wolges src/alphabets/norwegian.txt
# (Q, X, Ü, Z, Ä, Ö have no tiles: blanks only)
_NORWEGIAN = (
    ("?", 2, 0), ("A", 7, 1), ("B", 3, 4), ("C", 1, 10), ("D", 5, 1), ("E", 9, 1),
    ("F", 4, 2), ("G", 4, 2), ("H", 3, 3), ("I", 5, 1), ("J", 2, 4), ("K", 4, 2),
    ("L", 5, 1), ("M", 3, 2), ("N", 6, 1), ("O", 4, 2), ("P", 2, 4), ("Q", 0, 0),
    ("R", 6, 1), ("S", 6, 1), ("T", 6, 1), ("U", 3, 4), ("V", 3, 4), ("W", 1, 8),
    ("X", 0, 0), ("Y", 1, 6), ("Ü", 0, 0), ("Z", 0, 0), ("Æ", 1, 6), ("Ä", 0, 0),
    ("Ø", 2, 5), ("Ö", 0, 0), ("Å", 2, 4),
)  # fmt: skip

# wolges src/alphabets/swedish.txt (macondo has no Swedish distribution)
# (Q, W, Ü, Æ have no tiles: blanks only)
_SWEDISH = (
    ("?", 2, 0), ("A", 8, 1), ("B", 2, 4), ("C", 1, 8), ("D", 5, 1), ("E", 7, 1),
    ("F", 2, 3), ("G", 3, 2), ("H", 2, 2), ("I", 5, 1), ("J", 1, 7), ("K", 3, 2),
    ("L", 5, 1), ("M", 3, 2), ("N", 6, 1), ("O", 5, 2), ("P", 2, 4), ("Q", 0, 0),
    ("R", 8, 1), ("S", 8, 1), ("T", 8, 1), ("U", 3, 4), ("V", 2, 3), ("W", 0, 0),
    ("X", 1, 8), ("Y", 1, 7), ("Ü", 0, 0), ("Z", 1, 10), ("Å", 2, 4), ("Ä", 2, 3),
    ("Æ", 0, 0), ("Ö", 2, 4),
)  # fmt: skip

# macondo data/letterdistributions/slovene == wolges src/alphabets/slovene.txt
# (Q, W, X, Y have no tiles: blanks only)
_SLOVENE = (
    ("?", 2, 0), ("A", 10, 1), ("B", 2, 4), ("C", 1, 8), ("Č", 1, 5), ("D", 4, 2),
    ("E", 11, 1), ("F", 1, 10), ("G", 2, 4), ("H", 1, 5), ("I", 9, 1), ("J", 4, 1),
    ("K", 3, 3), ("L", 4, 1), ("M", 2, 3), ("N", 7, 1), ("O", 8, 1), ("P", 2, 3),
    ("Q", 0, 0), ("R", 6, 1), ("S", 6, 1), ("Š", 1, 6), ("T", 4, 1), ("U", 2, 3),
    ("V", 4, 2), ("W", 0, 0), ("X", 0, 0), ("Y", 0, 0), ("Z", 2, 4), ("Ž", 1, 10),
)  # fmt: skip

# xanado editions/English_WWF.json (Words With Friends: 104 tiles; bingo bonus 35 lives in
# rulesets). Xanado lists the blank last and has no vowel flags; blank first here as elsewhere.
_WWF_ENGLISH = (
    ("?", 2, 0), ("A", 9, 1), ("B", 2, 4), ("C", 2, 4), ("D", 5, 2), ("E", 13, 1),
    ("F", 2, 4), ("G", 3, 3), ("H", 4, 3), ("I", 8, 1), ("J", 1, 10), ("K", 1, 5),
    ("L", 4, 2), ("M", 2, 4), ("N", 5, 2), ("O", 8, 1), ("P", 2, 4), ("Q", 1, 10),
    ("R", 6, 1), ("S", 5, 1), ("T", 7, 1), ("U", 4, 2), ("V", 2, 5), ("W", 2, 4),
    ("X", 1, 8), ("Y", 2, 3), ("Z", 1, 10),
)  # fmt: skip

# Vowel flags as in macondo/wolges (is_vowel column).
_AEIOU = "AEIOU"

TILE_SETS: dict[str, TileSet] = {
    ts.name: ts
    for ts in (
        TileSet.from_table("english", _ENGLISH, _AEIOU),
        TileSet.from_table("english_super", _ENGLISH_SUPER, _AEIOU),
        TileSet.from_table("french", _FRENCH, "AEIOUY"),
        TileSet.from_table("german", _GERMAN, "AÄEIOÖUÜ"),
        TileSet.from_table("dutch", _DUTCH, _AEIOU),
        TileSet.from_table("spanish", _SPANISH, _AEIOU),
        TileSet.from_table("catalan", _CATALAN, _AEIOU),
        TileSet.from_table("polish", _POLISH, "AĄEĘIOÓUY"),
        TileSet.from_table("norwegian", _NORWEGIAN, "AEIOUYÜÆÄØÖÅ"),
        TileSet.from_table("swedish", _SWEDISH, "AEIOUYÜÅÄÆÖ"),
        TileSet.from_table("slovene", _SLOVENE, _AEIOU),
        TileSet.from_table("wwf_english", _WWF_ENGLISH, _AEIOU),
    )
}

# Normalised spelling (case-folded, only letters and digits) -> name in TILE_SETS.
_ALIASES: dict[str, str] = {
    "english": "english",
    "en": "english",
    "englishsuper": "english_super",
    "superenglish": "english_super",
    "super": "english_super",
    "french": "french",
    "francais": "french",
    "français": "french",
    "fr": "french",
    "german": "german",
    "deutsch": "german",
    "de": "german",
    "dutch": "dutch",
    "nederlands": "dutch",
    "nl": "dutch",
    "spanish": "spanish",
    "espanol": "spanish",
    "español": "spanish",
    "es": "spanish",
    "catalan": "catalan",
    "catala": "catalan",
    "català": "catalan",
    "ca": "catalan",
    "polish": "polish",
    "polski": "polish",
    "pl": "polish",
    "norwegian": "norwegian",
    "norsk": "norwegian",
    "no": "norwegian",
    "nb": "norwegian",
    "swedish": "swedish",
    "svenska": "swedish",
    "sv": "swedish",
    "slovene": "slovene",
    "slovenian": "slovene",
    "slovenscina": "slovene",
    "slovenščina": "slovene",
    "sl": "slovene",
    "wwfenglish": "wwf_english",
    "englishwwf": "wwf_english",
    "wwf": "wwf_english",
    "wordswithfriends": "wwf_english",
}


def _normalise(name: str) -> str:
    return re.sub(r"[\W_]+", "", name.casefold())


def declared_spellings(tiles: TileSet, declared: Iterable[str]) -> TileSet:
    """``tiles`` as a record that declares its multi-character tiles spells them.

    ``declared`` are the first words of the record's ``#tile`` pragmas (``[LL]``, ``CH``,
    ``L·L``). With none, the tile set is returned as it is: an unbracketed ``LL`` is the LL
    tile (longest match). With some, only the multi-character tiles declared without
    brackets are read unbracketed; every other one (declared as ``[LL]``, or not at all) only
    in brackets, so that an unbracketed ``LL`` is two ``L`` tiles, as Macondo means it."""
    names = [d.strip() for d in declared if d.strip()]
    if not names or tiles.max_len == 1:
        return tiles
    bare = {n.upper() for n in names if not n.startswith("[")}
    return _with_bracket_only(
        tiles, frozenset(t for t in tiles.letters if len(t) > 1 and t not in bare)
    )


@lru_cache(maxsize=64)
def _with_bracket_only(tiles: TileSet, only: frozenset[str]) -> TileSet:
    return replace(tiles, bracket_only=only) if only != tiles.bracket_only else tiles


def tile_set(name: str) -> TileSet:
    """The tile set called ``name`` (case-insensitive; aliases such as ``"English"``,
    ``"super_english"``, ``"wwf"`` accepted). Unknown names raise :class:`KeyError`."""
    key = _ALIASES.get(_normalise(name))
    if key is None:
        known = ", ".join(sorted(TILE_SETS))
        raise KeyError(f"unknown tile distribution {name!r}; known: {known}")
    return TILE_SETS[key]


#: Tile files: the largest accepted, in bytes.
MAX_TILES_FILE = 64 * 1024
#: Tile files: at most this many different tiles, the blank included (tile numbers are
#: bytes, 0 being the blank or the GADDAG separator; real sets have at most 35).
MAX_LETTERS = 200
#: Tile files: at most this many tiles in the bag, and points a tile (Super has 200 tiles).
MAX_BAG = 1000
MAX_VALUE = 1000
#: Tile files: the longest tile name, in characters (Catalan L·L has 3).
MAX_NAME = 8
_VOWEL_FLAGS = {"1": True, "0": False, "yes": True, "no": False, "true": True, "false": False}


def load_tiles_file(path: str | os.PathLike[str]) -> TileSet:
    """A tile set from a text file of ``letter count value`` lines, one tile a line:
    ``A 9 1``, ``? 2 0`` (the blank), ``CH 1 5`` (a multi-character tile). Fields are
    separated by spaces, tabs or commas, so Macondo's ``letter,count,value,is_vowel`` files
    read as they are; an optional fourth field (1 or another number for a vowel, 0 for a
    consonant) marks vowels (without any, A E I O U are). Letters are read in upper case.
    Lines that are empty or start with ``#`` are comments. The tile set is named after the
    file. Raises ``ValueError`` (``FILE:LINE: what``) for a malformed file and ``OSError``
    when it cannot be read."""
    source = Path(path)
    data = read_limited(source, MAX_TILES_FILE, "a tile file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    rows: list[tuple[str, int, int]] = []
    vowels: set[str] = set()
    flagged = False
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [f for f in re.split(r"[\s,]+", line.strip()) if f]
        if len(fields) not in (3, 4):
            raise ValueError(f"{source}:{number}: expected 'letter count value', got {line!r}")
        letter = _tile_name(fields[0], f"{source}:{number}")
        if letter in seen:
            raise ValueError(f"{source}:{number}: {letter} listed twice (line {seen[letter]})")
        seen[letter] = number
        try:
            count, value = int(fields[1]), int(fields[2])
        except ValueError:
            raise ValueError(f"{source}:{number}: count and value are whole numbers") from None
        if not (0 <= count <= MAX_BAG and 0 <= value <= MAX_VALUE):
            raise ValueError(
                f"{source}:{number}: count goes from 0 to {MAX_BAG}, value from 0 to {MAX_VALUE}"
            )
        if len(seen) > MAX_LETTERS:
            raise ValueError(
                f"{source}:{number}: more than {MAX_LETTERS} different tiles (the blank "
                "included): not a tile set"
            )
        if len(fields) == 4:
            word = fields[3].lower()
            flag = int(word) != 0 if word.isascii() and word.isdigit() else _VOWEL_FLAGS.get(word)
            if flag is None:
                raise ValueError(f"{source}:{number}: the vowel flag is 1 or 0 (yes or no)")
            flagged = True
            if flag:
                vowels.add(letter)
        rows.append((letter, count, value))
    if not rows:
        raise ValueError(f"{source}: no tiles")
    if sum(count for _, count, _ in rows) > MAX_BAG:
        raise ValueError(f"{source}: more than {MAX_BAG} tiles in the bag")
    if len(rows) + (BLANK not in seen) > MAX_LETTERS:
        raise ValueError(f"{source}: more than {MAX_LETTERS} different tiles with the blank")
    if BLANK not in seen:
        rows.insert(0, (BLANK, 0, 0))
    if not flagged:
        vowels = {v for v in "AEIOU" if v in seen}
    vowels.discard(BLANK)
    return TileSet.from_table(source.stem or str(source), rows, vowels)


def _tile_name(field: str, where: str) -> str:
    """The tile name of a tile file's first field (upper case), else ValueError: the blank
    ``?``, or up to MAX_NAME letters (any script; ``·`` and ``'`` inside a name)."""
    letter = field.strip("[]").upper()
    if letter == BLANK:
        return letter
    ok = 0 < len(letter) <= MAX_NAME and all(ch.isalpha() or ch in "·'" for ch in letter)
    if not ok or not letter[0].isalpha():
        shown = field if len(field) <= 20 else field[:20] + "..."
        raise ValueError(
            f"{where}: {shown!r} cannot be a tile name (? for the blank, else 1 to "
            f"{MAX_NAME} letters)"
        )
    return letter


def resolve_tiles(value: str) -> TileSet:
    """The tile set a ``--tiles`` option names: a known name (see :func:`tile_set`), else a
    tile file (see :func:`load_tiles_file`). Raises ``KeyError`` for a value that is
    neither, ``ValueError`` for a malformed file."""
    return named_or_file(value, tile_set, load_tiles_file, "tile distribution", TILE_SETS)
