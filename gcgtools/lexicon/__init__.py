"""Lexicons and leave values: word lists, KWG files (DAWG + GADDAG), KLV/KLV2 and CSV leaves.

This layer comes after :mod:`gcgtools.rules` (it numbers tiles by the tile sets there) and
before the replay's users (move generation, analysis). It imports only ``rules`` and the
standard library (plus :mod:`gcgtools.sources.atomic` for writing files and ``platformdirs`` for
the cache folder).

* :func:`load_lexicon` reads a ``.kwg`` file or a word list (``.txt``/``.txt.gz``; compiled
  to a KWG by our own builder once and cached, :mod:`~gcgtools.lexicon.cache`);
* :class:`Lexicon`: ``word in lexicon``, :meth:`~Lexicon.contains_tiles`,
  :meth:`~Lexicon.words`, ``len``, ``.kwg`` (:class:`Kwg`: flat uint32 nodes, roots,
  alphabet), ``.name``, ``.source``, ``.tiles``;
* :func:`load_leaves`, :func:`builtin_leaves`, :class:`Leaves` (``.value(tiles)``);
* :func:`find_lexicon`, :func:`resolve_lexicon`, :func:`resolve_leaves`: which files to use.
"""

from gcgtools.lexicon.alphabet import Alphabet, alphabet_of
from gcgtools.lexicon.build import build_nodes, gaddag_strings
from gcgtools.lexicon.cache import CACHE_ENV, cache_dir
from gcgtools.lexicon.klv import klv_bytes
from gcgtools.lexicon.kwg import ACCEPTS, ARC_MASK, IS_END, TILE_SHIFT, Kwg, KwgError
from gcgtools.lexicon.leaves import (
    Leaves,
    LeavesError,
    builtin_leaves,
    leaves_csv,
    load_leaves,
)
from gcgtools.lexicon.lexicon import Lexicon, LexiconError, lexicon_name, load_lexicon
from gcgtools.lexicon.lookup import (
    LEXICA_ENV,
    find_leaves,
    find_lexicon,
    lexica_dir,
    name_variants,
    resolve_leaves,
    resolve_lexicon,
)

__all__ = [
    "ACCEPTS",
    "ARC_MASK",
    "CACHE_ENV",
    "IS_END",
    "LEXICA_ENV",
    "TILE_SHIFT",
    "Alphabet",
    "Kwg",
    "KwgError",
    "Leaves",
    "LeavesError",
    "Lexicon",
    "LexiconError",
    "alphabet_of",
    "build_nodes",
    "builtin_leaves",
    "cache_dir",
    "find_leaves",
    "find_lexicon",
    "gaddag_strings",
    "klv_bytes",
    "leaves_csv",
    "lexica_dir",
    "lexicon_name",
    "name_variants",
    "load_leaves",
    "load_lexicon",
    "resolve_leaves",
    "resolve_lexicon",
]
