"""The benchmark scripts still run: each on a handful of records (their speeds are
meaningless at this size and are not checked; the targets are judged by running them in
full, see docs/benchmarks.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import corpus_dir
from support.reference_data import needs_data
from support.short_records import short_record

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"


def launch(script: str, *args: str, corpus: Path | None = None) -> subprocess.CompletedProcess:
    # the scripts import the gcgtools of this checkout, as the tests do
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    folder = corpus if corpus is not None else corpus_dir()
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), str(folder), *args],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "PYTHONPATH": path},
    )  # fmt: skip


def run(script: str, *args: str, corpus: Path | None = None) -> str:
    done = launch(script, *args, corpus=corpus)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_parse_benchmark_runs() -> None:
    out = run("parse.py", "--count", "40")
    assert "games/s" in out and "40 games" in out


def test_validate_benchmark_runs() -> None:
    out = run("validate.py", "--count", "40", "--jobs", "2")
    assert "single process:" in out and "2 processes:" in out


def test_reports_benchmark_runs_and_judges_the_targets() -> None:
    out = run("reports.py", "--count", "30", "--jobs", "1", "--jobs", "2", "--repeat", "2")
    lines = out.splitlines()
    rows = [line.split() for line in lines if line.startswith(("stats ", "export "))]
    assert [(r[0], r[1]) for r in rows] == [("stats", "1"), ("stats", "2"),
                                            ("export", "1"), ("export", "2")]  # fmt: skip
    assert all(int(r[2]) > 0 for r in rows)  # games read
    assert lines[-1].startswith("targets: 1000 games/s per core, peak under 300 MB:")


def test_scale_benchmark_runs() -> None:
    out = run("scale.py", "--count", "30", "--repeat", "1", "--task", "validate",
              "--task", "export")  # fmt: skip
    rows = [line.split() for line in out.splitlines() if line.startswith(("validate", "stats",
                                                                          "export"))]  # fmt: skip
    assert [(r[0], r[1]) for r in rows] == [(t, b) for t in ("validate", "export")
                                            for b in ("pool", "dask")]  # fmt: skip
    assert all(int(r[2]) > 0 for r in rows)
    assert out.splitlines()[-1].startswith("target: Dask overhead under 15%:")


def test_analyse_records_benchmark_runs() -> None:
    out = run("analyse_records.py", "--count", "12")
    lines = out.splitlines()
    assert lines[0].startswith("lexicon ENABLE: loaded in")
    assert " records, " in lines[1] and "with the full rack known" in lines[1]
    assert "records/s" in out


def test_analyse_benchmark_runs() -> None:
    out = run("analyse.py", "--limit", "5", "--pure-limit", "2", "--passes", "2")
    assert "5 positions" in out and "positions/s" in out
    assert ", fastest of 2 shuffled passes: mean " in out  # C helper or pure Python
    assert "all moves with equity, " in out and "best move only, " in out
    assert "best move on a kept EngineBoard, " in out
    assert out.splitlines()[-1].startswith("targets (cpu, ")
    assert "all moves median <= 0.5 ms: " in out and "best move median <= 0.08 ms: " in out


def test_long_note_benchmark_runs() -> None:
    out = run("long_note.py", "--lines", "500", "--steps", "2")
    assert "µs per line, last / first:" in out and "1,000 lines" in out


def test_simulate_benchmark_runs() -> None:
    out = run("simulate.py", "--positions", "2", "--iterations", "2", "--candidates", "2")
    assert "2 positions; 2 candidates x 2 iterations x 2 plies each" in out
    assert "8 iterations in" in out  # every candidate ran every iteration
    assert out.splitlines()[-1].startswith("target: 5000 iterations/s per core at 2 plies:")


def test_endgame_benchmark_runs() -> None:
    out = run("endgame.py", "--limit", "2", "--seconds", "1")
    assert "2 endgame positions" in out and "proved within the budget:" in out


def test_endgame_benchmark_prints_each_depth_completed() -> None:
    """--depths: a line per depth, 1 up to the depth the position's line reports, the
    nodes never fewer than the depth before's."""
    out = run("endgame.py", "--limit", "3", "--seconds", "1", "--verbose", "--depths")
    depths: list[tuple[int, int]] = []
    ends = 0
    for line in out.splitlines():
        words = line.split()
        if line.startswith("    depth "):
            depths.append((int(words[1].rstrip(":")), int(words[5])))
        elif " depth " in line and ("proved" in words):
            reached = int(words[words.index("depth") + 1])
            assert [d for d, _ in depths] == list(range(1, reached + 1)), line
            assert [n for _, n in depths] == sorted(n for _, n in depths), depths
            depths, ends = [], ends + 1
    assert ends == 3, out


def read_exported(path: Path) -> list[tuple[str, int, object]]:
    from gcgtools.movegen.cgp import parse_cgp

    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        name, event, cgp = line.split("\t")
        rows.append((name, int(event), parse_cgp(cgp)))
    return rows


def test_endgame_benchmark_exports_its_positions_as_cgp(tmp_path: Path) -> None:
    target = tmp_path / "endgames.tsv"
    out = run("endgame.py", "--limit", "3", "--export-cgp", str(target))
    assert f"3 positions written to {target}" in out
    assert "proved within the budget" not in out  # exported, not solved
    rows = read_exported(target)
    assert len(rows) == 3
    for name, event, pos in rows:
        assert name.endswith(".gcg") and event >= 1
        mine, theirs = pos.racks  # type: ignore[attr-defined]
        assert 1 <= len(mine) <= 7 and 1 <= len(theirs) <= 7  # both racks known: bag empty


