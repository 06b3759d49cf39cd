"""The compiled-lexicon cache: miss, hit, damaged entries, unwritable folder, the compile
lock."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from gcgtools.lexicon import CACHE_ENV, Lexicon, cache_dir, load_lexicon
from gcgtools.lexicon import cache as lexicon_cache
from gcgtools.lexicon.cache import FORMAT_VERSION

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
    key = lexicon_cache.cache_key(word_list.read_bytes(), "english", 15)
    cache.mkdir(parents=True, exist_ok=True)
    return cache / f"{key}.lock"


def test_waits_for_another_process_compiling(cache: Path, word_list: Path):
    lock = lock_of(word_list, cache)
    lock.write_text("", encoding="utf-8")  # another process is compiling the list
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
    lock.write_text("", encoding="utf-8")  # held by a process that never finishes
    lexicon = load_lexicon(word_list)
    assert lexicon.cached is False and "CARE" in lexicon
    assert lock.exists()  # not ours to remove
