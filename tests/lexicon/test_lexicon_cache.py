"""The compiled-lexicon cache: miss, hit, damaged entries, unwritable folder, the compile
lock."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gcgtools.lexicon import CACHE_ENV, Lexicon, cache_dir, load_lexicon
from gcgtools.lexicon import cache as lexicon_cache
from gcgtools.lexicon.cache import FORMAT_VERSION
from gcgtools.rules import TileSet, tile_set
from gcgtools.rules.tiles import declared_spellings

WORDS = "care\ncares\nrace\nacre\nscare\n"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder / "lexica"


@pytest.fixture
def word_list(tmp_path: Path) -> Path:
    path = tmp_path / "mini.txt"
    path.write_text(WORDS, encoding="utf-8")
    return path


def entries(cache: Path) -> list[Path]:
    return sorted(cache.iterdir()) if cache.is_dir() else []


def test_cache_folder_from_environment(cache: Path, monkeypatch: pytest.MonkeyPatch):
    assert cache_dir() == cache
    monkeypatch.delenv(CACHE_ENV)
    default = cache_dir()
    assert default.name == "lexica" and "gcgtools" in str(default)


def test_miss_then_hit(cache: Path, word_list: Path):
    first = load_lexicon(word_list)
    assert first.cached is False and "compiled now" in first.describe()
    files = entries(cache)
    assert [p.suffix for p in files] == [".json", ".kwg"]
    second = load_lexicon(word_list)
    assert second.cached is True and str(second.compiled) in second.describe()
    assert second.compiled is not None and second.compiled.parent == cache
    assert second.source == first.source  # the file, not the cache's state
    assert list(second.words()) == list(first.words()) == ["ACRE", "CARE", "CARES", "RACE", "SCARE"]
    assert len(second) == 5 and second.skipped == first.skipped
    assert entries(cache) == files  # nothing new written


def test_other_content_or_tiles_is_another_entry(cache: Path, word_list: Path):
    load_lexicon(word_list)
    word_list.write_text(WORDS + "scared\n", encoding="utf-8")
    changed = load_lexicon(word_list)
    assert changed.cached is False and "SCARED" in changed
    load_lexicon(word_list, "french")
    assert len(entries(cache)) == 6


@pytest.mark.parametrize(
    ("suffix", "damage"),
    [
        (".kwg", b"garbage!"),
        (".kwg", b""),
        (".json", b"{not json"),
        (".json", b'{"format": %d}' % FORMAT_VERSION),  # fields missing
        (".json", b'{"format": 0, "words": 5, "skipped": {}}'),  # another version
    ],
)
def test_damaged_entry_is_rebuilt(cache: Path, word_list: Path, suffix: str, damage: bytes):
    load_lexicon(word_list)
    (target,) = [p for p in entries(cache) if p.suffix == suffix]
    target.write_bytes(damage)
    rebuilt = load_lexicon(word_list)
    assert rebuilt.cached is False
    assert list(rebuilt.words()) == ["ACRE", "CARE", "CARES", "RACE", "SCARE"]
    assert target.read_bytes() != damage  # written again
    assert load_lexicon(word_list).cached is True


def test_missing_half_of_an_entry_is_rebuilt(cache: Path, word_list: Path):
    load_lexicon(word_list)
    next(p for p in entries(cache) if p.suffix == ".kwg").unlink()
    assert load_lexicon(word_list).cached is False
    assert load_lexicon(word_list).cached is True


def test_unwritable_cache_folder_still_loads(tmp_path: Path, word_list: Path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(CACHE_ENV, str(blocker))
    lexicon = load_lexicon(word_list)
    assert lexicon.cached is False and "CARE" in lexicon
    assert lexicon.compiled is None and "cached as" not in lexicon.describe()


def test_use_cache_false_neither_reads_nor_writes(cache: Path, word_list: Path):
    lexicon = load_lexicon(word_list, use_cache=False)
    assert lexicon.cached is False and entries(cache) == []


# --------------------------------------------------------------------- compile lock


def lock_of(word_list: Path, cache: Path) -> Path:
    key = lexicon_cache.cache_key(word_list.read_bytes(), tile_set("english"), 15)
    cache.mkdir(parents=True, exist_ok=True)
    return cache / f"{key}.lock"


def live_holder() -> str:
    """A lock's text naming a live process on this host (this one)."""
    holder = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.time()}
    return json.dumps(holder)


