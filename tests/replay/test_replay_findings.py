"""Every finding the replay (and the model, for H2xx) reports, each on a small hand-made record.

Each test states the code and the exact line. Lines are found in the record by their text
(``line_of``), so the records can be read top to bottom. Scores are worked out by hand in
the comments, on the standard board (see tests/replay/test_scoring.py for the grid):

    row 7 and 9: double letters on C, G, I, M      row 8: 8A =TW, 8D 'DL, 8H *DW, 8L 'DL, 8O =TW
    row 6 and 10: triple letters on B, F, J, N     row 12: 12A, 12H, 12O 'DL; 12D, 12L -DW

Records that must reach the end of the bag use a 20-tile set (MINI, below) instead of the
100 English tiles: 14 tiles go to the racks, 6 stay in the bag.
"""

from __future__ import annotations

import pytest

from gcgtools import parse_string, replay, validate
from gcgtools.findings import RULES, code_names
from gcgtools.replay import Validation
from gcgtools.rules import EndRule, RuleSet, TileSet, board_layout, tile_set

LAYOUT = board_layout("CrosswordGame")
MINI = TileSet.from_table(
    "mini",
    [
        ("?", 1, 0),
        ("A", 3, 1),
        ("E", 3, 1),
        ("I", 2, 1),
        ("N", 2, 1),
        ("R", 2, 1),
        ("S", 2, 1),
        ("T", 2, 1),
        ("Q", 1, 10),
        ("U", 1, 1),
        ("Z", 1, 10),
    ],
)
MINI_RULES = RuleSet(tiles=MINI, board=LAYOUT)


def check(text: str, rules: RuleSet | None = None, **options: object) -> Validation:
    return validate(parse_string(text), rules, **options)  # type: ignore[arg-type]


def line_of(text: str, needle: str) -> int:
    """1-based number of the only line of ``text`` containing ``needle``."""
    hits = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(hits) == 1, f"{needle!r} is on lines {hits}"
    return hits[0]


def found(result: Validation) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in result.findings]


def errors(result: Validation) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in result.findings if f.severity == "error"]


def not_info(result: Validation) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in result.findings if f.severity != "info"]


def finding(result: Validation, code: str, line: int):
    matches = [f for f in result.findings if (f.code, f.line) == (code, line)]
    assert len(matches) == 1, f"{code} at line {line}: {found(result)}"
    return matches[0]


# =============================================================== an opening
# RETAINS 8H: R on the star, I on 8L (double letter): (1+1+1+1+2+1+1) x 2 = 16, + 50 = 66
OPENING = """\
#player1 A Alice
#player2 B Bob
>A: AEINRST 8H RETAINS +66 66
"""


def test_clean_opening_has_only_the_incomplete_info():
    result = check(OPENING)
    assert found(result) == [("O312", 3)]
    assert RULES["O312"].severity == "info"
    assert result.ok


# CAT 8G: (3 + 1 + 1) x 2 = 10 (shared/seeds/003)
CAT = """\
#player1 A Alice
#player2 B Bob
>A: ACDEITZ 8G CAT +10 10
"""


def with_line(record: str, line: str) -> str:
    return record + line + "\n"


@pytest.mark.parametrize(
    ("line", "code"),
    [
        # the coordinate must be the first square of the whole word: 8G ...S, not 8J S
        (">B: EIOSTUV 8J S +6 6", "B505"),
        # 8H holds A, not U
        (">B: EIOSTUV 8G CUTS +6 6", "B506"),
        # the fourth square, 8J, is empty
        (">B: EIOSTUV 8G ....S +6 6", "B508"),
        # every letter is already on the board
        (">B: EIOSTUV 8G CAT +5 5", "B509"),
        # E I6, S I7 (double letter), and the T of CAT on I8 continues the word: EST = 4
        (">B: EIOSTUV I6 ES +4 4", "B510"),
        # VOTE 1A, far from CAT: V 4 on the triple word, E on 1D (double letter) 2:
        # (4 + 1 + 1 + 2) x 3 = 24
        (">B: EIOSTUV 1A VOTE +24 24", "B503"),
        # CAT and seven more letters: 8J..8O fit, the last one would be on 8P, off the
        # board (not a word: only the geometry matters here)
        (">B: EIOSTUV 8G ...OUTVIES +14 14", "B504"),
        # column P does not exist on a 15x15 board
        (">B: EIOSTUV P1 TOES +4 4", "B504"),
        # CATX: 3 + 1 + 1 + 8 = 13, but there is no X on the rack
        (">B: EIOSTUV 8G ...X +13 13", "T401"),
    ],
)
def test_board_findings_after_cat(line, code):
    record = with_line(CAT, line)
    result = check(record)
    number = line_of(record, line)
    assert not_info(result) == [(code, number)]


