"""The result cache: hits, misses, corrupt or foreign entries, the cache command."""

from __future__ import annotations

import json
import os
import pickle
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gcgtools.batch.cache import (
    ResultCache,
    cache_info,
    clear_cache,
    content_hash,
    results_folder,
)
from gcgtools.batch.cached import cached_per_file
from gcgtools.cli import app
from gcgtools.sources.cachedir import CACHE_ENV, cache_root

RECORD = b"#player1 A Ann\n#player2 B Bob\n>A: ABCDEFG 8D BAD +12 12\n"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


class Counter:
    """A computation that counts how often it really ran."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, data: bytes) -> dict[str, object]:
        self.calls += 1
        return {"length": len(data), "digest": content_hash(data), "calls": self.calls}


def test_folder_from_environment_and_platformdirs(cache_dir, monkeypatch):
    assert cache_root() == cache_dir
    assert results_folder() == cache_dir / "results"
    monkeypatch.delenv(CACHE_ENV)
    from platformdirs import user_cache_dir

    assert cache_root() == Path(user_cache_dir("gcgtools"))


def test_second_run_hits_and_counts_persist(cache_dir):
    compute = Counter()
    with ResultCache("analysis", {"lexicon": "NWL23"}) as cache:
        first = cache.fetch(RECORD, lambda: compute(RECORD))
        assert (cache.hits, cache.misses) == (0, 1)
    with ResultCache("analysis", {"lexicon": "NWL23"}) as cache:
        second = cache.fetch(RECORD, lambda: compute(RECORD))
        assert (cache.hits, cache.misses) == (1, 0)
    assert first == second and compute.calls == 1
    info = cache_info()
    assert (info.entries, info.hits, info.misses) == (1, 1, 1)
    assert info.kinds == {"analysis": 1} and info.size > 0
    # the folder is private (entries are data, but nobody else needs to write there)
    assert stat.S_IMODE(os.stat(results_folder()).st_mode) == 0o700


def test_changed_file_and_other_parameters_miss(cache_dir):
    compute = Counter()
    cache = ResultCache("analysis", {"lexicon": "NWL23", "leaves": "builtin"})
    cache.fetch(RECORD, lambda: compute(RECORD))
    changed = RECORD.replace(b"+12 12", b"+14 14")
    assert cache.fetch(changed, lambda: compute(changed))["length"] == len(changed)
    other = ResultCache("analysis", {"lexicon": "CSW21", "leaves": "builtin"})
    other.fetch(RECORD, lambda: compute(RECORD))
    assert compute.calls == 3
    # parameters are keyed whatever their order
    same = ResultCache("analysis", {"leaves": "builtin", "lexicon": "NWL23"})
    assert same.key(RECORD) == cache.key(RECORD)
    assert same.key(content_hash(RECORD)) == cache.key(RECORD)
    assert ResultCache("other-kind", cache.params).key(RECORD) != cache.key(RECORD)


@pytest.mark.parametrize(
    "damage",
    ["truncate", "flip_payload", "garbage", "empty", "bad_header", "wrong_key"],
)
def test_corrupt_entry_is_rebuilt_never_trusted(cache_dir, damage):
    compute = Counter()
    cache = ResultCache("analysis")
    key = cache.key(RECORD)
    good = cache.fetch(RECORD, lambda: compute(RECORD))
    path = cache.path(key)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[:-5])
    elif damage == "flip_payload":
        path.write_bytes(data[:-3] + bytes([data[-3] ^ 0xFF]) + data[-2:])
    elif damage == "garbage":
        path.write_bytes(os.urandom(200))
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "bad_header":
        path.write_bytes(data.replace(b'"version"', b'"versi0n"', 1))
    else:  # a well-formed entry stored under another key's name
        other = cache.key(b"another record")
        path.write_bytes(data.replace(key.encode(), other.encode()))
    again = cache.fetch(RECORD, lambda: compute(RECORD))
    assert compute.calls == 2 and again["calls"] == 2 and good["calls"] == 1
    # rebuilt: the next lookup hits the new entry
    assert cache.fetch(RECORD, lambda: compute(RECORD))["calls"] == 2
    assert compute.calls == 2


def test_entry_of_another_version_is_ignored(cache_dir):
    compute = Counter()
    old = ResultCache("analysis", version="0.0.1")
    key = old.key(RECORD)
    old.put(key, {"stale": True})
    new = ResultCache("analysis")
    # even an old entry planted under the current key is not trusted
    new.path(new.key(RECORD)).parent.mkdir(parents=True, exist_ok=True)
    new.path(new.key(RECORD)).write_bytes(
        old.path(key).read_bytes().replace(key.encode(), new.key(RECORD).encode())
    )
    result = new.fetch(RECORD, lambda: compute(RECORD))
    assert "stale" not in result and compute.calls == 1
    assert new.fetch(RECORD, lambda: compute(RECORD)) == result and compute.calls == 1


def test_unpicklable_payload_with_good_checksum_is_rebuilt(cache_dir):
    cache = ResultCache("analysis")
    key = cache.key(RECORD)
    cache.put(key, 1)
    data = cache.path(key).read_bytes()
    header_end = data.index(b"\n", data.index(b"\n") + 1)
    payload = b"\x80\x05not a pickle."
    header = json.loads(data[data.index(b"\n") + 1 : header_end])
    header.update(size=len(payload), sha256=content_hash(payload))
    head = data[: data.index(b"\n") + 1] + json.dumps(header).encode() + b"\n"
    cache.path(key).write_bytes(head + payload)
    assert cache.get(key, "missing") == "missing"


def _plant(cache: ResultCache, key: str, payload: bytes) -> None:
    """An entry for ``key`` with a header that matches ``payload`` exactly (what anyone
    able to write into a shared cache folder can make)."""
    header = {"version": cache.version, "key": key, "size": len(payload)}
    header["sha256"] = content_hash(payload)
    cache.put(key, 0)  # a real entry, for the first line (the format's magic)
    path = cache.path(key)
    magic = path.read_bytes().split(b"\n", 1)[0] + b"\n"
    path.write_bytes(magic + json.dumps(header, sort_keys=True).encode() + b"\n" + payload)


class _Planted:
    """Unpickling this runs ``os.system``: what a crafted pickle entry would do."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def test_crafted_pickle_entry_is_never_executed(cache_dir, tmp_path):
    proof = tmp_path / "pwned"
    compute = Counter()
    cache = ResultCache("analysis")
    key = cache.key(RECORD)
    _plant(cache, key, pickle.dumps(_Planted(f"touch {proof}")))
    result = cache.fetch(RECORD, lambda: compute(RECORD))
    assert not proof.exists()
    assert result == {"length": len(RECORD), "digest": content_hash(RECORD), "calls": 1}
    # recomputed and overwritten: the next run hits the honest entry
    assert cache.fetch(RECORD, lambda: compute(RECORD)) == result and compute.calls == 1
    assert b"os" not in cache.path(key).read_bytes().split(b"\n", 2)[2]


