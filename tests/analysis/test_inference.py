"""The inference of the opponent's leave: a forced leave is certain, a leave for which the
play was clearly worse loses its weight, probabilities sum to 1, exchanges and passes,
the sampled path past the cap, records, and a simulation drawing from the inference."""

from __future__ import annotations

import pickle
from dataclasses import replace
from math import isclose
from pathlib import Path

import pytest
from support.reference_data import DATA, needs_data

from gcgtools.analysis.inference import (
    InferenceError,
    PlayedTurn,
    infer_leaves,
    opponent_turn,
    record_inference,
)
from gcgtools.analysis.judge import JudgeSettings
from gcgtools.analysis.simulate import SimLimit, position_from_board, simulate
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import DEFAULT_RULES
from gcgtools.sources.load import load_game

pytestmark = needs_data

EMPTY = Board(DEFAULT_RULES.board, DEFAULT_RULES.tiles)
# 8D ZANIER on the opening: Z on the double letter, doubled: 50 (the tiles AEINRZ)
ZANIER = PlayedTurn("play", tuple("ZANIER"), 6, 50, "8D ZANIER +50", 1)


def infer(lexicon, leaves, turn: PlayedTurn, unseen: str, **kw):  # type: ignore[no-untyped-def]
    bag = max(len(unseen) - 7, 0)
    return infer_leaves(EMPTY, DEFAULT_RULES, lexicon, leaves, turn, list(unseen), bag=bag, **kw)


def probabilities(result) -> dict[str, float]:  # type: ignore[no-untyped-def]
    return {x.text: x.probability for x in result.leaves}


def test_a_play_of_six_of_seven_known_tiles_leaves_one_leave(lexicon, leaves) -> None:
    # the unseen tiles less ZANIER's are all S: the seventh tile must have been an S
    result = infer(lexicon, leaves, ZANIER, "AEINRZ" + "SSS")
    assert probabilities(result) == {"S": 1.0}
    assert result.possible == 1 and result.considered == 1 and result.exhaustive
    assert not result.fallback and not result.uniform


def test_a_leave_that_makes_the_play_clearly_worse_gets_less_weight(lexicon, leaves) -> None:
    # with a G the rack has ZINGARE (104): ZANIER is 57 points worse; with an S it is best
    unseen = "AEINRZ" + "SS" + "GG"
    result = infer(lexicon, leaves, ZANIER, unseen)
    assert probabilities(result) == {"S": 1.0}
    assert result.possible == 2 and result.considered == 2
    wide = infer(lexicon, leaves, ZANIER, unseen, margin=100.0)  # both within: draw odds
    assert probabilities(wide) == {"G": 0.5, "S": 0.5}
    gaps = {x.text: x.gap for x in wide.leaves}
    assert gaps["S"] == pytest.approx(0.0) and gaps["G"] > 50


def test_draw_odds_weigh_the_leaves_and_sum_to_one(lexicon, leaves) -> None:
    # three S and one G unseen besides ZANIER: S is three times as likely as G
    result = infer(lexicon, leaves, ZANIER, "AEINRZ" + "SSS" + "T", margin=100.0)
    got = probabilities(result)
    assert got == pytest.approx({"S": 0.75, "T": 0.25})
    assert {x.text: x.draws for x in result.leaves} == {"S": 3, "T": 1}
    assert isclose(result.total(), 1.0)


def test_an_exchange_keeps_the_tiles_not_thrown(lexicon, leaves) -> None:
    turn = PlayedTurn("exchange", ("Q", "V", "V"), 3, 0, "-QVV +0", 1)
    result = infer(lexicon, leaves, turn, "QVV" + "AEIST", margin=100.0)
    assert result.possible == 5 and result.exhaustive  # four of AEIST
    assert all(len(x.tiles) == 4 and set(x.tiles) <= set("AEIST") for x in result.leaves)
    assert isclose(result.total(), 1.0)
    # at the default margin only the leaves that make throwing QVV near the best stay
    tight = infer(lexicon, leaves, turn, "QVV" + "AEIST")
    assert 0 < len(tight.leaves) <= 5 and isclose(tight.total(), 1.0)


def test_a_pass_and_an_exchange_of_unknown_tiles_say_nothing(lexicon, leaves) -> None:
    for turn in (
        PlayedTurn("pass", (), 0, 0, "- +0", 1),
        PlayedTurn("exchange", (), 7, 0, "-7 +0", 1),
    ):
        result = infer(lexicon, leaves, turn, "AEINRSTZ")
        assert result.uniform and result.leaves == () and result.kept() == ()