def test_b510_reports_the_whole_word_score():
    record = with_line(CAT, ">B: EIOSTUV I6 ES +4 4")
    (last,) = list(replay(parse_string(record)))[-1:]
    assert [w.text for w in last.words] == ["EST"]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        # RETAINS 7H misses the centre: R 1, E on I7 2, T, A, I 1 each, N on M7 2, S 1
        # = 9, + 50 = 59
        (">A: AEINRST 7H RETAINS +59 59", "B501"),
        # one tile on the centre forms no word
        (">A: AEINRST 8H A +0 0", "B502"),
        # the recorded rack has two Q, the English set one: QI 8H = (10 + 1) x 2 = 22
        (">A: AEINQQR 8H QI +22 22", "T402"),
        # (1+1+1+1+2+1+8) x 2 + 50 = 80 with an X the rack does not hold
        (">A: AEINRST 8H RETAINX +80 80", "T401"),
        # the blank must be written as the letter it stands for: 14 + 50 = 64
        (">A: ?AEINRT 8H RETAIN? +64 64", "T406"),
        # a digit is no tile of any set
        (">A: AEINRST 8H RETA1NS +66 66", "T403"),
        # -8 from a rack of 7
        (">A: AEINRST -8 +0 0", "T405"),
        # '.' in a rack or an exchange
        (">A: AEIN.ST 8H SAINT +12 12", "P102"),
        (">A: AEINRST -A.E +0 0", "P104"),
    ],
)
def test_first_move_findings(line, code):
    record = "#player1 A Alice\n#player2 B Bob\n" + line + "\n"
    result = check(record)
    assert errors(result) == [(code, 3)]


def test_t408_more_tiles_played_than_the_set_holds():
    # no racks given, so no T402; QI 8G: (10 + 1) x 2 = 22; QI H7 through the I: 10 + 1 = 11
    record = "#player1 A Alice\n#player2 B Bob\n>A: 8G QI +22 22\n>B: H7 Q. +11 11\n"
    result = check(record)
    assert not_info(result) == [("T408", 4)]
    assert RULES["T408"].severity == "warning"


def test_t409_a_rack_longer_than_the_rules_allow():
    record = "#player1 A Alice\n#player2 B Bob\n>A: AEINRSTX 8D RETAINS +66 66\n"
    result = check(record)
    assert not_info(result) == [("T409", 3)]
    message = next(f.message for f in result.findings if f.code == "T409")
    assert message == "rack AEINRSTX has 8 tiles; a rack holds at most 7"
    # the rule set's rack size, not a fixed 7
    wide = check(record, rules=RuleSet(tiles=tile_set("english"), board=LAYOUT, rack_size=8))
    assert "T409" not in [f.code for f in wide.findings]


def test_minus_n_exchange_is_clean_and_keeps_the_score():
    record = with_line(OPENING, ">B: ABCDEFG -2 +0 0")
    result = check(record)
    assert found(result) == [("O312", 4)]
    assert result.recorded == [66, 0]


# ============================================================ played through
@pytest.mark.parametrize("word", ["MES.....", "MESQUITE", "MES(QUITE)", "MES(.....)"])
def test_played_through_squares_in_every_form(word):
    record = f"""\
#player1 A Alice
#player2 B Bob
>A: DEIQTUV 8D QUITE +48 48
>B: AEMSXYZ 8A {word} +57 57
"""
    assert not_info(check(record)) == []


@pytest.mark.parametrize(("word", "code"), [("MES(QUIET)", "B506"), ("MESQUIET", "B506")])
def test_played_through_letters_must_match(word, code):
    record = f"""\
#player1 A Alice
#player2 B Bob
>A: DEIQTUV 8D QUITE +48 48
>B: AEMSXYZ 8A {word} +57 57
"""
    assert errors(check(record)) == [(code, 4)]


def test_parenthesised_run_over_empty_squares():
    record = with_line(OPENING, ">B: DGOOPRW 9A DO(GS) +3 3")
    assert errors(check(record)) == [("B508", 4)]


# ================================================================ scores
def test_s601_wrong_play_score():
    # PEG I7 down through the E: P on I7 (double letter) 6, E 1, G on I9 (double letter) 4
    record = with_line(OPENING, ">B: DGOOPRW I7 P.G +12 12")
    result = check(record)
    f = finding(result, "S601", 4)
    assert (f.recorded, f.computed) == (12, 11)
    assert errors(result) == [("S601", 4)]


def test_s602_wrong_cumulative():
    record = with_line(OPENING, ">B: DGOOPRW I7 P.G +11 12")
    result = check(record)
    f = finding(result, "S602", 4)
    assert (f.recorded, f.computed) == (12, 11)
    assert errors(result) == [("S602", 4)]


NON_CASCADING = """\
#player1 A Alice
#player2 B Bob
>A: AEINRST 8H RETAINS +66 66
>B: DGOOPRW I7 P.G +21 21
>A: EEILMOT N8 .MILE +9 76
>B: DOORWXY - +0 21
>A: EEOTTUV - +0 76
>B: DOORWXY -DWX +0 11
"""


def test_one_mistake_is_reported_once():
    # PEG is worth 11, recorded +21; SMILE (S old, M 1, I on N10 triple letter 3, L 1, E 1)
    # is worth 9 and 66 + 9 = 75, recorded 76. Later lines follow the recorded totals (21,
    # 76) or, for B's last line, the computed one (11): none is reported again.
    result = check(NON_CASCADING)
    assert errors(result) == [
        ("S601", line_of(NON_CASCADING, "P.G")),
        ("S602", line_of(NON_CASCADING, ".MILE")),
    ]
    assert result.recorded == [76, 11]
    assert result.computed == [75, 11]


def test_s603_s604_wrong_end_of_game_points():
    record = OUT.replace("(AENQU) +28 100", "(AENQU) +20 92")
    result = check(record, MINI_RULES)
    f = finding(result, "S603", 6)
    assert (f.recorded, f.computed) == (20, 28)
    assert errors(result) == [("S603", 6)]
    record = SIX_ZERO.replace("(IMOOPUU) -11 -11", "(IMOOPUU) -10 -10")
    result = check(record)
    f = finding(result, "S604", line_of(record, "(IMOOPUU)"))
    assert (f.recorded, f.computed) == (-10, -11)


