"""A persistent cache of per-record results, in the user's cache folder.

Some results cost far more than reading the record (analysing every position by move
generation takes tens of milliseconds each), so they are kept between runs. An entry is
keyed by the record's **content** (its SHA-256, not its name or date), the parameters the
result depends on (lexicon, leaves, rules, ...), a ``kind`` naming what was computed, and
the gcgtools version: a changed file, other parameters or another release simply miss.

>>> cache = ResultCache("analysis", {"lexicon": "NWL23", "leaves": "builtin"})  # doctest: +SKIP
>>> result = cache.fetch(record_bytes, lambda: analyse(record_bytes))  # doctest: +SKIP

Entries live in ``<cache folder>/results/<kind>/<ab>/<key>.entry`` where the cache
folder is ``platformdirs.user_cache_dir("gcgtools")``, or the folder named by the
environment variable ``GCGTOOLS_CACHE_DIR`` (compiled lexicons use that folder too, in
their own subfolder). Each entry is written atomically (a temporary file moved into
place) and starts with a header giving the gcgtools version, its key and the SHA-256 of
its payload; an entry whose header, version, key or checksum does not match (a torn or
corrupt file, one written by another version) is never trusted: it counts as a miss, is
recomputed and overwritten. Payloads are JSON data (:mod:`gcgtools.batch.codec`), not
pickles: reading an entry cannot run code, even from a folder others can write to (a
shared cache on a cluster); an entry that does not decode to gcgtools data is a miss.
The folder is still created private (``0o700``) when gcgtools makes it.

Hits and misses are counted persistently (``results/stats.log``, one line appended per
:meth:`ResultCache.flush`, which is safe from many processes at once), for
``gcgtools cache info``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from gcgtools._version import __version__
from gcgtools.batch.codec import CodecError, decode, encode
from gcgtools.sources.cachedir import cache_root

T = TypeVar("T")

RESULTS = "results"
STATS_FILE = "stats.log"
_MAGIC = b"GCGTOOLS-CACHE 2\n"  # 2: JSON payloads (1 was pickles, never read)
_SUFFIX = ".entry"
_MISSING = object()


def results_folder(root: str | os.PathLike[str] | None = None) -> Path:
    """The folder of the result cache (``results/`` in the cache folder)."""
    return (Path(root) if root is not None else cache_root()) / RESULTS


def content_hash(data: bytes) -> str:
    """The SHA-256 of a record's bytes, in hex: what identifies a record in the cache."""
    return hashlib.sha256(data).hexdigest()


def _check_kind(kind: str) -> str:
    if not kind or not all(c.isalnum() or c in "-_." for c in kind) or kind.startswith("."):
        raise ValueError(f"cache kind {kind!r}: use letters, digits, '-', '_' or '.'")
    return kind


