"""Analysis of records against a lexicon (gcgtools/analysis/analyse.py): phonies (W801-W803),
the recorded move among the generated ones, equity, equity lost, missed bingos.

Worked examples written by people, not by this program:

* shared/seeds/000_*.txt (the Scrabble article, "Scoring example"): QUITE 8D = 48,
  MES(QUITE) 8A = 57, INFaNCY 9D = 88 (forming QI, UN, IF, TA, EN), RECO(UN)TS E4 = 40.
* shared/seeds/003_*.txt (Hasbro rules, "Worked example"): an opening CAT with the A on the
  centre star = 10; with a blank as the C = 4; CATS later is not doubled again.

Each of them is written as a record and analysed with a small lexicon holding exactly the
words they form: the recorded play must be among the generated moves, with its score.
ENABLE (public domain) lacks QI, so the article's INFaNCY is a phony there: that is
checked too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.reference_data import DATA, needs_data

from gcgtools import parse_string, read_game
from gcgtools.analysis.analyse import (
    AFTER_LOST_LINE,
    ANALYSED,
    LOST_TURN,
    PARTIAL_RACK,
    UNKNOWN_RACK,
    adjusted_equity,
    analyse_record,
    phony_words,
)
from gcgtools.batch.analyses import analyse_with
from gcgtools.findings import RULES
from gcgtools.lexicon import Lexicon, LexiconError, builtin_leaves, load_lexicon
from gcgtools.lexicon.choice import LexiconChoice, choose
from gcgtools.replay.setup import rules_for

HERE = Path(__file__).resolve().parents[1] / "support" / "data"
RECORDS = HERE / "analysis_records"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
pytestmark = pytest.mark.usefixtures("private_cache")  # each test its own cache


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    if DATA is None:
        pytest.skip("reference data not found: set GCGTOOLS_DATA")
    return load_lexicon(DATA / "lexica" / "ENABLE.kwg")


SEED_WORDS = ["QUITE", "MESQUITE", "INFANCY", "QI", "UN", "IF", "TA", "EN", "RECOUNTS",
              "CAT", "CATS"]  # fmt: skip


@pytest.fixture(scope="module")
def seeds_lexicon(tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    folder = tmp_path_factory.mktemp("lexica")
    path = folder / "SEEDS.txt"
    path.write_text("\n".join(SEED_WORDS) + "\n")
    return load_lexicon(path)


# The article's game: racks chosen so that every play leaves what the next one needs
# (P1 keeps NN after QUITE and draws ?CFIY; P2 keeps CORT after MES and draws ESX).
ARTICLE = """#lexicon SEEDS
#player1 P1 Player One
#player2 P2 Player Two
>P1: EINNQTU 8D QUITE +48 48
>P2: CEMORST 8A MES..... +57 57
>P1: ?CFINNY 9D INFaNCY +88 136
>P2: CEORSTX E4 RECO..TS +40 97
"""

HASBRO = """#lexicon SEEDS
#player1 P1
#player2 P2
>P1: ACTEEII 8G CAT +10 10
>P2: SEEIIOU 8G ...S +6 6
"""

HASBRO_BLANK = """#lexicon SEEDS
#player1 P1
#player2 P2
>P1: ?ATEEII 8G cAT +4 4
>P2: SEEIIOU 8G ...S +3 3
"""


@pytest.mark.parametrize("record", [ARTICLE, HASBRO, HASBRO_BLANK])
def test_seed_scoring_examples_are_generated_with_their_scores(
    record: str, seeds_lexicon: Lexicon
) -> None:
    game = parse_string(record)
    result = analyse_record(game, lexicon=seeds_lexicon)
    assert [t.status for t in result.turns] == [ANALYSED] * len(game.events)
    for turn, event in zip(result.turns, game.events, strict=True):
        assert turn.legal is True, turn.played
        assert turn.found is not None
        assert turn.found.score == event.score == turn.computed
        assert turn.phony_words == []
        assert turn.rank is not None and turn.rank >= 1
        assert turn.equity_lost is not None and turn.equity_lost >= 0
    assert result.findings == []


def test_article_infancy_is_a_phony_in_enable(enable: Lexicon) -> None:
    # ENABLE has no QI: INFaNCY forms it, stood unchallenged -> W801 at its own line
    result = analyse_record(parse_string(ARTICLE), lexicon=enable)
    infancy = result.turns[2]
    assert infancy.phony_words == ["QI"]
    assert infancy.legal is False
    # not generated: no rank among the legal moves
    assert infancy.rank is None
    # its equity is its computed score with its leave (all seven played, bag not empty);
    # it outscores the best legal move (78), so by the best legal move it lost nothing
    assert infancy.equity == 88 + 0
    assert infancy.best_equity == 78.0 and infancy.equity_lost == 0.0
    # the record names another list than ENABLE: said first, at its #lexicon line (W805)
    assert [(f.code, f.line) for f in result.findings] == [("W805", 1), ("W801", 6)]
    assert "QI" in result.findings[1].message


# ------------------------------------------------------------- phony findings
def _analyse_file(name: str, lexicon: Lexicon):  # type: ignore[no-untyped-def]
    return analyse_record(read_game(RECORDS / name), lexicon=lexicon)


@needs_data
def test_w801_phony_stood_unchallenged(enable: Lexicon) -> None:
    result = _analyse_file("w801-phony-stood.gcg", enable)
    assert [(f.code, f.line, f.severity) for f in result.findings] == [("W801", 6, "info")]
    assert "WOGR" in result.findings[0].message
    bob = result.turns[1]
    assert bob.phony_words == ["WOGR"] and not bob.withdrawn
    assert bob.legal is False
    assert RULES["W801"].severity == "info"
    # no rank among the legal moves; lost what it fell short of the best legal move by
    assert bob.rank is None
    assert bob.equity is not None and bob.best_equity is not None
    assert bob.equity_lost == pytest.approx(bob.best_equity - bob.equity, abs=1e-3)


@needs_data
def test_a_phony_that_outscores_every_legal_move_loses_nothing(enable: Lexicon) -> None:
    # RETAINZ is no word: 8H RETAINZ scores more than any legal move on the rack
    record = "#player1 A\n#player2 B\n>A: AEINRTZ 8H RETAINZ +84 84\n"
    result = analyse_record(parse_string(record), lexicon=enable)
    (turn,) = result.turns
    assert turn.phony_words == ["RETAINZ"] and turn.legal is False
    assert turn.equity is not None and turn.best_equity is not None
    assert turn.equity > turn.best_equity  # by its own score
    assert turn.equity_lost == 0.0 and turn.rank is None
    summary = result.player_summary()["A"]
    assert summary["avg_equity_lost"] == 0.0 and summary["best_moves"] == 0


@needs_data
def test_w802_valid_play_withdrawn(enable: Lexicon) -> None:
    result = _analyse_file("w802-valid-withdrawn.gcg", enable)
    assert [(f.code, f.line, f.severity) for f in result.findings] == [("W802", 6, "warning")]
    assert "DOOR" in result.findings[0].message
    bob = result.turns[1]
    assert bob.withdrawn and bob.phony_words == []
    # judged as what the turn became, a pass: DOOR itself was a legal move
    assert bob.found is not None and bob.found.kind == "pass"
    assert bob.equity_lost is not None and bob.equity_lost > 0


@needs_data
def test_w803_challenge_bonus_after_phony(enable: Lexicon) -> None:
    result = _analyse_file("w803-bonus-after-phony.gcg", enable)
    assert [(f.code, f.line, f.severity) for f in result.findings] == [("W803", 6, "warning")]
    assert "WOGR" in result.findings[0].message


@needs_data
def test_phony_challenged_off_is_no_finding(enable: Lexicon) -> None:
    record = (RECORDS / "w801-phony-stood.gcg").read_text() + ">Bob: DGOOPRW -- -8 0\n"
    result = analyse_record(parse_string(record), lexicon=enable)
    assert result.findings == []
    assert result.turns[1].phony_words == ["WOGR"] and result.turns[1].withdrawn
    summary = result.player_summary()["Bob"]
    assert summary["phonies_played"] == 1 and summary["phonies_stood"] == 0


def test_phony_words_in_order_once(seeds_lexicon: Lexicon) -> None:
    assert phony_words(["QI", "xu", "CAT", "XU", "zzz"], seeds_lexicon) == ["XU", "ZZZ"]
    assert phony_words(["qi", "cAt"], seeds_lexicon) == []  # blanks are lower case


# ------------------------------------------------------------- racks
@needs_data
def test_unknown_and_partial_racks_get_the_phony_check_only(enable: Lexicon) -> None:
    record = (
        "#player1 A\n#player2 B\n>A: AEINRST 8H RETAINS +66 66\n"
        ">B: UNKNOWN H5 WOG. +8 8\n>A: EE 9G EE +0 66\n"
    )
    result = analyse_record(parse_string(record), lexicon=enable)
    assert [t.status for t in result.turns] == [ANALYSED, UNKNOWN_RACK, PARTIAL_RACK]
    unknown = result.turns[1]
    assert unknown.phony_words == ["WOGR"] and unknown.equity is None and unknown.best == []
    # A's EE (a partial rack) is checked too: EE and WOGRE (down through WOGR) are phonies
    assert result.turns[2].phony_words == ["EE", "WOGRE"]
    assert [(f.code, f.line) for f in result.findings] == [("W801", 4), ("W801", 5)]


# ------------------------------------------------------------- a real game, ENABLE
def _short_game(events: int) -> str:
    """The first ``events`` event lines of the bundled club final (ENABLE2K self-play)."""
    lines = (EXAMPLES / "club-final.gcg").read_text().splitlines()
    out, seen = [], 0
    for line in lines:
        if line.startswith(">"):
            seen += 1
            if seen > events:
                break
        out.append(line)
    return "\n".join(out) + "\n"


@needs_data
def test_short_enable_game_best_moves_and_equity_lost(enable: Lexicon) -> None:
    result = analyse_record(parse_string(_short_game(9)), lexicon=enable, top=3)
    assert result.lexicon == "ENABLE" and result.leaves == "builtin"
    analysed = [t for t in result.turns if t.analysed]
    assert len(analysed) == len(result.turns) == 8  # event 7 is the -- line
    for t in analysed:
        assert len(t.best) == 3
        assert t.best[0].equity >= t.best[1].equity >= t.best[2].equity
        assert t.best_equity == t.best[0].equity
        assert t.equity is not None and t.equity_lost is not None
        assert t.equity_lost >= 0
        assert t.equity_lost == pytest.approx(t.best_equity - t.equity)
        assert t.rank is not None and 1 <= t.rank <= t.moves + 1
        assert (t.rank == 1) == (t.equity_lost == 0)
    # the self-play chose the best static move at the opening: FUTZ for 31.5 (builtin)
    opening = result.turns[0]
    assert opening.equity_lost == 0 and opening.found is not None
    assert opening.found.word == "FUTZ"
    # JESW (event 6) was withdrawn: a phony, judged as a pass
    jesw = next(t for t in result.turns if t.event == 6)
    assert jesw.withdrawn and jesw.phony_words == ["JESW"]
    assert jesw.found is not None and jesw.found.kind == "pass"
    assert result.findings == []


@needs_data
def test_missed_bingo(enable: Lexicon) -> None:
    # RETAINS was on the rack; a 6-tile play misses it
    record = "#player1 A\n#player2 B\n>A: AEINRST 8H RETAIN +14 14\n"
    result = analyse_record(parse_string(record), lexicon=enable)
    (turn,) = result.turns
    assert turn.bingo_available and turn.missed_bingo
    assert turn.best_bingo is not None and turn.best_bingo.bingo
    assert turn.best_bingo.score >= 66
    assert result.player_summary()["A"]["missed_bingos"] == 1
    played = parse_string("#player1 A\n#player2 B\n>A: AEINRST 8H RETAINS +66 66\n")
    (turn,) = analyse_record(played, lexicon=enable).turns
    assert turn.bingo_available and turn.missed_bingo is False


def test_end_game_equity() -> None:
    rules, _ = rules_for(parse_string("#player1 A\n#player2 B\n"))
    leaves = builtin_leaves(rules.tiles)
    # going out with the bag empty: score + twice the opponent's tiles (Q 10 + E 1)
    assert adjusted_equity(20, [], bag=0, leaves=leaves, opponent=["Q", "E"], rules=rules) == 42
    # not going out: score minus the tiles kept
    assert adjusted_equity(20, ["Z"], bag=0, leaves=leaves, opponent=["Q"], rules=rules) == 10
    # bag not empty: the leave's value
    assert adjusted_equity(20, ["S"], bag=5, leaves=leaves, opponent=[], rules=rules) == (
        20 + leaves.value(["S"])
    )


# ------------------------------------------------------------- lexicon choice
def test_no_lexicon_lists_the_turns_only() -> None:
    game = read_game(RECORDS / "w801-phony-stood.gcg")
    result = analyse_with(game, LexiconChoice())
    assert result.lexicon is None and result.message and "no lexicon" in result.message
    assert [t.status for t in result.turns] == ["no lexicon"] * 2
    assert all(t.phony_words is None and t.equity is None for t in result.turns)
    assert result.findings == []


@needs_data
def test_record_lexicon_found_in_the_folder(tmp_path: Path) -> None:
    assert DATA is not None
    (tmp_path / "enable.kwg").symlink_to((DATA / "lexica" / "ENABLE.kwg").resolve())
    game = read_game(RECORDS / "w801-phony-stood.gcg")  # #lexicon ENABLE
    rules, _ = rules_for(game)
    chosen = choose(LexiconChoice(lexica=str(tmp_path)), game.lexicon, rules.tiles)
    assert chosen.lexicon is not None and chosen.lexicon.name.upper() == "ENABLE"
    assert chosen.leaves is not None and chosen.leaves.name == "builtin"
    missing = choose(LexiconChoice(lexica=str(tmp_path)), "NWL23", rules.tiles)
    assert missing.lexicon is None and "NWL23 not found" in (missing.message or "")
    # a file given that cannot be read is an error, never "no analysis" (issue 18 item 1)
    with pytest.raises(LexiconError, match="nope.kwg: cannot read lexicon"):
        choose(LexiconChoice(lexicon=str(tmp_path / "nope.kwg")), None, rules.tiles)


def test_lexica_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GCGTOOLS_LEXICA", str(tmp_path))
    assert LexiconChoice().folder == str(tmp_path)
    assert LexiconChoice(lexica="elsewhere").folder == "elsewhere"


@needs_data
def test_a_turn_lost_to_a_challenge_is_not_judged(enable: Lexicon) -> None:
    record = (
        "#player1 A\n#player2 B\n>A: AEINRST 8H RETAINS +66 66\n"
        ">B: DGOOPRW - +0 0\n#note #unsuccessful-challenge\n"
    )
    result = analyse_record(parse_string(record), lexicon=enable)
    lost = result.turns[1]
    assert lost.status == LOST_TURN and lost.equity is None and lost.equity_lost is None
    assert result.player_summary()["B"]["analysed_turns"] == 0


@needs_data
def test_a_loaded_lexicon_with_a_leaves_file(enable: Lexicon, tmp_path: Path) -> None:
    # Macondo-style CSV leaves: LEAVE,value
    path = tmp_path / "leaves.csv"
    path.write_text("S,8.5\n")
    game = parse_string("#player1 A\n#player2 B\n>A: AEINRST 8H RETAIN +14 14\n")
    result = analyse_with(game, LexiconChoice.of(enable, leaves=path))
    assert result.leaves_source is not None and "leaves.csv" in result.leaves_source
    (turn,) = result.turns
    assert turn.leave == "S" and turn.equity == 14 + 8.5


def test_phony_words_keep_the_tiles_as_played(tmp_path: Path) -> None:
    # Spanish: CHE is the CH tile then E; a C tile then an H tile then E is another word
    path = tmp_path / "MINI_ES.txt"
    path.write_text("CHE\nCASA\n")
    spanish = load_lexicon(path, "spanish")
    assert phony_words([["CH", "E"], ["C", "A", "S", "a"]], spanish) == []
    assert phony_words([["C", "H", "E"]], spanish) == ["CHE"]


@needs_data
def test_a_turn_after_an_unreadable_line_gets_the_phony_check_only(enable: Lexicon) -> None:
    # line 4 cannot be read (its score is no number): what it put on the board is not
    # known for sure, so the next turn is not compared with the best moves
    record = (
        "#player1 A\n#player2 B\n>A: AEINRST 8H RETAINS +66 66\n"
        ">B: DGOOPRW H5 DOO. +five 5\n>A: EEILMOT N8 .MILE +9 75\n"
    )
    result = analyse_record(parse_string(record), lexicon=enable)
    assert [t.status for t in result.turns][0] == ANALYSED
    assert result.turns[-1].status == AFTER_LOST_LINE
    assert result.turns[-1].phony_words == []  # SMILE


@needs_data
def test_analysis_results_print_short(enable: Lexicon) -> None:
    result = _analyse_file("w801-phony-stood.gcg", enable)
    assert repr(result).startswith("<RecordAnalysis ") and "2 turns, 2 analysed" in repr(result)
    assert "lexicon ENABLE, leaves builtin>" in repr(result)
    bob = repr(result.turns[1])
    assert bob.startswith("<TurnAnalysis 2: Bob H5 WOG(R) equity ") and "phony WOGR" in bob
    assert "| best " in bob and len(bob) < 160
    assert repr(result.turns[0].best[0]).startswith("<Candidate ")