# ============================================================= the end of the game
# MINI: A's RETAINS (66) draws the last 6 tiles ?AERST. B: ZIT down J6 through the T,
# Z on J6 (triple letter) 30 + I 1 + T 1 = 32. A goes out with SERIATE down column L
# through the I of RETAINS, blank e, no premium: 6. B keeps AENQU = 1+1+1+10+1 = 14.
OUT = """\
#player1 A Alice
#player2 B Bob
>A: AEINRST 8H RETAINS +66 66
>B: AEINQUZ J6 ZI. +32 32
>A: ?AERST L5 SER.ATe +6 72
>A: (AENQU) +28 100
"""
PLUS_MINUS = OUT.replace(">A: (AENQU) +28 100", ">B: AENQU (AENQU) -14 18\n>A: (AENQU) +14 86")
MINUS_PLUS = OUT.replace(">A: (AENQU) +28 100", ">A: (AENQU) +14 86\n>B: AENQU (AENQU) -14 18")


def test_standard_end_gives_twice_the_rack():
    result = check(OUT, MINI_RULES)
    assert found(result) == []
    assert result.end_reason == "out"
    assert result.end_rule is EndRule.STANDARD
    assert result.recorded == result.computed == [100, 32]


@pytest.mark.parametrize("record", [PLUS_MINUS, MINUS_PLUS])
def test_international_end_is_detected(record):
    result = check(record, MINI_RULES)
    assert found(result) == []
    assert result.end_rule is EndRule.INTERNATIONAL
    assert result.recorded == result.computed == [86, 18]


def test_international_plus_x_alone_is_detected():
    record = OUT.replace("(AENQU) +28 100", "(AENQU) +14 86")
    result = check(record, MINI_RULES)
    assert found(result) == []
    assert result.end_rule is EndRule.INTERNATIONAL


def test_forced_international_flags_a_double_rack():
    result = check(OUT, MINI_RULES, end_rule="international")
    f = finding(result, "S603", 6)
    assert (f.recorded, f.computed) == (28, 14)
    assert errors(result) == [("S603", 6)]
    assert result.end_rule is EndRule.INTERNATIONAL
    assert check(PLUS_MINUS, MINI_RULES, end_rule="international").findings == []


def test_forced_standard_flags_plus_minus():
    result = check(PLUS_MINUS, MINI_RULES, end_rule="standard")
    minus, plus = line_of(PLUS_MINUS, "-14 18"), line_of(PLUS_MINUS, "+14 86")
    assert errors(result) == [("S604", minus), ("S603", plus)]
    assert finding(result, "S603", plus).computed == 28
    assert result.computed == [100, 32]


def test_t407_end_rack_tiles_must_be_the_tiles_left():
    # AENQ = 13, x 2 = 26: the value fits, the tiles do not (B still holds the U)
    record = OUT.replace("(AENQU) +28 100", "(AENQ) +26 98")
    assert errors(check(record, MINI_RULES)) == [("T407", 6)]


def test_o313_woogles_final_pass_is_accepted():
    record = OUT.replace(">A: (AENQU)", ">B: AENQU - +0 32\n>A: (AENQU)")
    result = check(record, MINI_RULES)
    assert found(result) == [("O313", 6)]
    assert RULES["O313"].severity == "warning"
    assert result.recorded == [100, 32]


def test_o302_move_after_the_end_is_reported_and_ignored():
    # B's QUA after A went out; then A's end-rack points still find AENQU on B's rack
    record = OUT.replace(">A: (AENQU)", ">B: AENQU 9G QUA +13 45\n>A: (AENQU)")
    result = check(record, MINI_RULES)
    assert errors(result) == [("O302", 6)]


def test_o307_end_rack_points_before_anyone_went_out():
    record = with_line(OPENING, ">A: (AENQU) +28 94")
    result = check(record)
    assert ("O307", 4) in errors(result)


def test_o308_end_rack_points_twice():
    record = with_line(OUT, ">A: (AENQU) +28 128")
    assert errors(check(record, MINI_RULES)) == [("O308", 7)]


def test_o314_end_rack_points_to_the_wrong_player():
    record = OUT.replace(">A: (AENQU) +28 100", ">B: (AENQU) +28 60")
    assert errors(check(record, MINI_RULES)) == [("O314", 6)]


def test_o314_the_player_who_went_out_has_no_rack_to_lose():
    record = with_line(OUT, ">A: E (E) -1 99")
    assert ("O314", 7) in errors(check(record, MINI_RULES))


def test_r702_end_rack_line_missing():
    record = OUT.replace(">A: (AENQU) +28 100\n", "")
    result = check(record, MINI_RULES)
    assert found(result) == [("R702", 5)]
    assert RULES["R702"].severity == "warning"


def test_t404_exchange_with_fewer_than_seven_in_the_bag():
    record = "#player1 A Alice\n#player2 B Bob\n>A: AEINRST -AE +0 0\n"
    result = check(record, MINI_RULES)  # 20 tiles - 14 on the racks = 6 in the bag
    assert errors(result) == [("T404", 3)]
    count_form = "#player1 A Alice\n#player2 B Bob\n>A: AEINRST -2 +0 0\n"
    assert errors(check(count_form, MINI_RULES)) == [("T404", 3)]


