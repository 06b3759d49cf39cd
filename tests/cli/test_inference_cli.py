"""The inference of the opponent's leave from the outside: `moves --infer` (text and JSON,
probabilities summing to 1, bad values a usage error), and `analyse --infer` (named in the
output, its own cache entry, the same judgements with one process or two)."""

from __future__ import annotations

import json
import re
import shutil
from math import isclose
from pathlib import Path

import pytest
from support.cli_run import run
from support.reference_data import DATA, needs_data

pytestmark = [needs_data, pytest.mark.usefixtures("private_cache")]
LEXICA = DATA / "lexica" if DATA is not None else Path()
LEXICON = ("--lexicon", str(LEXICA / "ENABLE.kwg"), "--leaves", str(LEXICA / "CSW21.klv2"))
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "club-final.gcg"

# bob's ZANIER uses six of his seven tiles: one tile is left, from the unseen ones
ZANIER = """\
#character-encoding UTF-8
#lexicon ENABLE
#player1 ann Ann Example
#player2 bob Bob Example
>bob: AEINRSZ 8D ZANIER +50 50
>ann: DEGILOT - +0 0
"""
# small budgets: a few seconds a record in pure Python
SIM = ("--depth", "sim", "--sim-iterations", "4", "--sim-candidates", "2", "--endgame-nodes",
       "200", "--preendgame-nodes", "50")  # fmt: skip
INFER = ("--infer", "--infer-cap", "30")


@pytest.fixture
def zanier(tmp_path: Path) -> Path:
    path = tmp_path / "zanier.gcg"
    path.write_text(ZANIER, encoding="utf-8")
    return path


@pytest.fixture
def opening(tmp_path: Path) -> Path:
    """The first four turns of the example game (each player's rack known)."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
    path = tmp_path / "opening.gcg"
    path.write_text("".join(lines[:12]), encoding="utf-8")
    return path


# ------------------------------------------------------------------ moves --infer
def test_moves_infer_lists_leaves_whose_probabilities_sum_to_one(zanier: Path) -> None:
    code, out, _ = run("moves", str(zanier), "--move", "1", "--infer", "--infer-top", "0",
                       *LEXICON)  # fmt: skip
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"{zanier} event 1: bob played AEINRSZ 8D ZANIER +50 50"
    assert "every one weighed" in out and "the record shows the leave: S" in out
    rows = [line.split() for line in lines if re.match(r"\s+\d+\s", line)]
    assert rows and all(len(row[1]) == 1 for row in rows)  # one tile kept
    total = sum(float(row[2].rstrip("%")) for row in rows)
    assert abs(total - 100.0) <= 0.005 * len(rows)  # each rounded to 0.01%
    assert lines[-1] == f"{len(rows)} of {len(rows)} leaves shown"


def test_moves_infer_json(zanier: Path) -> None:
    code, out, _ = run("moves", str(zanier), "--move", "1", "--infer", "--infer-top", "0",
                       "-f", "json", *LEXICON)  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert (data["opponent"], data["kind"], data["recorded"]) == ("bob", "play", "S")
    assert sorted(data["tiles"]) == sorted("ZANIER") and data["exhaustive"] is True
    assert isclose(sum(x["probability"] for x in data["leaves"]), 1.0)
    assert all(x["gap"] <= data["margin"] for x in data["leaves"])
    code, out, _ = run("moves", str(zanier), "--move", "1", "--infer", "--infer-top", "2",
                       "-f", "json", *LEXICON)  # fmt: skip
    assert code == 0 and len(json.loads(out)["leaves"]) == 2


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--infer-margin", "-1"), "--infer-margin"),
        (("--infer-margin", "nan"), "--infer-margin"),
        (("--infer-cap", "0"), "--infer-cap"),
        (("--infer-top", "-1"), "--infer-top"),
        (("--move", "0"), "no turn of the opponent"),
        (("--cgp", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0"), "give a .gcg file"),
        (("--endgame",), "not --endgame"),
    ],
)
def test_moves_infer_bad_values_are_one_message(zanier: Path, args: tuple[str, ...],
                                                said: str) -> None:  # fmt: skip
    code, out, err = run("moves", str(zanier), "--infer", *args, *LEXICON)
    assert code == 2 and out == ""
    assert said in err and "Traceback" not in err


def test_moves_infer_options_without_infer_are_said(zanier: Path) -> None:
    code, _, err = run("moves", str(zanier), "--move", "1", "--infer-cap", "9", *LEXICON)
    assert code == 0 and "used only with --infer" in err


def test_moves_sim_infer_simulates(zanier: Path) -> None:
    code, out, _ = run("moves", str(zanier), "--move", "1", "--sim", "--infer", "--iterations",
                       "4", "--candidates", "2", *LEXICON)  # fmt: skip
    assert code == 0 and "win%" in out


# ------------------------------------------------------------------ analyse --infer
def judged(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_analyse_infer_is_named_and_cached_apart(opening: Path) -> None:
    code, plain, _ = run("analyse", str(opening), *LEXICON, *SIM, "-f", "json")
    assert code == 0
    code, inferred, _ = run("analyse", str(opening), *LEXICON, *SIM, *INFER, "-f", "json")
    assert code == 0
    (a,), (b,) = judged(plain), judged(inferred)
    assert a["inference"] is None  # the entry judged without it is not reused
    assert b["inference"] == "inferred from their last turn (margin 5, cap 30)"
    before = [t["judgement"] for t in a["turns"]]
    after = [t["judgement"] for t in b["turns"]]
    assert all(after) and [j["seed"] for j in before] == [j["seed"] for j in after]
    # the first turn follows no turn of the opponent: drawn uniformly, judged as before;
    # the others draw the opponent's rack from the inferred leaves
    assert after[0] == before[0] and after[1:] != before[1:]
    code, text, _ = run("analyse", str(opening), *LEXICON, *SIM, *INFER, "--infer-margin", "2.5")
    assert code == 0
    assert "  opponent's rack: inferred from their last turn (margin 2.5, cap 30)" in text


def test_analyse_infer_is_the_same_in_one_process_or_two(opening: Path, tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    for name in ("a.gcg", "b.gcg"):
        shutil.copy(opening, folder / name)
    runs = []
    for jobs in ("1", "2"):
        code, out, _ = run("analyse", str(folder), *LEXICON, *SIM, *INFER, "-f", "json",
                           "--no-cache", "--jobs", jobs)  # fmt: skip
        assert code == 0
        runs.append(sorted(judged(out), key=lambda r: str(r["path"])))
    assert runs[0] == runs[1]
    assert runs[0][0]["turns"] == runs[0][1]["turns"]  # the same record, the same seeds


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (("--infer-margin", "-1"), 2, "--infer-margin"),
        (("--infer-cap", "0"), 2, "--infer-cap"),
        (("--infer-cap", "1000001"), 2, "--infer-cap"),
        (("--infer",), 0, "--infer is used only when simulating"),
        (("--depth", "sim", "--infer-cap", "5", "--sim-iterations", "1"), 0,
         "used only with --infer"),
    ],
)  # fmt: skip
def test_analyse_infer_options_are_checked(opening: Path, args: tuple[str, ...], code: int,
                                           said: str) -> None:  # fmt: skip
    got, _, err = run("analyse", str(opening), *LEXICON, "--no-cache", *args)
    assert got == code and said in err and "Traceback" not in err
