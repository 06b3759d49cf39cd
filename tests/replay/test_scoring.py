"""Scoring, checked against worked examples written by people, not by this program.

* shared/seeds/000_*.txt (the Scrabble article, "Scoring example"): QUITE 8D = 48,
  MES(QUITE) 8A = 57, INFaNCY 9D = 88 with the cross-words QI, UN, IF, TA, EN, and
  RECO(UN)TS E4 = 40 (two double words: x4). Player 1 leads 136-97.
* shared/seeds/003_*.txt (Hasbro rules, "Worked example"): an opening CAT with the A on the
  centre star = (3 + 1 + 1) x 2 = 10; with a blank as the C = (0 + 1 + 1) x 2 = 4; extending
  it to CATS later does not double it again.

Every number below is worked out by hand in a comment, from the standard board:

     1 |=  '   =   '  =|     = triple word, - double word (and the centre star),
     2 | -   "   "   - |     " triple letter, ' double letter
     3 |  -   ' '   -  |
     4 |'  -   '   -  '|
     5 |    -     -    |
     6 | "   "   "   " |
     7 |  '   ' '   '  |
     8 |=  '   -   '  =|
     9 |  '   ' '   '  |
    10 | "   "   "   " |
    11 |    -     -    |
    12 |'  -   '   -  '|
    13 |  -   ' '   -  |
    14 | -   "   "   - |
    15 |=  '   =   '  =|
        ABCDEFGHIJKLMNO
"""

from __future__ import annotations

import pytest

from gcgtools import parse_string, replay, validate
from gcgtools.replay import Board, score_play
from gcgtools.rules import TileError, board_layout, tile_set

ENGLISH = tile_set("english")
LAYOUT = board_layout("CrosswordGame")


def squares_of(coordinate: str, word: str) -> list[tuple[int, int, str]]:
    """(row, col, character) for each character of ``word`` written at ``coordinate``
    (``8D`` across, ``D8`` down), with ``(..)`` runs expanded to ``.``."""
    word = word.replace("(", "").replace(")", "")
    if coordinate[0].isdigit():
        row, col, dr, dc = int(coordinate[:-1]) - 1, ord(coordinate[-1]) - 65, 0, 1
    else:
        row, col, dr, dc = int(coordinate[1:]) - 1, ord(coordinate[0]) - 65, 1, 0
    return [(row + i * dr, col + i * dc, ch) for i, ch in enumerate(word)]


def put(board: Board, coordinate: str, word: str) -> list[tuple[int, int]]:
    """Put the new tiles of ``word`` on ``board``; return their squares. A ``.`` (or a
    letter inside parentheses) must be a square already occupied."""
    in_parens = "(" in word
    placed = []
    for row, col, ch in squares_of(coordinate, word):
        if ch == ".":
            assert board[row, col] is not None, f"{coordinate} {word}: square is empty"
            continue
        assert board[row, col] is None, f"{coordinate} {word}: square is occupied"
        placed.append((row, col))
        board[row, col] = ch
    assert not in_parens or placed
    return placed


def play(board: Board, coordinate: str, word: str, **kwargs: int):
    placed = put(board, coordinate, word)
    direction = "across" if coordinate[0].isdigit() else "down"
    return score_play(board, placed, direction, ENGLISH, **kwargs)


def words(result) -> dict[str, int]:
    return {w.text.upper(): w.score for w in result.words}


# ------------------------------------------------------- the article's example
@pytest.fixture
def quite() -> Board:
    board = Board(LAYOUT)
    play(board, "8D", "QUITE")
    return board


def test_quite_8d_scores_48():
    board = Board(LAYOUT)
    result = play(board, "8D", "QUITE")
    # Q on 8D (double letter), E on 8H (the centre star, a double word):
    # (2 x 10 + 1 + 1 + 1 + 1) x 2 = 48
    assert result.score == 48
    assert words(result) == {"QUITE": 48}
    assert result.main_word is not None and result.main_word.text == "QUITE"
    assert (result.main_word.row, result.main_word.col) == (7, 3)
    assert sorted(result.premiums) == ["DL", "DW"]
    assert not result.bingo


def test_mesquite_8a_scores_57_without_the_old_premiums(quite):
    # M on 8A (triple word); the Q's double letter and the star were used by QUITE:
    # (3 + 1 + 1 + 10 + 1 + 1 + 1 + 1) x 3 = 57
    result = play(quite, "8A", "MES.....")
    assert result.score == 57
    assert words(result) == {"MESQUITE": 57}
    assert result.premiums == ["TW"]