def test_home_rules_exchange_needs_only_as_many_tiles_as_exchanged():
    two = "#player1 A Alice\n#player2 B Bob\n>A: AEINRST -AE +0 0\n"
    assert errors(check(two, MINI_RULES, end_rule="home")) == []
    seven = "#player1 A Alice\n#player2 B Bob\n>A: AEINRST -AEINRST +0 0\n"
    assert errors(check(seven, MINI_RULES, end_rule="home")) == [("T404", 3)]


# ----------------------------------------------------------- scoreless turns
# English. A: ABDEFGH = 1+3+2+1+4+2+4 = 17 before the exchange of ABD, EFGHKLN = 18 after;
# B: CDILOUU, IMOOPUU = 1+3+1+1+3+1+1 = 11 after exchanging CDL.
SIX_ZERO = """\
#player1 A Alice
#player2 B Bob
>A: AEINRST 8H RETAINS +66 66
>B: CDILOUU - +0 0
>A: ABDEFGH - +0 66
>B: CDILOUU -CDL +0 0
>A: ABDEFGH - +0 66
>B: IMOOPUU - +0 0
>A: ABDEFGH -ABD +0 66
>B: IMOOPUU (IMOOPUU) -11 -11
>A: EFGHKLN (EFGHKLN) -18 48
"""


def test_six_scoreless_turns_end_the_game():
    result = check(SIX_ZERO)
    sixth = line_of(SIX_ZERO, "-ABD")
    assert found(result) == [("R701", sixth)]
    assert RULES["R701"].severity == "info"
    assert result.end_reason == "scoreless"
    assert result.recorded == result.computed == [48, -11]


def test_r702_six_zero_without_penalties():
    record = SIX_ZERO.split(">B: IMOOPUU (")[0]
    result = check(record)
    assert not_info(result) == [("R702", line_of(record, "-ABD"))]


def test_o302_pass_after_six_zero():
    record = SIX_ZERO.replace(">B: IMOOPUU (", ">B: IMOOPUU - +0 0\n>B: IMOOPUU (")
    assert errors(check(record)) == [("O302", line_of(SIX_ZERO, "-ABD") + 1)]


def test_o307_rack_penalty_before_the_game_is_over():
    record = OPENING + ">B: CDILOUU (CDILOUU) -10 -10\n"
    assert ("O307", 4) in errors(check(record))


def test_o308_rack_penalty_twice():
    record = with_line(SIX_ZERO, ">B: IMOOPUU (IMOOPUU) -11 -22")
    assert errors(check(record)) == [("O308", 12)]


def test_o314_end_rack_points_after_six_zero():
    record = SIX_ZERO.replace(">A: EFGHKLN (EFGHKLN) -18 48", ">A: (IMOOPUU) +22 88")
    assert errors(check(record)) == [("O314", 11)]


def test_t407_own_rack_penalty_racks_differ():
    # IMOOPUV = 1+3+1+1+3+1+4 = 14: the penalty matches the tiles in parentheses
    record = SIX_ZERO.replace("(IMOOPUU) -11 -11", "(IMOOPUV) -14 -14")
    assert errors(check(record)) == [("T407", 10)]


def test_t402_own_rack_penalty_with_tiles_already_played():
    # two Z in the parentheses: the English set has one
    record = SIX_ZERO.replace(">B: IMOOPUU (IMOOPUU) -11 -11", ">B: IMOOPZZ (IMOOPZZ) -29 -29")
    assert ("T402", 10) in errors(check(record))


# ------------------------------------------------------------------ home rules
HOME = """\
#player1 A Alice
#player2 B Bob
>A: AEINRST 8H RETAINS +66 66
>B: CDILOUU - +0 0
>A: ABDEFGH - +0 66
>B: CDILOUU - +0 0
>A: ABDEFGH - +0 66
>B: CDILOUU (CDILOUU) -10 -10
>A: ABDEFGH (ABDEFGH) -17 49
"""


def test_home_rules_end_when_everybody_passed_twice():
    # CDILOUU = 3+2+1+1+1+1+1 = 10, ABDEFGH = 17
    result = check(HOME, end_rule="home")
    assert found(result) == []
    assert result.end_reason == "passes"
    assert result.recorded == result.computed == [49, -10]


def test_four_passes_do_not_end_a_standard_game():
    result = check(HOME)
    assert errors(result) == [("O307", 8), ("O307", 9)]


def test_home_rules_an_exchange_breaks_the_run_of_passes():
    record = HOME.replace(">A: ABDEFGH - +0 66\n>B", ">A: ABDEFGH -ABD +0 66\n>B", 1)
    assert errors(check(record, end_rule="home")) == [("O307", 8), ("O307", 9)]


def test_r702_home_rules_without_penalties():
    record = HOME.split(">B: CDILOUU (")[0]
    assert not_info(check(record, end_rule="home")) == [("R702", 7)]


# ============================================================ challenges
CHALLENGED = OPENING + ">B: DGOOPRW I7 P.G +11 11\n"


@pytest.mark.parametrize("bonus", [0, 5, 10, 15])
def test_challenge_bonus_accepted(bonus):
    record = with_line(CHALLENGED, f">B: DOORWXY (challenge) +{bonus} {11 + bonus}")
    result = check(record)
    assert found(result) == [("O312", 5)]
    assert result.recorded == [66, 11 + bonus]


def test_challenge_bonus_odd_amount():
    record = with_line(CHALLENGED, ">B:  (challenge) +7 18")
    result = check(record)
    assert not_info(result) == [("S606", 5)]
    assert RULES["S606"].severity == "warning"


