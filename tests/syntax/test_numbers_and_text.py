"""Numbers and text no output can hold (issue 9, item 7): scores are ASCII digits within a
sane range, a located finding beyond it, and no name or note crashes an output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import PROJECT_ROOT
from typer.testing import CliRunner

from gcgtools import parse_bytes, parse_string, validate
from gcgtools.cli import app
from gcgtools.jobs.report import game_report_html
from gcgtools.render.writer import write_gcg
from gcgtools.tables.frames import games_frame, moves_frame

runner = CliRunner()
HEADER = "#player1 A Ann\n#player2 B Bob\n>A: AEINRST 8H RETAINS +66 66\n"
HUGE = "9" * 900  # far beyond int64; a line of 5,000 digits is too long a line (P112)


@pytest.mark.parametrize(
    ("line", "column", "what"),
    [
        (f">B: DGOOPRW I7 P.G +11 {HUGE}", 24, "cumulative"),
        (f">B: DGOOPRW I7 P.G +{HUGE} 11", 21, "score"),
        (">B: DGOOPRW I7 P.G +11 9223372036854775808", 24, "cumulative"),  # 2**63
        (">B: DGOOPRW I7 P.G +-123456 -123456", 22, "score"),
        (f">B: DGOOPRW -{HUGE} +0 0", 14, "exchange count"),
    ],
)
def test_numbers_beyond_the_range_are_a_located_finding(line: str, column: int, what: str):
    game = parse_string(HEADER + line + "\n>A: EEILMOT N8 .MILE +9 75\n")
    (f,) = [f for f in game.findings if f.code == "P111"]
    assert (f.line, f.column, f.severity) == (4, column, "error")
    assert f.message.startswith(what) and "out of range (-99,999 to 99,999)" in f.message
    assert len(f.message) < 120
    # the rest is replayed; the lost line leaves a gap (A's next total is still judged)
    result = validate(game)
    assert [(x.line, x.code) for x in result.findings if x.severity == "error"] == [(4, "P111")]


def test_thousands_of_digits_are_a_line_too_long():
    # beyond Python's int-string limit (4,300 digits): refused before any int() is tried
    game = parse_string(HEADER + f">B: DGOOPRW I7 P.G +11 {'9' * 5000}\n")
    assert [(f.code, f.line) for f in game.findings] == [("P112", 4)]


def test_five_digits_and_leading_zeros_are_fine():
    game = parse_string(HEADER + ">B: DGOOPRW I7 P.G +0000011 00011\n")
    assert game.findings == [] and game.events[-1].cumulative == 11


def test_a_non_ascii_digit_is_no_number():
    # '²' is a digit to str.isdigit() but not to int(): "-²" exchanges a tile the set lacks
    game = parse_string(HEADER + ">B: DGOOPRW -\u00b2 +0 0\n")
    assert game.events[-1].count is None and game.events[-1].tiles == "\u00b2"
    assert [(f.line, f.code) for f in validate(game).findings if f.severity == "error"] == [
        (4, "T403")
    ]


def test_every_command_survives_huge_numbers(tmp_path: Path) -> None:
    path = tmp_path / "huge.gcg"
    data = (HEADER + f">B: DGOOPRW -\u00b2 +0 {HUGE}\n>A: EEILMOT N8 .MILE +9 75\n").encode()
    path.write_bytes(data)
    name = str(path)
    result = runner.invoke(app, ["validate", name, "--format", "json"])
    assert result.exit_code == 1 and json.loads(result.stdout)["findings"][0]["code"] == "P111"
    out = tmp_path / "w.gcg"
    assert runner.invoke(app, ["write", name, "-o", str(out)]).exit_code == 0
    assert out.read_bytes() == data
    for args in (
        ["annotate", name, "-o", str(tmp_path / "a.gcg")],
        ["report", name, "-o", str(tmp_path / "r.html")],
        ["stats", name, "--format", "csv"],
        ["export", name, "-o", str(tmp_path / "m.parquet"), "--games", str(tmp_path / "g.pq")],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
    assert pd.read_parquet(tmp_path / "g.pq").iloc[0]["status"] == "errors"


def test_text_no_encoding_can_write_is_replaced_and_reported(tmp_path: Path) -> None:
    # lone surrogates, as surrogateescape leaves them, in a name and a note
    text = HEADER.replace("Ann", "An\udcffn", 1) + "#note x\udce9y\n"
    game = parse_string(text)
    assert [(f.code, f.line) for f in game.findings] == [("F005", 1), ("F005", 4)]
    assert game.players[0].name == "An\ufffdn"
    assert "\ufffd" in write_gcg(game).decode("utf-8")
    write_gcg(game, normalise=True)
    game_report_html(game).encode("utf-8")
    json.dumps(game.to_dict(), ensure_ascii=False).encode("utf-8")
    games = games_frame([game], jobs=1)
    moves = moves_frame([game], jobs=1)
    games.to_parquet(tmp_path / "g.parquet")
    moves.to_csv(tmp_path / "m.csv")


def test_names_the_terminal_cannot_show_do_not_crash(tmp_path: Path) -> None:
    path = tmp_path / "latin.gcg"
    path.write_bytes(
        b"#character-encoding UTF-8\n#player1 J\xfc J\xfcrgen\n#player2 B Bob\n"
        b">J\xfc: AEINRST 8H RETAINS +66 66\n#note gr\xfc\xdfe\n"
    )
    assert parse_bytes(path.read_bytes()).findings[0].code == "F005"
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "PYTHONIOENCODING": "ascii"}
    env["LC_ALL"] = env["LANG"] = "C"
    for args in (["stats", str(path), "--format", "csv"], ["stats", str(path)]):
        proc = subprocess.run(
            [sys.executable, "-c", "from gcgtools.cli import main; main()", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stderr and "J\\ufffd" in proc.stdout


# ------------------------------------------------------------- counted words
def test_plural_says_counts_one_way() -> None:
    from gcgtools.wording import no_lexicon, plural

    assert [plural(n, "error") for n in (0, 1, 2)] == ["0 errors", "1 error", "2 errors"]
    assert plural(1, "phony") == "1 phony" and plural(3, "phony") == "3 phonies"
    assert plural(1, "file") == "1 file" and plural(2, "game") == "2 games"
    assert no_lexicon().startswith("no lexicon: give --lexicon FILE")
    assert no_lexicon("ENABLE not found").startswith("no lexicon: ENABLE not found; give ")


def test_no_count_in_the_package_is_written_with_parentheses_or_a_bare_s() -> None:
    # every counted word goes through gcgtools.wording.plural: no "file(s)", no "1 errors"
    import re
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "gcgtools"
    nouns = "file|game|record|node|group|word|line|move|error|warning|tile|play|page|turn"
    bad = re.compile(rf"""\b({nouns})\(s\)|'s' \* \(|"s" \* \(|phon\{{s\}}""")
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(package.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if bad.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []
