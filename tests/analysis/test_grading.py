"""Grading a turn: the phase, the mistake size at and around every threshold (win% lost
outside the endgame, spread lost in it; a won endgame thrown away is always large) and
the Mistake Index."""

from __future__ import annotations

import pytest

from gcgtools.analysis.grading import (
    Mistake,
    Phase,
    grade,
    mistake_from_spread,
    mistake_from_win_pct,
    mistake_index,
    mistake_indices,
    phase,
)


def test_phase_of_a_turn() -> None:
    assert phase(True, 86) is Phase.OPENING
    assert phase(False, 86) is Phase.MIDGAME
    assert phase(False, 5) is Phase.MIDGAME
    for bag in (1, 2, 3, 4):  # what the pre-endgame solver takes
        assert phase(False, bag) is Phase.PREENDGAME
    assert phase(False, 0) is Phase.ENDGAME
    assert str(Phase.PREENDGAME) == "preendgame"


@pytest.mark.parametrize(
    ("lost", "size"),
    [
        (-4.0, Mistake.NONE),
        (0.0, Mistake.NONE),
        (0.49, Mistake.NONE),
        (0.5, Mistake.SMALL),
        (2.99, Mistake.SMALL),
        (3.0, Mistake.MEDIUM),
        (0.1 + 0.2 + 2.7, Mistake.MEDIUM),  # 2.9999999999999996 in floats
        (6.99, Mistake.MEDIUM),
        (7.0, Mistake.LARGE),
        (60.0, Mistake.LARGE),
    ],
)
def test_win_pct_thresholds(lost: float, size: Mistake) -> None:
    assert mistake_from_win_pct(lost) is size
    assert grade(Phase.MIDGAME, win_pct_lost=lost) is size
    assert grade(Phase.PREENDGAME, win_pct_lost=lost) is size


@pytest.mark.parametrize(
    ("lost", "size"),
    [
        (-2, Mistake.NONE),
        (0, Mistake.NONE),
        (0.99, Mistake.NONE),
        (1, Mistake.SMALL),
        (6.99, Mistake.SMALL),
        (7, Mistake.MEDIUM),
        (14.99, Mistake.MEDIUM),
        (15, Mistake.LARGE),
        (90, Mistake.LARGE),
    ],
)
def test_spread_thresholds(lost: float, size: Mistake) -> None:
    assert mistake_from_spread(lost) is size
    # far ahead or far behind, no win is thrown away: the size is the loss's
    assert mistake_from_spread(lost, best_final=200) is size
    assert mistake_from_spread(lost, best_final=-200) is size
    assert grade(Phase.ENDGAME, spread_lost=lost) is size


def test_a_won_endgame_thrown_away_is_large() -> None:
    assert mistake_from_spread(2, best_final=2) is Mistake.LARGE  # win by 2 -> draw
    assert mistake_from_spread(3, best_final=2) is Mistake.LARGE  # win -> loss by 1
    assert mistake_from_spread(1, best_final=2) is Mistake.SMALL  # still a win by 1
    assert mistake_from_spread(3, best_final=0) is Mistake.SMALL  # a draw was the best
    assert mistake_from_spread(0, best_final=1) is Mistake.NONE
    assert grade(Phase.ENDGAME, spread_lost=1, best_final=1) is Mistake.LARGE


def test_grade_needs_the_measure_of_its_phase() -> None:
    with pytest.raises(ValueError, match="spread lost"):
        grade(Phase.ENDGAME, win_pct_lost=3)
    with pytest.raises(ValueError, match="win% lost"):
        grade(Phase.OPENING, spread_lost=3)


def test_mistake_index() -> None:
    assert [m.weight for m in Mistake] == [0.0, 0.2, 0.5, 1.0]
    assert mistake_index([]) == 0.0
    sizes = [Mistake.SMALL, Mistake.NONE, Mistake.MEDIUM, Mistake.LARGE, Mistake.SMALL]
    assert mistake_index(sizes) == pytest.approx(1.9)
    turns = [("ann", Mistake.SMALL), ("bob", Mistake.NONE), ("ann", Mistake.LARGE)]
    assert mistake_indices(turns) == {"ann": pytest.approx(1.2), "bob": 0.0}
    assert list(mistake_indices(turns)) == ["ann", "bob"]
