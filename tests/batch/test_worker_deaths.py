"""A worker process that dies (a crash in compiled code, the out-of-memory killer) costs
only the files it died on: the batch goes on, in order, and each such file is reported
(validate: F010)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from support.crash_helper import always_die, die_on_marked
from typer.testing import CliRunner

from gcgtools.batch.checks import checker
from gcgtools.batch.run import BatchError, map_batches, map_files
from gcgtools.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _archive(folder: Path, marks: dict[int, str], count: int = 60) -> list[Path]:
    """``count`` copies of an example record, those numbered in ``marks`` marked to kill
    their worker (``#die KILL`` ...)."""
    record = (EXAMPLES / "club-final.gcg").read_text()
    files = []
    for i in range(count):
        path = folder / f"g{i:03d}.gcg"
        text = record + (f"#note #die {marks[i]}\n" if i in marks else "")
        path.write_text(text)
        files.append(path)
    return files


@pytest.mark.parametrize("jobs", [2, 3])
def test_a_worker_death_costs_only_its_file(tmp_path: Path, jobs: int) -> None:
    files = _archive(tmp_path, {7: "KILL", 31: "SEGV", 32: "EXIT"})
    check = checker()
    expected = [check(str(p)) for i, p in enumerate(files) if i not in (7, 31, 32)]
    reports = list(map_files(partial(die_on_marked, check), [str(tmp_path)], jobs=jobs))
    assert [r.path for r in reports] == [str(p) for p in files]  # each once, in order
    dead = {i: reports[i] for i in (7, 31, 32)}
    for i, how in ((7, "killed by SIGKILL"), (31, "killed by SIGSEGV"), (32, "status 3")):
        report = dead[i]
        assert report.unreadable and [f.code for f in report.findings] == ["F010"]
        assert how in report.findings[0].message and "left out" in report.findings[0].message
    others = [r for i, r in enumerate(reports) if i not in dead]
    assert others == expected  # the files that died with them ran again, unharmed


def test_a_batch_that_always_kills_its_worker_stops_with_a_clear_error(tmp_path: Path) -> None:
    names = [str(p) for p in _archive(tmp_path, {}, count=40)]  # enough for 2 processes
    with pytest.raises(BatchError, match="keep dying.*killed by SIGKILL"):
        list(map_batches(always_die, names, jobs=2))


def test_validate_reports_the_file_that_killed_its_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _archive(tmp_path, {3: "KILL"}, count=40)  # enough files for 2 processes
    from gcgtools.cli import validate

    real = validate.checker
    monkeypatch.setattr(
        validate, "checker", lambda *a, **kw: partial(die_on_marked, real(*a, **kw))
    )
    result = CliRunner().invoke(app, ["validate", str(tmp_path), "-q", "-j", "2"])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 2  # a file could not be processed
    lines = [line for line in result.stdout.splitlines() if "F010" in line]
    assert len(lines) == 1 and "g003.gcg" in lines[0] and "killed by SIGKILL" in lines[0]
