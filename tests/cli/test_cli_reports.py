"""The report commands: stats, bingos, chart, export."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pandas as pd
import pytest
from support.pty_helper import drain
from support.report_records import BROKEN, GAME_A, GAME_HOME, GAME_TIE, PHONY_BINGO, write
from typer.testing import CliRunner

from gcgtools.cli import app
from gcgtools.tables.frames import games_frame, moves_frame

runner = CliRunner()


def jsonl(text: str) -> list[dict]:
    """JSON Lines: one object per line, every line one object."""
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    folder = tmp_path / "club"
    folder.mkdir()
    write(folder, "a.gcg", GAME_A)
    (folder / "round2").mkdir()
    write(folder / "round2", "tie.gcg", GAME_TIE)
    return folder


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


# ------------------------------------------------------------------ stats
def test_stats_json_per_player(archive: Path) -> None:
    code, out, err = run("stats", str(archive), "--format", "json", "--jobs", "1")
    assert (code, err) == (0, "")
    rows = {r["player"]: r for r in jsonl(out)}
    assert set(rows) == {"Alice", "Bob"}
    assert (rows["Alice"]["wins"], rows["Alice"]["ties"], rows["Alice"]["bingos"]) == (1, 1, 1)
    assert rows["Alice"]["avg_spread"] == 44.5
    assert rows["Bob"]["highest_play"] == 17 and rows["Bob"]["highest_play_word"] == "JO"
    assert rows["Bob"]["points_per_turn"] == 2.78


def test_stats_csv_by_game(archive: Path) -> None:
    code, out, _ = run("stats", str(archive), "--by", "game", "--format", "csv", "-q")
    assert code == 0
    table = pd.read_csv(io.StringIO(out))
    assert table["game_id"].tolist() == ["game-a", "tie"]
    assert table["winner"].tolist() == ["Alice", "tie"]
    assert table["spread"].tolist() == [89, 0]


def test_stats_table(archive: Path) -> None:
    code, out, err = run("stats", str(archive))
    assert (code, err) == (0, "")
    assert "2 games" in out
    alice = next(line for line in out.splitlines() if "Alice" in line)
    # the default columns: games, wins, losses, ties, avg score, avg spread, ...
    assert alice.split()[:7] == ["Alice", "2", "1", "0", "1", "42.50", "44.50"]
    assert "RETAINS" not in out  # highest_play_word is not a default column
    code, out, _ = run("stats", str(archive), "--columns", "finished,highest_play_word")
    assert code == 0
    assert out.splitlines()[1].split() == ["player", "finished", "highest", "play", "word"]
    alice = next(line for line in out.splitlines() if "Alice" in line)
    assert alice.split() == ["Alice", "2", "RETAINS"]


def test_stats_home_rules_break_the_tie(tmp_path: Path) -> None:
    path = write(tmp_path, "home.gcg", GAME_HOME)
    code, out, _ = run("stats", path, "--rules", "home", "-f", "json")
    assert code == 0
    assert {r["player"]: r["wins"] for r in jsonl(out)} == {"Alice": 1, "Bob": 0}


def test_a_batch_goes_on_past_an_unreadable_file(archive: Path) -> None:
    broken = write(archive, "broken.gcg", BROKEN)
    missing = str(archive / "missing.gcg")
    code, out, err = run("stats", str(archive), missing, "-f", "json")
    assert code == 2
    assert {r["player"] for r in jsonl(out)} == {"Alice", "Bob"}
    assert "could not read 2 files:" in err
    assert broken in err and missing in err


def test_nothing_to_read_is_an_error(tmp_path: Path) -> None:
    code, _, err = run("stats", str(tmp_path))
    assert code == 2 and "no game records" in err


# ----------------------------------------------------------------- bingos
def test_bingos_json_is_one_object_per_bingo(archive: Path) -> None:
    phony = write(archive, "phony.gcg", PHONY_BINGO)
    code, out, _ = run("bingos", str(archive), "--format", "json")
    assert code == 0
    bingos = jsonl(out)
    assert [(b["player"], b["word"], b["position"], b["score"]) for b in bingos] == [
        ("Alice", "RETAINS", "8H", 66),
        ("Bob", "TIRADES", "8H", 70),
    ]
    assert bingos[1]["file"] == phony and bingos[1]["game_id"] == "phony"


def test_bingos_table_counts_per_player(archive: Path) -> None:
    code, out, _ = run("bingos", str(archive / "*.gcg"))
    assert code == 0
    assert "1 bingo in 1 game" in out  # the glob does not reach round2/
    assert "bingos per player" in out and "RETAINS" in out


def test_bingos_csv(archive: Path) -> None:
    code, out, _ = run("bingos", str(archive), "-f", "csv")
    assert code == 0
    table = pd.read_csv(io.StringIO(out))
    assert table[["player", "word", "score"]].values.tolist() == [["Alice", "RETAINS", 66]]


# ------------------------------------------------------------------ chart
def test_chart_of_one_game(archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "a.svg"
    code, text, _ = run("chart", str(archive / "a.gcg"), "-o", str(out))
    assert code == 0 and "progression chart" in text
    assert ET.parse(out).getroot().tag.endswith("svg")


def test_chart_of_an_archive(archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "club.png"
    code, text, _ = run("chart", str(archive), "-o", str(out), "--jobs", "1")
    assert code == 0 and "archive chart of 2 games" in text
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, text, _ = run("chart", str(archive / "a.gcg"), "--archive", "-o", str(out))
    assert code == 0 and "archive chart of 1 game" in text


def test_chart_of_an_unreadable_file(tmp_path: Path) -> None:
    broken = write(tmp_path, "broken.gcg", BROKEN)
    code, _, err = run("chart", broken, "-o", str(tmp_path / "b.png"))
    assert code == 2 and broken in err
    assert not (tmp_path / "b.png").exists()


def test_chart_needs_png_or_svg(archive: Path, tmp_path: Path) -> None:
    code, _, err = run("chart", str(archive / "a.gcg"), "-o", str(tmp_path / "a.jpg"))
    assert code == 2 and ".png, .svg or .pdf" in err
    assert not (tmp_path / "a.jpg").exists()


# ----------------------------------------------------------------- export
def test_export_parquet_and_csv(archive: Path, tmp_path: Path) -> None:
    moves, games = tmp_path / "moves.parquet", tmp_path / "games.csv"
    code, text, _ = run("export", str(archive), "-o", str(moves), "--games", str(games))
    assert code == 0
    assert text.strip() == f"wrote 26 moves of 2 games to {moves} and {games}"
    expected = moves_frame([str(archive)], jobs=1)
    pd.testing.assert_frame_equal(pd.read_parquet(moves), expected)
    back = pd.read_csv(games)
    assert back["game_id"].tolist() == games_frame([str(archive)], jobs=1)["game_id"].tolist()
    assert back["score1"].tolist() == [74, 11]


def test_export_with_an_unreadable_file(archive: Path, tmp_path: Path) -> None:
    broken = write(archive, "broken.gcg", BROKEN)
    out = tmp_path / "moves.csv"
    code, text, err = run("export", str(archive), "-o", str(out))
    assert code == 2 and broken in err
    assert "wrote 26 moves of 2 games" in text
    assert len(pd.read_csv(out)) == 26


def test_export_needs_parquet_or_csv(archive: Path, tmp_path: Path) -> None:
    code, _, err = run("export", str(archive), "-o", str(tmp_path / "m.json"))
    assert code == 2 and "parquet or .csv" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club"]


# ------------------------------------------------------------- real process
def test_piped_run_has_no_progress_bar_and_lists_bad_files(archive: Path) -> None:
    broken = write(archive, "broken.gcg", BROKEN)
    proc = subprocess.run(
        [sys.executable, "-c", "from gcgtools.cli import main; main()", "bingos", str(archive),
         "-f", "json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2
    assert [b["word"] for b in jsonl(proc.stdout)] == ["RETAINS"]
    assert proc.stderr.splitlines()[0] == "could not read 1 file:"
    assert broken in proc.stderr and "Traceback" not in proc.stderr


def _stderr_on_a_terminal(*args: str) -> tuple[int, str, bytes]:
    """Run the CLI with stderr on a pseudo-terminal (stdout piped); its exit code, stdout
    and everything written to the terminal."""
    import os
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from gcgtools.cli import main; main()", *args],
        stdout=subprocess.PIPE, stderr=slave,
    )  # fmt: skip
    os.close(slave)
    screen = drain(master, proc)
    out = proc.stdout.read().decode() if proc.stdout else ""
    return proc.wait(timeout=120), out, screen


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_only_on_a_terminal_and_not_with_quiet(archive: Path) -> None:
    code, out, terminal = _stderr_on_a_terminal("bingos", str(archive), "-f", "json")
    assert code == 0 and [b["word"] for b in jsonl(out)] == ["RETAINS"]
    assert b"games" in terminal and b"2/2" in terminal  # the bar: label and done/total
    code, out, terminal = _stderr_on_a_terminal("bingos", str(archive), "-f", "json", "-q")
    assert code == 0 and jsonl(out)
    assert terminal == b""


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_validate_draws_its_progress_bar_on_stderr(archive: Path) -> None:
    code, out, terminal = _stderr_on_a_terminal("validate", str(archive))
    assert code in (0, 1) and "\x1b[" not in out  # stdout: the report only
    assert b"games" in terminal and re.search(rb"\d+/\d+", terminal)  # label, done/total


def test_validate_an_empty_folder_says_so_and_exits_2(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from gcgtools.cli import app

    result = CliRunner().invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    assert "no game records found" in result.output
