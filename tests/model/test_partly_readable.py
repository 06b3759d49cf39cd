"""A line that cannot be read costs only itself (issue 9, item 1): every command works on
the rest of the record, and the replay resumes at the next readable line."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from conftest import PROJECT_ROOT, valid_file
from typer.testing import CliRunner

from gcgtools import read_game, validate
from gcgtools.cli import app
from gcgtools.edit.fix import fix_record
from gcgtools.tables.frames import games_frame

runner = CliRunner()
EXAMPLE = PROJECT_ROOT / "examples" / "with-errors" / "wrong-scores.gcg"
GOOD_LINE = ">Brendan: EGJNSTW 7M JE. +18 54"
# the three mistakes the example was made with
REAL = [(13, "S601"), (35, "S601"), (42, "S602")]


def lost_line_copy(folder: Path, bad_line: str) -> Path:
    """A copy of the example whose line 20 (Brendan's JE.) is replaced by ``bad_line``."""
    text = EXAMPLE.read_text(encoding="utf-8")
    assert text.splitlines()[19] == GOOD_LINE
    path = folder / "lost-line.gcg"
    path.write_text(text.replace(GOOD_LINE, bad_line), encoding="utf-8")
    return path


def errors(path: Path) -> list[tuple[int, str]]:
    result = validate(read_game(path))
    return [(f.line, f.code) for f in result.findings if f.severity == "error"]


def test_colon_less_line_is_reported_with_every_replay_finding(tmp_path: Path) -> None:
    path = lost_line_copy(tmp_path, ">Brendan EGJNSTW 7M JE. +18 54")
    assert errors(path) == sorted([*REAL, (20, "P101")])
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert "0 unreadable; 4 errors" in result.output
    out = runner.invoke(app, ["validate", str(path), "--format", "json"])
    report = json.loads(out.stdout.splitlines()[0])
    assert report["ok"] is False and report["events"] == 34


def test_a_line_that_cannot_be_salvaged_leaves_a_gap_without_cascade(tmp_path: Path) -> None:
    # the score is unreadable: the play is lost, its tiles never reach the board; the tiles
    # left at the end are then not judged (no false T407), nor Brendan's next cumulative
    path = lost_line_copy(tmp_path, ">Brendan: EGJNSTW 7M JE. 18+ 54")
    assert errors(path) == sorted([*REAL, (20, "P101")])


def test_every_command_works_on_what_could_be_read(tmp_path: Path) -> None:
    path = lost_line_copy(tmp_path, ">Brendan EGJNSTW 7M JE. +18 54")
    data = path.read_bytes()
    name = str(path)

    out = tmp_path / "copy.gcg"
    result = runner.invoke(app, ["write", name, "-o", str(out)])
    assert result.exit_code == 0 and out.read_bytes() == data  # lossless, bad line too
    assert f"{name}:20:10: P101" in result.stderr

    result = runner.invoke(app, ["write", name, "--normalise"])
    assert result.exit_code == 0
    assert b"\n>Brendan EGJNSTW 7M JE. +18 54\n" in result.stdout_bytes

    result = runner.invoke(app, ["annotate", name, "-o", str(out)])
    assert result.exit_code == 0
    annotated = out.read_text(encoding="utf-8")
    assert "#note gcgtools: S601 error: recorded +14, computed +41" in annotated
    # the bad line is kept, after the notes of the event before it, and noted
    lines = annotated.splitlines()
    bad = lines.index(">Brendan EGJNSTW 7M JE. +18 54")
    assert lines[bad - 2].startswith("#note gcgtools: O1 HaN(G)OVEr: words HaNGOVEr 117")
    assert lines[bad + 1].startswith("#note gcgtools: P101 error (line 20): cannot read line")
    assert lines[bad + 2].startswith(">Ada_Quill: AEIIKMR 8H .IRAM")

    result = runner.invoke(app, ["report", name, "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 0 and "HANGOVER" in (tmp_path / "r.html").read_text()

    result = runner.invoke(app, ["board", name, "--move", "12"])
    assert result.exit_code == 0 and "Brendan" in result.stdout

    result = runner.invoke(app, ["chart", name, "-o", str(tmp_path / "c.svg")])
    assert result.exit_code == 0 and (tmp_path / "c.svg").stat().st_size > 0

    result = runner.invoke(app, ["stats", name, "--by", "game", "--format", "json"])
    assert result.exit_code == 0
    (row,) = [json.loads(line) for line in result.stdout.splitlines()]  # JSON Lines
    assert row["status"] == "errors" and row["score1"] == 472

    moves, games = tmp_path / "m.parquet", tmp_path / "g.parquet"
    result = runner.invoke(app, ["export", name, "-o", str(moves), "--games", str(games)])
    assert result.exit_code == 0, result.output
    game = pd.read_parquet(games).iloc[0]
    assert (game["status"], game["errors"]) == ("errors", 4)
    assert len(pd.read_parquet(moves)) == 34


def test_fix_corrects_what_it_safely_can(tmp_path: Path) -> None:
    path = lost_line_copy(tmp_path, ">Brendan EGJNSTW 7M JE. +18 54")
    result = fix_record(read_game(path))
    lines = result.data.decode().splitlines()
    assert lines[12] == ">Brendan: ABDENSY 3H BENDAY +41 63"
    assert lines[19] == ">Brendan EGJNSTW 7M JE. +18 54"  # left as it was
    # Brendan's later totals go on by the +18 the record gives the lost line
    assert lines[23] == ">Brendan: GIMNSTW 9L MIGS +28 109"
    assert lines[47] == ">Brendan: L K1 L.. +4 368"
    # left: the bad line itself, and its cumulative, which no longer follows
    assert [(f.line, f.code) for f in result.unfixable] == [(20, "P101"), (20, "S602")]
    cli = runner.invoke(app, ["fix", str(path), "-o", str(tmp_path / "f.gcg")])
    assert cli.exit_code == 1
    assert "P101" in cli.output and "2 errors and 0 warnings left" in cli.output


def test_only_a_record_with_nothing_readable_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "junk.gcg"
    path.write_text(">Brendan EGJNSTW 7M JE. +18 54\nhello\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and "1 unreadable" in result.output
    assert games_frame([str(path)], jobs=1).iloc[0]["status"] == "unreadable"


def test_cresta_typo_no_longer_hides_the_real_errors() -> None:
    path = valid_file("HerbCaudill__scorable/e2e__games__cresta-yorra-2006.gcg")
    found = errors(path)
    # three wrong cumulatives and one misscored play, then the typo on the last line
    assert [code for _, code in found] == ["S602", "S602", "S602", "S601", "P101"]
    assert found[-1][0] == len(path.read_bytes().splitlines())


def test_parse_exits_1_when_some_lines_could_not_be_read(tmp_path: Path) -> None:
    path = lost_line_copy(tmp_path, ">Brendan EGJNSTW 7M JE. +18 54")
    result = runner.invoke(app, ["parse", str(path)])
    assert result.exit_code == 1
    assert runner.invoke(app, ["parse", str(EXAMPLE)]).exit_code == 0
