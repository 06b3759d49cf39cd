"""Which lexicon and which leaves an analysis uses, as the analysing commands choose them.

The user's choice (:class:`LexiconChoice`: ``--lexicon PATH``, ``--lexica DIR`` or the
environment variable ``GCGTOOLS_LEXICA``, ``--leaves PATH``) is small and picklable, so it
travels to worker processes; each process loads a lexicon once and keeps it
(:func:`choose`), keyed by the file and the tile set its words are split by.

Order of the search, per record:

1. ``--lexicon PATH``: that file, whatever the record's ``#lexicon`` says;
2. else the record's ``#lexicon NAME`` looked up in the lexicon folder as ``NAME.kwg``,
   ``NAME.txt`` or ``NAME.txt.gz`` (:func:`gcgtools.lexicon.resolve_lexicon`);
3. else no lexicon: :attr:`Chosen.message` says why in one line, and the analysis only
   reports what needs no lexicon.

Leaves: ``--leaves PATH``, else ``LEAVES.klv2`` / ``NAME.klv2`` in the lexicon folder,
else the built-in heuristic (:func:`gcgtools.lexicon.resolve_leaves`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gcgtools.lexicon.lookup import LEXICA_ENV
from gcgtools.wording import NO_LEXICON, no_lexicon

if TYPE_CHECKING:
    from gcgtools.lexicon import Leaves, Lexicon
    from gcgtools.rules.tiles import TileSet

__all__ = [
    "LEXICA_ENV", "Chosen", "LexiconChoice", "choose", "describe", "fingerprint", "preload",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class LexiconChoice:
    """What the user asked for: a lexicon file, a lexicon folder, a leaves file. Any of
    them may be None; ``lexica`` None means the folder named by ``GCGTOOLS_LEXICA``."""

    lexicon: str | None = None
    lexica: str | None = None
    leaves: str | None = None
    preloaded: int | None = None  # a lexicon already loaded in this process (preload())

    @classmethod
    def of(
        cls,
        lexicon: str | os.PathLike[str] | Lexicon | LexiconChoice | None = None,
        lexica: str | os.PathLike[str] | None = None,
        leaves: str | os.PathLike[str] | Leaves | None = None,
    ) -> LexiconChoice:
        """The choice from paths, or from a loaded lexicon (and leaves) or a choice."""
        if isinstance(lexicon, LexiconChoice):
            return lexicon
        if lexicon is not None and not isinstance(lexicon, (str, os.PathLike)):
            if isinstance(leaves, (str, os.PathLike)):
                from gcgtools.lexicon import load_leaves

                leaves = load_leaves(leaves, lexicon.tiles)
            return preload(lexicon, leaves)
        if leaves is not None and not isinstance(leaves, (str, os.PathLike)):
            raise TypeError("leaves: a path, unless the lexicon is a loaded one too")
        return cls(
            os.fspath(lexicon) if lexicon is not None else None,
            os.fspath(lexica) if lexica is not None else None,
            os.fspath(leaves) if leaves is not None else None,
        )

    @property
    def folder(self) -> str | None:
        """The lexicon folder: ``--lexica``, else ``$GCGTOOLS_LEXICA`` (None when neither)."""
        return self.lexica or os.environ.get(LEXICA_ENV) or None

    @property
    def wanted(self) -> bool:
        """Whether the user gave anything that may lead to a lexicon."""
        return self.lexicon is not None or self.folder is not None or self.preloaded is not None

    @property
    def given(self) -> bool:
        """Whether a lexicon or a lexicon folder was given explicitly (not only through
        the environment)."""
        return self.lexicon is not None or self.lexica is not None or self.preloaded is not None


@dataclass(slots=True)
class Chosen:
    """The lexicon and leaves for one record. ``lexicon`` None: ``message`` says why."""

    lexicon: Lexicon | None
    leaves: Leaves | None
    message: str | None = None

    @property
    def lexicon_name(self) -> str | None:
        return self.lexicon.name if self.lexicon is not None else None

    @property
    def leaves_name(self) -> str | None:
        return self.leaves.name if self.leaves is not None else None

    def describe(self) -> str:
        """One line: which lexicon and leaves (or why there is no lexicon)."""
        return describe(self.lexicon, self.leaves, self.message)


def describe(lexicon: Any, leaves: Any, message: str | None = None) -> str:
    """``lexicon NAME: SOURCE; leaves NAME: SOURCE``, or the reason there is none."""
    if lexicon is None:
        return message or NO_LEXICON
    text = f"lexicon {lexicon.name}: {lexicon.source}"
    if leaves is not None:
        text += f"; leaves {leaves.name}: {leaves.source}"
    return text


# Loaded lexicons and leaves of this process, by what identifies them. A lexicon is a few
# megabytes: a batch of records names few of them, and each is loaded once per process.
_LEXICONS: dict[tuple[str, str], Lexicon | None] = {}
_LEAVES: dict[tuple[str | None, str | None, str | None, str], Leaves] = {}
_FAILED: dict[tuple[str, str], str] = {}
# Lexicons loaded by the caller (a notebook, a test): worker processes forked afterwards
# inherit them, so a loaded lexicon is never pickled.
_PRELOADED: dict[int, tuple[Lexicon, Leaves | None]] = {}


def preload(lexicon: Lexicon, leaves: Leaves | None = None) -> LexiconChoice:
    """A choice that stands for an already loaded ``lexicon`` (and ``leaves``), usable in
    this process and in worker processes forked after this call."""
    token = id(lexicon) ^ (id(leaves) << 1)
    _PRELOADED[token] = (lexicon, leaves)
    return LexiconChoice(preloaded=token)


def _load(path: str, tiles: TileSet | None) -> tuple[Lexicon | None, str | None]:
    from gcgtools.lexicon import load_lexicon

    key = (os.path.abspath(path), tiles.name if tiles is not None else "")
    if key in _LEXICONS:
        return _LEXICONS[key], _FAILED.get(key)
    try:
        lexicon: Lexicon | None = load_lexicon(path, tiles)
        reason = None
    except (OSError, ValueError) as exc:  # missing, unreadable or malformed file
        lexicon = None
        reason = str(exc) if not isinstance(exc, OSError) else f"{path}: {exc.strerror or exc}"
        _FAILED[key] = reason
    _LEXICONS[key] = lexicon
    return lexicon, reason


def _leaves(
    choice: LexiconChoice, lexicon_name: str | None, tiles: TileSet | None
) -> tuple[Leaves, str | None]:
    from gcgtools.lexicon import builtin_leaves, resolve_leaves

    key = (choice.leaves, choice.folder, lexicon_name, tiles.name if tiles is not None else "")
    if key in _LEAVES:
        return _LEAVES[key], None
    try:
        leaves = resolve_leaves(
            path=choice.leaves, lexica=choice.folder, lexicon_name=lexicon_name, tiles=tiles
        )
        reason = None
    except (OSError, ValueError) as exc:
        leaves = builtin_leaves(tiles)
        reason = f"{exc}; the built-in leaves are used"
    _LEAVES[key] = leaves
    return leaves, reason


def choose(choice: LexiconChoice, record_lexicon: str | None, tiles: TileSet | None) -> Chosen:
    """The lexicon and leaves for a record whose ``#lexicon`` is ``record_lexicon`` and
    whose tiles are ``tiles``; loaded once per process. Never raises for a missing or bad
    file: :attr:`Chosen.message` says what went wrong."""
    if choice.preloaded is not None:
        loaded = _PRELOADED.get(choice.preloaded)
        if loaded is None:
            return Chosen(
                None, None, no_lexicon(
                    "a loaded lexicon does not reach spawned worker processes: give its path"
                ),
            )  # fmt: skip
        lexicon, leaves = loaded
        if leaves is None:
            from gcgtools.lexicon import builtin_leaves

            leaves = builtin_leaves(lexicon.tiles)
        return Chosen(lexicon, leaves)
    if choice.lexicon is not None:
        lexicon, reason = _load(choice.lexicon, tiles)
    else:
        folder = choice.folder
        if folder is None:
            return Chosen(None, None, no_lexicon())
        if not record_lexicon:
            return Chosen(None, None, no_lexicon("the record names none (#lexicon)"))
        from gcgtools.lexicon import find_lexicon

        found = find_lexicon(record_lexicon, folder)
        if found is None:
            return Chosen(
                None,
                None,
                no_lexicon(
                    f"{record_lexicon} not found in {folder} (looked for {record_lexicon}.kwg, "
                    ".txt, .txt.gz)"
                ),
            )
        lexicon, reason = _load(os.fspath(found), tiles)
    if lexicon is None:
        return Chosen(None, None, no_lexicon(reason))
    leaves, problem = _leaves(choice, lexicon.name, tiles)
    return Chosen(lexicon, leaves, problem)


def _file_identity(path: str | None) -> list[object] | None:
    """A file's absolute path, size and modification time (None: no file given)."""
    if path is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return [os.path.abspath(path), None, None]
    return [os.path.abspath(path), st.st_size, st.st_mtime_ns]