@pytest.mark.parametrize(
    ("rule", "bonus", "ok"),
    [(5, 5, True), (5, 10, True), (10, 5, False), (10, 10, True), (0, 0, True), (0, 5, False)],
)
def test_challenge_bonus_with_a_fixed_rule(rule, bonus, ok):
    record = with_line(CHALLENGED, f">B:  (challenge) +{bonus} {11 + bonus}")
    result = check(record, challenge_bonus=rule)
    assert not_info(result) == ([] if ok else [("S606", 5)])


def test_o303_challenge_bonus_without_a_play():
    record = OPENING + ">B: DGOOPRW - +0 0\n>B:  (challenge) +5 5\n"
    assert errors(check(record)) == [("O303", 5)]


def test_o304_challenge_bonus_to_the_wrong_player():
    # A's total 66 + 5 = 71: the line is A's own arithmetic, but B made the play
    record = with_line(CHALLENGED, ">A:  (challenge) +5 71")
    assert errors(check(record)) == [("O304", 5)]


def test_o304_credited_to_the_challenged_player_when_the_total_says_so():
    # 16 = B's 11 + 5: the nickname is the mistake; B's next line goes on from 16
    record = with_line(CHALLENGED, ">A:  (challenge) +5 16") + ">A: EEILMOT N8 .MILE +9 75\n"
    record += ">B: DOORWXY - +0 16\n"
    result = check(record)
    assert errors(result) == [("O304", 5)]
    assert result.recorded == [75, 16]


# ----------------------------------------------------------------- phonies
# DEG I7 down through the E: D on I7 (double letter) 4, E 1, G on I9 (double letter) 4 = 9.
# TEE on the same squares afterwards: T 2, E 1, E 2 = 5.
PHONY = """\
#player1 A Alice
#player2 B Bob
>A: AEINRST 8H RETAINS +66 66
>B: DGOOPRW I7 D.G +9 9
>B: DGOOPRW -- -9 0
>A: EEILMOT I7 T.E +5 71
"""


def test_withdrawn_phony_takes_the_tiles_back():
    game = parse_string(PHONY)
    result = validate(game)
    assert found(result) == [("O312", 6)]
    positions = list(replay(game))
    played, withdrawn = positions[2], positions[3]
    assert (played.board[6, 8], played.board[8, 8]) == ("D", "G")
    assert (withdrawn.board[6, 8], withdrawn.board[8, 8]) == (None, None)
    assert withdrawn.computed == -9
    assert withdrawn.pool == positions[1].pool
    assert withdrawn.bag == positions[1].bag
    assert withdrawn.to_move == 0  # A plays next
    assert result.recorded == result.computed == [71, 0]


def test_withdrawn_phony_old_plus_zero_form():
    record = PHONY.replace("-- -9 0", "-- +0 0")
    assert found(check(record)) == [("O312", 6)]


def test_s605_withdrawn_score_does_not_cancel_the_play():
    record = PHONY.replace("-- -9 0", "-- -7 2")
    result = check(record)
    assert errors(result) == [("S602", 5), ("S605", 5)]
    assert (finding(result, "S605", 5).computed, finding(result, "S602", 5).computed) == (-9, 0)


def test_o305_withdrawn_without_a_play():
    record = OPENING + ">B: DGOOPRW - +0 0\n>B: DGOOPRW -- -9 0\n"
    assert errors(check(record)) == [("O305", 5)]


def test_o306_withdrawn_with_another_rack():
    record = PHONY.replace(">B: DGOOPRW -- -9 0", ">B: DGOOPRX -- -9 0")
    assert errors(check(record)) == [("O306", 5)]


# B withdraws a play (--) right after A's play: B made no play just before it. Some
# programs write a turn lost to a challenge this way, and A moves next.
MISPLACED = """\
#player1 A Alice
#player2 B Bob
>A: AEINRST 8H RETAINS +66 66
>B: DGOOPRW -- -0 0
>A: EEILMOT N8 .MILE +9 75
>B: DGOOPRW I7 P.G +11 11
"""


def test_misplaced_withdrawal_counts_as_a_turn_and_changes_nothing_else():
    # A's RETAINS stays on the board, the line is B's turn (A moves next: no false O301)
    # and A's total stays 66: no false B5xx or S602 on the lines after it
    result = check(MISPLACED)
    assert errors(result) == [("O305", 4)]
    assert "counts as B's turn and changes nothing else" in finding(result, "O305", 4).message
    assert result.recorded == result.computed == [75, 11]


def test_misplaced_withdrawal_after_the_players_own_turn_is_ignored():
    # B passes, then writes --: not B's turn any more, so the line is only ignored and A
    # moves next (as in MAGPIE's phony_tiles_returned_with_no_play.gcg)
    record = (
        MISPLACED.replace(">B: DGOOPRW -- -0 0\n", ">B: DGOOPRW - +0 0\n>B: DGOOPRW -- -0 0\n")
        .replace("I7 P.G +11 11", "I7 P.G +11 11")
        .replace("\n>A: EEILMOT", "\n>A: EEILMOT", 1)
    )
    result = check(record)
    assert errors(result) == [("O305", 5)]
    assert "the line is ignored" in finding(result, "O305", 5).message
    assert result.recorded == result.computed == [75, 11]


