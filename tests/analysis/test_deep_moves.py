"""`gcgtools moves --sim` and `moves --endgame` on positions of a real game (and its
CGP): one JSON line per root move, best first, with the documented keys; readable text;
exit 2 for an endgame asked with tiles in the bag."""

from __future__ import annotations

import json

import pytest
from conftest import valid_file
from support.hints import without_build_hint
from support.reference_data import DATA, needs_data
from typer.testing import CliRunner

from gcgtools.cli import app
from gcgtools.movegen.record import record_cgp
from gcgtools.sources.load import load_game

pytestmark = [needs_data, pytest.mark.usefixtures("private_cache")]

GAME = "domino14__macondo/preendgame__testdata__issue_476.gcg"


def run(*args: str) -> tuple[int, str, str]:
    assert DATA is not None
    result = CliRunner().invoke(app, [*args, "--lexicon", str(DATA / "lexica" / "ENABLE.kwg")])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def rows(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_endgame_value_counts_the_going_out_bonus() -> None:
    # after event 29 BestBot holds R, the opponent NU: 2G (FE)R scores 6 and goes out,
    # gaining twice NU (1 + 1): the value is 6 + 4, as the record's last lines say
    game = str(valid_file(GAME))
    code, out, _ = run("moves", game, "-m", "29", "--endgame", "-f", "json", "-n", "0")
    assert code == 0
    moves = rows(out)
    best = moves[0]
    assert best["move"] == "2G (FE)R" and best["score"] == 6
    assert best["value"] == 6 + 2 * 2 and best["proved"] is True
    assert best["pv"][0] == best["move"]
    values = [m["value"] for m in moves]
    assert values == sorted(values, reverse=True)
    assert all({"move", "score", "value", "proved", "pv"} <= set(m) for m in moves)


def test_endgame_of_a_cgp_equals_the_record_position() -> None:
    path = valid_file(GAME)
    cgp = record_cgp(load_game(path), 28)
    from_record = run("moves", str(path), "-m", "28", "--endgame", "-f", "json", "-n", "3")
    from_cgp = run("moves", "--cgp", cgp, "--endgame", "-f", "json", "-n", "3")
    assert from_record[0] == from_cgp[0] == 0
    assert rows(from_cgp[1]) == rows(from_record[1])


def test_endgame_with_one_tile_in_the_bag_solves_the_preendgame() -> None:
    code, out, _ = run("moves", str(valid_file(GAME)), "-m", "24", "--endgame", "--nodes", "200",
                       "-f", "json", "-n", "3")  # fmt: skip
    assert code == 0
    moves = rows(out)
    assert len(moves) == 3 and all(m["preendgame"] for m in moves)
    assert all(0 <= m["win_pct"] <= 100 and "spread" in m for m in moves)
    ranked = [(-m["stage"], -m["win_pct"], -m["spread"]) for m in moves]
    assert ranked == sorted(ranked) and all(0 < m["coverage"] <= 1 for m in moves)


@pytest.mark.parametrize(
    ("record", "event", "tiles"),
    [
        ("domino14__macondo/gcgio__testdata__noah_vs_peter.gcg", 27, 2),
        ("domino14__macondo/gcgio__testdata__noah_v_mishu_fake_moves.gcg", 26, 3),
        ("domino14__macondo/gcgio__testdata__doug_v_emely.gcg", 23, 4),
    ],
)
def test_endgame_with_2_to_4_tiles_in_the_bag_solves_the_preendgame_in_one_budget(
    record: str, event: int, tiles: int
) -> None:
    args = ("moves", str(valid_file(record)), "-m", str(event), "--endgame", "-n", "4")
    code, out, _ = run(*args, "--nodes", "3000")
    assert code == 0
    header = out.splitlines()[1]
    assert header.startswith(f"pre-endgame ({tiles} tiles in the bag, ")
    assert "not proved (node budget spent)" in header
    spent = header.split("; ")[1].split(" nodes")[0]
    nodes = int(spent.replace(",", ""))
    assert 1000 <= nodes <= 3300 and spent == f"{nodes:,}"  # thousands separated
    code, out, _ = run(*args, "--nodes", "3000", "-f", "json")
    assert code == 0 and len(rows(out)) == 4 and all(m["preendgame"] for m in rows(out))
    code, out, _ = run(*args, "--seconds", "0.5", "-f", "json")  # how far it gets: the machine's
    assert code == 0 and rows(out) and all(m["preendgame"] for m in rows(out))


def test_endgame_with_tiles_in_the_bag_is_refused() -> None:
    code, out, err = run("moves", str(valid_file(GAME)), "-m", "10", "--endgame")
    assert code == 2 and out == ""
    assert "bag holds" in err and "--sim" in err and GAME.split("/")[-1] in err
    code, _, err = run("moves", str(valid_file(GAME)), "-m", "10", "--endgame", "--sim")
    assert code == 2 and "not both" in err


def test_the_library_refuses_a_midgame_endgame_without_naming_an_option() -> None:
    from gcgtools.analysis.deep import NotAnEndgame, solve_position
    from gcgtools.analysis.endgame import Limit
    from gcgtools.analysis.grading import PREENDGAME_BAG
    from gcgtools.movegen.record import record_moves

    assert DATA is not None
    lexicon = DATA / "lexica" / "ENABLE.kwg"
    position = record_moves(load_game(valid_file(GAME)), 10, lexicon=lexicon)
    with pytest.raises(NotAnEndgame) as refused:
        solve_position(position, Limit(nodes=10))
    bag = position.position.bag
    assert refused.value.bag == bag > PREENDGAME_BAG
    assert str(refused.value) == (
        f"the bag holds {bag} tiles: an endgame needs an empty bag "
        f"(1 to {PREENDGAME_BAG} tiles: a pre-endgame)"
    )
    code, _, err = run("moves", str(valid_file(GAME)), "-m", "10", "--endgame")
    assert code == 2 and err.rstrip().endswith(f"{refused.value}; use --sim")


def test_sim_json_lines_best_first_and_reproducible() -> None:
    args = ("moves", str(valid_file(GAME)), "-m", "10", "--sim", "--iterations", "8",
            "--candidates", "3", "-f", "json")  # fmt: skip
    code, out, _ = run(*args)
    assert code == 0
    moves = rows(out)
    assert len(moves) == 3
    for m in moves:
        assert {"move", "score", "win_pct", "stderr", "spread", "iterations"} <= set(m)
        assert 0 <= m["win_pct"] <= 100 and m["iterations"] <= 8
    alive = [m["win_pct"] for m in moves if not m["dropped"]]
    assert alive == sorted(alive, reverse=True)
    again, again_out, again_err = run(*args)
    assert (again, again_out, without_build_hint(again_err)) == (code, out, "")
    other = rows(run(*args, "--seed", "3")[1])
    assert [m["win_pct"] for m in other] != [m["win_pct"] for m in moves]


def test_text_output_fits_80_columns() -> None:
    game = str(valid_file(GAME))
    for args in (("-m", "10", "--sim", "--iterations", "4", "--candidates", "3"),
                 ("-m", "28", "--endgame")):  # fmt: skip
        code, out, _ = run("moves", game, *args)
        assert code == 0
        lines = out.splitlines()
        assert len(lines) >= 4 and all(len(x) <= 80 for x in lines[1:]), lines


def test_sim_on_an_empty_bag_hands_over_to_the_endgame_solver() -> None:
    """A simulation of an endgame only samples what the solver proves (a position where
    neither side can move was a 14% 'win' for a certain draw): --sim on an empty bag
    gives the endgame's answer, and says so."""
    game = str(valid_file(GAME))
    solved = run("moves", game, "-m", "28", "--endgame", "-f", "json", "-n", "3")
    code, out, err = run("moves", game, "-m", "28", "--sim", "-f", "json", "-n", "3")
    assert code == solved[0] == 0
    assert rows(out) == rows(solved[1]) and all("value" in m for m in rows(out))
    assert "the bag is empty: solved as an endgame" in err


def test_endgame_line_carries_each_moves_score_and_the_rack_points() -> None:
    """moves --endgame gives each root move's line with every move's score and what the
    last move gains at the end (rack points): for a proved line played to the end, the
    scores taken in turn and the rack points add up to the value."""
    game = str(valid_file(GAME))
    code, out, _ = run("moves", game, "-m", "27", "--endgame", "-f", "json", "-n", "0")
    assert code == 0
    for m in rows(out):
        assert len(m["pv_scores"]) == len(m["pv"]) and m["pv_scores"][0] == m["score"]
        assert m["proved"] and m["ending"] is not None
        turns = [s if i % 2 == 0 else -s for i, s in enumerate(m["pv_scores"])]
        ending = m["ending"] if len(m["pv"]) % 2 else -m["ending"]
        assert sum(turns) + ending == m["value"], m
    code, out, _ = run("moves", game, "-m", "27", "--endgame", "-n", "1")
    assert "1L MEAD     44     +41  A5 NU 11, 2G (FE)R 6, rack +2" in out


def test_no_early_stop_runs_every_candidate_to_its_iterations() -> None:
    """moves --sim --no-early-stop drops no candidate: each runs all its iterations (a
    fixed budget, for benchmarks and reproducible comparisons)."""
    args = ("moves", str(valid_file(GAME)), "-m", "10", "--sim", "--iterations", "80",
            "--candidates", "6", "-f", "json", "-n", "0", "--no-early-stop")  # fmt: skip
    code, out, _ = run(*args)
    assert code == 0
    moves = rows(out)
    assert len(moves) == 6
    assert all(m["iterations"] == 80 and not m["dropped"] for m in moves)
