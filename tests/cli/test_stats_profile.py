"""``gcgtools stats --by profile``: the options it refuses before reading anything, and
the profiles of corpus records judged at a quick simulation setting (with the lexicon)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from conftest import corpus_dir
from support.reference_data import DATA, needs_data
from support.report_records import GAME_A, write
from typer.testing import CliRunner

from gcgtools.cli import app
from gcgtools.tables.profiles import GAME_PROFILE_COLUMNS, KIND_COLUMNS, PHASE_COLUMNS

runner = CliRunner()
QUICK = ["--depth", "sim", "--sim-iterations", "6", "--sim-candidates", "3",
         "--endgame-nodes", "2000", "--preendgame-nodes", "2000", "--seed", "7"]  # fmt: skip


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def record(tmp_path: Path) -> str:
    return write(tmp_path, "a.gcg", GAME_A)


def test_profile_needs_a_depth(record: str) -> None:
    code, out, err = run("stats", record, "--by", "profile", "--lexicon", "x.kwg")
    assert code == 2 and out == ""
    assert "needs --depth sim or full" in err


def test_depth_needs_a_lexicon(record: str) -> None:
    code, out, err = run("stats", record, "--depth", "sim")
    assert code == 2 and out == ""
    assert "--depth sim judges the moves: give --lexicon or --lexica" in err


@pytest.mark.parametrize("option", ["--chart", "--output", "--games"])
def test_profile_files_only_with_by_profile(record: str, option: str, tmp_path: Path) -> None:
    code, _, err = run("stats", record, option, str(tmp_path / "x.csv"))
    assert code == 2 and "only with --by profile" in err


@pytest.mark.parametrize(
    ("option", "name", "said"),
    [("--chart", "mi.txt", ".png or .svg or .pdf"), ("--output", "p.json", ".csv or .parquet"),
     ("--games", "g.xlsx", ".csv or .parquet")],
)  # fmt: skip
def test_profile_file_suffix_checked_first(
    record: str, option: str, name: str, said: str, tmp_path: Path
) -> None:
    code, out, err = run("stats", record, "--by", "profile", *QUICK, "--lexicon", "missing.kwg",
                         option, str(tmp_path / name))  # fmt: skip
    assert code == 2 and out == ""
    assert said in err and not (tmp_path / name).exists()


# ------------------------------------------------------------------ on the corpus
def _records(folder: Path) -> Path:
    """Two short records cut from a real game (the opening and the mid-game of a woogles
    game), so that the judging stays quick even in pure Python."""
    source = corpus_dir() / "valid" / "domino14__macondo" / "preendgame__testdata__issue_476.gcg"
    lines = source.read_text().splitlines()
    head = [x for x in lines if x.startswith("#")]
    moves = [x for x in lines if x.startswith(">")]
    folder.mkdir()
    for n in (6, 9):
        (folder / f"part{n}.gcg").write_text("\n".join(head + moves[:n]) + "\n")
    return folder


@needs_data
def test_profiles_of_corpus_records(tmp_path: Path, private_cache: Path) -> None:
    folder = _records(tmp_path / "records")
    lexicon = ["--lexicon", str(DATA / "lexica" / "ENABLE.kwg")]
    games, chart = tmp_path / "games.csv", tmp_path / "mi.png"
    code, text, err = run("stats", str(folder), "--by", "profile", *QUICK, *lexicon, "-q",
                          "--games", str(games), "--chart", str(chart))  # fmt: skip
    assert code == 0, err
    assert max(len(line) for line in text.splitlines()) <= 80
    assert text.startswith("2 games, 4 judged player-games: Mistake Index per game, by phase")
    said = " ".join(text.split())
    assert "cannot be fitted: no judged game's record gives its player's rating" in said
    assert chart.stat().st_size > 0
    rows = pd.read_csv(games)
    assert list(rows.columns) == GAME_PROFILE_COLUMNS and len(rows) == 4
    assert rows["date"].isna().all()  # the records give no date: archive order
    for _, row in rows.iterrows():
        assert sum(row[c] for c in PHASE_COLUMNS) == pytest.approx(row["mistake_index"])
        assert sum(row[c] for c in KIND_COLUMNS) == pytest.approx(row["mistake_index"])
        assert row["phase_preendgame"] == row["phase_endgame"] == row["kind_endgame"] == 0
    # the same judgements again, from the result cache: the same profiles as JSON Lines
    code, out, _ = run("stats", str(folder), "--by", "profile", *QUICK, *lexicon, "-q",
                       "-f", "json")  # fmt: skip
    players = {p["player"]: p for p in map(json.loads, out.splitlines())}
    assert code == 0 and set(players) == set(rows["player"])
    for nick, p in players.items():
        mine = rows[rows["player"] == nick]
        assert p["games"] == len(mine)
        assert p["judged_turns"] == mine["judged_turns"].sum()
        assert p["mistake_index"] == pytest.approx(mine["mistake_index"].mean(), abs=1e-3)
        assert p["rating_estimate"] is None
    first = text.splitlines()[3]  # the first player's line of the text table
    nick = first.split()[0]
    assert float(first.split()[3]) == pytest.approx(players[nick]["mistake_index"], abs=0.01)


@needs_data
def test_stats_by_player_at_a_depth_shows_the_judged_columns(private_cache: Path) -> None:
    records = Path(__file__).resolve().parents[1] / "support" / "data" / "analysis_records"
    lexicon = ["--lexicon", str(DATA / "lexica" / "ENABLE.kwg")]
    code, text, _ = run("stats", str(records), *lexicon, *QUICK, "-q")
    assert code == 0
    assert "mistake index" in text and "best move share" in text
    code, out, _ = run("stats", str(records), *lexicon, *QUICK, "-q", "-f", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and all(r["mistake_index"] is not None for r in rows)
