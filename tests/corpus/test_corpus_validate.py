"""Validating the shared corpus of real records (needs GCGTOOLS_CORPUS, see conftest.py).

(a) Every complete game written by a machine (woogles, macondo, quackle in PROVENANCE.tsv)
    validates without an error, except the findings listed in MACHINE_EXCEPTIONS, each
    checked by hand.
(b) The German and Polish games replay with their own tile sets.
(c) The known defect of the scrabscrap game: a move recorded +32 that scores 22.
(d) Every entry of invalid/EXPECTED.tsv gives the finding that matches the peer's error, at
    the offending line (located by reading the file and comparing it with its valid twin).
"""

from __future__ import annotations

import csv
import difflib
from pathlib import Path

import pytest
from conftest import corpus_dir, expected_invalid, invalid_file, valid_file

from gcgtools import read_game, validate
from gcgtools.findings import RULES
from gcgtools.replay import Validation

MACHINE = {"woogles", "macondo", "quackle"}

# (file under valid/, line, code, recorded, computed): checked by hand.
MACHINE_EXCEPTIONS = {
    # BRUnCH..Y N1 down: B 3, R 1 (N2 double word), U 1, blank n 0, C 3, H 4 x 3 (N6
    # triple letter), I 1 and F 4 already on N7 and N8, Y 4 = 29 x 2 = 58; YE across
    # with the E on O9: 4 + 1 = 5; seven tiles: + 50. 58 + 5 + 50 = 113, not 115. The
    # play is withdrawn on the next line (-- -115), which cancels it either way.
    "woogles-io__liwords/pkg__puzzles__testdata__r20_peter.gcg": [(19, "S601", 115, 113)],
}


def provenance() -> list[dict[str, str]]:
    path = corpus_dir() / "PROVENANCE.tsv"
    if not path.is_file():
        pytest.fail(f"{path} is missing", pytrace=False)
    with path.open(encoding="utf-8", newline="") as fh:
        return [dict(row) for row in csv.DictReader(fh, delimiter="\t")]


def machine_games() -> list[str]:
    return [
        row["local_path"].removeprefix("valid/")
        for row in provenance()
        if row["local_path"].startswith("valid/")
        and row["producer_guess"] in MACHINE
        and row["game_complete_guess"] == "yes"
    ]


def check(path: Path) -> Validation:
    return validate(read_game(path))


def errors(result: Validation) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in result.findings if f.severity == "error"]


def line_of(path: Path, needle: str, nth: int = 0) -> int:
    """1-based number of the only line of ``path`` that contains ``needle`` (``nth`` 0), or
    of the ``nth`` such line."""
    lines = path.read_bytes().decode("utf-8", "replace").splitlines()
    hits = [i for i, line in enumerate(lines, 1) if needle in line]
    if nth == 0:
        assert len(hits) == 1, f"{needle!r} is on lines {hits} of {path.name}"
        return hits[0]
    assert len(hits) >= nth, f"{needle!r} is on lines {hits} of {path.name}"
    return hits[nth - 1]


# ====================================================================== (a)
def test_machine_written_games_are_listed():
    games = machine_games()
    assert len(games) >= 100
    assert set(MACHINE_EXCEPTIONS) <= set(games)


def test_machine_written_complete_games_validate_without_errors():
    problems = []
    for relative in machine_games():
        result = check(valid_file(relative))
        allowed = {(line, code) for line, code, _, _ in MACHINE_EXCEPTIONS.get(relative, [])}
        unexpected = [
            f.format(relative)
            for f in result.findings
            if f.severity == "error" and (f.line, f.code) not in allowed
        ]
        problems.extend(unexpected)
        for line, code, recorded, computed in MACHINE_EXCEPTIONS.get(relative, []):
            (f,) = [f for f in result.findings if (f.line, f.code) == (line, code)]
            assert (f.recorded, f.computed) == (recorded, computed), relative
    assert problems == [], "\n".join(problems)


