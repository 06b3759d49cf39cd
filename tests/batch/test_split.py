"""Deep analysis split per judged turn: every worker judges even one record, the results
are the same for any number of workers, and the progress counts turns while an interrupt
still counts records."""

from __future__ import annotations

import os
import time
from functools import partial
from pathlib import Path

import pytest
from support.reference_data import needs_data
from support.short_records import enable, short_record, sim
from typer.testing import CliRunner

from gcgtools import console
from gcgtools.analysis.judge import judge_task
from gcgtools.batch import analyses
from gcgtools.batch.analyses import analyse_paths
from gcgtools.batch.cache import cache_info, results_folder
from gcgtools.batch.codec import encode
from gcgtools.batch.cores import default_jobs
from gcgtools.batch.run import map_window
from gcgtools.cli import app
from gcgtools.console import interrupted_line


def _meet(folder: str, item: int) -> tuple[int, bool]:
    """Worker: say this process is here, then wait (a minute at most) for another
    process to say so too: True if one did (the two items ran at the same time)."""
    Path(folder, f"{item}-{os.getpid()}").touch()
    for _ in range(600):
        if len({p.name.split("-")[1] for p in Path(folder).iterdir()}) > 1:
            return os.getpid(), True
        time.sleep(0.1)
    return os.getpid(), False


@pytest.mark.skipif(default_jobs() < 2, reason="needs two cores")
def test_two_items_of_seconds_each_run_on_two_workers(tmp_path: Path) -> None:
    # the files' rule (fewer workers below 8 files each) would run both in one process
    results = list(map_window(partial(_meet, str(tmp_path)), [0, 1], jobs=2, size=1,
                              per_worker=1))  # fmt: skip
    assert [met for _, met in results] == [True, True]
    assert len({pid for pid, _ in results}) == 2


@needs_data
def test_one_record_gives_the_same_judgements_on_one_or_two_workers(tmp_path: Path) -> None:
    path = short_record(tmp_path)
    one = list(analyse_paths([path], lexicon=enable(), jobs=1, settings=sim()))
    two = list(analyse_paths([path], lexicon=enable(), jobs=2, settings=sim()))
    assert len(one) == 1 and one[0].depth == "sim"
    judged = [t.judgement for t in one[0].turns if t.judgement is not None]
    assert len(judged) == len([t for t in one[0].turns if t.analysed]) > 1
    assert encode(one) == encode(two)


@needs_data
def test_records_come_in_input_order_and_are_cached_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GCGTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    paths = [short_record(tmp_path, f"g{i}.gcg", turns=2 + i, note=str(i)) for i in range(3)]
    paths.insert(1, str(tmp_path / "missing.gcg"))
    first = list(analyse_paths(paths, lexicon=enable(), jobs=2, settings=sim(cache=True)))
    assert [r.path for r in first] == paths
    assert first[1].unreadable and not first[0].unreadable
    assert [len([t for t in r.turns if t.judgement]) for r in first if not r.unreadable] == [
        len([t for t in r.turns if t.analysed]) for r in first if not r.unreadable
    ]
    stored = cache_info(results_folder())
    again = list(analyse_paths(paths, lexicon=enable(), jobs=1, settings=sim(cache=True)))
    assert encode(again) == encode(first)
    read = cache_info(results_folder())
    assert read.entries == stored.entries == 3  # one per readable record
    assert read.hits == stored.hits + 3


@needs_data
def test_progress_counts_turns_and_an_interrupt_counts_records(tmp_path: Path) -> None:
    paths = [short_record(tmp_path, f"g{i}.gcg", note=str(i)) for i in range(2)]
    results = analyse_paths(paths, lexicon=enable(), jobs=1, settings=sim(progress=True))
    first = next(results)
    results.close()  # the consumer stops after the first record, as an interrupt does
    assert first.path == paths[0]
    line = interrupted_line("records analysed", unit="games")
    assert line == "interrupted: 1 of 2 records analysed"
    bar = [t for t in console._recent if t.unit == "turns"][-1]  # the bar's count
    analysed = len([t for t in first.turns if t.analysed])
    assert (bar.done, bar.total, bar.outer) == (analysed, 2 * analysed, False)


@needs_data
@pytest.mark.parametrize("jobs", [1, 2])
def test_records_are_read_as_the_workers_need_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    # an archive's records are not all replayed into turns before the first is judged:
    # a few turns in flight per worker, so a long archive holds a few records at a time
    ahead = analyses.TURNS_PER_WORKER * jobs  # turns handed out: at most one record each
    count = 2 * (ahead + 2)
    paths = [short_record(tmp_path, f"g{i}.gcg", turns=2, note=str(i)) for i in range(count)]
    read: list[str] = []
    prepared = analyses._prepared

    def counted(path: str, *args: object) -> analyses._Record:
        read.append(path)
        return prepared(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(analyses, "_prepared", counted)
    results = analyse_paths(paths, lexicon=enable(), jobs=jobs, settings=sim())
    first = next(results)
    assert first.path == paths[0] and first.depth == "sim"
    assert read == paths[: len(read)] and len(read) <= 2 + ahead < count
    results.close()  # the rest is not read, nor judged
    assert len(read) <= 2 + ahead


@needs_data
def test_jobs_above_the_cores_are_capped_with_a_note(tmp_path: Path) -> None:
    path = short_record(tmp_path, turns=2)
    cores = default_jobs()
    args = ["analyse", "--lexicon", enable(), "--depth", "sim", "--sim-iterations", "4",
            "--sim-candidates", "2", "--no-cache", "-q", "-j", str(cores + 3), path]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count(f"--jobs {cores + 3} is more than the") == 1
    assert f"running {cores} worker" in result.stderr
    assert "Mistake Index" in result.stdout
    result = CliRunner().invoke(app, [*args[:-2], str(cores), path])
    assert result.exit_code == 0 and "is more than" not in result.stderr


def _dies_on_the_third_turn(task: object, *args: object) -> object:
    """A judge that kills its worker process on the record's third turn."""
    if task.turn.event == 3:  # type: ignore[attr-defined]
        os._exit(9)
    return judge_task(task, *args)  # type: ignore[arg-type]


@needs_data
@pytest.mark.skipif(default_jobs() < 2, reason="needs two cores")
def test_a_turn_that_kills_its_worker_is_left_out_and_the_rest_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = short_record(tmp_path)
    monkeypatch.setattr(analyses, "judge_task", _dies_on_the_third_turn)  # the forked workers'
    (result,) = analyse_paths([path], lexicon=enable(), jobs=2, settings=sim())
    judged = {t.event for t in result.turns if t.judgement is not None}
    analysed = {t.event for t in result.turns if t.analysed}
    assert 3 in analysed and judged == analysed - {3}
    (w806,) = [f for f in result.findings if f.code == "W806"]
    assert "event 3" in w806.message and "killing worker processes" in w806.message
