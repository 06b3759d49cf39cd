"""Deep analysis split per judged turn: every worker judges even one record, the results
are the same for any number of workers, and the progress counts turns while an interrupt
still counts records."""

from __future__ import annotations

import os
import time
from functools import partial
from pathlib import Path

import pytest
from support.reference_data import DATA, needs_data

from gcgtools import console
from gcgtools.analysis.judge import settings_for
from gcgtools.batch.analyses import analyse_paths
from gcgtools.batch.cache import cache_info, results_folder
from gcgtools.batch.codec import encode
from gcgtools.batch.cores import default_jobs
from gcgtools.batch.run import map_window
from gcgtools.batch.settings import AnalysisSettings
from gcgtools.console import interrupted_line

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
TURNS = 4  # a record's first turns: the opening and mid-game, seconds in pure Python


def short_record(folder: Path, name: str = "g.gcg", turns: int = TURNS, note: str = "") -> str:
    """The first ``turns`` turns of the example club final (its own content per ``note``)."""
    lines = (EXAMPLES / "club-final.gcg").read_text().splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith(">")]
    path = folder / name
    path.write_text("".join(lines[: starts[turns]]) + (f"#note {note}\n" if note else ""))
    return str(path)


def sim(*, cache: bool = False, progress: bool = False) -> AnalysisSettings:
    judge = settings_for("sim", sim_iterations=4, sim_candidates=2)
    return AnalysisSettings(depth="sim", judge=judge, cache=cache, progress=progress)


def enable() -> str:
    assert DATA is not None
    return str(DATA / "lexica" / "ENABLE.kwg")


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