def test_machine_written_games_end_properly():
    # a complete game ends: somebody went out, six scoreless turns, or a time forfeit;
    # and the replay's totals agree with the record's final scores
    for relative in machine_games():
        result = check(valid_file(relative))
        assert result.end_reason in {"out", "scoreless", "time"}, relative
        if relative not in MACHINE_EXCEPTIONS:
            assert result.computed == result.recorded, relative


def test_the_withdrawn_misscore_leaves_the_final_scores_right():
    relative = "woogles-io__liwords/pkg__puzzles__testdata__r20_peter.gcg"
    path = valid_file(relative)
    assert line_of(path, "BRUnCH..Y +115") == 19
    assert line_of(path, "--  -115") == 20
    result = check(path)
    assert result.computed == result.recorded


# ====================================================================== (b)
FOREIGN = {
    # file under valid/: (tile set, how it is chosen)
    "scrabscrap__scrabble-scraper-v2/python__test__game01__nu19_stefan-hanns.gcg": "german",
    "scrabscrap__scrabble-scraper-v2/python__test__game02__nu19_timon-alex.gcg": "german",
    "scrabscrap__scrabble-scraper-v2/python__test__game03__nu19_johannes-stefan.gcg": "german",
    "scrabscrap__scrabble-scraper-v2/python__test__game04__hh19-inessa-stefan.gcg": "german",
    "andy-k__wolges/src__main_endgame.rs__L1107.gcg": "german",  # Elise, #lexicon GERMAN
    "andy-k__wolges/src__main_endgame.rs__L776.gcg": "polish",  # no pragma: from the letters
}
# hand-entered (camera) records: their own mistakes, checked by hand
FOREIGN_ERRORS = {
    # (c) below: .ÄLE 13A recorded +32, scores 22
    "scrabscrap__scrabble-scraper-v2/python__test__game01__nu19_stefan-hanns.gcg": [(28, "S601")],
    # the phony NEUENDER (line 20) and its withdrawal (21): the recorded rack DEENENR has
    # no U; 243 + 66 is 309, not 308; the total before the phony was 243, not 242
    "scrabscrap__scrabble-scraper-v2/python__test__game03__nu19_johannes-stefan.gcg": [
        (20, "S601"),
        (20, "S602"),
        (20, "T401"),
        (21, "S602"),
    ],
}


@pytest.mark.parametrize("relative", sorted(FOREIGN))
def test_german_and_polish_games_use_their_tile_sets(relative):
    path = valid_file(relative)
    result = check(path)
    assert result.rules.tiles.name == FOREIGN[relative]
    assert result.rules.board.name == "CrosswordGame"
    assert not [f for f in result.findings if f.code == "T403"]
    assert errors(result) == FOREIGN_ERRORS.get(relative, [])


def test_german_umlaut_values_are_used():
    # VITEN 12A in timon-alex: V 6 on 12A (double letter) ... scored as recorded by the
    # camera; the game replays to the recorded totals only with German values
    relative = "scrabscrap__scrabble-scraper-v2/python__test__game02__nu19_timon-alex.gcg"
    result = check(valid_file(relative))
    assert result.computed == result.recorded
    english = validate(read_game(valid_file(relative)), tiles="english")
    assert any(f.code == "T403" for f in english.findings)  # Ü is no English tile


# ====================================================================== (c)
def test_scrabscrap_known_score_error():
    relative = "scrabscrap__scrabble-scraper-v2/python__test__game01__nu19_stefan-hanns.gcg"
    path = valid_file(relative)
    number = line_of(path, "13A .ÄLE +32")
    result = check(path)
    (f,) = [f for f in result.findings if f.code == "S601"]
    # .ÄLE 13A: the G already on A13 (2), Ä 6, L 2 on C13 (double word), E 1:
    # (2 + 6 + 2 + 1) x 2 = 22
    assert (f.line, f.recorded, f.computed) == (number, 32, 22)


# ====================================================================== (d)
MAGPIE = "jvc56__MAGPIE-DATA/testdata__gcgs__"
MACMAVEN = "olaugh__mac-maven-analysis/web__tests__gcg.test.mjs__"