def test_infancy_9d_scores_88_with_five_cross_words(quite):
    play(quite, "8A", "MES.....")
    result = play(quite, "9D", "INFaNCY")
    # main word, row 9 D..J: I 1, N 1, F 4, blank a on 9G (double letter) 0, N 1,
    # C on 9I (double letter) 2 x 3 = 6, Y 4                                   = 17
    # cross-words (the upper letter is old, no premium for it):
    # QI 10 + 1 = 11, UN 1 + 1 = 2, IF 1 + 4 = 5, Ta 1 + 0 = 1, EN 1 + 1 = 2  = 21
    # 17 + 21 = 38, all seven tiles: + 50 = 88
    assert words(result) == {"INFANCY": 17, "QI": 11, "UN": 2, "IF": 5, "TA": 1, "EN": 2}
    assert result.main_word is not None and result.main_word.text == "INFaNCY"
    assert result.bingo
    assert result.score == 88


def test_recounts_e4_scores_40_with_two_double_words(quite):
    play(quite, "8A", "MES.....")
    play(quite, "9D", "INFaNCY")
    # column E rows 4..11: R E C O (U N) T S; E5 and E11 are double words:
    # (1 + 1 + 3 + 1 + 1 + 1 + 1 + 1) x 2 x 2 = 40, no cross-word
    result = play(quite, "E4", "RECO(..)TS")
    assert result.score == 40
    assert words(result) == {"RECOUNTS": 40}
    assert result.premiums == ["DW", "DW"]
    assert not result.bingo  # six new tiles


# ------------------------------------------------------------ the rules' example
def test_opening_cat_scores_10():
    board = Board(LAYOUT)
    # C on 8G, A on the centre star 8H, T on 8I: (3 + 1 + 1) x 2 = 10
    assert play(board, "8G", "CAT").score == 10


def test_opening_cat_with_a_blank_c_scores_4():
    board = Board(LAYOUT)
    # the blank scores 0: (0 + 1 + 1) x 2 = 4
    result = play(board, "8G", "cAT")
    assert result.score == 4
    assert result.main_word is not None and result.main_word.text == "cAT"


def test_extending_cat_to_cats_does_not_double_again():
    board = Board(LAYOUT)
    play(board, "8G", "CAT")
    # S on 8J (plain): 3 + 1 + 1 + 1 = 6; the star under the A was used by CAT
    result = play(board, "8G", "...S")
    assert result.score == 6
    assert result.premiums == []


# ------------------------------------------------------------------ the rules
def test_blank_on_a_word_premium_still_doubles():
    board = Board(LAYOUT)
    # the blank a on the centre star: (3 + 0 + 1) x 2 = 8
    result = play(board, "8G", "CaT")
    assert result.score == 8
    assert result.premiums == ["DW"]


def test_blank_on_a_letter_premium_scores_nothing():
    board = Board(LAYOUT)
    play(board, "8G", "CAT")
    # down from G7 (double letter) through the C: blank o on G7 = 0 x 2, C 3 = 3
    assert play(board, "G7", "o.").score == 3
    # the same with a real O: 1 x 2 + 3 = 5
    other = Board(LAYOUT)
    play(other, "8G", "CAT")
    assert play(other, "G7", "O.").score == 5


def test_seven_letter_word_through_a_board_tile_is_no_bingo(quite):
    # RETAINS down column H through the E of QUITE (H8): six new tiles, no bonus.
    # R H7 1, E (old) 1, T 1, A 1, I 1, N on H12 (double letter) 2, S 1 = 8
    result = play(quite, "H7", "R.TAINS")
    assert len(result.words) == 1 and result.words[0].text == "RETAINS"
    assert not result.bingo
    assert result.score == 8


def test_seven_new_tiles_through_a_board_tile_is_a_bingo(quite):
    # RETAINER down H7..H14 through the E: seven new tiles. R 1, E 1, T 1, A 1, I 1,
    # N (H12 double letter) 2, E 1, R on H14 (plain) 1 = 9, + 50 = 59
    result = play(quite, "H7", "R.TAINER")
    assert result.bingo
    assert result.score == 59


def test_bingo_bonus_and_size_are_parameters():
    board = Board(LAYOUT)
    placed = put(board, "8B", "RETAINS")
    # R 8B, E 8C, T 8D (double letter) 2, A 8E, I 8F, N 8G, S 8H (star): 8 x 2 = 16
    plain = score_play(board, placed, "across", ENGLISH)
    assert (plain.score, plain.bingo) == (66, True)
    wwf = score_play(board, placed, "across", ENGLISH, bingo_bonus=35)
    assert wwf.score == 51
    bigger_rack = score_play(board, placed, "across", ENGLISH, bingo_size=8)
    assert (bigger_rack.score, bigger_rack.bingo) == (16, False)


