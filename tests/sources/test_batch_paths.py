"""Batches and paths (issue 9, item 11): one bad file never stops a batch, strange names
and special files are reported, not tracebacks or hangs, and an argument that names no
record is named."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from gcgtools.batch import checks
from gcgtools.cli import app
from gcgtools.sources.load import MAX_RECORD_BYTES, load_game, read_game
from gcgtools.sources.paths import display_name, expand_paths
from gcgtools.tables.frames import games_frame, write_moves
from gcgtools.tables.rows import MOVE_COLUMNS

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "club-final.gcg"
WRONG = ROOT / "examples" / "with-errors" / "wrong-scores.gcg"


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [os.fspath(a) for a in args])  # type: ignore[arg-type]
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _with_score(text: str, score: str) -> str:
    """The record with the first play's score replaced by ``score``."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith(">") and " +" in line:
            parts = line.split()
            parts[-2] = score
            lines[i] = " ".join(parts) + "\n"
            break
    return "".join(lines)


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """Two good records and two whose numbers break the tables or the parser."""
    folder = tmp_path / "archive"
    folder.mkdir()
    text = GAME.read_text(encoding="utf-8")
    (folder / "a.gcg").write_text(text, encoding="utf-8")
    (folder / "b-huge.gcg").write_text(_with_score(text, "+" + "9" * 30), encoding="utf-8")
    (folder / "c-digits.gcg").write_text(_with_score(text, "+" + "9" * 5000), encoding="utf-8")
    (folder / "d.gcg").write_text(text, encoding="utf-8")
    return folder


# ------------------------------------------------- one file never stops a batch
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_goes_on_past_a_file_it_fails_on(archive: Path, jobs: str) -> None:
    code, out, err = run("validate", archive, "--format", "json", "--jobs", jobs)
    reports = [json.loads(line) for line in out.splitlines()]
    assert [Path(r["path"]).name for r in reports] == [
        "a.gcg", "b-huge.gcg", "c-digits.gcg", "d.gcg"
    ]  # fmt: skip
    assert reports[0]["ok"] and reports[3]["ok"]
    assert not reports[1]["ok"] and not reports[2]["ok"]
    assert reports[2]["findings"], "the failing file has its finding"
    assert code in (1, 2) and "Traceback" not in err


@pytest.mark.parametrize("command", ["stats", "bingos"])
def test_tables_go_on_past_bad_numbers(archive: Path, command: str) -> None:
    code, out, err = run(command, archive, "--format", "json", "--jobs", "1")
    assert code in (0, 2) and "Traceback" not in err
    table = [json.loads(line) for line in out.splitlines()]  # the good games at least
    if command == "stats":
        assert min(row["games"] for row in table) >= 2
    else:
        assert len({row["file"] for row in table}) >= 2


def test_a_number_no_table_column_can_hold_is_named() -> None:
    """The last guard before the tables (the parser already refuses such numbers)."""
    from gcgtools.model.read import parse_bytes
    from gcgtools.tables.rows import analyse_game, out_of_range

    result = analyse_game(parse_bytes(GAME.read_bytes()), name="g.gcg")
    assert out_of_range(result) is None
    row = list(result.moves[3])
    row[MOVE_COLUMNS.index("score")] = 1 << 63
    result.moves[3] = tuple(row)
    line = row[MOVE_COLUMNS.index("line")]
    assert out_of_range(result) == f"score too large for a table column (line {line})"


def test_export_writes_parquet_past_a_bad_file(archive: Path, tmp_path: Path) -> None:
    out, games = tmp_path / "moves.parquet", tmp_path / "games.parquet"
    code, stdout, err = run("export", archive, "-o", out, "--games", games, "--jobs", "1")
    # a line whose number is out of range is a finding of its record, whose other lines
    # are read (issue 9 item 1): every record is in the tables, none is unreadable
    assert code == 0, err
    moves = pd.read_parquet(out)
    assert sorted({Path(f).name for f in moves["file"]}) == [
        "a.gcg", "b-huge.gcg", "c-digits.gcg", "d.gcg"
    ]  # fmt: skip
    assert moves["score"].abs().max() < 100_000
    table = pd.read_parquet(games)
    status = dict(zip(table["file"].map(lambda f: Path(f).name), table["status"], strict=True))
    assert status["a.gcg"] == "ok" and status["b-huge.gcg"] == "errors"
    assert status["c-digits.gcg"] == "errors"
    assert "wrote" in stdout


