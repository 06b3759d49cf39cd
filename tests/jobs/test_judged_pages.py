"""Judged report pages (report --depth sim, one record or a site): the turns are judged
by the deep analysis split per turn over the workers, and each page is made in this
process from its record's analysis: the same page as a record judged whole in one
process, for any number of workers."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.reference_data import needs_data
from support.short_records import enable, short_record, sim
from typer.testing import CliRunner

from gcgtools import console
from gcgtools.cli import app
from gcgtools.jobs.judged import is_judged, with_analysis
from gcgtools.jobs.kinds import ReportJob
from gcgtools.jobs.report import game_report_html
from gcgtools.jobs.site import write_site
from gcgtools.lexicon.choice import LexiconChoice
from gcgtools.sources.load import load_game

pytestmark = needs_data


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GCGTOOLS_CACHE_DIR", str(tmp_path / "cache"))


def judged_job() -> ReportJob:
    settings = sim()
    return ReportJob(lexicon=LexiconChoice.of(enable()), depth="sim", judge=settings.judge)


def test_a_judged_page_is_the_page_of_the_record_judged_whole(tmp_path: Path) -> None:
    path = short_record(tmp_path)
    job = judged_job()
    assert is_judged(job) and not is_judged(ReportJob(lexicon=job.lexicon))
    split = with_analysis(job, path, jobs=2)
    assert not is_judged(split) and split.analysis.depth == "sim"
    whole = game_report_html(
        load_game(path), lexicon=LexiconChoice.of(enable()), depth="sim", judge=job.judge,
        options=job.rules, top=job.top,
    )  # fmt: skip
    page = split.render(load_game(path)).data
    assert page is not None and "Mistake Index" in whole
    assert page.decode("utf-8") == whole


def test_a_judged_site_counts_turns_and_writes_every_page(tmp_path: Path) -> None:
    paths = [short_record(tmp_path, f"g{i}.gcg", turns=2 + i, note=str(i)) for i in range(2)]
    one = write_site(paths, tmp_path / "one", job=judged_job(), jobs=1, progress=True)
    bar = [t for t in console._recent if t.unit == "turns"][-1]
    assert bar.done == bar.total == 2 + 3  # every turn of both records
    two = write_site(paths, tmp_path / "two", job=judged_job(), jobs=2)
    assert [o.target for o in one.outcomes if o.target] != [] and not one.failed
    for a, b in zip(one.outcomes, two.outcomes, strict=True):
        assert a.target is not None and b.target is not None
        assert Path(a.target).read_bytes() == Path(b.target).read_bytes()
    assert "Mistake Index" in one.index.read_text(encoding="utf-8")


def test_report_of_one_record_at_depth_sim(tmp_path: Path) -> None:
    path = short_record(tmp_path, turns=3)
    page = tmp_path / "g.html"
    args = ["report", path, "--lexicon", enable(), "--depth", "sim", "--sim-iterations", "4",
            "--sim-candidates", "2", "-j", "2", "-q", "-o", str(page)]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    text = page.read_text(encoding="utf-8")
    assert "Mistake Index" in text