# file under invalid/, what the peer's error says, our codes, (needle, nth) of the
# offending line, the valid twin the file was made from (None if there is none).
# The P103/P102 pair: a token starting with "(" is classified as a malformed play by the
# parser; either code says "this line cannot be read".
EXPECTED: list[tuple[str, str, set[str], tuple[str, int], str | None]] = [
    (f"{MAGPIE}challenge_bonus_rack_malformed.gcg", "RACK_MALFORMED", {"P102"},
     ("DEII--R (challenge)", 0), f"{MAGPIE}success_five_point_challenge.gcg"),
    # (its twin's play GENITAL, on the line before, became a pass: see the test below)
    (f"{MAGPIE}challenge_bonus_without_play.gcg", "CHALLENGE_BONUS_WITHOUT_PLAY", {"O303"},
     ("(challenge) +5 398", 0), None),
    (f"{MAGPIE}duplicate_names.gcg", "DUPLICATE_NAMES", {"H202"}, ("#player", 2), None),
    (f"{MAGPIE}duplicate_nicknames.gcg", "DUPLICATE_NICKNAMES", {"H201"}, ("#player", 2), None),
    (f"{MAGPIE}empty.gcg", "GCG_EMPTY", {"F002"}, ("", 0), None),
    (f"{MAGPIE}end_penalty_rack_malformed.gcg", "RACK_MALFORMED", {"P102"},
     ("?AEE3TT", 0), f"{MAGPIE}success_six_pass.gcg"),
    (f"{MAGPIE}end_points_rack_malformed.gcg", "RACK_MALFORMED", {"P102", "P103"},
     ("(#)", 0), f"{MAGPIE}success_standard.gcg"),
    (f"{MAGPIE}end_rack_points_incorrect.gcg", "RACK_END_POINTS_INCORRECT", {"S603"},
     ("(RELATCH) +14", 0), None),
    (f"{MAGPIE}event_after_last_rack.gcg", "EVENT_AFTER_LAST_RACK", {"O311"},
     ("CEGIIOX 1C", 0), f"{MAGPIE}success_standard.gcg"),
    (f"{MAGPIE}exchange_malformed.gcg", "MOVE_VALIDATION_ERROR", {"P104"},
     ("-K.OI", 0), None),
    (f"{MAGPIE}first_rack_not_in_bag.gcg", "RACK_NOT_IN_BAG", {"T402"},
     ("AAENZZZ", 0), f"{MAGPIE}success_standard.gcg"),
    (f"{MAGPIE}game_event_off_turn.gcg", "GAME_EVENT_OFF_TURN", {"O301"},
     ("TANNERS", 0), f"{MAGPIE}success_standard.gcg"),
    (f"{MAGPIE}invalid_challenge_bonus_player_index.gcg", "INVALID_CHALLENGE_BONUS_PLAYER",
     {"O304"}, ("(challenge)", 0), f"{MAGPIE}success_five_point_challenge.gcg"),
    (f"{MAGPIE}invalid_tile_placement.gcg", "MOVE_VALIDATION_ERROR", {"B504"},
     (" M70 ", 0), None),
    (f"{MAGPIE}last_rack1_not_in_bag.gcg", "RACK_NOT_IN_BAG", {"T402"},
     ("#rack1", 0), None),
    (f"{MAGPIE}last_rack2_not_in_bag.gcg", "RACK_NOT_IN_BAG", {"T402"},
     ("#rack2", 0), None),
    (f"{MAGPIE}malformed_challenge_rack.gcg", "RACK_MALFORMED", {"P102"}, ("~!#", 0), None),
    (f"{MAGPIE}malformed_play.gcg", "MOVE_VALIDATION_ERROR", {"T403", "P103"},
     ("D.CR2IaLS", 0), None),
    (f"{MAGPIE}malformed_rack.gcg", "RACK_MALFORMED", {"P102"}, ("KLMO8RTV", 0), None),
    (f"{MAGPIE}midgame_rack_not_in_bag.gcg", "RACK_NOT_IN_BAG", {"T402"},
     ("HMOYZZZ", 0), f"{MAGPIE}success_standard.gcg"),
    # MAGPIE stops at the event before #player2; gcgtools reads on and reports the late
    # pragma (the event itself is by the declared player 1)
    (f"{MAGPIE}move_before_player.gcg", "GAME_EVENT_BEFORE_PLAYER", {"H205"},
     ("#player2", 0), None),
    (f"{MAGPIE}move_event_after_game_end.gcg", "MOVE_EVENT_AFTER_GAME_END", {"O302"},
     ("F2 .I", 0), f"{MAGPIE}success_standard.gcg"),
    (f"{MAGPIE}note_before_events.gcg", "NOTE_PRECEDENT_EVENT", {"P109"}, ("#note", 1), None),
    (f"{MAGPIE}pass_rack_malformed.gcg", "RACK_MALFORMED", {"P102"},
     ("HLMOO3Y", 0), f"{MAGPIE}success_standard.gcg"),
    (f"{MAGPIE}phony_tiles_returned_with_no_play.gcg", "PHONY_TILES_RETURNED_WITHOUT_PLAY",
     {"O305"}, ("--  -91", 0), None),
    (f"{MAGPIE}play_out_of_bounds.gcg", "MOVE_VALIDATION_ERROR", {"B504"},
     ("H9 .PILATES", 0), None),
    (f"{MAGPIE}played_tile_not_in_rack.gcg", "MOVE_VALIDATION_ERROR", {"T401"},
     ("UNITERS", 0), None),
    (f"{MAGPIE}player_does_not_exist.gcg", "PLAYER_DOES_NOT_EXIST", {"H206"},
     (">Jack:", 0), None),
    (f"{MAGPIE}player_number_redundant.gcg", "PLAYER_NUMBER_REDUNDANT", {"H203"},
     ("#player1", 2), None),
    (f"{MAGPIE}redundant_pragma.gcg", "REDUNDANT_PRAGMA", {"H204"}, ("#title", 2), None),
    (f"{MAGPIE}six_pass_cumulative_scoring_error.gcg", "CUMULATIVE_SCORING_ERROR", {"S602"},
     ("-16 -17", 0), f"{MAGPIE}success_six_pass.gcg"),
    (f"{MAGPIE}six_pass_last_rack_malformed.gcg", "PLAYED_LETTERS_NOT_IN_RACK", {"T407"},
     ("?AEIOTT (?AEEOTT)", 0), None),
    (f"{MAGPIE}standard_cumulative_scoring_error.gcg", "CUMULATIVE_SCORING_ERROR", {"S602"},
     ("TANNERS +77 103", 0), f"{MAGPIE}success_standard.gcg"),
    (f"{MAGPIE}time_penalty_before_rack_penalties.gcg", "PREMATURE_TIME_PENALTY", {"O309"},
     ("(time)", 0), f"{MAGPIE}success_six_pass.gcg"),
    (f"{MAGPIE}time_penalty_between_rack_penalties.gcg", "PREMATURE_TIME_PENALTY", {"O309"},
     ("(time)", 0), f"{MAGPIE}success_six_pass.gcg"),
    (f"{MAGPIE}time_penalty_duplicate.gcg", "GAME_REDUNDANT_TIME_PENALTY", {"O310"},
     ("(time)", 2), f"{MAGPIE}success_standard.gcg"),
    (f"{MAGPIE}time_penalty_first_event.gcg", "END_GAME_EVENT_BEFORE_GAME_END", {"O307"},
     ("(time)", 0), None),
    (f"{MAGPIE}unrecognized_game_variant.gcg", "UNRECOGNIZED_GAME_VARIANT", {"H208"},
     ("#game-type", 0), None),
    (f"{MAGPIE}unsupported_character_encoding.gcg", "UNSUPPORTED_CHARACTER_ENCODING",
     {"F003"}, ("#character-encoding", 0), None),
    ("domino14__macondo/gcgio__gcg_test.go__TestDuplicateNicknames.gcg", "errDuplicateNames",
     {"H201"}, ("#player", 2), None),
    ("domino14__macondo/gcgio__gcg_test.go__TestPragmaWrongPlace.gcg", "errPragmaPrecedeEvent",
     {"H205"}, ("#lexicon", 0), None),
    (f"{MACMAVEN}conflicting_letter.gcg", "holds A, not C", {"B506"}, (">b:", 0), None),
    (f"{MACMAVEN}runs_off_board.gcg", "runs off", {"B504"}, (">a:", 0), None),
    (f"{MACMAVEN}withdrawal_without_play.gcg", "without a preceding play", {"O305"},
     (">a:", 0), None),
    (f"{MACMAVEN}cumulative_mismatch_WARNING_ONLY.gcg", "cumulative mismatch", {"S602"},
     (">a:", 0), None),
]  # fmt: skip