def test_endgame_benchmark_parts_share_the_positions(tmp_path: Path) -> None:
    """--part K/N: every N-th position from the K-th, so N processes share them."""
    whole, first, second = (tmp_path / f"{n}.tsv" for n in ("whole", "first", "second"))
    run("endgame.py", "--limit", "5", "--export-cgp", str(whole))
    run("endgame.py", "--limit", "5", "--part", "1/2", "--export-cgp", str(first))
    run("endgame.py", "--limit", "5", "--part", "2/2", "--export-cgp", str(second))
    lines = whole.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5
    assert first.read_text(encoding="utf-8").splitlines() == lines[0::2]
    assert second.read_text(encoding="utf-8").splitlines() == lines[1::2]


def test_endgame_benchmark_keeps_the_positions_with_the_named_racks(tmp_path: Path) -> None:
    """--racks MINE/THEIRS: only that position, the letters in any order and case."""
    whole, one = tmp_path / "whole.tsv", tmp_path / "one.tsv"
    run("endgame.py", "--limit", "4", "--export-cgp", str(whole))
    lines = whole.read_text(encoding="utf-8").splitlines()
    mine, theirs = read_exported(whole)[2][2].racks  # type: ignore[attr-defined]
    named = "".join(reversed(mine)).lower() + "/" + "".join(theirs)
    out = run("endgame.py", "--limit", "4", "--racks", named, "--export-cgp", str(one))
    assert f"1 positions written to {one}" in out
    assert one.read_text(encoding="utf-8").splitlines() == [
        line for line in lines if line.split("\t")[2] == lines[2].split("\t")[2]
    ]


@pytest.mark.parametrize(
    ("racks", "message"),
    [("QQQQ/ZZZ", "no endgame position has the racks QQQQ/ZZZ"),
     ("ABC", "is not MINE/THEIRS")],
)  # fmt: skip
def test_endgame_benchmark_names_racks_it_cannot_keep(racks: str, message: str) -> None:
    done = launch("endgame.py", "--limit", "3", "--racks", racks, "--export-cgp", os.devnull)
    assert done.returncode == 1 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_preendgame_benchmark_exports_its_positions_as_cgp(tmp_path: Path) -> None:
    target = tmp_path / "preendgames.tsv"
    out = run("endgame.py", "--preendgame", "--limit", "1", "--export-cgp", str(target))
    rows = read_exported(target)
    assert f"{len(rows)} positions written to {target}" in out
    assert 1 <= len(rows) <= 4  # at most one per number of tiles in the bag
    for _, _, pos in rows:
        mine, theirs = pos.racks  # type: ignore[attr-defined]
        assert len(mine) == 7 and theirs == []  # the opponent's rack is unknown


def test_simulate_benchmark_exports_its_positions_as_cgp(tmp_path: Path) -> None:
    target = tmp_path / "simulate.cgp"
    out = run("simulate.py", "--positions", "2", "--export-cgp", str(target))
    assert f"2 positions written to {target}" in out and "iterations in" not in out
    from gcgtools.movegen.cgp import parse_cgp

    positions = [parse_cgp(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert len(positions) == 2
    assert all(len(p.racks[0]) == 7 and not p.board.is_empty() for p in positions)


def test_deep_benchmark_runs() -> None:
    out = run("deep.py", "--depth", "sim", "--turns", "1", "--sim-iterations", "4",
              "--sim-candidates", "2", "--endgame-nodes", "300",
              "--preendgame-nodes", "50")  # fmt: skip
    assert "measured: 3 turns" in out and "extrapolated to all" in out
    assert "target: a game at --depth full in at most 60 s:" in out


@needs_data
def test_deep_jobs_benchmark_runs(tmp_path: Path) -> None:
    # the first turns of the example game, a tiny simulation: the script runs, and the
    # judgements of -j 1 and -j 2 are compared
    game = short_record(tmp_path, turns=3)
    out = run("deep_jobs.py", "--game", game, "--repeat", "1", "--sim-iterations", "4",
              "--sim-candidates", "2")  # fmt: skip
    assert "round 1: reference: a process alone gets " in out
    assert "-j 1: median " in out and "-j 2: median " in out
    assert out.splitlines()[-1] == "same judgements for every -j: yes"


@needs_data
def test_archive_benchmark_runs(tmp_path: Path) -> None:
    # an archive of short records (the shared corpus's records take minutes a mode in pure
    # Python), a tiny simulation: the archive is chosen by its judgeable turns and listed,
    # each mode runs, and their judgements are compared
    valid = tmp_path / "corpus" / "valid"
    valid.mkdir(parents=True)
    short_record(valid, "a.gcg", turns=3)
    short_record(valid, "b.gcg", turns=1)  # one judgeable turn: too few for --min-turns 2
    short_record(valid, "c.gcg", turns=2, note="another")
    short_record(valid, "d.gcg", turns=3, note="the archive is full before this one")
    listed = tmp_path / "archive.txt"
    out = run("archive.py", "--games", "2", "--min-turns", "2", "--modes", "1,2",
              "--list", str(listed), "--sim-iterations", "4", "--sim-candidates", "2",
              corpus=tmp_path / "corpus")  # fmt: skip
    assert listed.read_text(encoding="utf-8").splitlines() == [str(valid / "a.gcg"),
                                                               str(valid / "c.gcg")]  # fmt: skip
    assert out.startswith("archive: 2 records, 5 turns with the rack known ")
    assert "   1: " in out and "   2: " in out and "games/hour" in out
    assert out.splitlines()[-1] == "same judgements in every mode: yes"


@needs_data
def test_sim_startup_benchmark_runs() -> None:
    out = run("sim_startup.py", "--runs", "1")
    steps = [line.split()[0] for line in out.splitlines()[1:-1]]
    assert steps == ["interpreter", "imports", "lexicon", "position", "first_iteration", "end"]
    assert out.splitlines()[-1].startswith("before the first iteration: ")
