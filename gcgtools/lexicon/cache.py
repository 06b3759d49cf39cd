"""The compiled-lexicon cache: a word list is compiled to a KWG once, then loaded from it.

Entries live in ``<cache folder>/lexica/``; the cache folder is ``$GCGTOOLS_CACHE_DIR`` when
set, else ``platformdirs.user_cache_dir("gcgtools")``. An entry is keyed by the SHA-256 of
the word list's bytes, the tile set, the longest word kept and the format version, and is
two files: ``<key>.kwg`` (our own KWG, readable by wolges and MAGPIE) and ``<key>.json``
(what the list held: words, skipped counts, and the SHA-256 of the ``.kwg``). An entry whose
files are missing, unreadable, malformed or do not match is ignored and rebuilt; a cache
folder that cannot be written is not an error (the lexicon is then compiled each time).

While a process compiles a list it holds ``<key>.lock`` (created exclusively); another
process that wants the same entry waits for the lock to go, then loads the entry, so
batch workers starting together compile a list once, not once each. A lock older than
:data:`STALE_LOCK` seconds (its process died) is ignored, and nobody waits more than
:data:`MAX_WAIT` seconds: then it compiles the list itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from gcgtools.sources.atomic import write_atomic
from gcgtools.sources.cachedir import CACHE_ENV, cache_root

__all__ = [
    "CACHE_ENV",
    "FORMAT_VERSION",
    "CachedEntry",
    "cache_dir",
    "cache_key",
    "compiling",
    "load",
    "store",
]

#: bump when the compiled form or the word-list reading rules change
FORMAT_VERSION = 2
#: seconds after which a compile lock is taken to belong to a dead process
STALE_LOCK = 600.0
#: longest wait for another process's compile, in seconds
MAX_WAIT = 900.0
POLL = 0.1


def cache_dir() -> Path:
    """The folder holding compiled lexicons (``lexica/`` in the cache folder)."""
    return cache_root() / "lexica"


def cache_key(source: bytes, tiles: str, max_length: int) -> str:
    digest = hashlib.sha256(source).hexdigest()
    extra = hashlib.sha256(f"{tiles}|{max_length}|{FORMAT_VERSION}".encode()).hexdigest()
    return f"{digest[:40]}-{extra[:12]}"


@dataclass
class CachedEntry:
    kwg_bytes: bytes
    words: int
    skipped: dict[str, int]
    path: Path


def load(key: str) -> CachedEntry | None:
    """The entry for ``key``, or ``None`` when absent or damaged."""
    folder = cache_dir()
    try:
        meta = json.loads((folder / f"{key}.json").read_text(encoding="utf-8"))
        data = (folder / f"{key}.kwg").read_bytes()
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT_VERSION:
        return None
    if meta.get("kwg_sha256") != hashlib.sha256(data).hexdigest():
        return None
    words = meta.get("words")
    skipped = meta.get("skipped")
    if not isinstance(words, int) or not isinstance(skipped, dict):
        return None
    skipped_counts = {str(k): int(v) for k, v in skipped.items()}
    return CachedEntry(data, words, skipped_counts, folder / f"{key}.kwg")


def store(key: str, kwg_bytes: bytes, words: int, skipped: dict[str, int], source: str) -> bool:
    """Write an entry; ``False`` (and nothing raised) when the folder is not writable."""
    folder = cache_dir()
    meta = {
        "format": FORMAT_VERSION,
        "source": source,
        "words": words,
        "skipped": skipped,
        "kwg_sha256": hashlib.sha256(kwg_bytes).hexdigest(),
    }
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / f"{key}.kwg", kwg_bytes)
        write_atomic(folder / f"{key}.json", json.dumps(meta, indent=1).encode("utf-8"))
    except OSError:
        return False
    return True


@contextmanager
def compiling(key: str) -> Iterator[bool]:
    """Hold the compile lock of ``key`` for the ``with`` block. Yields False when this
    process holds the lock (or cannot lock: no writable folder), True after waiting for
    another process's lock to go (then the entry is probably there: load it first)."""
    folder = cache_dir()
    lock = folder / f"{key}.lock"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        yield False
        return
    waited = False
    deadline = time.monotonic() + MAX_WAIT
    while True:
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                age = time.time() - lock.stat().st_mtime
            except OSError:
                continue  # released just now: try again
            if age > STALE_LOCK:
                lock.unlink(missing_ok=True)  # its process died: take it over
                continue
            if time.monotonic() > deadline:
                yield True  # waited long enough: compile without the lock
                return
            waited = True
            time.sleep(POLL)
            if not lock.exists():
                yield True
                return
            continue
        except OSError:
            yield waited  # cannot create files here: compile without a lock
            return
        break
    try:
        os.close(fd)
        yield waited
    finally:
        lock.unlink(missing_ok=True)
