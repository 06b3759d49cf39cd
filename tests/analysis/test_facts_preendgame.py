"""The coach's pre-endgame facts (1 to 4 tiles in the bag): whether a move empties the bag,
and the share of the bag's draws after which the opponent can go out at once. Hand-made
positions where each must appear and must not, and a real pre-endgame turn through the
judge, its share recomputed here by brute force over the physical tiles of the bag."""

from __future__ import annotations

import dataclasses
from itertools import permutations

import pytest
from conftest import valid_file
from support.positions import board_with as board
from support.reference_data import DATA, needs_data

from gcgtools.analysis.facts import TEMPLATES, Fact, FactKind, Scene, compare, move_profile
from gcgtools.analysis.results import JudgedMove
from gcgtools.analysis.simulate import position_from_board
from gcgtools.lexicon import Lexicon
from gcgtools.movegen import Move, MoveRequest, generate
from gcgtools.movegen.move import apply_move
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import DEFAULT_RULES, RuleSet

K = FactKind
#: CAT on 8G; with E and X: 8G (CAT)E (blocks CATS), H8 (A)X and H8 (A)XE (leave it open)
WORDS = Lexicon.from_words(["AT", "CAT", "CATS", "CATE", "AX", "AXE", "QI"])
CAT = board((7, 6, True, "CAT"))


def scene(unseen: str, bag: int) -> Scene:
    return Scene(CAT, DEFAULT_RULES, WORDS, ("E", "X"), tuple(unseen), bag)


def side(where: Scene, notation: str, spread: float) -> tuple[JudgedMove, Move]:
    """The judged move of ``notation`` and the generated move behind it."""
    found = generate(where.board, where.lexicon, MoveRequest(
        list(where.rack), leaves=None, bag_count=where.bag, rules=where.rules))  # fmt: skip
    move = next(m for m in found if m.notation() == notation)
    return JudgedMove(notation, move.score, 50.0, spread=spread), move


def facts(where: Scene, best: str, played: str) -> tuple[Fact, ...]:
    sides = (side(where, best, 20.0), side(where, played, 0.0))
    return compare(*(move_profile(j, m, "preendgame", where) for j, m in sides))


def fact(found: tuple[Fact, ...], kind: FactKind) -> Fact | None:
    return next((f for f in found if f.kind is kind), None)


def brute_share(after: Board, words: Lexicon, unseen: tuple[str, ...], bag: int,
                rules: RuleSet) -> float:  # fmt: skip
    """The share (percent) of the ordered draws of ``bag`` physical tiles among ``unseen``
    after which the opponent, holding the others, has a play of their whole rack."""
    hits = total = 0
    for drawn in permutations(range(len(unseen)), bag):
        rack = [t for i, t in enumerate(unseen) if i not in drawn]
        moves = generate(after, words, MoveRequest(rack, leaves=None, bag_count=0,
                                                   exchanges=False, rules=rules))  # fmt: skip
        hits += any(m.tiles_played == len(rack) for m in moves)
        total += 1
    return 100.0 * hits / total


# ------------------------------------------------------------------ hand-made
def test_a_move_that_empties_the_bag() -> None:
    one = scene("QS", bag=1)
    found = facts(one, "8G (CAT)E", "-")
    empties = fact(found, K.EMPTIES_BAG)
    assert empties is not None
    assert (empties.best, empties.played, empties.favours) == (1, 0, "neither")
    assert empties.sentence == "Empties the bag: yes for 8G (CAT)E, no for -."
    assert fact(facts(one, "8G (CAT)E", "H8 (A)X"), K.EMPTIES_BAG) is None  # both do
    two = scene("QSZ", bag=2)  # one tile no longer empties it, two do
    empties = fact(facts(two, "H8 (A)XE", "8G (CAT)E"), K.EMPTIES_BAG)
    assert empties is not None and (empties.best, empties.played) == (1, 0)


def test_blocking_the_opponents_out_play_over_the_draws() -> None:
    """One tile in the bag, Q or S: the opponent holds the other. After CATE nothing
    takes an S; after (A)X the S goes out on CATS, in half of the draws."""
    where = scene("QS", bag=1)
    found = facts(where, "8G (CAT)E", "H8 (A)X")
    share = fact(found, K.OPPONENT_OUT_SHARE)
    assert share is not None
    assert (share.best, share.played, share.favours) == (0.0, 50.0, "best")
    assert share.sentence == TEMPLATES[K.OPPONENT_OUT_SHARE].format(
        B="8G (CAT)E", P="H8 (A)X", b="0.0%", p="50.0%"
    )
    assert share.sentence == (
        "Opponent can go out at once: 0.0% of the draws after 8G (CAT)E, 50.0% after H8 (A)X."
    )
    no_s = scene("QZ", bag=1)  # no S to go out with: the moves do not differ
    assert fact(facts(no_s, "8G (CAT)E", "H8 (A)X"), K.OPPONENT_OUT_SHARE) is None


