"""A loaded lexicon: the KWG, its tile set, and where it came from."""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from os import PathLike
from pathlib import Path

from gcgtools.lexicon import cache
from gcgtools.lexicon.alphabet import Alphabet, alphabet_of
from gcgtools.lexicon.build import build_nodes
from gcgtools.lexicon.kwg import Kwg, KwgError, nodes_from_bytes
from gcgtools.lexicon.wordlist import (
    MAX_WORD_LIST_BYTES,
    Decoded,
    WordListTooLarge,
    decode_lines,
    parse_word_list,
)
from gcgtools.rules import TileSet, lexicon_tile_set, tile_set
from gcgtools.sources.limited import read_limited

__all__ = [
    "Lexicon",
    "LexiconError",
    "check_lexicon_file",
    "default_max_length",
    "lexicon_name",
    "load_lexicon",
]


class LexiconError(ValueError):
    """A lexicon file that cannot be read: missing, unreadable or malformed.

    ``path`` is the file; the message says what is wrong, in one line."""

    def __init__(self, message: str, path: str | PathLike[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = None if path is None else Path(path)

    def __reduce__(self) -> tuple[type[LexiconError], tuple[str, Path | None]]:
        return (type(self), (self.message, self.path))


class Lexicon:
    """The words a game may use, as a KWG (DAWG + GADDAG) over a tile set.

    * ``word in lexicon``: a word written in letters (any case; multi-letter tiles found by
      the tile set's longest match);
    * :meth:`contains_tiles`: a word given as tile numbers (``lexicon.kwg.index``);
    * :meth:`contains_tile_texts`: a word given as the tiles played (``["CH", "i", ...]``);
    * :meth:`words`: every word, upper case, in tile order; ``len(lexicon)``: how many.

    ``name`` is the lexicon's name (the file name without extension, e.g. ``"ENABLE"``),
    ``source`` says which file was used and how (``"ENABLE.kwg (KWG file /path/ENABLE.kwg)"``);
    ``path`` is that file; ``skipped`` counts the words of a word list left out (see
    :mod:`~gcgtools.lexicon.wordlist`); ``cached`` is True when a word list was loaded from
    the compiled cache, False when it was compiled now, None for a KWG file; ``compiled``
    is the compiled KWG in the cache (None when not cached). ``source`` depends only on the
    file, not on the cache's state, so it may be part of a cache key.
    """

    def __init__(
        self,
        kwg: Kwg,
        *,
        name: str,
        source: str,
        path: Path | None = None,
        word_count: int | None = None,
        skipped: dict[str, int] | None = None,
        cached: bool | None = None,
        compiled: Path | None = None,
        notes: Sequence[str] = (),
    ) -> None:
        self.kwg = kwg
        #: what a user should know about the file (lines read as Latin-1, ...), one line each
        self.notes: list[str] = list(notes)
        self.name = name
        self.source = source
        self.path = path
        self.skipped: dict[str, int] = dict(skipped or {})
        self.cached = cached
        self.compiled = compiled
        self._count = word_count

    @classmethod
    def from_words(
        cls,
        words: Iterable[str],
        tiles: TileSet | str | None = None,
        *,
        name: str = "custom",
        max_length: int | None = None,
    ) -> Lexicon:
        """A lexicon of the given words (in letters, any case; split into tiles like a word
        list's), compiled in memory: for tests and small experiments."""
        tileset = tiles if isinstance(tiles, TileSet) else tile_set(tiles or "english")
        alphabet = alphabet_of(tileset)
        limit = default_max_length(tileset) if max_length is None else max_length
        spelling = alphabet_of(word_list_tiles(tileset))
        wordlist = parse_word_list("\n".join(words), spelling, max_length=limit)
        kwg = Kwg(build_nodes(wordlist.words), alphabet, check=False)
        return cls(
            kwg,
            name=name,
            source=f"{name} ({len(wordlist.words)} words given in memory)",
            word_count=len(wordlist.words),
            skipped=wordlist.skipped,
        )

    @property
    def alphabet(self) -> Alphabet:
        return self.kwg.alphabet

    @property
    def tiles(self) -> TileSet:
        return self.kwg.alphabet.tiles

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self)} words, {self.tiles.name} tiles)"

    def __len__(self) -> int:
        if self._count is None:
            self._count = self.kwg.count_words()
        return self._count

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        tiles = self.kwg.alphabet.encode(word)
        return tiles is not None and self.kwg.contains(tiles)

    def contains_tiles(self, tiles: Sequence[int] | bytes) -> bool:
        """True if the tile numbers spell a word."""
        return self.kwg.contains(tiles)

    def contains_tile_texts(self, tiles: Sequence[str]) -> bool:
        """True if the tiles, given one text per tile as the replay has them (``"CH"``;
        lower case for a blank: ``"e"`` is a blank played as E), spell a word. Unlike
        ``in``, which re-splits a joined text by longest match, this keeps the tiles as
        played (a C tile then an H tile is not the CH tile)."""
        index = self.kwg.index
        numbers = []
        for tile in tiles:
            number = index.get(tile) or index.get(tile.upper())
            if number is None:
                return False
            numbers.append(number)
        return self.kwg.contains(numbers)

    def encode(self, word: str) -> bytes | None:
        """Tile numbers of a word in letters, ``None`` if not spelt with the tile set."""
        return self.kwg.alphabet.encode(word)

    def words(self) -> Iterator[str]:
        """Every word, upper case, in tile-number order."""
        decode = self.kwg.alphabet.decode
        for tiles in self.kwg.words():
            yield decode(tiles)

    def describe(self) -> str:
        """One line for users: which lexicon, from where (and the cache's part)."""
        text = f"lexicon {self.name}: {self.source}"
        if self.cached is True:
            text += f", compiled form loaded from {self.compiled}"
        elif self.cached is False:
            text += ", compiled now" + (f", cached as {self.compiled}" if self.compiled else "")
        return "; ".join([text, *self.notes])


