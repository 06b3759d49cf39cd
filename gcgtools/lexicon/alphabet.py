"""Tile numbering shared by word lists, KWG and KLV files.

A lexicon file stores tiles as numbers: 0 is the blank (in leave files) or the GADDAG
separator (in KWG files), and 1, 2, ... are the tile set's letters in its canonical order
(the order of :attr:`TileSet.letters`, which is the order wolges and Macondo use): English
A=1 ... Z=26, Spanish A=1, B=2, C=3, CH=4, D=5, ...
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from gcgtools.rules import BLANK, TILE_SETS, TileError, TileSet, tile_set

__all__ = ["Alphabet", "alphabet_of"]


class Alphabet:
    """Tile number <-> tile text for one tile set.

    ``letters[i]`` is the tile text of number ``i`` (``letters[0]`` is ``"?"``: the blank in
    leaves, the separator in GADDAG paths); ``index`` maps an upper-case tile text to its
    number (the blank is not in it).
    """

    __slots__ = ("tiles", "letters", "index", "_single")

    def __init__(self, tiles: TileSet) -> None:
        self.tiles = tiles
        letters = list(tiles.letters)
        if BLANK in letters:
            letters.remove(BLANK)
        self.letters: tuple[str, ...] = (BLANK, *letters)
        self.index: dict[str, int] = {letter: i for i, letter in enumerate(self.letters) if i}
        #: with only one-character tiles: character -> number (fast path of :meth:`encode`)
        self._single: dict[str, int] | None = (
            dict(self.index) if all(len(k) == 1 for k in self.index) else None
        )

    def __repr__(self) -> str:
        return f"Alphabet({self.tiles.name!r}, {len(self.letters) - 1} letters)"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # a TileSet holds mapping proxies, which do not pickle: a built-in tile set is
        # pickled by name (the shared alphabet is found again on loading)
        if TILE_SETS.get(self.tiles.name) != self.tiles:
            raise TypeError(f"cannot pickle the alphabet of a custom tile set {self.tiles.name}")
        return (alphabet_of, (self.tiles.name,))

    def __len__(self) -> int:
        """Number of tile numbers, 0 included."""
        return len(self.letters)

    def encode(self, word: str) -> bytes | None:
        """The tile numbers of a word written in letters (any case), or ``None`` when some
        character belongs to no tile of the set. Multi-letter tiles are found by the tile
        set's longest-match rule (``"CHICO"`` in Spanish is CH, I, C, O); the bracket form
        ``[CH]`` is accepted too."""
        upper = word.upper()
        single = self._single
        if single is not None:
            try:
                return bytes([single[c] for c in upper])
            except KeyError:
                return None
        try:
            parts = self.tiles.split(upper)
        except TileError:
            return None
        index = self.index
        try:
            return bytes([index[p] for p in parts])
        except KeyError:  # "?", ".", "(" or ")": not letters of a word
            return None

    def encode_tiles(self, tiles: Iterable[str]) -> list[int]:
        """Tile numbers of tile texts (``"?"`` or a lower-case blank name -> 0).

        Raises :class:`TileError` for a text that is no tile of the set."""
        index = self.index
        out: list[int] = []
        for tile in tiles:
            number = index.get(tile)
            if number is None:
                if tile == BLANK or (tile != tile.upper() and tile.upper() in index):
                    number = 0
                else:
                    upper = tile.upper()
                    if upper in index and tile == upper:
                        number = index[upper]
                    else:
                        raise TileError(f"unknown tile {tile!r} in tile set {self.tiles.name}")
            out.append(number)
        return out

    def decode(self, numbers: Sequence[int] | bytes) -> str:
        """The text of tile numbers (0 gives ``"?"``)."""
        letters = self.letters
        return "".join([letters[n] for n in numbers])


def alphabet_of(tiles: TileSet | str = "english") -> Alphabet:
    """The (shared: one per tile set) alphabet of a tile set or a tile set's name."""
    return _alphabet(tile_set(tiles) if isinstance(tiles, str) else tiles)


@cache
def _alphabet(tiles: TileSet) -> Alphabet:
    return Alphabet(tiles)