def test_waits_for_another_process_compiling(cache: Path, word_list: Path):
    lock = lock_of(word_list, cache)
    lock.write_text(live_holder(), encoding="utf-8")  # another process is compiling
    made = Lexicon.from_words(WORDS.split())
    key = lock.stem

    def other_process_finishes() -> None:
        time.sleep(0.3)
        lexicon_cache.store(key, made.kwg.to_bytes(), len(made), {}, str(word_list))
        lock.unlink()

    thread = threading.Thread(target=other_process_finishes)
    thread.start()
    start = time.monotonic()
    lexicon = load_lexicon(word_list)
    thread.join()
    assert time.monotonic() - start >= 0.25  # it waited
    assert lexicon.cached is True  # and loaded the other's work instead of compiling
    assert list(lexicon.words()) == ["ACRE", "CARE", "CARES", "RACE", "SCARE"]


def test_stale_lock_is_taken_over(cache: Path, word_list: Path):
    lock = lock_of(word_list, cache)
    lock.write_text("", encoding="utf-8")
    old = time.time() - lexicon_cache.STALE_LOCK - 10
    os.utime(lock, (old, old))
    lexicon = load_lexicon(word_list)
    assert lexicon.cached is False and not lock.exists()
    assert load_lexicon(word_list).cached is True


