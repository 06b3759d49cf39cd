"""The pre-endgame solver with 1 to 4 tiles in the bag: the scenarios' weights against
every ordered draw of physical tiles counted here; the solver's exact values against
every draw's endgame solved separately by a full-tree minimax
(``tests/support/endgame_brute.py``) on hand-made near-empty boards; one total budget
in nodes and in seconds honoured on real positions; a 4-tile position answers within its
budget and says it is not proved."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from fractions import Fraction

import pytest
from conftest import valid_file
from support.endgame_brute import Brute
from support.positions import board_with
from support.reference_data import DATA, needs_data

from gcgtools.analysis.endgame import (
    EXACT,
    EndgameError,
    Limit,
    PreendgamePosition,
    preendgame_position,
    solve_preendgame,
)
from gcgtools.analysis.endgame.draws import draws, orderings
from gcgtools.lexicon import Lexicon, load_lexicon
from gcgtools.movegen.record import record_position
from gcgtools.rules.rulesets import DEFAULT_RULES
from gcgtools.sources.load import load_game

#: positions of real records: (record, event, tiles in the bag)
TWO = ("domino14__macondo/gcgio__testdata__noah_vs_peter.gcg", 27, 2)
THREE = ("domino14__macondo/gcgio__testdata__noah_v_mishu_fake_moves.gcg", 26, 3)
FOUR = ("domino14__macondo/gcgio__testdata__doug_v_emely.gcg", 23, 4)
ONE = ("domino14__macondo/preendgame__testdata__issue_476.gcg", 24, 1)


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    assert DATA is not None
    return load_lexicon(DATA / "lexica" / "ENABLE.kwg")


@pytest.mark.parametrize(
    ("unseen", "k"),
    [("AABC", 1), ("AABBC", 2), ("AAABCD", 3), ("??EEEIST", 4), ("QZ", 1), ("XXXY", 3)],
)
def test_scenario_weights_count_every_ordered_draw(unseen: str, k: int) -> None:
    counted: Counter[tuple[str, ...]] = Counter()
    for picked in itertools.permutations(range(len(unseen)), k):  # physical tiles
        counted[tuple(unseen[i] for i in picked)] += 1
    found = draws(unseen, k)
    assert {d.bag: d.weight for d in found} == dict(counted)
    assert sum(d.weight for d in found) == orderings(len(unseen), k)
    assert sum(Fraction(d.weight, orderings(len(unseen), k)) for d in found) == 1
    for d in found:
        assert Counter(d.opponent) + Counter(d.bag) == Counter(unseen)


def _brute_force(enable, board, rack: str, unseen: str, k: int, scores) -> dict[str, tuple]:
    """Every ordered draw of ``k`` physical tiles of ``unseen`` (all equally likely), its
    endgame solved by the full tree: per move the mean final spread and the win%."""
    brute = Brute(enable, DEFAULT_RULES, cap=2_000_000)
    base = scores[0] - scores[1]
    finals: dict[str, list[int]] = {}
    for picked in itertools.permutations(range(len(unseen)), k):
        bag = [unseen[i] for i in picked]
        theirs = [t for i, t in enumerate(unseen) if i not in picked]
        for move, value in brute.root_values(board, list(rack), theirs, bag).items():
            finals.setdefault(move, []).append(base + value)
    out = {}
    for move, rows in finals.items():
        assert len(rows) == orderings(len(unseen), k)
        wins = sum(1 if f > 0 else Fraction(1, 2) if f == 0 else 0 for f in rows)
        out[move] = (Fraction(sum(rows), len(rows)), 100 * Fraction(wins, len(rows)))
    return out


CASES = [
    # (rack, unseen, tiles in the bag, scores): on a board holding ZAX, 8G across
    ("AE", "IOTT", 1, (300, 296)),
    ("AI", "JKTT", 2, (310, 310)),
    ("EO", "IKTW", 2, (280, 290)),
    ("E", "IKTTV", 3, (300, 301)),
    ("OE", "JKTWW", 3, (250, 240)),
]


@needs_data
@pytest.mark.parametrize(("rack", "unseen", "k", "scores"), CASES)
def test_the_preendgame_equals_every_draw_solved_apart(enable, rack, unseen, k, scores) -> None:
    board = board_with((7, 6, True, "ZAX"))
    expected = _brute_force(enable, board, rack, unseen, k, scores)
    pos = PreendgamePosition(board, tuple(rack), tuple(sorted(unseen)), enable, DEFAULT_RULES,
                             k, 0, scores)  # fmt: skip
    result = solve_preendgame(pos, EXACT)
    assert result.proved and result.bag_size == k
    got = {c.move.notation(): c for c in result.candidates}
    assert set(got) == set(expected)
    for move, (spread, win) in expected.items():
        assert got[move].proved
        assert got[move].spread == pytest.approx(float(spread))
        assert got[move].win_pct == pytest.approx(float(win))
    ranked = [(c.win_pct, c.spread) for c in result.candidates]
    assert ranked == sorted(ranked, reverse=True)
    # through the stages (a budget large enough): every value proved is the same
    staged = solve_preendgame(pos, Limit(nodes=5_000_000))
    assert staged.proved and len(staged.stages) >= 1
    for c in staged.candidates:
        if c.proved:
            assert c.to_dict() == got[c.move.notation()].to_dict()


def _real(enable, which: tuple[str, int, int]) -> PreendgamePosition:
    game = load_game(valid_file(which[0]))
    pos = preendgame_position(record_position(game, which[1]), enable)
    assert pos.bag_size == which[2]
    return pos


@needs_data
@pytest.mark.parametrize("which", [ONE, TWO, THREE, FOUR])
@pytest.mark.parametrize("nodes", [300, 6_000])
def test_a_node_budget_is_one_total(enable, which, nodes: int) -> None:
    result = solve_preendgame(_real(enable, which), Limit(nodes=nodes))
    assert result.nodes <= 1.1 * nodes
    assert sum(s.nodes for s in result.stages) <= result.nodes
    assert result.candidates and not result.proved
    c = result.best
    assert 0 <= c.win_pct <= 100 and 0 < c.coverage <= 1


@needs_data
def test_a_seconds_budget_is_one_total(enable) -> None:
    pos = _real(enable, TWO)
    start = time.perf_counter()
    solve_preendgame(pos, Limit(nodes=1))  # the start-up: scenarios, moves, one playout
    fixed = time.perf_counter() - start
    for seconds in (0.5, 2.0):
        start = time.perf_counter()
        result = solve_preendgame(pos, Limit(seconds=seconds))
        took = time.perf_counter() - start
        # the start-up, and a last step (a playout) begun before the time ran out
        assert took <= 1.1 * seconds + 2 * fixed, (took, seconds, fixed)
        assert result.seconds <= took and result.candidates


@needs_data
def test_four_tiles_answer_within_the_budget_not_proved(enable) -> None:
    pos = _real(enable, FOUR)
    result = solve_preendgame(pos, Limit(nodes=20_000))
    assert result.nodes <= 22_000 and not result.proved
    assert [s.number for s in result.stages] == list(range(1, len(result.stages) + 1))
    assert result.stages[0].method == "greedy"
    assert result.scenarios == len(draws(pos.unseen, 4))
    ranked = [(-c.stage, -c.win_pct, -c.spread) for c in result.candidates]
    assert ranked == sorted(ranked)
    assert not any(c.proved for c in result.candidates if c.coverage < 1)


@needs_data
def test_a_named_move_is_kept_to_the_last_stage(enable) -> None:
    pos = _real(enable, TWO)
    full = solve_preendgame(pos, Limit(nodes=3_000))
    worst = full.candidates[-1].move.notation()
    kept = solve_preendgame(pos, Limit(nodes=3_000), keep={worst})
    last = kept.best.stage
    assert any(c.move.notation() == worst and c.stage == last for c in kept.candidates)


@needs_data
def test_positions_out_of_reach_are_refused(enable) -> None:
    board = board_with((7, 6, True, "ZAX"))
    for k in (0, 5):
        pos = PreendgamePosition(board, ("A",), tuple("BCDEFGH"), enable, DEFAULT_RULES, k)
        with pytest.raises(EndgameError, match="1 to 4 tiles"):
            solve_preendgame(pos)
    pos = PreendgamePosition(board, ("A",), ("B", "C"), enable, DEFAULT_RULES, 2)
    with pytest.raises(EndgameError, match="at least 3 unseen"):
        solve_preendgame(pos)
    pos = PreendgamePosition(board, ("A",), tuple("BCDEFGHIJ"), enable, DEFAULT_RULES, 1)
    with pytest.raises(EndgameError, match="more than a rack holds"):
        solve_preendgame(pos)  # the opponent would hold 8 tiles
    game = load_game(valid_file(FOUR[0]))
    with pytest.raises(EndgameError, match="needs 1 to 4"):
        preendgame_position(record_position(game, 10), enable)
