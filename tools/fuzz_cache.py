"""Fuzzing result-cache entries (``gcgtools.batch.cache``): damaged, forged and hostile
entries where the cache looks for a result.

Each input is an honest entry (an analysis-shaped result: ``RecordAnalysis`` with turns,
candidates and findings) changed one way: bytes flipped, cut or inserted anywhere; its
JSON payload mutated *and the header's size and checksum made to match* (what anyone
able to write into a shared cache folder can do); a pickle that would create a file;
a payload naming another class, nested deeply, or with fields of the wrong type. On
each, ``fetch`` must never raise, never run code (the pickle's file never appears) and
give back either the honest result (recomputed, or the entry read as it was) or, for a
forged payload that is still well-typed data, a value of the same class.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gcgtools.analysis.results import Candidate, RecordAnalysis, TurnAnalysis  # noqa: E402
from gcgtools.batch.cache import ResultCache  # noqa: E402
from gcgtools.findings import Finding  # noqa: E402

RECORD = b"#player1 A Ann\n#player2 B Bob\n>A: AEINRST 8D RETAINS +66 66\n"


def honest() -> RecordAnalysis:
    """A result shaped like a real analysis."""
    best = Candidate("8D RETAINS", "play", "8D", "RETAINS", "AEINRST", 66, "", 66.0, True)
    turn = TurnAnalysis(
        1, 3, "A", "play", "8D RETAINS", "AEINRST", 66, 66, "analysed",
        best=[best], found=best, equity=66.0, words=["RETAINS"],
    )  # fmt: skip
    finding = Finding("W801", "RETAINS \x1b[2J stood", 3, 1, "info")
    return RecordAnalysis("game.gcg", [turn], [finding], lexicon="NWL23", players=["A", "B"])


class _Planted:
    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (self.path, "w"))


def _split(data: bytes) -> tuple[bytes, dict[str, Any], bytes]:
    magic_end = data.index(b"\n") + 1
    header_end = data.index(b"\n", magic_end)
    return data[:magic_end], json.loads(data[magic_end:header_end]), data[header_end + 1 :]


def _sealed(magic: bytes, header: dict[str, Any], payload: bytes) -> bytes:
    """An entry whose header matches ``payload``: size and checksum recomputed."""
    header = {**header, "size": len(payload), "sha256": hashlib.sha256(payload).hexdigest()}
    return magic + json.dumps(header, sort_keys=True).encode() + b"\n" + payload


def _mutate_json(payload: bytes, rng: random.Random) -> bytes:
    text = payload.decode("utf-8")
    choice = rng.randrange(6)
    if choice == 0:  # a character changed anywhere (often no longer JSON)
        i = rng.randrange(len(text))
        return (text[:i] + rng.choice('0{}[]",:x\\-9e.') + text[i + 1 :]).encode()
    if choice == 1:  # another class named
        name = rng.choice(["os:system", "subprocess:Popen", "builtins:eval", "gcgtools:x"])
        return text.replace(f"{Candidate.__module__}:Candidate", name, 1).encode()
    if choice == 2:  # a field of the wrong type
        return text.replace('"score":66', rng.choice(['"score":"66"', '"score":null']), 1).encode()
    if choice == 3:  # a number changed: still well-typed data
        return text.replace('"line":3', f'"line":{rng.randrange(10**6)}', 1).encode()
    if choice == 4:  # deeply nested
        return b"[" * rng.choice((100, 1000, 100_000)) + b"]" * 3
    return json.dumps({"\u0000t": "data", "class": "gcgtools.findings:Finding"}).encode()


def damage(data: bytes, rng: random.Random, marker: str) -> bytes:
    """``data`` (an honest entry) damaged, forged or replaced by a hostile pickle."""
    magic, header, payload = _split(data)
    kind = rng.randrange(5)
    if kind == 0:  # raw damage: the checksum no longer matches
        out = bytearray(data)
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(len(out))
            out[i] = rng.randrange(256)
        return bytes(out)
    if kind == 1:
        return data[: rng.randrange(len(data))]
    if kind == 2:  # a pickle that would create a file, sealed
        return _sealed(magic, header, pickle.dumps(_Planted(marker)))
    return _sealed(magic, header, _mutate_json(payload, rng))


def cache_surface(rng: random.Random, n: int) -> int:
    """``n`` damaged, forged or hostile cache entries fetched."""
    expected = honest()
    with tempfile.TemporaryDirectory(prefix="gcgtools-fuzz-cache-") as tmp:
        marker = os.path.join(tmp, "pwned")
        folder = os.path.join(tmp, "results")  # as batch.analyses makes it: analyses expected
        cache = ResultCache("analysis", {"fuzz": 1}, folder=folder, expect=RecordAnalysis)
        key = cache.key(RECORD)
        assert cache.put(key, expected)
        good = cache.path(key).read_bytes()
        for _ in range(n):
            entry = damage(good, rng, marker)
            cache.path(key).write_bytes(entry)
            try:
                got = cache.fetch(RECORD, honest)
            except Exception as exc:  # noqa: BLE001 - the failure this fuzzer looks for
                raise AssertionError(f"{type(exc).__name__}: {exc} on {entry[:200]!r}") from exc
            assert not os.path.exists(marker), "a cache entry ran code"
            assert isinstance(got, RecordAnalysis), f"a {type(got).__name__} came back"
            assert all(isinstance(t, TurnAnalysis) for t in got.turns), entry[:200]
            if entry == good:
                assert got == expected
    return n


SURFACES = {"cache": cache_surface}