def test_wait_is_bounded(cache: Path, word_list: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(lexicon_cache, "MAX_WAIT", 0.3)
    lock = lock_of(word_list, cache)
    lock.write_text(live_holder(), encoding="utf-8")  # a holder that never finishes
    lexicon = load_lexicon(word_list)
    assert lexicon.cached is False and "CARE" in lexicon
    assert lock.exists()  # not ours to remove


def dead_pid() -> int:
    """The id of a process that has just ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_lock_whose_process_is_gone_is_taken_over_at_once(cache: Path, word_list: Path):
    lock = lock_of(word_list, cache)
    holder = {"pid": dead_pid(), "host": socket.gethostname(), "started": time.time()}
    lock.write_text(json.dumps(holder), encoding="utf-8")  # fresh, but its process died
    start = time.monotonic()
    lexicon = load_lexicon(word_list)
    assert time.monotonic() - start < 5  # not the old 10-minute stall
    assert lexicon.cached is False and not lock.exists()


def test_a_lock_names_its_process_while_compiling(cache: Path, word_list: Path):
    key = lock_of(word_list, cache).stem
    with lexicon_cache.compiling(key) as waited:
        assert waited is False
        holder = lexicon_cache.lock_holder(cache / f"{key}.lock")
        assert holder is not None and holder["pid"] == os.getpid()
        assert holder["host"] == socket.gethostname()
    assert not (cache / f"{key}.lock").exists()


def test_a_waiter_says_whom_it_waits_for(cache: Path, word_list: Path, monkeypatch):
    monkeypatch.setattr(lexicon_cache, "MAX_WAIT", 1.5)
    monkeypatch.setattr(lexicon_cache, "SAY_AFTER", 0.2)
    lock = lock_of(word_list, cache)
    lock.write_text(live_holder(), encoding="utf-8")
    said: list[Path] = []
    with lexicon_cache.compiling(lock.stem, say=said.append) as waited:
        assert waited is True
    assert said == [lock]


# ------------------------------------------------- damaged meta fields, wrong counts


def _meta(cache: Path) -> tuple[Path, dict]:
    (path,) = [p for p in entries(cache) if p.suffix == ".json"]
    return path, json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("skipped", {"letters": "x"}),  # was a ValueError traceback
        ("skipped", None),
        ("skipped", {"letters": 1e999}),  # was an OverflowError traceback
        ("skipped", {"other": 1}),
        ("skipped", {"letters": -1}),
        ("words", None),
        ("words", True),
        ("words", 4),  # a wrong word count: was trusted
        ("words", 10**30),
        ("words", 5.0),
        ("kwg_size", 3),
        ("latin1_lines", [None]),
        ("latin1_lines", "x"),
    ],
)
def test_a_damaged_meta_field_is_rebuilt_silently(
    cache: Path, word_list: Path, field: str, value: object
):
    load_lexicon(word_list)
    path, meta = _meta(cache)
    meta[field] = value
    path.write_text(json.dumps(meta), encoding="utf-8")
    rebuilt = load_lexicon(word_list)
    assert rebuilt.cached is False and len(rebuilt) == 5 and rebuilt.skipped == {}
    assert load_lexicon(word_list).cached is True


@pytest.mark.parametrize("text", ["null", "[]", '{"format": 3, "words": 1e999}', "NaN"])
def test_a_meta_file_of_another_shape_is_rebuilt(cache: Path, word_list: Path, text: str):
    load_lexicon(word_list)
    path, _ = _meta(cache)
    path.write_text(text, encoding="utf-8")
    assert load_lexicon(word_list).cached is False


def test_a_kwg_whose_count_disagrees_with_the_meta_is_rebuilt(cache: Path, word_list: Path):
    load_lexicon(word_list)
    path, meta = _meta(cache)
    other = Lexicon.from_words(["care", "race"]).kwg.to_bytes()  # a valid graph, 2 words
    (cache / path.with_suffix(".kwg").name).write_bytes(other)
    meta["kwg_size"] = len(other)
    meta["kwg_sha256"] = hashlib.sha256(other).hexdigest()
    path.write_text(json.dumps(meta), encoding="utf-8")
    rebuilt = load_lexicon(word_list)
    assert rebuilt.cached is False and len(rebuilt) == 5 and "SCARE" in rebuilt


# ------------------------------------- the key: everything the compiled form depends on


SPANISH = "chico\nchicos\nllama\nperro\ncasa\nhola\n"


def test_bracket_only_ch_compiles_ch_as_one_tile_and_poisons_nothing(cache: Path, tmp_path: Path):
    path = tmp_path / "fise.txt"
    path.write_text(SPANISH, encoding="utf-8")
    bracketed = declared_spellings(tile_set("spanish"), ["[CH]", "[LL]", "[RR]"])
    assert bracketed.bracket_only  # the record spells CH only as [CH]
    first = load_lexicon(path, bracketed)
    ch = first.kwg.index["CH"]
    assert first.contains_tile_texts(["CH", "I", "C", "O", "S"])
    assert not first.contains_tile_texts(["C", "H", "I", "C", "O", "S"])
    assert first.kwg.contains(bytes([ch, first.kwg.index["I"], first.kwg.index["C"],
                                     first.kwg.index["O"]]))  # fmt: skip
    plain = load_lexicon(path, "spanish")  # a plain Spanish run afterwards
    assert plain.contains_tile_texts(["CH", "I", "C", "O"])
    assert plain.contains_tile_texts(["LL", "A", "M", "A"])
    assert plain.contains_tile_texts(["P", "E", "RR", "O"])
    assert list(plain.words()) == list(first.words())


def test_a_custom_tile_set_of_the_same_name_is_another_entry(cache: Path, tmp_path: Path):
    path = tmp_path / "mini.txt"
    path.write_text("chico\nhola\n", encoding="utf-8")
    spanish = tile_set("spanish")
    without_ch = TileSet.from_table(
        "spanish", [(t, spanish.counts[t], spanish.values[t]) for t in spanish.letters if t != "CH"]
    )
    with_ch = load_lexicon(path, spanish)
    plain = load_lexicon(path, without_ch)
    assert plain.cached is False  # not the entry of the real Spanish tile set
    assert plain.contains_tile_texts(["C", "H", "I", "C", "O"])
    assert with_ch.contains_tile_texts(["CH", "I", "C", "O"])
    assert lexicon_cache.cache_key(b"x", spanish, 15) != lexicon_cache.cache_key(
        b"x", without_ch, 15
    )
    assert lexicon_cache.cache_key(b"x", spanish, 15) != lexicon_cache.cache_key(b"x", spanish, 21)


def test_cache_info_and_clear_cover_the_compiled_lexicons(cache: Path, word_list: Path):
    load_lexicon(word_list)
    info = lexicon_cache.cache_info()
    assert info.folder == cache and info.entries == 1 and info.size > 0
    assert lexicon_cache.clear() == 1
    assert entries(cache) == [] and lexicon_cache.cache_info().entries == 0