# Files with a genuine error before the one the peer reports, checked by hand:
EARLIER_ERRORS = {
    # line 1 ">a: AB 8H AB +6 6": AB on the centre is (1 + 3) x 2 = 8 (S601); the peer's
    # parser does not recompute scores
    f"{MACMAVEN}conflicting_letter.gcg",
}

# Entries of EXPECTED.tsv about limits or rules MAGPIE had once and dropped since: a good
# validator has no such limits, so these records get no finding of that kind (tested below).
HISTORICAL = {
    f"{MAGPIE}game_events_overflow.gcg",
    f"{MAGPIE}line_overflow.gcg",
    "jvc56__MAGPIE/test__testdata__lowercase_tile_placement.gcg",
}


def test_every_expected_entry_is_mapped():
    rows = {row["filename"]: row["expected_error_per_peer_test"] for row in expected_invalid()}
    mapped = {name for name, *_ in EXPECTED}
    assert mapped | HISTORICAL == set(rows)
    assert not mapped & HISTORICAL
    for name, peer, *_ in EXPECTED:
        assert peer in rows[name], name
    for name in HISTORICAL:
        assert "historical" in rows[name], name
    for _, _, codes, _, _ in EXPECTED:
        assert codes <= set(RULES)


def changed_lines(path: Path, twin: Path) -> list[int]:
    """Lines of ``path`` (1-based) that are not in ``twin`` in the same place."""
    mine = path.read_bytes().decode("utf-8", "replace").splitlines()
    theirs = twin.read_bytes().decode("utf-8", "replace").splitlines()
    matcher = difflib.SequenceMatcher(None, mine, theirs, autojunk=False)
    out: list[int] = []
    for tag, i1, i2, _, _ in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            out.extend(range(i1 + 1, i2 + 1))
    return out


