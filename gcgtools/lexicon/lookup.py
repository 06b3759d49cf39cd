"""Which lexicon and which leaves: an explicit path, else a name looked up in a folder.

The lexicon folder is ``--lexica DIR`` (the ``lexica`` argument) or the environment variable
``GCGTOOLS_LEXICA``. A record's ``#lexicon NAME`` is looked up there, case-insensitively, as
``NAME.kwg``, then ``NAME.txt``, then ``NAME.txt.gz`` (then the same for the name's
variants: ECWL is CEL, NWL2023 is NWL23; see :func:`name_variants`). Leaves: ``--leaves PATH``, else
``NAME.klv2``, ``NAME.klv``, ``NAME.csv``, ``LEAVES.klv2``, ``LEAVES.klv``, ``LEAVES.csv`` in
that folder (case-insensitive), else the built-in heuristic.
"""

from __future__ import annotations

import os
import re
from os import PathLike
from pathlib import Path

from gcgtools.lexicon.leaves import Leaves, builtin_leaves, load_leaves
from gcgtools.lexicon.lexicon import Lexicon, load_lexicon
from gcgtools.rules import TileSet

__all__ = [
    "ALIASES",
    "LEXICA_ENV",
    "LEXICON_SUFFIXES",
    "LEAVES_SUFFIXES",
    "find_leaves",
    "find_lexicon",
    "lexica_dir",
    "name_variants",
    "resolve_leaves",
    "resolve_lexicon",
]

LEXICA_ENV = "GCGTOOLS_LEXICA"
LEXICON_SUFFIXES = (".kwg", ".txt", ".txt.gz")
LEAVES_SUFFIXES = (".klv2", ".klv", ".csv")


def lexica_dir(lexica: str | PathLike[str] | None = None) -> Path | None:
    """The lexicon folder: ``lexica`` if given, else ``$GCGTOOLS_LEXICA``, else None."""
    if lexica is not None and str(lexica):
        return Path(lexica).expanduser()
    env = os.environ.get(LEXICA_ENV)
    return Path(env).expanduser() if env else None


def _find(folder: Path, candidates: list[str]) -> Path | None:
    """The first of ``candidates`` (lower-case file names) present in ``folder``."""
    try:
        with os.scandir(folder) as entries:
            names = {e.name.casefold(): e.path for e in entries if e.is_file()}
    except OSError:
        return None
    for candidate in candidates:
        found = names.get(candidate.casefold())
        if found is not None:
            return Path(found)
    return None


#: Other names of the same list, tried when a record's name has no file of its own.
ALIASES: dict[str, tuple[str, ...]] = {"ECWL": ("CEL",), "CEL": ("ECWL",)}


def name_variants(name: str) -> list[str]:
    """The names a lexicon is looked up by, in order: the name itself, its aliases
    (:data:`ALIASES`: Woogles' ECWL is CEL), and the other spelling of a year suffix
    (``NWL2023`` <-> ``NWL23``, ``CSW21`` <-> ``CSW2021``)."""
    stem = name.strip()
    names = [stem, *ALIASES.get(stem.upper(), ())]
    match = re.fullmatch(r"(.*?[A-Za-z])(20)?(\d\d)", stem)
    if match:
        prefix, century, year = match.groups()
        names.append(prefix + year if century else prefix + "20" + year)
    return names


def find_lexicon(name: str | None, lexica_dir: str | PathLike[str] | None) -> Path | None:
    """``NAME.kwg``, ``NAME.txt`` or ``NAME.txt.gz`` in the folder (case-insensitive; the
    name's variants of :func:`name_variants` after the name itself), or None (no name, no
    folder, or no such file)."""
    if not name or not name.strip() or lexica_dir is None:
        return None
    stem = name.strip()
    if "/" in stem or "\\" in stem or stem in (".", ".."):
        return None
    candidates = [n + s for n in name_variants(stem) for s in LEXICON_SUFFIXES]
    return _find(Path(lexica_dir), candidates)


def find_leaves(lexicon_name: str | None, lexica_dir: str | PathLike[str] | None) -> Path | None:
    """The leave file for a lexicon in the folder, or None (see the module docstring)."""
    if lexica_dir is None:
        return None
    candidates: list[str] = []
    stem = (lexicon_name or "").strip()
    if stem and "/" not in stem and "\\" not in stem:
        candidates += [n + s for n in name_variants(stem) for s in LEAVES_SUFFIXES]
    candidates += ["LEAVES" + s for s in LEAVES_SUFFIXES]
    return _find(Path(lexica_dir), candidates)


def resolve_lexicon(
    record_lexicon_name: str | None,
    *,
    path: str | PathLike[str] | None = None,
    lexica: str | PathLike[str] | None = None,
    tiles: TileSet | str | None = None,
) -> Lexicon | None:
    """The lexicon to use: ``path`` if given (errors raise :class:`LexiconError`), else
    the record's lexicon name looked up in the lexicon folder; None when there is no name,
    no folder or no such file (no exception). A file found but unreadable raises
    :class:`LexiconError`."""
    if path is not None:
        return load_lexicon(path, tiles)
    found = find_lexicon(record_lexicon_name, lexica_dir(lexica))
    if found is None:
        return None
    return load_lexicon(found, tiles)


def resolve_leaves(
    *,
    path: str | PathLike[str] | None = None,
    lexica: str | PathLike[str] | None = None,
    lexicon_name: str | None = None,
    tiles: TileSet | str | None = None,
) -> Leaves:
    """The leaves to use: ``path`` if given (errors raise :class:`LeavesError`), else a
    leave file for ``lexicon_name`` in the lexicon folder, else :func:`builtin_leaves`."""
    if path is not None:
        return load_leaves(path, tiles)
    found = find_leaves(lexicon_name, lexica_dir(lexica))
    if found is None:
        return builtin_leaves(tiles)
    return load_leaves(found, tiles)
