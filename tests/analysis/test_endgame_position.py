"""``EndgamePosition.of`` checks every input: a position that cannot exist (a rack of 9
tiles, four blanks, a tile the tile set does not have, a board of another size) or a
value out of range (``zeros``, ``scores``) raises :class:`EndgameError`, a ValueError
whose one-line message says what is wrong, which the command line prints."""

from __future__ import annotations

import pytest

from gcgtools.analysis.endgame import EndgameError, EndgamePosition, solve_endgame
from gcgtools.lexicon import Lexicon
from gcgtools.replay.board import Board
from gcgtools.rules.boards import board_layout
from gcgtools.rules.rulesets import DEFAULT_RULES

RULES = DEFAULT_RULES
LEXICON = Lexicon.from_words(["AB", "BA", "ZA", "AZ", "QI"])


def _board(*tiles: tuple[int, int, str]) -> Board:
    board = Board(RULES.board, RULES.tiles)
    for row, col, tile in tiles:
        board[row, col] = tile
    return board


def _of(rack: object = "AB", theirs: object = "ZA", board: Board | None = None, **kw: object):
    return EndgamePosition.of(board or _board((7, 7, "Q"), (7, 8, "I")), rack, theirs,  # type: ignore[arg-type]
                              LEXICON, RULES, **kw)  # type: ignore[arg-type]  # fmt: skip


def test_a_good_position_is_made_and_solved() -> None:
    pos = _of("AB", ["z", "A"], bag=(), zeros=2, scores=(300, 310))
    assert pos.racks == (("A", "B"), ("Z", "A")) and pos.zeros == 2 and pos.scores == (300, 310)
    assert solve_endgame(pos).proved


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rack": "AEIOUBCDF"}, "the rack has 9 tiles; a rack holds at most 7"),
        ({"theirs": list("AEIOUBCD")}, "the opponent's rack has 8 tiles; a rack holds at most 7"),
        ({"rack": "A??", "theirs": "??"}, "hold 4 ? (the tile set has 2)"),
        ({"rack": "ZZ"}, "hold 3 Z (the tile set has 1)"),  # and one Z in the other rack
        ({"rack": "Q", "theirs": "A", "bag": ["Q"]}, "hold 3 Q (the tile set has 1)"),
        ({"rack": "A1"}, "the rack: '1' at index 1 of 'A1' starts no tile of tile set english"),
        ({"rack": ["A", "1"]}, "the rack holds '1', which is not a tile of english"),
        ({"rack": ["A", "AB"]}, "the rack holds 'AB', which is not a tile of english"),
        ({"rack": "A.B"}, "the rack holds '.', which is not a tile"),
        ({"rack": ["A", 7]}, "the rack must hold tiles as text"),
        ({"rack": 7}, "the rack must be text or a list of tiles, not int"),
        ({"theirs": "A\x1b"}, "the opponent's rack: '\\x1b' at index 1"),
        ({"bag": ["@"]}, "the bag holds '@', which is not a tile"),
        ({"rack": ""}, "the player to move has no tiles"),
        ({"theirs": ""}, "the opponent has no tiles"),
        ({"zeros": -1}, "zeros is -1: scoreless turns so far run from 0 to 5"),
        ({"zeros": 6}, "zeros is 6: scoreless turns so far run from 0 to 5 (6 end the game)"),
        ({"zeros": True}, "zeros must be a whole number"),
        ({"zeros": 1.5}, "zeros must be a whole number"),
        ({"scores": (1,)}, "scores must be two whole numbers"),
        ({"scores": ("1", 2)}, "scores must be two whole numbers"),
        ({"scores": (True, 0)}, "scores must be two whole numbers"),
        ({"scores": [1, 2]}, "scores must be two whole numbers"),
    ],
)
def test_impossible_positions_and_bad_values_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(EndgameError) as info:
        _of(**kwargs)
    assert message in str(info.value), str(info.value)
    assert isinstance(info.value, ValueError) and "\n" not in str(info.value)


def test_the_board_is_counted_with_the_racks() -> None:
    blank_on_board = _board((7, 7, "z"), (7, 8, "A"))  # a blank played as Z
    with pytest.raises(EndgameError, match=r"hold 3 \? \(the tile set has 2\)"):
        _of("??", "B", board=blank_on_board)
    two_q = _board((7, 7, "Q"), (8, 7, "Q"))
    with pytest.raises(EndgameError, match=r"hold 2 Q \(the tile set has 1\)"):
        _of("A", "B", board=two_q)
    strange = _board((7, 7, "1"))
    with pytest.raises(EndgameError, match="the board holds '1', not a tile of english"):
        _of("A", "B", board=strange)


def test_the_board_and_the_rules_must_match() -> None:
    big = Board(board_layout("SuperCrosswordGame"), RULES.tiles)
    with pytest.raises(EndgameError, match="the board is not a 15x15 board"):
        _of(board=big)
    with pytest.raises(EndgameError, match="rules must be a RuleSet, not str"):
        EndgamePosition.of(_board(), "A", "B", LEXICON, "english")  # type: ignore[arg-type]
    with pytest.raises(EndgameError, match="the lexicon must be a Lexicon, not str"):
        EndgamePosition.of(_board(), "A", "B", "ENABLE", RULES)  # type: ignore[arg-type]