@pytest.mark.parametrize(
    ("name", "peer", "codes", "where", "twin"),
    EXPECTED,
    ids=[name.split("__")[-1] for name, *_ in EXPECTED],
)
def test_invalid_file_is_flagged_at_the_offending_line(name, peer, codes, where, twin):
    path = invalid_file(name)
    needle, nth = where
    number = 1 if needle == "" else line_of(path, needle, nth)
    if twin is not None and name.endswith("event_after_last_rack.gcg"):
        # the #rack1 line was added before the event: the event is the offending line
        assert changed_lines(path, corpus_dir() / "valid" / twin) == [number - 1]
        twin = None
    if twin is not None:
        # the file is its valid twin with this one line changed (or added)
        assert changed_lines(path, corpus_dir() / "valid" / twin) == [number]
    result = check(path)
    hits = [f for f in result.findings if f.code in codes and f.line == number]
    assert hits, (
        f"no {sorted(codes)} at line {number}: {[(f.line, f.code) for f in result.findings]}"
    )
    assert all(f.severity == RULES[f.code].severity for f in hits)
    # the first error the file gives is the one the peer stops at (warnings aside)
    first = [f for f in result.findings if f.severity == "error"]
    if any(RULES[c].severity == "error" for c in codes) and name not in EARLIER_ERRORS:
        assert first and first[0].line == number, [(f.line, f.code) for f in first]


