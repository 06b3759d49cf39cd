"""The compiled-lexicon cache: a word list is compiled to a KWG once, then loaded from it.

Entries live in ``<cache folder>/lexica/``; the cache folder is ``$GCGTOOLS_CACHE_DIR`` when
set, else ``platformdirs.user_cache_dir("gcgtools")``. An entry is keyed by everything the
compiled form depends on (:func:`cache_key`): the SHA-256 of the word list's bytes, the tile
set's identity (its name and every tile in canonical order, multi-letter tiles and tiles a
custom tile file or pragma defines included), the longest word kept and the format version.
It is two files: ``<key>.kwg`` (our own KWG, readable by wolges and MAGPIE) and ``<key>.json``
(what the list held: word count, skipped counts, lines read as Latin-1, the size and SHA-256
of the ``.kwg``). Every field of the ``.json`` is checked (type and range), the ``.kwg``
against its size and hash, and the graph's word count against the ``.json``: an entry that
is missing, unreadable, malformed or does not match is ignored and rebuilt. A cache folder
that cannot be written is not an error (the lexicon is then compiled each time).

While a process compiles a list it holds ``<key>.lock`` (created exclusively), which names
its holder: process id, host and start time. Another process that wants the same entry
waits for the lock to go (saying so after a second), then loads the entry, so batch
workers starting together compile a list once. A lock whose process is gone (same host, no
such process) or that is unreadable or older than :data:`STALE_LOCK` is taken over at once;
nobody waits more than :data:`MAX_WAIT` seconds.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from gcgtools.console import echo
from gcgtools.rules import TileSet
from gcgtools.sources.atomic import write_atomic
from gcgtools.sources.cachedir import CACHE_ENV, cache_root
from gcgtools.sources.limited import read_limited

__all__ = [
    "CACHE_ENV",
    "FORMAT_VERSION",
    "CachedEntry",
    "LexiconCacheInfo",
    "cache_dir",
    "cache_info",
    "cache_key",
    "clear",
    "compiling",
    "load",
    "store",
    "tiles_identity",
]

#: bump when the compiled form or the word-list reading rules change
FORMAT_VERSION = 3
#: seconds after which any compile lock is taken to belong to a dead process
STALE_LOCK = 600.0
#: longest wait for another process's compile, in seconds
MAX_WAIT = 900.0
#: seconds of waiting after which the waiter says whom it waits for
SAY_AFTER = 1.0
POLL = 0.1
#: the largest compiled KWG or meta file read back (as a KWG file)
MAX_ENTRY_BYTES = 64 * 1024 * 1024
MAX_META_BYTES = 1024 * 1024
_COUNT_LIMIT = 1 << 40
_SKIPPED_KINDS = frozenset({"letters", "short", "long"})


def cache_dir() -> Path:
    """The folder holding compiled lexicons (``lexica/`` in the cache folder)."""
    return cache_root() / "lexica"


def tiles_identity(tiles: TileSet) -> str:
    """What of a tile set the compiled form depends on: its name and its tiles in
    canonical order (tile numbers follow that order; multi-letter tiles change how words
    are split)."""
    return json.dumps([tiles.name, list(tiles.letters)], ensure_ascii=True)


def cache_key(source: bytes, tiles: TileSet, max_length: int) -> str:
    """The entry's key: the word list's bytes, the tile set's identity, the longest word
    kept and :data:`FORMAT_VERSION`."""
    digest = hashlib.sha256(source).hexdigest()
    extra = f"{tiles_identity(tiles)}|{max_length}|{FORMAT_VERSION}".encode()
    return f"{digest[:40]}-{hashlib.sha256(extra).hexdigest()[:16]}"


@dataclass
class CachedEntry:
    kwg_bytes: bytes
    words: int
    skipped: dict[str, int]
    path: Path
    latin1_lines: list[int] = field(default_factory=list)


def _count(value: object) -> int | None:
    """``value`` if it is a plain int (not a bool) in 0..2**40, else None."""
    if type(value) is not int or not 0 <= value < _COUNT_LIMIT:
        return None
    return value


def _meta_entry(meta: object, data: bytes, path: Path) -> CachedEntry | None:
    """The entry a ``.json`` describes, if every field is of the right type and range and
    the ``.kwg`` bytes match its size and hash; else None."""
    if not isinstance(meta, dict) or meta.get("format") != FORMAT_VERSION:
        return None
    words = _count(meta.get("words"))
    size = _count(meta.get("kwg_size"))
    skipped = meta.get("skipped")
    lines = meta.get("latin1_lines", [])
    if words is None or not words or size != len(data) or not isinstance(skipped, dict):
        return None
    if meta.get("kwg_sha256") != hashlib.sha256(data).hexdigest():
        return None
    counts: dict[str, int] = {}
    for kind, n in skipped.items():
        value = _count(n)
        if kind not in _SKIPPED_KINDS or value is None:
            return None
        counts[kind] = value
    if not isinstance(lines, list) or any(_count(n) is None for n in lines):
        return None
    return CachedEntry(data, words, counts, path, list(lines))


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number of a cache entry")


def load(key: str) -> CachedEntry | None:
    """The entry for ``key``, or ``None`` when absent, damaged or inconsistent (the
    caller then compiles the list again and stores a fresh entry)."""
    folder = cache_dir()
    try:
        raw = read_limited(folder / f"{key}.json", MAX_META_BYTES, "a cache entry")
        meta = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
        data = read_limited(folder / f"{key}.kwg", MAX_ENTRY_BYTES, "a cache entry")
    except (OSError, ValueError, RecursionError):
        return None
    return _meta_entry(meta, data, folder / f"{key}.kwg")


def store(
    key: str,
    kwg_bytes: bytes,
    words: int,
    skipped: dict[str, int],
    source: str,
    latin1_lines: list[int] | None = None,
) -> bool:
    """Write an entry; ``False`` (and nothing raised) when the folder is not writable."""
    folder = cache_dir()
    meta = {
        "format": FORMAT_VERSION,
        "source": source,
        "words": words,
        "skipped": skipped,
        "latin1_lines": list(latin1_lines or []),
        "kwg_size": len(kwg_bytes),
        "kwg_sha256": hashlib.sha256(kwg_bytes).hexdigest(),
    }
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / f"{key}.kwg", kwg_bytes)
        write_atomic(folder / f"{key}.json", json.dumps(meta, indent=1).encode("utf-8"))
    except OSError:
        return False
    return True


# ----------------------------------------------------------------------------- locks

_STARTED = time.time()


def _host() -> str:
    import socket  # here: only a compile or a wait for a lock needs it (slow to import)

    return socket.gethostname()


def _holder() -> dict[str, object]:
    return {"pid": os.getpid(), "host": _host(), "started": _STARTED}


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists on this host."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # exists, owned by someone else
    return True


def lock_holder(lock: Path) -> dict[str, object] | None:
    """What a lock file says of its holder, or None when unreadable or malformed."""
    try:
        info = json.loads(read_limited(lock, 4096, "a lock file").decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict) or _count(info.get("pid")) is None:
        return None
    if not isinstance(info.get("host"), str):
        return None
    started = info.get("started")
    if not isinstance(started, (int, float)) or not math.isfinite(started):
        return None
    return info


def _stale(lock: Path) -> bool:
    """Whether a lock belongs to no live process: its holder is gone (same host), it names
    none (a lock of an old version, or one cut short), or it is older than STALE_LOCK."""
    try:
        age = time.time() - lock.stat().st_mtime
    except OSError:
        return False  # gone already: the caller tries again
    if age > STALE_LOCK:
        return True
    holder = lock_holder(lock)
    if holder is None:
        return age > 2.0  # being written right now, or never will be
    if holder["host"] != _host():
        return False  # cannot tell on another host: wait (up to STALE_LOCK)
    return not _alive(int(holder["pid"]))  # type: ignore[call-overload]


def _say_waiting(lock: Path) -> None:
    holder = lock_holder(lock) or {}
    who = f"process {holder.get('pid')} on {holder.get('host')}" if holder else "another process"
    # the lock file is anyone's on a shared cache: its host and pid are shown escaped
    echo(f"gcgtools: waiting for {who} to compile a lexicon ({lock})", err=True)


def _take(lock: Path) -> int | None:
    """Create the lock exclusively, naming this process; None when it exists."""
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return None
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(json.dumps(_holder()))
    return 0


@contextmanager
def compiling(key: str, say: Callable[[Path], None] = _say_waiting) -> Iterator[bool]:
    """Hold the compile lock of ``key`` for the ``with`` block. Yields False when this
    process holds the lock (or cannot lock: no writable folder), True after waiting for
    another process's lock to go (then the entry is probably there: load it first)."""
    folder = cache_dir()
    lock = folder / f"{key}.lock"
    start = time.monotonic()
    waited = said = False
    while True:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if _take(lock) is not None:
                break
        except OSError:
            yield waited  # cannot create files here: compile without a lock
            return
        if _stale(lock):
            lock.unlink(missing_ok=True)  # its process is gone: take it over
            continue
        if time.monotonic() - start > MAX_WAIT:
            yield True  # waited long enough: compile without the lock
            return
        if not said and time.monotonic() - start > SAY_AFTER:
            say(lock)
            said = True
        waited = True
        time.sleep(POLL)
        if not lock.exists():
            yield True
            return
    try:
        yield waited
    finally:
        lock.unlink(missing_ok=True)


# ------------------------------------------------------------------ info and clear


@dataclass
class LexiconCacheInfo:
    folder: Path
    entries: int
    size: int


def cache_info() -> LexiconCacheInfo:
    """The compiled-lexicon folder, its entries (a ``.kwg`` with its ``.json``) and size."""
    folder = cache_dir()
    entries = size = 0
    try:
        with os.scandir(folder) as found:
            for e in found:
                if e.is_file(follow_symlinks=False) and e.name.endswith((".kwg", ".json")):
                    size += e.stat(follow_symlinks=False).st_size
                    entries += e.name.endswith(".kwg")
    except OSError:
        pass
    return LexiconCacheInfo(folder, entries, size)


def clear() -> int:
    """Remove every compiled lexicon (and leftover locks); the number of entries removed."""
    removed = 0
    try:
        with os.scandir(cache_dir()) as found:
            names = [
                Path(e.path) for e in found if e.name.endswith((".kwg", ".json", ".lock", ".tmp"))
            ]
    except OSError:
        return 0
    for path in names:
        try:
            path.unlink()
        except OSError:
            continue
        removed += path.suffix == ".kwg"
    return removed