def test_misplaced_withdrawal_with_a_total_of_its_own():
    # the line takes 5 off B's total: B's next cumulative may follow either total
    record = MISPLACED.replace("-- -0 0", "-- -5 -5").replace("+11 11", "+11 6")
    assert errors(check(record)) == [("O305", 4)]


def test_misplaced_withdrawal_keeps_the_play_before_it_withdrawable():
    record = PHONY.replace(">B: DGOOPRW -- -9 0", ">A: EEILMOT -- -0 66\n>B: DGOOPRW -- -9 0")
    assert errors(check(record)) == [("O305", 5)]


def test_o306_withdrawn_by_the_other_player():
    record = PHONY.replace(">B: DGOOPRW -- -9 0", ">A: DGOOPRW -- -9 0")
    assert ("O306", 5) in errors(check(record))


# ---------------------------------------------------------------- time
@pytest.mark.parametrize("penalty", [10, 20, 30])
def test_time_penalty_ten_per_started_minute(penalty):
    record = with_line(OUT, f">B: (time) -{penalty} {32 - penalty}")
    result = check(record, MINI_RULES)
    assert found(result) == []
    assert result.recorded == result.computed == [100, 32 - penalty]


def test_s607_time_penalty_not_a_multiple_of_ten():
    result = check(with_line(OUT, ">B: (time) -15 17"), MINI_RULES)
    assert not_info(result) == [("S607", 7)]


def test_s608_time_penalty_with_a_plus_sign():
    assert errors(check(with_line(OUT, ">B: (time) +10 42"), MINI_RULES)) == [("S608", 7)]


def test_o310_time_penalty_twice():
    record = OUT + ">B: (time) -10 22\n>B: (time) -10 12\n"
    assert errors(check(record, MINI_RULES)) == [("O310", 8)]


def test_o309_time_penalty_before_the_end_rack_line():
    record = OUT.replace(">A: (AENQU)", ">B: (time) -10 22\n>A: (AENQU)")
    assert errors(check(record, MINI_RULES)) == [("O309", 6)]


def test_o307_time_penalty_in_the_middle_of_the_game():
    record = OPENING + ">B: (time) -10 -10\n>B: DGOOPRW I7 P.G +11 1\n"
    assert errors(check(record)) == [("O307", 4)]


def test_overtime_forfeit_time_line_ends_an_unfinished_game():
    # woogles games lost on time end with (time) lines while the bag still holds tiles
    record = OPENING + ">B: DGOOPRW I7 P.G +11 11\n>B: (time) -10 1\n"
    result = check(record)
    assert found(result) == []
    assert result.end_reason == "time"


# ============================================================ turn order
def test_o301_same_player_twice():
    record = with_line(OPENING, ">A: EEILMOT N8 .MILE +9 75")
    result = check(record)
    assert errors(result) == [("O301", 4)]
    assert result.recorded == [75, 0]


def test_o301_wrong_nickname_read_as_the_player_whose_turn_it_is():
    # 11 is B's 0 + 11, not A's 66 + 11: B's move with A's nickname; no cascade after it
    record = with_line(OPENING, ">A: DGOOPRW I7 P.G +11 11") + ">A: EEILMOT N8 .MILE +9 75\n"
    result = check(record)
    assert errors(result) == [("O301", 4)]
    assert "read as B's" in finding(result, "O301", 4).message
    assert result.recorded == [75, 11]


THREE = """\
#player1 A Ann
#player2 B Ben
#player3 C Cy
>A: AEINRST 8H RETAINS +66 66
>B: DGOOPRW I7 P.G +11 11
>C: EEILMOT N8 .MILE +9 9
>A: ABDEFGH - +0 66
>B: DOORWXY - +0 11
>C: EEOTTUV - +0 9
"""


def test_three_players_take_turns():
    result = check(THREE)
    assert not_info(result) == []
    positions = list(replay(parse_string(THREE)))
    assert [p.to_move for p in positions] == [0, 1, 2, 0, 1, 2, 0]
    assert positions[0].bag == 100 - 3 * 7


def test_three_players_one_skipped():
    record = THREE.replace(">B: DGOOPRW I7 P.G +11 11\n", "").replace("+0 11", "+0 0")
    assert errors(check(record)) == [("O301", line_of(record, ">C: EEILMOT"))]


FOUR = THREE.replace("#player3 C Cy\n", "#player3 C Cy\n#player4 D Dee\n").replace(
    ">A: ABDEFGH", ">D: ACCFIKW - +0 0\n>A: ABDEFGH"
)


def test_four_players_take_turns():
    result = check(FOUR)
    assert not_info(result) == []
    assert result.recorded == [66, 11, 9, 0]
    positions = list(replay(parse_string(FOUR)))
    assert positions[0].bag == 100 - 4 * 7
    assert [p.to_move for p in positions] == [0, 1, 2, 3, 0, 1, 2, 3]


def test_four_players_out_of_turn():
    record = FOUR.replace(">D: ACCFIKW - +0 0\n", "")
    assert errors(check(record)) == [("O301", line_of(record, ">A: ABDEFGH"))]


# ================================================================ the record
def test_o312_incomplete_record_and_the_incomplete_pragma():
    assert found(check(OPENING)) == [("O312", 3)]
    assert found(check("#incomplete\n" + OPENING)) == []


def test_o311_event_after_the_final_rack():
    record = OPENING + "#rack2 DGOOPRW\n>B: DGOOPRW I7 P.G +11 11\n"
    result = check(record)
    assert ("O311", 5) in errors(result)


