"""The compiled-lexicon cache: a word list is compiled to a KWG once, then loaded from it.

Entries live in ``<cache folder>/lexica/``; the cache folder is ``$GCGTOOLS_CACHE_DIR`` when
set, else ``platformdirs.user_cache_dir("gcgtools")``. An entry is keyed by the SHA-256 of
the word list's bytes, the tile set, the longest word kept and the format version, and is
two files: ``<key>.kwg`` (our own KWG, readable by wolges and MAGPIE) and ``<key>.json``
(what the list held: words, skipped counts, and the SHA-256 of the ``.kwg``). An entry whose
files are missing, unreadable, malformed or do not match is ignored and rebuilt; a cache
folder that cannot be written is not an error (the lexicon is then compiled each time).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from gcgtools.atomic import write_atomic

__all__ = ["CACHE_ENV", "FORMAT_VERSION", "CachedEntry", "cache_dir", "cache_key", "load", "store"]

CACHE_ENV = "GCGTOOLS_CACHE_DIR"
#: bump when the compiled form or the word-list reading rules change
FORMAT_VERSION = 1


def cache_dir() -> Path:
    """The folder holding compiled lexicons."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser() / "lexica"
    import platformdirs

    return Path(platformdirs.user_cache_dir("gcgtools")) / "lexica"


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
    return CachedEntry(data, words, {str(k): int(v) for k, v in skipped.items()}, folder / key)


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
