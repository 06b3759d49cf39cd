"""`gcgtools study`: a player's judged mistakes as puzzles (JSON lines) and as a quiz page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.reference_data import DATA, needs_data
from typer.testing import CliRunner

from gcgtools.cli import app
from gcgtools.movegen.cgp import parse_cgp

runner = CliRunner()
ENABLE = str(DATA / "lexica" / "ENABLE.kwg") if DATA is not None else ""
#: the first move throws away a bingo: AEINRST plays AT for 4 (RETAINS and the others score
#: 60 or more); Bob's reply is a fair one
RECORD = """#player1 {first} Alice Adams
#player2 Bob Bob Brown
>{first}: AEINRST 8H AT +4 4
>Bob: DGOOPRW I7 W.G +12 12
"""
#: few iterations and candidates: the bingo is far ahead of AT whatever the draws
QUICK = ("--sim-iterations", "8", "--sim-candidates", "3", "--seed", "3")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "thrown-bingo.gcg"
    path.write_text(RECORD.format(first="Alice"))
    return path


def _puzzles(*args: str) -> list[dict[str, object]]:
    code, out, err = run("study", *args, "--lexicon", ENABLE, *QUICK, "-f", "json", "-q")
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


@needs_data
@pytest.mark.usefixtures("private_cache")
def test_a_thrown_away_bingo_is_a_puzzle_with_its_answer_and_tags(record: Path) -> None:
    puzzles = _puzzles(str(record))
    assert len(puzzles) == 1
    p = puzzles[0]
    assert (p["path"], p["event"], p["line"], p["player"]) == (str(record), 1, 3, "Alice")
    assert p["rack"] == "AEINRST" and p["played"] == "8H AT"
    assert p["mistake"] in ("medium", "large") and p["win_pct_lost"] > 5
    assert "bingo" in p["tags"] and "only-bingo" not in p["tags"]  # RETAINS, NASTIER...
    answer = p["moves"][0]
    assert answer["move"] == p["answer"] and answer["score"] >= 60
    position = parse_cgp(str(p["cgp"]))
    assert position.board.is_empty() and sorted(position.racks[0]) == sorted("AEINRST")
    assert p["scores"] == [0, 0] and p["bag"] == 86
    # the coach's facts of the judgement: the win% first, then what separates the moves
    kinds = [f["kind"] for f in p["facts"]]
    assert kinds[0] == "win" and "score" in kinds
    assert all(f["sentence"] and f["favours"] in ("best", "played", "neither") for f in p["facts"])


@needs_data
@pytest.mark.usefixtures("private_cache")
def test_the_player_mistake_size_and_tags_choose_the_puzzles(record: Path) -> None:
    assert _puzzles(str(record), "--player", "bob") == []
    assert len(_puzzles(str(record), "--player", "ALICE", "--tags", "bingo")) == 1
    assert _puzzles(str(record), "--tags", "bingo,exchange") == []


@needs_data
@pytest.mark.usefixtures("private_cache")
def test_the_quiz_page_is_self_contained_escaped_and_hides_the_answer(tmp_path: Path) -> None:
    path = tmp_path / "nick.gcg"
    path.write_text(RECORD.format(first="<i>Al</i>"))
    out = tmp_path / "quiz.html"
    code, _, err = run("study", str(path), "--lexicon", ENABLE, *QUICK, "-o", str(out), "-q")
    assert code == 0, err
    assert f"wrote {out} (1 puzzle from 1 game)" in err
    page = out.read_text()
    assert "<i>Al" not in page and "&lt;i&gt;Al" in page
    assert "http://" not in page.replace("http://www.w3.org/", "")
    assert "https://" not in page and "<script" not in page
    question, answer = page.split("<summary>Show the answer</summary>")
    assert "<svg" in question and "8H AT" not in question and ">bingo<" not in question
    assert "8H AT" in answer and ">bingo<" in answer
    assert '<ul class="facts"><li class="best">' in answer


def test_options_are_checked_before_any_record_is_read(record: Path) -> None:
    code, _, err = run("study", str(record), "--lexicon", ENABLE or "x.kwg", "--tags", "bingo,odd")
    assert code == 2 and "'odd' is not a tag" in err and "only-bingo" in err
    code, _, err = run("study", str(record), "--depth", "static")
    assert code == 2 and "static" in err
    code, _, err = run("study", str(record))
    assert code == 2 and "lexicon" in err.lower()


@needs_data
@pytest.mark.usefixtures("private_cache")
def test_a_record_that_cannot_be_read_is_named_and_the_rest_is_written(
    record: Path, tmp_path: Path
) -> None:
    (tmp_path / "empty.gcg").write_text("")
    out = tmp_path / "quiz.json"
    code, _, err = run(
        "study", str(tmp_path), "--lexicon", ENABLE, *QUICK, "-f", "json", "-o", str(out), "-q"
    )
    assert code == 2 and "empty.gcg" in err
    assert [json.loads(line)["event"] for line in out.read_text().splitlines()] == [1]
