"""Ctrl-C (SIGINT) or SIGTERM during ``analyse``, ``moves --sim`` and ``moves --endgame``:
one line says what was finished and what was not, the finished results stay (printed,
and in the result cache), exit 130, no traceback, and no worker process left behind. A
single position's search stops and prints the best moves found so far, marked as not
finished.

Each command runs in a process of its own; the signal is sent once it has shown that it
is working (its first record printed, or the CPU time its start-up takes spent), never
after a blind sleep."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import valid_file
from support.processes import marked, rest_of_output
from support.reference_data import DATA, needs_data

pytestmark = needs_data

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAME = "domino14__macondo/preendgame__testdata__issue_476.gcg"
MARKER = "GCGTOOLS_INTERRUPT_TEST_MARK"
RECORDS = 16  # enough for 2 worker processes with -j 2
TURNS = 12  # a record's turns: seconds each to judge, so the signal lands before the last
# an opening: its best plays come in mirror images, which no number of iterations tells
# apart, so the simulation runs until it is stopped
OPENING = "/".join(["15"] * 15) + " AEGINRT/ 0/0 0 lex NWL20;"


def _lexicon() -> str:
    assert DATA is not None
    return str(DATA / "lexica" / "ENABLE.kwg")


def _start(args: list[str], cache: Path, mark: str) -> subprocess.Popen[str]:
    env = {**os.environ, "GCGTOOLS_CACHE_DIR": str(cache), "PYTHONUNBUFFERED": "1", MARKER: mark}
    code = "from gcgtools.cli import main; main()"
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _cpu_seconds(pid: int) -> float:
    fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_for_cpu(process: subprocess.Popen[str], seconds: float) -> None:
    """Until ``process`` has spent ``seconds`` of CPU time (it is searching by then)."""
    deadline = time.monotonic() + 300
    while _cpu_seconds(process.pid) < seconds:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)


def _marked(mark: str) -> list[int]:
    """Live processes whose environment holds ``MARKER=mark``."""
    return marked(MARKER, mark)


def _records(folder: Path) -> list[str]:
    """``RECORDS`` records, each of its own content (so none is a cache hit for another):
    the first ``TURNS`` turns of a real game, mid-game only (its endgame took minutes a
    record in pure Python, which is how CI runs the source tree)."""
    lines = (EXAMPLES / "club-final.gcg").read_text().splitlines(keepends=True)
    turns = [i for i, line in enumerate(lines) if line.startswith(">")]
    text = "".join(lines[: turns[TURNS]])
    names = []
    for i in range(RECORDS):
        path = folder / f"g{i}.gcg"
        path.write_text(text + f"#note copy {i}\n")
        names.append(str(path))
    return names


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize(("how", "jobs"), [("SIGINT", "1"), ("SIGTERM", "1"), ("SIGINT", "2")])
def test_an_interrupted_analyse_keeps_the_records_it_finished(
    tmp_path: Path, how: str, jobs: str
) -> None:
    files = _records(tmp_path)
    cache = tmp_path / "cache"
    mark = f"{os.getpid()}-analyse-{how}-{jobs}"
    args = ["analyse", *files, "--lexicon", _lexicon(), "-f", "json", "-j", jobs,
            "--depth", "sim", "--sim-iterations", "16", "--sim-candidates", "3"]  # fmt: skip
    process = _start(args, cache, mark)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()  # the first record is done
    assert json.loads(first)["path"] == files[0]
    if jobs != "1":
        assert len(_marked(mark)) > 1  # the command and its workers
    os.kill(process.pid, getattr(signal, how))
    rest, err = rest_of_output(process, timeout=120)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    lines = [first, *rest.splitlines(keepends=True)]
    printed = [json.loads(line)["path"] for line in lines if line.endswith("\n")]
    assert printed == files[: len(printed)] and 1 <= len(printed) < RECORDS
    said = [line for line in err.splitlines() if line.startswith("interrupted")]
    assert len(said) == 1, err
    done = int(said[0].split()[1])  # handed out for printing: all printed, or all but one
    assert done - 1 <= len(printed) <= done
    assert said[0] == (
        f"interrupted: {done} of {RECORDS} records analysed; results kept for those "
        f"{done} (printed, and in the result cache)"
    )
    entries = list((cache / "results" / "analysis").rglob("*.entry"))
    assert len(entries) >= done  # the finished ones are cached
    deadline = time.monotonic() + 15
    while _marked(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _marked(mark) == []  # no worker left behind


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize(
    ("how", "search"),
    [
        ("SIGINT", ["--cgp", OPENING, "--sim", "--iterations", "100000", "--candidates", "10"]),
        ("SIGTERM", [GAME, "-m", "24", "--endgame", "--nodes", "100000000"]),
    ],
)
def test_an_interrupted_search_prints_the_best_found_so_far(
    tmp_path: Path, how: str, search: list[str]
) -> None:
    search = [str(valid_file(GAME)) if word == GAME else word for word in search]
    args = ["moves", *search, "--lexicon", _lexicon(), "-n", "3"]
    process = _start(args, tmp_path / "cache", f"{os.getpid()}-moves")
    _wait_for_cpu(process, 3.0)  # start-up (the lexicon, the moves) is well under that
    os.kill(process.pid, getattr(signal, how))
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    said = [line for line in err.splitlines() if line.startswith("interrupted")]
    assert len(said) == 1 and "so far" in said[0] and "not finished" in said[0]
    rows = [line for line in out.splitlines() if re.match(r"\s+\d+\s", line)]
    assert len(rows) == 3  # the best moves found so far
    if "--sim" in search:
        assert "stopped: interrupted" in out
    else:
        assert "not proved (interrupted)" in out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_an_interrupted_report_site_keeps_the_pages_it_wrote(tmp_path: Path) -> None:
    from gcgtools.jobs.site import GAMES_FOLDER

    files = _records(tmp_path)
    site = tmp_path / "site"
    mark = f"{os.getpid()}-report"
    args = ["report", *files, "-o", str(site), "--lexicon", _lexicon(), "-j", "1", "-q",
            "--depth", "sim", "--sim-iterations", "16", "--sim-candidates", "3"]  # fmt: skip
    process = _start(args, tmp_path / "cache", mark)
    pages = site / GAMES_FOLDER
    deadline = time.monotonic() + 300
    while not (pages.is_dir() and any(pages.glob("*.html"))):  # the first page is written
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    written = sorted(pages.glob("*.html"))
    said = [line for line in err.splitlines() if line.startswith("interrupted")]
    assert len(said) == 1 and said[0].startswith("interrupted: ")
    done = int(said[0].split()[1])
    assert said[0].startswith(f"interrupted: {done} of {RECORDS} records done")
    assert 1 <= len(written) < RECORDS and done <= len(written)
    assert not (site / "index.html").exists()  # said: the index is not written
    if done:
        assert "the index is not" in said[0]
