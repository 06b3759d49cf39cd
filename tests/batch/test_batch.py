"""Running a function over many files: in order, in one pool, with bounded results."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from gcgtools.batch import run as batch
from gcgtools.batch.pool import PoolBackend
from gcgtools.batch.run import map_batches, map_files, map_window
from gcgtools.sources.paths import expand_paths, gcg_files


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


class TimedPool(PoolBackend):
    """The local pool, its batches sized by time as the Dask backend's are; it counts
    the files handed out."""

    def __init__(self, jobs: int, seconds: float) -> None:
        super().__init__(jobs)
        self.task_seconds = seconds
        self.handed = 0

    def submit(self, func: Any, arg: Any) -> Any:
        self.handed += len(arg)
        return super().submit(func, arg)


def _slow(names: list[str]) -> list[str]:
    time.sleep(0.005 * len(names))  # 5 ms a file
    return names


@pytest.mark.parametrize("window", [40, 2048])
def test_a_timed_backend_grows_its_batches_within_the_window(window: int) -> None:
    names = [f"f{i}" for i in range(6000)]
    backend = TimedPool(2, seconds=10.0)  # longer than any batch of fast files takes
    bound = max(window, batch.TIMED_WINDOW * 2)
    sizes, yielded = [], 0
    try:
        for count, done in map_batches(list, names, window=window, scheduler=backend):
            assert backend.handed - yielded <= bound  # handed out, not yet yielded
            sizes.append(count)
            yielded += count
            assert done == names[yielded - count : yielded]
    finally:
        backend.close()
    assert yielded == len(names)
    # nothing known at first: small batches, two per worker
    assert sizes[:4] == [batch.FIRST_BATCH] * 4
    largest = min(batch.LARGEST_BATCH, bound // 4)
    assert max(sizes) == largest  # fast files: the largest batches the window allows
    # the last ones shrink so that both workers finish together
    assert sizes[-1] < largest


def test_a_timed_backend_sizes_batches_by_the_time_they_take() -> None:
    names = [f"f{i}" for i in range(120)]
    backend = TimedPool(2, seconds=0.05)  # 10 files of 5 ms
    try:
        out = list(map_batches(_slow, names, scheduler=backend))
    finally:
        backend.close()
    assert [n for _, b in out for n in b] == names
    sizes = [count for count, _ in out]
    assert sizes[:4] == [batch.FIRST_BATCH] * 4
    assert max(sizes[4:]) <= 10  # a file takes at least 5 ms: at most 10 in 0.05 s


def test_timed_sizes_grow_on_what_was_measured_and_shrink_at_once() -> None:
    sizes = batch._Sizes(64, seconds=0.5, workers=2, window=2048)
    assert sizes.tasks == 4 and sizes.largest == 512
    assert sizes.next(10_000) == batch.FIRST_BATCH and sizes.next(3) == 3
    sizes.done(4, 4 * 0.0001)  # 0.1 ms a file: 5,000 would fit in half a second
    grown = []
    for _ in range(10):
        grown.append(sizes.next(10_000))
        sizes.done(grown[-1], grown[-1] * 0.0001)
    assert grown == [8, 16, 32, 64, 128, 256, 512, 512, 512, 512]  # doubling, to the cap
    sizes.done(512, 512 * 0.01)  # files a hundred times slower: the average halves
    assert sizes.next(10_000) == int(0.5 / ((0.0001 + 0.01) / 2))
    assert sizes.next(100) == 50  # the last files spread over both workers
    assert sizes.next(20) == 10 and sizes.next(1) == 1
    fixed = batch._Sizes(64, seconds=None, workers=2, window=2048)
    assert fixed.tasks is None and fixed.next(10_000) == 64 and fixed.next(5) == 5


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