def test_a_failure_inside_gcgtools_becomes_the_files_F010(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fault injection: the replay of one file raises (as a bug would)."""
    real = checks.validate

    def flaky(game: object, **options: object) -> object:
        if str(getattr(game, "path", "")).endswith("d.gcg"):
            raise RuntimeError("injected failure")
        return real(game, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(checks, "validate", flaky)
    code, out, err = run("validate", archive / "a.gcg", archive / "d.gcg", "--jobs", "1")
    assert code == 2
    message = "could not process the file: RuntimeError: injected failure"
    assert f"d.gcg:0:1: F010 error: {message}" in out
    assert "2 files: 1 clean" in out


def test_parse_goes_on_past_a_file_it_fails_on(archive: Path) -> None:
    code, out, _ = run("parse", archive, "--format", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 4 and rows[3]["events"]
    # the 5,000-digit line is refused as too long (P112), the 30-digit number as out of
    # range (P111); the rest of each record is read, so parse exits 1 (lines not read)
    assert any(f["code"] == "P112" for f in rows[2]["findings"])
    assert any(f["code"] == "P111" for f in rows[1]["findings"])
    assert rows[1]["events"] and rows[2]["events"]
    assert code == 1


# ------------------------------------------------------------- strange names
LONG = "n" * 300 + ".gcg"


@pytest.mark.parametrize("command", ["parse", "validate", "stats", "write", "annotate"])
def test_a_name_over_255_bytes_is_a_finding(command: str, tmp_path: Path) -> None:
    code, out, err = run(command, tmp_path / LONG)
    assert code == 2
    assert "File name too long" in out + err
    assert "Traceback" not in out + err


def test_expand_paths_takes_any_name(tmp_path: Path) -> None:
    assert list(expand_paths([str(tmp_path / LONG)])) == [str(tmp_path / LONG)]
    assert list(expand_paths([str(tmp_path / (LONG + "*"))])) == [str(tmp_path / (LONG + "*"))]
    game = load_game("bad\0name.gcg")
    assert [f.code for f in game.findings] == ["F001"]


@pytest.fixture
def latin1_name(tmp_path: Path) -> Path:
    folder = tmp_path / "names"
    folder.mkdir()
    raw = os.fsencode(folder) + b"/caf\xe9-\xff.gcg"
    with open(raw, "wb") as fh:  # a record with errors: validate names it in findings
        fh.write(WRONG.read_bytes())
    return Path(os.fsdecode(raw))


def test_display_name_escapes_bytes_that_are_not_utf8(latin1_name: Path) -> None:
    shown = display_name(str(latin1_name))
    assert shown.endswith("caf\\xe9-\\xff.gcg")
    shown.encode("utf-8")
    assert display_name("café.gcg") == "café.gcg"
    assert display_name("\ud800.gcg") == "\\ud800.gcg"


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "--format", "json"],
        ["validate"],
        ["parse", "--format", "json"],
        ["stats"],
        ["stats", "--format", "json"],
        ["stats", "--by", "game", "--format", "csv"],
        ["bingos"],
        ["bingos", "--format", "json"],
    ],
)
def test_a_name_that_is_not_utf8_is_escaped(args: list[str], latin1_name: Path) -> None:
    command, *options = args
    jobs = [] if command == "parse" else ["--jobs", "1"]
    proc = subprocess.run(
        [sys.executable, "-c", "from gcgtools.cli import main; main()", command,
         os.fsencode(latin1_name.parent), *options, *jobs],
        capture_output=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT), LC_ALL="C.UTF-8"),
        timeout=120,
        check=False,
    )  # fmt: skip
    assert proc.returncode == (1 if command == "validate" else 0), proc.stderr.decode()
    assert b"\xff" not in proc.stdout + proc.stderr
    text = proc.stdout.decode("utf-8")
    shown = "caf\\xe9-\\xff.gcg"
    if "json" in options and command in ("validate", "parse"):
        for line in text.splitlines():
            assert json.loads(line)["path"].endswith(shown)
    elif "json" in options:  # JSON Lines
        for line in text.splitlines():
            json.loads(line)
    elif command == "validate" or "game" in options:
        assert shown in text


def test_report_and_export_with_a_name_that_is_not_utf8(latin1_name: Path, tmp_path: Path) -> None:
    code, _, err = run("report", latin1_name, "-o", tmp_path / "r.html")
    assert code == 0, err
    summary = write_moves([str(latin1_name.parent)], tmp_path / "m.parquet", jobs=1)
    assert summary.games == 1
    files = pd.read_parquet(tmp_path / "m.parquet")["file"].unique().tolist()
    assert files == [display_name(str(latin1_name))]
    games = games_frame([str(latin1_name)], jobs=1)
    assert games["file"].tolist() == [display_name(str(latin1_name))]


# ------------------------------------------------- arguments that name nothing
def test_parse_an_empty_glob_names_it(tmp_path: Path) -> None:
    pattern = str(tmp_path / "nothing*.gcg")
    code, out, _ = run("parse", pattern)
    assert code == 2
    assert f"{pattern}:0:1: F001 cannot read file: no game record matches this pattern" in out


@pytest.mark.parametrize("command", ["parse", "validate", "stats"])
def test_a_folder_without_records_is_named(command: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not a record")
    code, out, err = run(command, empty)
    assert code == 2
    assert f"{empty}" in out + err
    assert "no game records found in this folder (no *.gcg file)" in out + err


def test_a_glob_matching_only_empty_folders_is_named(tmp_path: Path) -> None:
    (tmp_path / "round1").mkdir()
    code, out, _ = run("validate", str(tmp_path / "round*"))
    assert code == 2 and "round*:0:1: F001" in out


# ------------------------------------------------ only regular files are read
def test_a_fifo_without_a_writer_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.gcg"
    os.mkfifo(fifo)
    proc = subprocess.run(
        [sys.executable, "-c", "from gcgtools.cli import main; main()", "validate", str(fifo)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert "F001 error: cannot read file: not a regular file (a FIFO)" in proc.stdout
    assert "pipe.gcg: F001 cannot read file: not a regular file (a FIFO)" in proc.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_not_read(device: str) -> None:
    game = load_game(device)
    assert [(f.code, f.message) for f in game.findings] == [
        ("F001", "cannot read file: not a regular file (a character device)")
    ]
    with pytest.raises(OSError, match="not a regular file"):
        read_game(device)


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.gcg"
    with open(big, "wb") as fh:  # sparse: takes no room on disk
        fh.truncate(MAX_RECORD_BYTES + 1)
    game = load_game(big)
    assert [f.code for f in game.findings] == ["F001"]
    assert "file too large for a game record" in game.findings[0].message
    assert f"{MAX_RECORD_BYTES:,}" in game.findings[0].message
    small = tmp_path / "small.gcg"
    small.write_bytes(GAME.read_bytes())
    assert not load_game(small).unreadable
    assert load_game(small, max_bytes=100).unreadable
    code, out, _ = run("validate", big, small)
    assert code == 2 and "file too large" in out and "2 files: 1 clean" in out


RECORD = "#player1 A Ann\n#player2 B Bob\n>A: AEINRST 8H RETAINS +66 66\n"


@pytest.mark.parametrize("command", ["validate", "stats", "parse"])
def test_a_folder_says_how_many_other_files_it_skipped(command: str, tmp_path: Path) -> None:
    games = tmp_path / "games"
    (games / "sub").mkdir(parents=True)
    (games / "one.gcg").write_text(RECORD, encoding="utf-8")
    for i in range(3):
        (games / f"record-{i}.txt").write_text(RECORD, encoding="utf-8")
    (games / "sub" / "more.TXT").write_text(RECORD, encoding="utf-8")
    (games / "README.md").write_text("about these games\n", encoding="utf-8")
    (games / ".hidden").write_text("", encoding="utf-8")  # not counted
    code, _, err = run(command, str(games))
    assert code == 0, err
    assert (
        f"skipped 5 files in {games} that are not *.gcg "
        f"(name them with a glob, e.g. '{games / '*.txt'}', to read them)"
    ) in err.splitlines()
    # the glob reads them, and says nothing more
    code, out, err = run("validate", str(games / "*.txt"))
    assert code == 0 and out.splitlines()[-1].startswith("3 files: 3 clean") and err == ""
    # only records: nothing said
    code, _, err = run(command, str(games / "one.gcg"))
    assert code == 0 and "skipped" not in err


def test_broken_links_in_a_folder_are_named(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "one.gcg").write_text(RECORD, encoding="utf-8")
    (games / "gone.gcg").symlink_to("nowhere.gcg")
    (games / "loop.gcg").symlink_to("loop.gcg")
    code, out, err = run("validate", str(games))
    assert code == 2
    said = "F001 error: cannot read file: a symbolic link that"
    assert f"{games / 'gone.gcg'}:0:1: {said} leads to no file (to nowhere.gcg)" in out
    assert f"{games / 'loop.gcg'}:0:1: {said} loops (to loop.gcg)" in out
    assert out.splitlines()[-1].startswith("3 files: 1 clean, 0 with errors, 2 unreadable")