@pytest.mark.parametrize(
    "document",
    [
        {"\u0000t": "data", "class": "os:_wrap_close", "fields": {}},
        {"\u0000t": "data", "class": "subprocess:Popen", "fields": {"args": ["true"]}},
        {"\u0000t": "data", "class": "gcgtools.findings:Finding", "fields": {"code": 1}},
        {
            "\u0000t": "data",
            "class": "gcgtools.findings:Finding",
            "fields": {
                "code": "F001", "message": "m", "line": "one", "column": 1,
                "severity": "error", "recorded": None, "computed": None, "path": None,
            },
        },
        {"\u0000t": "nosuch", "items": []},
        "deep",
    ],
    ids=["foreign-class", "popen", "missing-fields", "wrong-type", "bad-tag", "deep"],
)  # fmt: skip
def test_foreign_or_wrong_data_entry_is_recomputed(cache_dir, document):
    compute = Counter()
    cache = ResultCache("analysis")
    key = cache.key(RECORD)
    payload = json.dumps(document).encode()
    if document == "deep":  # nested deeper than the codec reads
        payload = b"[" * 5000 + b"]" * 5000
    _plant(cache, key, payload)
    assert cache.fetch(RECORD, lambda: compute(RECORD))["calls"] == 1


def test_analysis_dataclasses_round_trip_as_data():
    from gcgtools.analysis.analyse import Candidate, RecordAnalysis, TurnAnalysis
    from gcgtools.batch.codec import decode, encode
    from gcgtools.findings import Finding

    best = Candidate("8D BAD", "play", "8D", "BAD", "BAD", 12, "CEFG", 20.5, False)
    turn = TurnAnalysis(
        1, 3, "A", "play", "8D BAD", "ABCDEFG", 12, 12, "ok", best=[best], found=best
    )
    result = RecordAnalysis("x.gcg", [turn], [Finding("F001", "m", 2)], lexicon="NWL23")
    copy = decode(encode(result))
    assert copy == result and copy is not result
    assert copy.turns[0].found == best


def test_disabled_cache_neither_reads_nor_writes(cache_dir):
    compute = Counter()
    for _ in range(2):
        with ResultCache("analysis", enabled=False) as cache:
            cache.fetch(RECORD, lambda: compute(RECORD))
    assert compute.calls == 2
    assert cache_info().entries == 0 and cache_info().misses == 2