def test_final_rack_that_cannot_be_drawn():
    record = OPENING + "#rack2 QQGOPRW\n"
    assert errors(check(record)) == [("T402", 4)]


@pytest.mark.parametrize(
    ("header", "code", "line"),
    [
        ("#player1 A Alice\n#player2 A Bob\n", "H201", 2),
        ("#player1 A Alice\n#player2 B Alice\n", "H202", 2),
        ("#player1 A Alice\n#player1 B Bob\n", "H203", 2),
        ("#title One\n#player1 A Alice\n#player2 B Bob\n#title Two\n", "H204", 4),
        ("#player1 A Alice\n#player2 B Bob\n#game-type lonify\n", "H208", 3),
        ("#player1 A Alice\n#player2 B Bob\n#tile-distribution klingon\n", "H209", 3),
        ("#player1 A\n#player2 B Bob\n", "H210", 1),
        ("#player1 A Alice\n#player2 B Bob\n#id onlyone\n", "H211", 3),
        ("#player1 A Alice\n#player2 B Bob\n#orientation lettered-rows\n", "H212", 3),
    ],
)
def test_header_findings(header, code, line):
    record = header + ">A: AEINRST 8H RETAINS +66 66\n"
    result = check(record)
    assert (code, line) in found(result)
    f = finding(result, code, line)
    assert f.severity == RULES[code].severity


def test_h205_header_after_the_first_event():
    record = OPENING + "#lexicon CSW21\n"
    assert ("H205", 4) in errors(check(record))


def test_h206_unknown_nickname_is_read_as_the_player_whose_turn_it_is():
    record = with_line(OPENING, ">Bo: DGOOPRW I7 P.G +11 11") + ">A: EEILMOT N8 .MILE +9 75\n"
    result = check(record)
    assert errors(result) == [("H206", 4)]
    assert result.recorded == [75, 11]


def test_h207_events_before_the_players():
    record = ">A: AEINRST 8H RETAINS +66 66\n#player1 A Alice\n#player2 B Bob\n"
    result = check(record)
    assert ("H207", 1) in errors(result)


def test_h213_no_player_pragma_at_all():
    record = ">a: AEINRST 8H RETAINS +66 66\n>b: DGOOPRW I7 P.G +11 12\n"
    result = check(record)
    assert not_info(result) == [("H213", 1), ("S602", 2)]
    assert RULES["H213"].severity == "warning"
    assert result.recorded == [66, 12]


def test_h201_shared_nickname_is_told_apart_by_turn():
    record = (
        "#player1 A Alice\n#player2 A Bob\n>A: AEINRST 8H RETAINS +66 66\n"
        ">A: DGOOPRW I7 P.G +11 11\n"
    )
    result = check(record)
    assert errors(result) == [("H201", 2)]
    assert result.recorded == [66, 11]


# ============================================================= parse gaps
def test_line_with_a_malformed_rack_is_replayed_without_its_rack():
    # The parser rejects the rack "DG0OPRW" (a zero); the rest of the line is still
    # replayed, so DEG is on the board for B's next play: GO across from I9 through the G,
    # G (old) 2 + O 1 = 3, and TO down through the T of RETAINS, 1 + 1 = 2: 5, and
    # B's total goes on from 9 to 14. Only the rack is reported.
    record = OPENING + ">B: DG0OPRW I7 D.G +9 9\n>A: EEILMOT N8 .MILE +9 75\n"
    record += ">B: DOORWXY 9I .O +5 14\n"
    result = check(record)
    assert errors(result) == [("P102", 4)]
    assert result.recorded == result.computed == [75, 14]


def test_unreadable_line_leaves_a_gap_without_cascade():
    # A's line cannot be read at all: the turn order and A's next total are not judged
    # across it (A's total went from 66 to 75 on the lost line)
    record = OPENING + ">B: DGOOPRW I7 P.G +11 11\n>A: EEILMOT N8 .MILE +9 seventy-five\n"
    record += ">B: DOORWXY - +0 11\n>A: EEOTTUV - +0 75\n"
    result = check(record)
    (only,) = errors(result)
    assert only[0].startswith("P") and only[1] == 5


def test_every_catalogue_code_is_reported_somewhere():
    # `gcgtools rules` lists no code that nothing can report
    from pathlib import Path

    import gcgtools

    package = Path(gcgtools.__file__).parent
    source = "".join(
        p.read_text(encoding="utf-8") for p in package.rglob("*.py") if p.name != "findings.py"
    )
    names = code_names()
    assert sorted(names.values()) == sorted(RULES)
    assert [code for name, code in names.items() if f"Code.{name}" not in source] == []


def test_every_code_the_replay_reports_is_tested_here():
    import importlib
    import re
    from pathlib import Path

    code = re.compile(r'"([FPHOTBSR]\d{3})"')
    named = re.compile(r"\bCode\.([A-Z0-9_]+)")
    names = code_names()
    reported = set()
    package = importlib.import_module("gcgtools.replay").__file__
    assert package is not None
    for source in sorted(Path(package).parent.glob("*.py")):
        reported |= {names[n] for n in named.findall(source.read_text(encoding="utf-8"))}
    assert len(reported) > 40  # the replay reports most of the catalogue
    tested = set(code.findall(Path(__file__).read_text(encoding="utf-8")))
    assert reported <= set(RULES)
    assert reported - tested == set()


@pytest.mark.parametrize("pragmas", ["", "#board-layout SuperCrosswordGame\n"
                                     "#tile-distribution english_super\n"])  # fmt: skip