class ResultCache:
    """Results of ``kind`` computed with ``params``, keyed by each record's content.

    ``expect``: the type of every result (``RecordAnalysis`` for analyses); an entry that
    decodes to anything else is a miss, as a damaged one is.

    ``params`` must be JSON-serialisable (other values are keyed by their ``str``); name
    the lexicon and leaves by something that changes when their contents do (a checksum,
    or name and size and date), not only by a name. ``enabled=False`` (``--no-cache``)
    makes every lookup a miss and stores nothing. Reading or writing problems (a
    read-only folder, a full disk) never fail the caller: the result is computed and the
    cache is just not used.
    """

    def __init__(
        self,
        kind: str,
        params: Mapping[str, Any] | None = None,
        *,
        folder: str | os.PathLike[str] | None = None,
        enabled: bool = True,
        version: str = __version__,
        expect: type | tuple[type, ...] | None = None,
    ) -> None:
        self.kind = _check_kind(kind)
        self.expect = expect
        self.params = dict(params or {})
        self.folder = Path(folder) if folder is not None else results_folder()
        self.enabled = enabled
        self.version = version
        self.hits = self.misses = 0  # since this object was made
        self._unsaved = [0, 0]  # hits, misses not yet appended to the stats log
        self._prefix = json.dumps(
            {"kind": kind, "params": self.params, "version": version},
            sort_keys=True,
            default=str,
        ).encode()

    # ------------------------------------------------------------------ keys
    def key(self, content: bytes | str) -> str:
        """The key of a record: ``content`` is its bytes (or their :func:`content_hash`,
        a 64-character hex string, when the caller already has it)."""
        digest = content if isinstance(content, str) else content_hash(content)
        return hashlib.sha256(self._prefix + b"\0" + digest.encode()).hexdigest()

    def path(self, key: str) -> Path:
        """Where the entry of ``key`` is stored."""
        return self.folder / self.kind / key[:2] / (key + _SUFFIX)

    # ----------------------------------------------------------- get and put
    def get(self, key: str, default: Any = None) -> Any:
        """The stored result of ``key``, or ``default`` on a miss (no entry, or one that
        cannot be trusted). Counts the hit or miss."""
        value = self._load(key) if self.enabled else _MISSING
        if value is _MISSING:
            self.misses += 1
            self._unsaved[1] += 1
            return default
        self.hits += 1
        self._unsaved[0] += 1
        return value

    def put(self, key: str, value: Any) -> bool:
        """Store ``value`` under ``key`` atomically; False if it could not be stored."""
        if not self.enabled:
            return False
        try:
            payload = encode(value)
        except (CodecError, ValueError, RecursionError):  # not plain data: not cached
            return False
        header = {
            "version": self.version,
            "key": key,
            "size": len(payload),
            "sha256": content_hash(payload),
        }
        target = self.path(key)
        tmp = None
        try:
            _private_dirs(self.folder, target.parent)
            fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=target.parent)
            with os.fdopen(fd, "wb") as fh:
                fh.write(_MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n")
                fh.write(payload)
            os.replace(tmp, target)
        except OSError:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            return False
        return True

    def fetch(self, content: bytes | str, compute: Callable[[], T]) -> T:
        """The cached result for the record ``content``, or ``compute()`` stored."""
        key = self.key(content)
        value = self.get(key, _MISSING)
        if value is _MISSING:
            value = compute()
            self.put(key, value)
        return value  # type: ignore[no-any-return]

    def _load(self, key: str) -> Any:
        try:
            data = self.path(key).read_bytes()
        except OSError:
            return _MISSING
        if not data.startswith(_MAGIC):
            return _MISSING
        end = data.find(b"\n", len(_MAGIC))
        try:
            header = json.loads(data[len(_MAGIC) : end])
        except ValueError:
            return _MISSING
        payload = data[end + 1 :]
        if (
            end < 0
            or not isinstance(header, dict)
            or header.get("version") != self.version
            or header.get("key") != key
            or header.get("size") != len(payload)
            or header.get("sha256") != content_hash(payload)
        ):
            return _MISSING
        try:
            value = decode(payload)
        except CodecError:  # e.g. a class since renamed, or not gcgtools data: recompute
            return _MISSING
        if self.expect is not None and not isinstance(value, self.expect):
            return _MISSING  # well-formed data, but not a result of this kind
        return value

    # ----------------------------------------------------------------- counts
    def flush(self) -> None:
        """Append the hits and misses not yet counted to the persistent tally."""
        hits, misses = self._unsaved
        if not (hits or misses):
            return
        self._unsaved = [0, 0]
        try:
            _private_dirs(self.folder, self.folder)
            line = f"{hits} {misses} {self.kind}\n".encode()
            fd = os.open(self.folder / STATS_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line)  # one small append: whole even with many writers
            finally:
                os.close(fd)
        except OSError:
            pass

    def __enter__(self) -> ResultCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.flush()


def _private_dirs(top: Path, folder: Path) -> None:
    """Make ``folder`` (below or equal to ``top``); ``top`` only its owner may enter."""
    if not top.exists():
        top.mkdir(parents=True, exist_ok=True)
        os.chmod(top, 0o700)
    folder.mkdir(parents=True, exist_ok=True)


@dataclass(frozen=True, slots=True)
class CacheInfo:
    """What :func:`cache_info` found."""

    folder: Path
    entries: int
    size: int  # bytes on disk, the entries and the tally
    hits: int
    misses: int
    kinds: dict[str, int]  # entries per kind

    @property
    def hit_rate(self) -> float | None:
        total = self.hits + self.misses
        return self.hits / total if total else None


def cache_info(folder: str | os.PathLike[str] | None = None) -> CacheInfo:
    """Entries, size and the persistent hit/miss counts of the result cache."""
    top = Path(folder) if folder is not None else results_folder()
    entries = size = hits = misses = 0
    kinds: dict[str, int] = {}
    if top.is_dir():
        for kind in sorted(p for p in top.iterdir() if p.is_dir()):
            count = 0
            for entry in kind.rglob("*" + _SUFFIX):
                try:
                    size += entry.stat().st_size
                except OSError:
                    continue
                count += 1
            if count:
                kinds[kind.name] = count
                entries += count
        stats = top / STATS_FILE
        try:
            size += stats.stat().st_size
            text = stats.read_text("utf-8", errors="replace")
        except OSError:
            text = ""
        for line in text.splitlines():
            fields = line.split()
            if len(fields) >= 2 and fields[0].isdigit() and fields[1].isdigit():
                hits += int(fields[0])
                misses += int(fields[1])
    return CacheInfo(top, entries, size, hits, misses, kinds)


def clear_cache(folder: str | os.PathLike[str] | None = None) -> int:
    """Remove every entry and the hit/miss counts; return the number of entries removed.
    Only the result cache's own folder is removed (compiled lexicons stay)."""
    top = Path(folder) if folder is not None else results_folder()
    removed = cache_info(top).entries
    if top.is_dir():
        # moved aside first, so that a run going on meanwhile never sees half a folder
        aside = top.with_name(f".{top.name}.removing-{os.getpid()}-{time.monotonic_ns()}")
        try:
            os.replace(top, aside)
        except OSError:
            aside = top
        shutil.rmtree(aside, ignore_errors=True)
    return removed
