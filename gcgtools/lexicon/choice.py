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

A file that is given or found but is missing, unreadable or damaged is an error, never "no
analysis": :meth:`LexiconChoice.check` checks the files given before a batch starts, and
:func:`choose` raises :class:`~gcgtools.lexicon.LexiconError` or
:class:`~gcgtools.lexicon.LeavesError` for a file it cannot use (a batch worker reports that
record as failed, with the message).
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
    "LEXICA_ENV", "NO_CHOICE", "Chosen", "LexiconChoice", "choose", "describe", "fingerprint",
    "preload",
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

    def check(self, tiles: TileSet | str | None = None) -> None:
        """Check the files given before any record is read: the ``--lexicon`` file (its
        structure, and its tile numbers when ``tiles`` or its name tells the tile set),
        the ``--leaves`` file and the lexicon folder. Raises
        :class:`~gcgtools.lexicon.LexiconError` or :class:`~gcgtools.lexicon.LeavesError`
        (one line naming the file)."""
        from gcgtools.lexicon.leaves import check_leaves_file
        from gcgtools.lexicon.lexicon import LexiconError, check_lexicon_file

        if self.lexicon is not None:
            check_lexicon_file(self.lexicon, tiles)
        if self.leaves is not None:
            check_leaves_file(self.leaves, tiles)
        folder = self.folder
        if self.lexicon is None and folder is not None and not os.path.isdir(folder):
            where = "--lexica" if self.lexica else f"${LEXICA_ENV}"
            raise LexiconError(f"{folder}: not a folder (the lexicon folder given by {where})")

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


NO_CHOICE = LexiconChoice()
"""No lexicon, lexicon folder or leaves given (``$GCGTOOLS_LEXICA`` may still name a folder)."""


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
_LEXICONS: dict[tuple[str, str], Lexicon] = {}
_LEAVES: dict[tuple[str | None, str | None, str | None, str], Leaves] = {}
_FAILED: dict[tuple[str, str], Exception] = {}
# Lexicons loaded by the caller (a notebook, a test): worker processes forked afterwards
# inherit them, so a loaded lexicon is never pickled.
_PRELOADED: dict[int, tuple[Lexicon, Leaves | None]] = {}


def preload(lexicon: Lexicon, leaves: Leaves | None = None) -> LexiconChoice:
    """A choice that stands for an already loaded ``lexicon`` (and ``leaves``), usable in
    this process and in worker processes forked after this call."""
    token = id(lexicon) ^ (id(leaves) << 1)
    _PRELOADED[token] = (lexicon, leaves)
    return LexiconChoice(preloaded=token)


def _load(path: str, tiles: TileSet | None) -> Lexicon:
    """The lexicon file ``path`` for ``tiles``, loaded once per process; raises
    :class:`~gcgtools.lexicon.LexiconError` (also each later time) when it cannot be."""
    from gcgtools.lexicon import LexiconError, load_lexicon

    key = (os.path.abspath(path), _tiles_key(tiles))
    failed = _FAILED.get(key)
    if failed is not None:
        raise failed
    lexicon = _LEXICONS.get(key)
    if lexicon is None:
        try:
            lexicon = load_lexicon(path, tiles)
        except LexiconError as exc:
            _FAILED[key] = exc
            raise
        except OSError as exc:  # pragma: no cover - load_lexicon turns these into errors
            _FAILED[key] = LexiconError(f"{path}: {exc.strerror or exc}", path)
            raise _FAILED[key] from None
        _LEXICONS[key] = lexicon
    return lexicon


def _tiles_key(tiles: TileSet | None) -> str:
    """What tells tile sets apart for the per-process cache: name and tiles (a custom tile
    set may share a built-in one's name)."""
    if tiles is None:
        return ""
    return f"{tiles.name}|{','.join(tiles.letters)}|{','.join(sorted(tiles.bracket_only))}"


def _leaves(choice: LexiconChoice, lexicon_name: str | None, tiles: TileSet | None) -> Leaves:
    """The leaves for a lexicon, loaded once per process; raises
    :class:`~gcgtools.lexicon.LeavesError` for a leave file given or found that cannot be
    used (never a silent fall-back to the built-in leaves)."""
    from gcgtools.lexicon import resolve_leaves

    key = (choice.leaves, choice.folder, lexicon_name, _tiles_key(tiles))
    if key not in _LEAVES:
        _LEAVES[key] = resolve_leaves(
            path=choice.leaves, lexica=choice.folder, lexicon_name=lexicon_name, tiles=tiles
        )
    return _LEAVES[key]


def choose(choice: LexiconChoice, record_lexicon: str | None, tiles: TileSet | None) -> Chosen:
    """The lexicon and leaves for a record whose ``#lexicon`` is ``record_lexicon`` and
    whose tiles are ``tiles``; loaded once per process. No lexicon to use (none given, the
    record names none, or its name has no file in the folder): :attr:`Chosen.message` says
    why. A file given or found that cannot be used raises
    :class:`~gcgtools.lexicon.LexiconError` / :class:`~gcgtools.lexicon.LeavesError`."""
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
        lexicon = _load(choice.lexicon, tiles)
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
        lexicon = _load(os.fspath(found), tiles)
    return Chosen(lexicon, _leaves(choice, lexicon.name, tiles))


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