def test_liwords_super_game_type_replays_on_the_super_board(pragmas):
    # 11K is the centre of the 21x21 board, a double word: Q 10 + A 1 + T 1 = 12 x 2 = 24.
    # On the 15x15 board the play would miss the centre (B501) and score otherwise.
    record = f"#game-type classic_super\n{pragmas}#player1 A Ann\n#player2 B Bob\n"
    record += ">A: AQTEIOU 11K QAT +24 24\n"
    result = check(record)
    assert result.rules.board.size == 21 and result.rules.tiles.name == "english_super"
    assert [f.code for f in result.findings if f.severity != "info"] == []


def test_unknown_game_type_is_a_warning_and_classic_is_used():
    result = check("#game-type lonify\n" + OPENING)
    assert [(f.code, f.severity) for f in result.findings if f.code == "H208"] == [
        ("H208", "warning")
    ]
    assert result.ok and result.rules.board.size == 15


def test_play_off_the_board_puts_no_tile_down():
    # WOOD from 9N runs off the board (B504): where it went is unknown, so none of its tiles
    # lands on a square. .OTE then forms NOTE alone: N 1 + O on 9M (DL) 2 + T 1 + E 1 = 5,
    # with no cross-word through tiles WOOD would have left on 9N and 9O
    record = OPENING + ">B: DGOOPRW 9N WOOD +20 20\n>A: EEILMOT M8 .OTE +5 71\n"
    result = check(record)
    assert errors(result) == [("B504", 4)]
    assert "no tile of it is put on the board" in finding(result, "B504", 4).message
    positions = list(replay(parse_string(record)))
    after = positions[2].board
    assert after.cells[8 * 15 + 13] is None and after.cells[8 * 15 + 14] is None
    assert positions[2].placed == [] and positions[3].computed == 5


def test_play_through_an_empty_square_keeps_its_tiles_on_their_own_squares():
    record = OPENING + ">B: DGOOPRW I7 D.G +9 9\n>A: EEILMOT 12C MO.E +9 75\n"
    result = check(record)
    b508 = finding(result, "B508", 5)
    assert b508.message.endswith("its new tiles are put on their own squares")


def test_tile_pragmas_decide_how_a_spanish_record_is_split():
    # tests/support/data/records/spanish-tile-pragmas.gcg declares [CH], [LL] and [RR]: TULLOS
    # scores 14 and the rack penalties are -12 and -8 only when CH, LL and RR are two tiles each
    from pathlib import Path

    from gcgtools import read_game

    path = (
        Path(__file__).resolve().parents[1]
        / "support"
        / "data"
        / "records"
        / "spanish-tile-pragmas.gcg"
    )
    game = read_game(path)
    result = validate(game)
    assert result.rules.tiles.name == "spanish"
    assert [(f.code, f.line) for f in result.findings] == [("R701", 16)]
    assert result.recorded == result.computed == [2, -8]
    # without the pragmas the same lines mean the LL, RR and CH tiles: T402/S601/S604
    text = path.read_text(encoding="utf-8").replace("#tile ", "#comment ")
    codes = {f.code for f in check(text).findings if f.severity == "error"}
    assert {"S601", "T402", "S604"} <= codes


def test_s609_most_plays_misscored():
    # every play of this record is worth one point more than the board gives: a hint
    record = OPENING.replace("+66 66", "+67 67")
    record += ">B: DGOOPRW I7 P.G +12 12\n>A: EEILMOT N8 .MILE +10 77\n"
    record += ">B: DOORWXY 9I .O +6 18\n>A: EOTTUVY 12L TO. +7 84\n"
    result = check(record)
    assert [c for c, _ in errors(result)] == ["S601"] * 5
    (hint,) = [f for f in result.findings if f.code == "S609"]
    assert (hint.line, hint.severity) == (3, "warning")
    assert hint.message.startswith("5 of 5 plays misscored")
    # two of five wrong: mistakes, no hint
    fewer = record.replace("+12 12", "+11 11").replace("+10 77", "+9 76")
    fewer = fewer.replace("+6 18", "+5 16").replace("+7 84", "+7 83")
    result = check(fewer)
    assert errors(result) == [("S601", 3), ("S601", 7)]
    assert not [f for f in result.findings if f.code == "S609"]


def test_b511_a_play_near_an_unplaceable_one_is_not_judged_by_guesses():
    # SPREADER was played down from N8 (through the S of RETAINS: 76 with the bingo), but
    # written one square too low, so it runs off the board. Its tiles go nowhere, and
    # TO. later plays through N13, which it covers (D: T 1 + O 1 on M13 (DW) + D 2 = 8):
    # not judged, where placing SPREADER one square down had given a false S601 (+6)
    record = OPENING + ">B: ADEEPRR N9 .PREADER +76 76\n>A: EEILMOT 13L TO. +8 74\n"
    result = check(record)
    assert errors(result) == [("B504", 4), ("B505", 4), ("B508", 4)]
    b511 = finding(result, "B511", 5)
    assert b511.severity == "info" and "the play on line 4" in b511.message
    assert result.recorded == result.computed == [74, 76]


def test_a_dot_in_end_rack_tiles_is_no_tile():
    # found by fuzzing: (A.B) used to raise TileError from the tile values
    record = PHONY + ">A: (A.B) +8 79\n>B: DGOOPRW (DGOO.RW) -10 -10\n"
    result = check(record)
    assert ("T403", 7) in errors(result) and ("T403", 8) in errors(result)