def _folder_identity(folder: str | None) -> list[list[object]] | None:
    """The lexicon and leave files of a folder, each with its size and date."""
    if folder is None:
        return None
    suffixes = (".kwg", ".txt", ".gz", ".klv2", ".klv", ".csv")
    try:
        with os.scandir(folder) as entries:
            found = [
                [e.name, e.stat().st_size, e.stat().st_mtime_ns]
                for e in entries
                if e.name.lower().endswith(suffixes)
            ]
    except OSError:
        return [[os.path.abspath(folder)]]
    return [[os.path.abspath(folder)], *sorted(found)]


def fingerprint(choice: LexiconChoice) -> dict[str, object]:
    """What identifies the lexicon and leaves a choice may lead to, for cache keys: the
    files (path, size, date) rather than their names only, so that a changed file misses."""
    if choice.preloaded is not None:
        loaded = _PRELOADED.get(choice.preloaded)
        if loaded is None:
            return {"preloaded": None}
        lexicon, leaves = loaded
        return {
            "preloaded": [lexicon.name, str(lexicon.source), len(lexicon)],
            "leaves": [leaves.name, str(leaves.source)] if leaves is not None else None,
        }
    return {
        "lexicon": _file_identity(choice.lexicon),
        "lexica": _folder_identity(choice.folder) if choice.lexicon is None or
        choice.leaves is None else None,
        "leaves": _file_identity(choice.leaves),
    }  # fmt: skip