def lexicon_name(path: str | PathLike[str]) -> str:
    """A lexicon's name from its file name: ``CSW21.kwg`` -> ``CSW21``,
    ``enable2k.txt.gz`` -> ``enable2k``."""
    name = Path(path).name
    for suffix in (".txt.gz", ".kwg", ".txt", ".gz"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return Path(name).stem


def default_max_length(tiles: TileSet) -> int:
    """The longest word a game with these tiles can place: 21 on the Super board, else 15."""
    return 21 if tiles.name == "english_super" else 15


def _tiles_for(path: Path, tiles: TileSet | str | None) -> TileSet:
    if isinstance(tiles, TileSet):
        return tiles
    if isinstance(tiles, str):
        return tile_set(tiles)
    implied = lexicon_tile_set(lexicon_name(path))
    return tile_set(implied or "english")


def load_lexicon(
    path: str | PathLike[str],
    tiles: TileSet | str | None = None,
    *,
    max_length: int | None = None,
    use_cache: bool = True,
) -> Lexicon:
    """Load a lexicon file: a KWG (``.kwg``, read directly) or a word list (anything else,
    gzipped or not; compiled to a KWG once and then loaded from the cache, see
    :mod:`~gcgtools.lexicon.cache`).

    ``tiles``: the tile set the lexicon's tiles are numbered in (default: the one its name
    implies, e.g. ``FISE2`` -> Spanish, else English). ``max_length``: longest word kept
    from a word list (default 15, 21 for Super tiles).

    Raises :class:`LexiconError` (one-line message) for a missing, unreadable or malformed
    file."""
    p = Path(path)
    tileset = _tiles_for(p, tiles)
    alphabet = alphabet_of(tileset)
    name = lexicon_name(p)
    kwg_file = p.suffix.lower() == ".kwg"
    data = read_lexicon_bytes(p, MAX_KWG_BYTES if kwg_file else MAX_WORD_LIST_BYTES)
    if kwg_file:
        kwg, count = parse_kwg_file(p, data, alphabet)
        lexicon = Lexicon(
            kwg, name=name, source=f"{p.name} (KWG file {p})", path=p, word_count=count
        )
    else:
        lexicon = _load_word_list(p, data, alphabet, name, max_length, use_cache)
    lexicon.notes.extend(modern_words_note(lexicon))
    return lexicon


#: Two-letter words of the modern English tournament lexica (NWL, CSW) that older and free
#: lists (ENABLE, CEL) lack: a user picking such a list is told.
MODERN_TWOS = ("QI", "ZA", "KI", "ZO")
#: Lists known to lack some of them (by name, any case).
OLDER_LISTS = frozenset({"ENABLE", "ENABLE1", "ENABLE2K", "CEL", "ECWL", "TWL98"})
_ENGLISH_LETTERS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def modern_words_note(lexicon: Lexicon) -> list[str]:
    """A note for an English list that lacks common two-letter words of the modern
    lexica (when its name is one of :data:`OLDER_LISTS`, or it lacks both QI and ZA)."""
    letters = set(lexicon.tiles.letters) - {"?"}
    if letters != _ENGLISH_LETTERS:
        return []
    missing = [w for w in MODERN_TWOS if w not in lexicon]
    stem = re.split(r"[^A-Z0-9]", lexicon.name.upper())[0]  # cel_2-21 -> CEL
    older = stem in OLDER_LISTS or {"QI", "ZA"} <= set(missing)
    if not missing or not older:
        return []
    return [
        f"{lexicon.name} lacks {', '.join(missing)} (in NWL and CSW): plays of them count as "
        "phonies; give the game's own lexicon if it was played with one of those"
    ]


def check_lexicon_file(path: str | PathLike[str], tiles: TileSet | str | None = None) -> None:
    """Check a lexicon file before a batch starts, without compiling it: a regular file
    within the size limit; a KWG's structure (and its tile numbers, when the tile set is
    known: ``tiles`` or the one its name implies); a word list's gzip, text and that it
    has words. Raises :class:`LexiconError` naming the file."""
    p = Path(path)
    if tiles is None:
        implied = lexicon_tile_set(lexicon_name(p))
        tiles = tile_set(implied) if implied else None
    if tiles is not None and not isinstance(tiles, TileSet):
        tiles = tile_set(tiles)
    alphabet = alphabet_of(tiles) if tiles is not None else None
    if p.suffix.lower() == ".kwg":
        parse_kwg_file(p, read_lexicon_bytes(p, MAX_KWG_BYTES), alphabet)
        return
    text = decode_word_list(p, read_lexicon_bytes(p, MAX_WORD_LIST_BYTES)).text
    if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        raise LexiconError(f"{p}: no words: an empty word list", p)


MAX_KWG_BYTES = 64 * 1024 * 1024
"""The largest KWG file read (64 MiB; CSW21 with its GADDAG is about 12 MB)."""

MAX_KWG_WORDS = 1 << 24
"""The most words a KWG's DAWG may hold (16,777,216; CSW21 has 279,496 and the largest
lexicons a few million). A graph shares its suffixes, so a small file can hold billions of
words; the move generator's indexes list every word, so such a file is refused."""


def read_lexicon_bytes(p: Path, limit: int) -> bytes:
    """The bytes of a lexicon file (a regular file of at most ``limit`` bytes), else
    :class:`LexiconError`."""
    try:
        return read_limited(p, limit, "a lexicon")
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise LexiconError(f"{p}: cannot read lexicon: {reason}", p) from None


#: the last KWG file parsed: its bytes, the alphabet, the KWG and its word count
_LAST_KWG: list[tuple[bytes, Alphabet | None, Kwg, int]] = []


def parse_kwg_file(p: Path, data: bytes, alphabet: Alphabet | None) -> tuple[Kwg, int]:
    """The checked KWG of a ``.kwg`` file's bytes and its word count, else
    :class:`LexiconError`. ``alphabet`` None: the structure only (any tile numbers).

    The last file parsed is kept with its bytes: the same bytes and alphabet again (a
    command checks its ``--lexicon`` file before it reads a record, then loads it) give
    the same KWG without parsing and checking it twice; other bytes are parsed anew."""
    for last, last_alphabet, kwg, count in _LAST_KWG:
        if last_alphabet == alphabet and last == data:
            return kwg, count
    kwg, count = _parse_kwg(p, data, alphabet)
    _LAST_KWG[:] = [(data, alphabet, kwg, count)]
    return kwg, count


def _parse_kwg(p: Path, data: bytes, alphabet: Alphabet | None) -> tuple[Kwg, int]:
    try:
        kwg = Kwg.from_bytes(data, alphabet or alphabet_of("english"))
        if alphabet is not None:
            kwg.check_alphabet()
        count = kwg.count_words()  # counted now: this also proves the graph acyclic
    except KwgError as exc:
        raise LexiconError(f"{p}: not a KWG file: {exc}", p) from None
    if not count:
        raise LexiconError(f"{p}: not a KWG file: the DAWG is empty", p)
    if count > MAX_KWG_WORDS:
        raise LexiconError(
            f"{p}: not a lexicon: {count:,} words: more than any lexicon "
            f"(at most {MAX_KWG_WORDS:,})", p
        )  # fmt: skip
    return kwg, count


def word_list_tiles(tiles: TileSet) -> TileSet:
    """The tile set as a word list spells it: multi-letter tiles by the longest-match rule
    always (a record's ``#tile [CH] [ch]`` says how *the record* spells CH, not the list:
    the list's CHICOS is still CH, I, C, O, S)."""
    return replace(tiles, bracket_only=frozenset()) if tiles.bracket_only else tiles


def _load_word_list(
    p: Path,
    data: bytes,
    alphabet: Alphabet,
    name: str,
    max_length: int | None,
    use_cache: bool,
) -> Lexicon:
    limit = default_max_length(alphabet.tiles) if max_length is None else max_length
    key = cache.cache_key(data, alphabet.tiles, limit)
    if not use_cache:
        return _compile(p, data, alphabet, name, limit, None)
    hit = _from_cache(p, key, alphabet, name)
    if hit is not None:
        return hit
    # One process compiles, others (batch workers starting together) wait for its entry.
    with cache.compiling(key) as waited:
        if waited:
            hit = _from_cache(p, key, alphabet, name)
            if hit is not None:
                return hit
        return _compile(p, data, alphabet, name, limit, key)


def _from_cache(p: Path, key: str, alphabet: Alphabet, name: str) -> Lexicon | None:
    """The cached entry of ``key``, checked: a well-formed graph over the alphabet whose
    word count is the one its meta says (else None: the list is compiled again)."""
    entry = cache.load(key)
    if entry is None:
        return None
    try:
        kwg = Kwg(nodes_from_bytes(entry.kwg_bytes), alphabet)
        kwg.check_alphabet()
        if kwg.count_words() != entry.words or not kwg.has_gaddag:
            return None
    except KwgError:
        return None  # damaged entry: rebuilt
    return Lexicon(
        kwg,
        name=name,
        source=f"{p.name} (word list {p})",
        compiled=entry.path,
        path=p,
        word_count=entry.words,
        skipped=entry.skipped,
        cached=True,
        notes=latin1_note(p, entry.latin1_lines),
    )


def decode_word_list(p: Path, data: bytes) -> Decoded:
    """The text of a word list's bytes (gunzipped, decoded line by line), else
    :class:`LexiconError` for a damaged gzip file, one that unpacks too large, or a
    binary file."""
    try:
        decoded = decode_lines(data)
    except WordListTooLarge as exc:
        raise LexiconError(f"{p}: {exc}", p) from None
    except (OSError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise LexiconError(f"{p}: damaged gzip file: {exc}", p) from None
    if "\0" in decoded.text:
        raise LexiconError(
            f"{p}: a binary file, not a word list (a KWG file needs the .kwg extension)", p
        )
    return decoded


def latin1_note(p: Path, lines: Sequence[int]) -> list[str]:
    """The note for a word list's lines that are not UTF-8 (read as Latin-1)."""
    if not lines:
        return []
    more = f" and {len(lines) - 1} more" if len(lines) > 1 else ""
    return [f"{p}:{lines[0]}{more}: not UTF-8, read as Latin-1 (save the list as UTF-8)"]


def _compile(
    p: Path, data: bytes, alphabet: Alphabet, name: str, limit: int, key: str | None
) -> Lexicon:
    """Compile a word list's bytes; store the result under ``key`` (None: do not)."""
    decoded = decode_word_list(p, data)
    spelling = alphabet_of(word_list_tiles(alphabet.tiles))
    wordlist = parse_word_list(decoded.text, spelling, max_length=limit)
    if not wordlist.words:
        raise LexiconError(f"{p}: no words of the {alphabet.tiles.name} tile set", p)
    try:
        nodes = build_nodes(wordlist.words)
    except KwgError as exc:
        raise LexiconError(f"{p}: cannot compile: {exc}", p) from None
    kwg = Kwg(nodes, alphabet, check=False)
    stored = False
    if key is not None:
        stored = cache.store(
            key, kwg.to_bytes(), len(wordlist.words), wordlist.skipped, str(p),
            decoded.latin1_lines,
        )  # fmt: skip
    return Lexicon(
        kwg,
        name=name,
        source=f"{p.name} (word list {p})",
        compiled=cache.cache_dir() / f"{key}.kwg" if stored else None,
        path=p,
        word_count=len(wordlist.words),
        skipped=wordlist.skipped,
        cached=False,
        notes=latin1_note(p, decoded.latin1_lines),
    )
