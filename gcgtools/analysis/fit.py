"""Whether a lexicon fits the record it analyses: findings W804 and W805.

* W804 (warning): the lexicon is for another alphabet than the record's tile set. Either
  its name implies a tile set with other tiles (ENABLE is English, RD28 German, FISE2
  Spanish), or its words never use letters the tile set has tiles of (an English list
  under German tiles never uses Ä, Ö, Ü), checked for lexicons of at least
  :data:`MIN_WORDS_FOR_LETTERS` words. Its best moves are then not moves of the game.
* W805 (info): the record names another lexicon (``#lexicon``) than the one used.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from gcgtools.findings import Code, Finding, make
from gcgtools.lexicon.lookup import name_variants
from gcgtools.rules import BLANK, TileSet, lexicon_tile_set, tile_set

if TYPE_CHECKING:
    from gcgtools.lexicon import Lexicon
    from gcgtools.model.game import Game

__all__ = ["MIN_WORDS_FOR_LETTERS", "lexicon_fit", "unused_letters"]

_UNUSED: weakref.WeakKeyDictionary[Lexicon, tuple[str, ...]] = weakref.WeakKeyDictionary()
#: a lexicon smaller than this (a test's, a teaching list) is not expected to use every letter
MIN_WORDS_FOR_LETTERS = 1000


def unused_letters(lexicon: Lexicon) -> list[str]:
    """The letters of the lexicon's tile set that have tiles in the bag but occur in no
    word of the lexicon (remembered on the lexicon)."""
    cached = _UNUSED.get(lexicon)
    if cached is not None:
        return list(cached)
    used = {node >> 24 for node in lexicon.kwg.nodes}
    tiles = lexicon.tiles
    index = lexicon.kwg.index
    missing = [
        t for t in tiles.letters if t != BLANK and tiles.counts[t] > 0 and index[t] not in used
    ]
    _UNUSED[lexicon] = tuple(missing)
    return missing


def _same_letters(a: TileSet, b: TileSet) -> bool:
    return a.letters == b.letters


def _pragma_line(game: Game, keyword: str) -> int:
    for p in game.pragmas:
        if p.keyword == keyword:
            return p.line
    return 0


def lexicon_fit(game: Game, tiles: TileSet, lexicon: Lexicon) -> list[Finding]:
    """W804/W805 findings for analysing ``game`` (whose tile set is ``tiles``) with
    ``lexicon`` (empty when it fits)."""
    out: list[Finding] = []
    implied = lexicon_tile_set(lexicon.name)
    line = _pragma_line(game, "lexicon") or _pragma_line(game, "tile-distribution")
    if implied is not None and not _same_letters(tile_set(implied), tiles):
        out.append(make(
            Code.LEXICON_MISFIT,
            f"lexicon {lexicon.name} is for {implied} tiles, the record uses {tiles.name} "
            "tiles: its words and best moves are not moves of this game",
            line,
        ))  # fmt: skip
    elif len(lexicon) >= MIN_WORDS_FOR_LETTERS and (missing := unused_letters(lexicon)):
        shown = ", ".join(missing[:6]) + (", ..." if len(missing) > 6 else "")
        out.append(make(
            Code.LEXICON_MISFIT,
            f"lexicon {lexicon.name} never uses {shown} of the {tiles.name} tiles: a lexicon "
            "for another language? Its best moves are not moves of this game",
            line,
        ))  # fmt: skip
    named = (game.lexicon or "").strip()
    if named and not _same_name(named, lexicon.name):
        out.append(make(
            Code.OTHER_LEXICON,
            f"the record names lexicon {named}; analysed with {lexicon.name}",
            _pragma_line(game, "lexicon"),
        ))  # fmt: skip
    return out


#: names of one list (ENABLE.kwg is ENABLE2K compiled)
SAME_LISTS = ({"ENABLE", "ENABLE1", "ENABLE2K"},)


def _key(name: str) -> str:
    upper = name.strip().upper()
    return next((min(f) for f in SAME_LISTS if upper in f), upper)


def _same_name(a: str, b: str) -> bool:
    names = {_key(n) for n in name_variants(a)}
    return any(_key(n) in names for n in name_variants(b))
