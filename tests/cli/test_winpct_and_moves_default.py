"""`--winpct FILE` on `analyse`, `moves` and `report` (every output names the win model;
a bad file is one line and exit 2), and `moves RECORD` without --move (the last position
whose rack the record shows)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.hints import without_build_hint
from support.reference_data import DATA, needs_data
from typer.testing import CliRunner

from gcgtools.analysis.winprob import builtin_model
from gcgtools.cli import app

runner = CliRunner()
pytestmark = [needs_data, pytest.mark.usefixtures("private_cache")]
ENABLE = str(DATA / "lexica" / "ENABLE.kwg") if DATA is not None else ""

# Two turns: Alice's opening (rack known), Bob's reply (rack known); nothing after.
GAME = """\
#character-encoding UTF-8
#lexicon ENABLE
#player1 Alice Alice Adams
#player2 Bob Bob Brown
>Alice: AEINRST 8H RETAINS +66 66
>Bob: DGOOPRW H5 WOG. +8 8
"""
# A table of one line per number of unseen tiles, spreads -1..+1: the player to move wins
# 10%, 50% or 90% of the time; every spread beyond uses the end columns.
TABLE = "10 2 10 18\n10 2 10 18\n"
SIM = ("--depth", "sim", "--sim-iterations", "4", "--sim-candidates", "3",
       "--endgame-nodes", "200", "--preendgame-nodes", "50")  # fmt: skip


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    game = tmp_path / "game.gcg"
    game.write_text(GAME, encoding="utf-8")
    table = tmp_path / "magpie.csv"
    table.write_text(TABLE, encoding="ascii")
    return game, table


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _judged(out: str) -> dict[str, object]:
    (record,) = [json.loads(line) for line in out.splitlines()]
    return record


def test_analyse_winpct_is_used_and_named_in_text_and_json(files: tuple[Path, Path]) -> None:
    game, table = files
    code, out, _ = run("analyse", str(game), "--lexicon", ENABLE, *SIM, "-f", "json")
    assert code == 0
    builtin = _judged(out)
    assert builtin["win_model"] == builtin_model().name
    code, out, _ = run("analyse", str(game), "--lexicon", ENABLE, *SIM, "-f", "json",
                       "--winpct", str(table))  # fmt: skip
    assert code == 0
    record = _judged(out)
    # a new model is a new cache entry, and its win% are the table's (10, 50 or 90 at the
    # end of the plies, averaged)
    assert record["win_model"] == "winpct table magpie.csv"
    judgements = [t["judgement"] for t in record["turns"] if t.get("judgement")]  # type: ignore[union-attr]
    assert judgements and all(j["model"] == "winpct table magpie.csv" for j in judgements)
    assert all(10.0 <= m["win_pct"] <= 90.0 for j in judgements for m in j["moves"])
    code, out, _ = run("analyse", str(game), "--lexicon", ENABLE, *SIM, "--winpct", str(table))
    assert code == 0
    assert "judged at depth sim\n  win model: winpct table magpie.csv\n" in out


def test_report_names_the_win_model(files: tuple[Path, Path], tmp_path: Path) -> None:
    game, table = files
    page = tmp_path / "game.html"
    code, _, _ = run("report", str(game), "--lexicon", ENABLE, "--depth", "sim",
                     "--sim-iterations", "4", "--sim-candidates", "3", "--winpct", str(table),
                     "-o", str(page))  # fmt: skip
    assert code == 0
    assert "win model: winpct table magpie.csv" in page.read_text(encoding="utf-8")


def test_moves_sim_winpct_names_the_model(files: tuple[Path, Path]) -> None:
    game, table = files
    args = ("moves", str(game), "--move", "1", "--lexicon", ENABLE, "--sim", "--iterations",
            "4", "--candidates", "3", "--winpct", str(table))  # fmt: skip
    code, out, _ = run(*args)
    assert code == 0 and "win model: winpct table magpie.csv" in out
    code, out, _ = run(*args, "-f", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows and all(r["win_model"] == "winpct table magpie.csv" for r in rows)


@pytest.mark.parametrize("command", ["analyse", "report", "moves"])
@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "cannot read"),
        ("10 2 10\n", ":1: 2 counts after the number of games"),
        ("10 2 x 18\n", ":1:6: 'x' is not a count"),
    ],
)
def test_a_bad_win_model_file_is_one_line_and_exit_2(
    files: tuple[Path, Path], tmp_path: Path, command: str, content: str | None, said: str
) -> None:
    game, _ = files
    bad = tmp_path / "bad.csv"
    if content is not None:
        bad.write_text(content, encoding="ascii")
    extra = ("--sim",) if command == "moves" else ("--depth", "sim")
    code, out, err = run(command, str(game), "--lexicon", ENABLE, *extra, "--winpct", str(bad))
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert line.startswith("gcgtools: --winpct: ") and str(bad) in line and said in line


def test_winpct_without_a_simulation_says_it_is_unused(files: tuple[Path, Path]) -> None:
    game, table = files
    code, _, err = run("analyse", str(game), "--lexicon", ENABLE, "--winpct", str(table))
    assert code == 0 and "--winpct is used only when simulating" in err


def test_moves_without_move_takes_the_last_position_with_a_known_rack(
    files: tuple[Path, Path],
) -> None:
    game, _ = files
    # after event 2 it is Alice's turn, and the record has no rack of hers
    code, out, err = run("moves", str(game), "--lexicon", ENABLE, "-n", "1")
    assert code == 0
    assert "no --move: the position after event 1" in err
    assert out.splitlines()[0] == f"{game} after event 1: Bob to move with DGOOPRW (bag 79)"
    # with --rack the end is the default, as before
    code, out, err = run("moves", str(game), "--lexicon", ENABLE, "-n", "1", "--rack", "AEIOU")
    assert code == 0 and "after event 2: Alice to move with AEIOU" in out
    assert without_build_hint(err) == ""
