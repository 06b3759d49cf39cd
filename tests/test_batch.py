"""Running a function over many files: in order, in one pool, with bounded results."""

from __future__ import annotations

from pathlib import Path

import pytest

from gcgtools.analysis.batch import map_batches, map_files, map_window
from gcgtools.model.paths import expand_paths, gcg_files


@pytest.mark.parametrize(("jobs", "window"), [(1, 4), (2, 1), (2, 5), (2, 2048), (3, 7)])
def test_map_window_keeps_the_order(jobs: int, window: int) -> None:
    names = [f"file{'x' * (i % 13)}{i}.gcg" for i in range(150)]
    assert list(map_window(len, names, jobs=jobs, window=window)) == [len(n) for n in names]


def test_map_window_of_nothing() -> None:
    assert list(map_window(len, [], jobs=2)) == []


@pytest.mark.parametrize(
    ("jobs", "window", "size"), [(1, 4, None), (1, 2048, None), (1, 10, 3), (2, 2048, None),
                                 (2, 16, 5), (3, 7, None)],
)  # fmt: skip
def test_map_batches_covers_every_file_once_in_order(
    jobs: int, window: int, size: int | None
) -> None:
    names = [f"f{i}" for i in range(150)]
    out = list(map_batches(tuple, names, jobs=jobs, window=window, size=size))
    assert [n for _, batch in out for n in batch] == names
    assert all(count == len(batch) for count, batch in out)
    largest = max(len(batch) for _, batch in out)
    if size is not None:
        assert largest == size
    elif jobs == 1:
        assert largest == min(64, window)  # batches no larger than the window
    else:
        assert len(out) >= jobs  # every worker gets some


def test_map_files_expands_folders(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    for name in ("a.gcg", "b/c.gcg", "b/d.txt"):
        (tmp_path / name).write_text("")
    found = list(map_files(str, [str(tmp_path)], jobs=1))
    assert found == [str(tmp_path / "a.gcg"), str(tmp_path / "b" / "c.gcg")]


def test_a_glob_that_matches_a_folder_is_looked_into(tmp_path: Path) -> None:
    for name in ("r1/a.gcg", "r1/deep/c.GCG", "r2/b.gcg", "r2/notes.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    found = list(expand_paths([str(tmp_path / "r*"), str(tmp_path / "r2" / "b.gcg")]))
    assert found == [str(tmp_path / "r1" / "a.gcg"), str(tmp_path / "r1" / "deep" / "c.GCG"),
                     str(tmp_path / "r2" / "b.gcg")]  # fmt: skip
    plain = [str(tmp_path / "r2" / "b.gcg"), str(tmp_path / "missing.gcg")]
    assert list(expand_paths(plain)) == plain


def test_folders_are_searched_as_rglob_would(tmp_path: Path) -> None:
    for name in ("a.gcg", "b/c.gcg", "b/.gcg", "b/d.gcg.txt", "e.Gcg", "f/g/h.gcg"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "link").symlink_to(tmp_path / "f", target_is_directory=True)
    (tmp_path / "alias.gcg").symlink_to(tmp_path / "a.gcg")
    expected = sorted(
        str(p) for p in tmp_path.rglob("*") if p.suffix.lower() == ".gcg" and p.is_file()
    )
    assert gcg_files(tmp_path) == expected
    assert str(tmp_path / "link" / "g" / "h.gcg") not in expected  # links not followed