def test_unwritable_folder_still_computes(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = ResultCache("analysis", folder=blocker / "results")
    assert cache.fetch(RECORD, lambda: 7) == 7
    assert not cache.put(cache.key(RECORD), 7)
    cache.flush()  # never raises


def test_bad_kind_rejected():
    for kind in ("", "../x", ".hidden", "a/b"):
        with pytest.raises(ValueError):
            ResultCache(kind)


def _length_of(path: str) -> tuple[int, int]:
    """A per-file worker: the file's size and this process's id."""
    return len(Path(path).read_bytes()), os.getpid()


def test_cached_per_file_in_worker_processes(cache_dir, tmp_path):
    from gcgtools.batch.run import map_window

    files = []
    for i in range(20):
        path = tmp_path / f"g{i}.gcg"
        path.write_bytes(RECORD + b"#note " + str(i % 10).encode() + b"\n")
        files.append(str(path))
    func = cached_per_file(_length_of, "lengths", {"v": 1})
    pickle.loads(pickle.dumps(func))  # goes to worker processes
    # the ten distinct contents first, so that no two workers compute one at the same time
    first = list(map_window(func, files[:10], jobs=2))
    second = list(map_window(func, files, jobs=2))  # all twenty are stored by now
    assert [r[0] for r in second] == [len(Path(f).read_bytes()) for f in files]
    assert second == first + first  # the same stored results, pids included
    info = cache_info()
    assert info.entries == 10  # ten distinct contents
    assert info.misses == 10 and info.hits == 20
    # a changed file misses
    Path(files[0]).write_bytes(RECORD + b"#note changed\n")
    assert list(map_window(func, files[:1], jobs=1))[0][0] == len(Path(files[0]).read_bytes())
    assert cache_info().entries == 11
    # --no-cache: runs the function, stores nothing
    off = cached_per_file(_length_of, "lengths", {"v": 1}, enabled=False)
    assert off(files[1])[0] == first[1][0] and cache_info().entries == 11
    # an unreadable file goes to the function itself
    with pytest.raises(FileNotFoundError):
        func(str(tmp_path / "missing.gcg"))


def test_cache_command_info_and_clear(cache_dir):
    with ResultCache("analysis") as cache:
        cache.fetch(RECORD, lambda: 1)
        cache.fetch(RECORD, lambda: 1)
    runner = CliRunner()
    result = runner.invoke(app, ["cache", "info"])
    assert result.exit_code == 0, result.output
    assert f"folder:  {cache_dir / 'results'}" in result.output
    assert "entries: 1, analysis 1" in result.output
    assert "hits:    1, misses: 1 (50% hits)" in result.output
    data = json.loads(runner.invoke(app, ["cache", "info", "--json"]).output)
    assert data["entries"] == 1 and data["hits"] == 1 and data["misses"] == 1
    # another helper's subfolder of the cache folder is left alone
    (cache_dir / "lexica").mkdir()
    (cache_dir / "lexica" / "x.bin").write_bytes(b"1")
    result = runner.invoke(app, ["cache", "clear"])
    assert result.exit_code == 0 and "removed 1 entries" in result.output
    assert cache_info().entries == 0 and cache_info().hits == 0
    assert (cache_dir / "lexica" / "x.bin").exists()
    assert clear_cache() == 0


def test_cache_command_covers_the_compiled_lexicons(cache_dir, tmp_path):
    from gcgtools.lexicon import load_lexicon

    words = tmp_path / "mini.txt"
    words.write_text("care\nrace\nacre\n", encoding="utf-8")
    load_lexicon(words)
    runner = CliRunner()
    result = runner.invoke(app, ["cache", "info"])
    assert f"compiled lexica: 1 in {cache_dir / 'lexica'}" in result.output
    data = json.loads(runner.invoke(app, ["cache", "info", "--json"]).output)
    assert data["lexica"]["entries"] == 1 and data["lexica"]["size"] > 0
    result = runner.invoke(app, ["cache", "clear"])
    assert result.exit_code == 0 and "removed 1 compiled lexicon from" in result.output
    assert not list((cache_dir / "lexica").glob("*.kwg"))
    assert load_lexicon(words).cached is False  # compiled again


def test_an_entry_of_another_type_is_a_miss_when_a_type_is_expected(cache_dir):
    """Well-formed data, planted where an analysis is expected, is recomputed (the fuzzer
    of tools/fuzz_cache.py found a forged payload that decoded to a dict)."""
    from gcgtools.analysis.analyse import RecordAnalysis

    cache = ResultCache("analysis", expect=RecordAnalysis)
    key = cache.key(RECORD)
    _plant(cache, key, json.dumps({"turns": "not an analysis"}).encode())
    result = cache.fetch(RECORD, lambda: RecordAnalysis("x.gcg"))
    assert isinstance(result, RecordAnalysis) and result.path == "x.gcg"
    assert cache.fetch(RECORD, lambda: RecordAnalysis("other.gcg")).path == "x.gcg"  # a hit