def test_challenge_bonus_without_play_twin():
    # the twin's line 23 ">HastyBot: AEGILNT 3I GENITAL +95 393" became a pass; the bonus
    # on the next line then follows no play. The pass itself is a legal move.
    name = f"{MAGPIE}challenge_bonus_without_play.gcg"
    path = invalid_file(name)
    twin = corpus_dir() / "valid" / f"{MAGPIE}success_five_point_challenge.gcg"
    changed = line_of(path, "AEGILNT - +0 298")
    assert changed_lines(path, twin) == [changed]
    bonus = line_of(path, "(challenge) +5 398")
    assert bonus == changed + 1
    assert errors(check(path))[0] == (bonus, "O303")


def test_mac_maven_messages_match():
    assert "holds A, not C" in next(
        f.message for f in check(invalid_file(f"{MACMAVEN}conflicting_letter.gcg")).findings
        if f.code == "B506"
    )  # fmt: skip
    assert "runs off" in next(
        f.message for f in check(invalid_file(f"{MACMAVEN}runs_off_board.gcg")).findings
        if f.code == "B504"
    )  # fmt: skip


def test_mac_maven_cumulative_mismatch_is_only_the_cumulative():
    # ">a: AB 8H AB +6 7": 0 + 6 is 6, not 7; the replay goes on from the recorded 7.
    # The records of mac-maven's tests have no #player line: a warning (H213), not an error.
    # mac-maven does not recompute scores; gcgtools does, and AB on 8H is (1 + 3) x 2 = 8,
    # so the recorded +6 is also reported (S601), checked by hand. No other error. The
    # S602 finding gives as "computed" the cumulative the line should have with the
    # computed score: 0 + 8.
    path = invalid_file(f"{MACMAVEN}cumulative_mismatch_WARNING_ONLY.gcg")
    result = check(path)
    assert errors(result) == [(1, "S601"), (1, "S602")]
    (cumulative,) = [f for f in result.findings if f.code == "S602"]
    assert (cumulative.recorded, cumulative.computed) == (7, 8)
    assert "expected 0 +6 = 6" in cumulative.message
    (score,) = [f for f in result.findings if f.code == "S601"]
    assert (score.recorded, score.computed) == (6, 8)
    assert result.recorded == [7, 0]
    assert [f.code for f in result.findings if f.severity == "warning"] == ["H213"]


def test_historical_game_events_overflow_has_no_event_limit():
    # MAGPIE once stopped at a fixed number of events. The file repeats two moves of the
    # game (GURU C9 and .PILATES H8) over and over before the real game goes on. A good
    # validator reads every event and says what is wrong with each repeated line: the
    # tiles are already there, the play places no tile (B509); the rest of the game
    # replays clean.
    path = invalid_file(f"{MAGPIE}game_events_overflow.gcg")
    lines = path.read_text(encoding="utf-8").splitlines()
    game = read_game(path)
    assert len(game.events) == sum(1 for line in lines if line.startswith(">"))
    guru = [i for i, line in enumerate(lines, 1) if line == ">Tim: GRUU C9 GURU +13 209"]
    pilates = [i for i, line in enumerate(lines, 1) if "H8 .PILATES +83 223" in line]
    repeated = sorted(guru[1:] + pilates[1:])
    assert len(repeated) > 200
    result = validate(game)
    flagged = {f.line for f in result.findings if f.code == "B509"}
    assert flagged == set(repeated)
    assert min(f.line for f in result.findings if f.severity == "error") == repeated[0]
    assert [f for f in result.findings if f.severity == "error" and f.line > repeated[-1]] == []
    assert result.end_reason == "out"


def test_historical_line_overflow_is_no_problem():
    # a 500-character #note line: GCG has no line limit; the record is clean
    path = invalid_file(f"{MAGPIE}line_overflow.gcg")
    assert max(len(line) for line in path.read_text(encoding="utf-8").splitlines()) > 512
    assert check(path).findings == []


def test_historical_lowercase_coordinate_is_no_problem():
    # "b10": coordinates are case-insensitive (GCG spec, Macondo, Quackle, MAGPIE today)
    path = invalid_file("jvc56__MAGPIE/test__testdata__lowercase_tile_placement.gcg")
    number = line_of(path, " b10 ")
    result = check(path)
    assert result.findings == []
    (event,) = [e for e in result.game.events if e.line == number]
    assert (event.row, event.col, event.direction) == (9, 1, "down")