def test_the_headline_speaks_of_the_bags_draws_not_of_simulations() -> None:
    """The pre-endgame's win% and spread come from the solver over the bag's draws: its
    sentences say so; the same numbers from a simulation keep the simulation's words."""
    where = scene("QS", bag=1)
    sides = [side(where, n, s) for n, s in (("8G (CAT)E", 20.0), ("H8 (A)X", 0.0))]
    sides[0] = (dataclasses.replace(sides[0][0], win_pct=75.0), sides[0][1])
    found = compare(*(move_profile(j, m, "preendgame", where) for j, m in sides))
    assert found[0].kind is K.WIN
    assert found[0].sentence == "8G (CAT)E wins 75.0% of the bag's draws, H8 (A)X 50.0%."
    spread = fact(found, K.SPREAD)
    assert spread is not None and "over the bag's draws" in spread.sentence
    simulated = compare(*(move_profile(j, m, "simulation", where) for j, m in sides))
    assert simulated[0].sentence == "8G (CAT)E wins 75.0% of the simulations, H8 (A)X 50.0%."


def test_the_share_weighs_each_draw_by_its_probability() -> None:
    """Two of Q, S, S in the bag: the opponent keeps an S in 4 of the 6 ordered draws of
    the physical tiles (QS and SQ twice each), the Q in 2."""
    where = scene("QSS", bag=2)
    judged, move = side(where, "H8 (A)XE", 0.0)
    profile = move_profile(judged, move, "preendgame", where)
    expected = brute_share(apply_move(CAT, move), WORDS, where.unseen, 2, DEFAULT_RULES)
    assert expected == pytest.approx(200 / 3)
    assert profile.values[K.OPPONENT_OUT_SHARE] == pytest.approx(expected)
    assert profile.shown[K.OPPONENT_OUT_SHARE] == "66.7%"


def test_a_move_that_leaves_tiles_in_the_bag_lets_nobody_go_out() -> None:
    where = scene("QSS", bag=2)  # CATS stays open, but (A)X draws one of the two tiles
    judged, move = side(where, "H8 (A)X", 0.0)
    profile = move_profile(judged, move, "preendgame", where)
    assert profile.values[K.EMPTIES_BAG] == 0 and profile.values[K.OPPONENT_OUT_SHARE] == 0


def test_no_share_without_the_move_or_the_draws() -> None:
    where = scene("QS", bag=1)
    judged, move = side(where, "H8 (A)X", 0.0)
    alone = move_profile(judged, None, "preendgame", where)  # the move was not generated
    assert K.EMPTIES_BAG in alone.values and K.OPPONENT_OUT_SHARE not in alone.values
    full = scene("QSSSSSSS", bag=1)  # 7 for the opponent: a full rack
    assert K.OPPONENT_OUT_SHARE in move_profile(judged, move, "preendgame", full).values
    too_many = scene("QSSSSSSSS", bag=1)  # 8 for the opponent: not a pre-endgame
    assert K.OPPONENT_OUT_SHARE not in move_profile(judged, move, "preendgame", too_many).values
    simulated = move_profile(judged, move, "simulation", where)
    assert not {K.EMPTIES_BAG, K.OPPONENT_OUT_SHARE} & set(simulated.values)


# ------------------------------------------------------------- a real turn, judged
#: one tile in the bag; the judge prefers 4B LIVE(R)S to the 12M (D)U(H) played, which
#: leaves the opponent an out-play in more of the draws
GAME, EVENT = "quackle__quackle/test__positions__boys3.gcg", 22


@needs_data
def test_a_real_preendgame_turns_facts_match_a_brute_force_count() -> None:
    from gcgtools.analysis.analyse import analyse_record
    from gcgtools.analysis.judge import JudgeSettings, judge_turns
    from gcgtools.lexicon import load_lexicon
    from gcgtools.movegen.record import record_position
    from gcgtools.sources.load import load_game

    assert DATA is not None
    game = load_game(str(valid_file(GAME)))
    enable = load_lexicon(DATA / "lexica" / "ENABLE.kwg")
    analysis = analyse_record(game, lexicon=enable)
    only = [t if t.event == EVENT else dataclasses.replace(t, status="not judged here")
            for t in analysis.turns]  # fmt: skip
    settings = JudgeSettings(sim_iterations=6, sim_candidates=3, preendgame_nodes=300)
    judged = judge_turns(game, dataclasses.replace(analysis, turns=only), enable, None, settings)
    (j,) = judged.judgements.values()
    assert j.method == "preendgame" and j.played is not None
    rp = record_position(game, EVENT - 1)  # the position before the turn
    assert rp.rack is not None and rp.bag == 1
    unseen = position_from_board(rp.board, rp.rules, tuple(rp.rack), rp.scores).unseen
    moves = {m.notation(): m for m in generate(rp.board, enable, MoveRequest(
        list(rp.rack), leaves=None, bag_count=rp.bag, rules=rp.rules))}  # fmt: skip
    expected = {}
    for name, jm in (("best", j.best), ("played", j.played)):
        move = moves[jm.move]
        expected[name] = (
            brute_share(apply_move(rp.board, move), enable, unseen, rp.bag, rp.rules)
            if move.tiles_played >= rp.bag
            else 0.0
        )
    share = fact(j.facts, K.OPPONENT_OUT_SHARE)
    assert share is not None and (share.best, share.played) == pytest.approx(
        (expected["best"], expected["played"])
    )
    assert share.best < share.played and share.favours == "best"
    assert fact(j.facts, K.EMPTIES_BAG) is None  # both moves empty the bag of its one tile
