"""The result-cache fuzzer (tools/fuzz_cache.py) in the suite: damaged, forged and hostile
entries, a fixed seed."""

from __future__ import annotations

import random

from support.fuzz_helper import SEED, load_tool

fuzz_cache = load_tool("fuzz_cache")


def test_damaged_forged_and_hostile_entries() -> None:
    assert fuzz_cache.cache_surface(random.Random(SEED), 1_000) == 1_000


def test_every_kind_of_damage_is_tried() -> None:
    """The damages the surface draws from include the sealed pickle (the attack)."""
    import os
    import tempfile

    from gcgtools.batch.cache import ResultCache

    with tempfile.TemporaryDirectory() as tmp:
        cache = ResultCache("analysis", folder=os.path.join(tmp, "r"))
        key = cache.key(fuzz_cache.RECORD)
        cache.put(key, fuzz_cache.honest())
        good = cache.path(key).read_bytes()
    rng = random.Random(SEED)
    entries = [fuzz_cache.damage(good, rng, "/nonexistent/x") for _ in range(200)]
    payloads = [e.split(b"\n", 2)[2] for e in entries if e.count(b"\n") >= 2]
    assert any(p.startswith(b"\x80") for p in payloads)  # a sealed pickle
    assert any(p.startswith(b"[[[[") for p in payloads)  # deep nesting
    assert any(b"os:system" in p or b"subprocess:Popen" in p for p in payloads)