def test_premiums_count_only_under_new_tiles():
    board = Board(LAYOUT)
    play(board, "8G", "CAT")
    # AX down from H8: the A (old) sits on the centre star, which CAT used up; the new X on
    # H9 (plain): 1 + 8 = 9, not (1 + 8) x 2
    result = play(board, "H8", ".X")
    assert result.score == 9
    assert result.premiums == []


def test_cross_word_only_play_is_scored_once():
    board = Board(LAYOUT)
    play(board, "8G", "CAT")
    # one tile below the A (H9), written down: the main word is AS: 1 + 1 = 2,
    # and the single tile forms no across word
    result = play(board, "H8", ".S")
    assert words(result) == {"AS": 2}
    assert result.score == 2


def test_cross_words_on_both_sides_take_the_new_tiles_premiums_only():
    board = Board(LAYOUT)
    play(board, "8H", "AT")  # H8 A, I8 T
    play(board, "10H", "OX")  # H10 O, I10 X
    # E on H9 (no premium) and S on I9 (double letter), across: ES = 1 + 2 x 1 = 3;
    # cross-words down AEO = 1 + 1 + 1 = 3 and TSX = 1 + 2 x 1 + 8 = 11: 17 in all
    result = play(board, "9H", "ES")
    assert words(result) == {"ES": 3, "AEO": 3, "TSX": 11}
    assert result.score == 17


def test_a_tile_the_set_does_not_know_raises_tile_error():
    board = Board(LAYOUT)
    board[7, 7] = "#"
    board[7, 8] = "A"
    with pytest.raises(TileError):
        score_play(board, [(7, 7), (7, 8)], "across", ENGLISH)


# ------------------------------------------------------------ through validate
ARTICLE = """\
#player1 P1 Player One
#player2 P2 Player Two
>P1: DEIQTUV 8D QUITE +48 48
>P2: AEMSXYZ 8A {mes} +57 57
>P1: CFINNY? 9D INFaNCY +88 136
>P2: CEORSTT E4 {recounts} +40 97
"""


@pytest.mark.parametrize("mes", ["MES.....", "MES(QUITE)", "MESQUITE"])
@pytest.mark.parametrize("recounts", ["RECO..TS", "RECO(UN)TS"])
def test_article_game_validates_with_its_scores(mes, recounts):
    game = parse_string(ARTICLE.format(mes=mes, recounts=recounts))
    result = validate(game)
    assert [f for f in result.findings if f.severity != "info"] == []
    assert result.recorded == [136, 97]
    assert result.computed == [136, 97]
    positions = list(replay(game))
    assert [p.computed for p in positions[1:]] == [48, 57, 88, 40]
    infancy = positions[3]
    assert sorted(w.text.upper() for w in infancy.words if not w.main) == sorted(
        ["QI", "UN", "IF", "TA", "EN"]
    )
    assert infancy.bingo and not positions[4].bingo
    # RECO(UN)TS puts six tiles down and leaves T (the rack had two)
    assert len(positions[4].placed) == 6
    assert positions[4].leave == "T"


def test_article_game_with_a_wrong_score_is_reported_there():
    text = ARTICLE.format(mes="MES.....", recounts="RECO..TS").replace("+88 136", "+78 126")
    result = validate(parse_string(text))
    errors = [
        (f.code, f.line, f.recorded, f.computed) for f in result.findings if f.severity != "info"
    ]
    assert errors == [("S601", 5, 78, 88)]
    assert result.recorded == [126, 97]
    assert result.computed == [136, 97]


CAT_GAME = """\
#player1 A Alice
#player2 B Bob
>A: ?ACDEIT 8G {cat} +{first} {first}
>B: EIOSTUV 8G ...S +{second} {second}
"""


# B's S on 8J (plain) makes CATS: C 3 / blank 0, A 1 / blank 0, T 1, S 1
@pytest.mark.parametrize(("cat", "first", "second"), [("CAT", 10, 6), ("cAT", 4, 3), ("CaT", 8, 5)])
def test_cat_games_validate(cat, first, second):
    result = validate(parse_string(CAT_GAME.format(cat=cat, first=first, second=second)))
    assert [f for f in result.findings if f.severity != "info"] == []
    assert result.recorded == result.computed == [first, second]