def test_too_many_leaves_are_sampled_reproducibly(lexicon, leaves) -> None:
    turn = PlayedTurn("play", ("Q", "I"), 2, 22, "8G QI +22", 1)
    unseen = "QI" + "AABCDEEFGHIILMNOORSTUU"
    a = infer(lexicon, leaves, turn, unseen, cap=12, seed=5, margin=1000.0)
    b = infer(lexicon, leaves, turn, unseen, cap=12, seed=5, margin=1000.0)
    assert not a.exhaustive and a.samples == 12 and a.possible > 12
    assert a == b and isclose(a.total(), 1.0)
    assert sum(x.draws for x in a.leaves) == 12


def test_a_turn_with_tiles_not_unseen_is_an_error(lexicon, leaves) -> None:
    with pytest.raises(InferenceError, match="not among the tiles unseen"):
        infer(lexicon, leaves, ZANIER, "AEINRSS")
    with pytest.raises(InferenceError, match="margin"):
        infer(lexicon, leaves, ZANIER, "AEINRZS", margin=-1.0)


RECORD = """\
#character-encoding UTF-8
#lexicon ENABLE
#player1 ann Ann Example
#player2 bob Bob Example
>bob: AEINRSZ 8D ZANIER +50 50
>ann: DEGILOT - +0 0
"""


def record(tmp_path: Path) -> Path:
    path = tmp_path / "zanier.gcg"
    path.write_text(RECORD, encoding="utf-8")
    return path


def lexicon_files() -> dict[str, Path]:
    assert DATA is not None
    return {"lexicon": DATA / "lexica" / "ENABLE.kwg", "leaves": DATA / "lexica" / "CSW21.klv2"}


def test_a_record_infers_from_the_opponents_last_play(tmp_path: Path) -> None:
    game = load_game(record(tmp_path))
    result = record_inference(game, 1, **lexicon_files())
    assert result.nick == "bob" and result.turn.event == 1
    assert sorted(result.turn.tiles) == sorted("ZANIER") and result.turn.score == 50
    assert result.recorded == ("S",)  # the record shows bob's rack
    # before bob's play the board is empty: every tile but ann's rack is unseen
    assert result.rack_known and len(result.unseen) == 100 - 7
    assert result.unseen.count("G") == 3 - 1 and result.unseen.count("Z") == 1
    assert result.exhaustive and isclose(result.total(), 1.0)
    assert "S" in probabilities(result)
    with pytest.raises(InferenceError, match="no turn of the opponent"):
        record_inference(game, 0, **lexicon_files())


def test_a_simulation_draws_the_opponents_rack_from_the_inference(lexicon, leaves) -> None:
    board = EMPTY.copy()
    pos = position_from_board(board, DEFAULT_RULES, list("DEGILOT"), (0, 0))
    kept = ((("Q",), 1.0),)
    inferred = replace(pos, kept=kept)
    assert inferred.key() != pos.key()  # the draws (and a cache) tell them apart
    limit = SimLimit(iterations=4, candidates=2, plies=1, min_iterations=4, check_every=4)
    a = simulate(inferred, lexicon, leaves, limit, seed=3)
    b = simulate(inferred, lexicon, leaves, limit, seed=3)
    assert [(c.move.notation(), c.win_pct, c.spread) for c in a.candidates] == [
        (c.move.notation(), c.win_pct, c.spread) for c in b.candidates
    ]


def test_the_opponents_turn_is_the_last_turn_when_it_was_theirs(tmp_path: Path) -> None:
    game = load_game(record(tmp_path))
    ann, bob = 0, 1
    assert opponent_turn(game, 1, ann) == 1  # bob's ZANIER, before ann's turn
    assert opponent_turn(game, 2, bob) == 2  # ann's pass, before bob's
    assert opponent_turn(game, 1, bob) == 0  # bob's own turn came last
    assert opponent_turn(game, 0, ann) == 0  # no turn yet


def test_judge_settings_name_the_inference_and_pickle() -> None:
    plain = JudgeSettings()
    inferred = replace(plain, infer=True, infer_margin=2.5, infer_cap=30)
    assert not {"infer", "infer_margin", "infer_cap"} & set(plain.to_dict())  # keys kept
    assert inferred.to_dict() == {**plain.to_dict(), "infer": True, "infer_margin": 2.5,
                                  "infer_cap": 30}  # fmt: skip
    assert plain.inference is None and "margin 2.5, cap 30" in str(inferred.inference)
    assert pickle.loads(pickle.dumps(inferred)) == inferred
    with pytest.raises(ValueError, match="margin"):
        replace(plain, infer_margin=-1.0)
    with pytest.raises(ValueError, match="cap"):
        replace(plain, infer_cap=0)
