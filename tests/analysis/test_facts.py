"""The coach's facts: each kind on a hand-made position where it must appear and one
where it must not, the order of a turn's facts, and the whole turn from a record's
position (small lexicons made here: no shared data needed)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from support.positions import board_with as board
from support.reference_data import needs_data

from gcgtools.analysis.facts import (
    MAX_FACTS,
    TEMPLATES,
    Fact,
    FactKind,
    Scene,
    compare,
    move_profile,
    turn_facts,
)
from gcgtools.analysis.lanes import hook_spots, tws_in_reach
from gcgtools.analysis.results import JudgedMove
from gcgtools.lexicon import Lexicon
from gcgtools.movegen import Move
from gcgtools.movegen.record import RecordPosition
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import DEFAULT_RULES

K = FactKind
WORDS = Lexicon.from_words(["AT", "CAT", "ATE", "CATS", "CATE", "QI", "EX", "ZA"])


def scene(on: Board, rack: str = "AEIRSTX", unseen: str = "CDEFGH?", bag: int = 50) -> Scene:
    return Scene(on, DEFAULT_RULES, WORDS, tuple(rack), tuple(unseen), bag)


def exchange(leave: str, value: float = 0.0) -> Move:
    """An exchange keeping ``leave`` (worth ``value``): a move that changes no lane."""
    return Move("exchange", 0, 0, True, (), 0, 0, leave, value, value, tiles="XX")


def play(row: int, col: int, across: bool, word: str, leave: str = "", value: float = 0.0) -> Move:
    """A play of every tile of ``word`` from (row, col) (not checked against a lexicon)."""
    new = (1 << len(word)) - 1
    return Move("play", row, col, across, tuple(word), new, 10, leave, value, 10 + value)


def judged(notation: str, **numbers: object) -> JudgedMove:
    base = {"score": 10, "win_pct": 50.0, "spread": 0.0}
    base.update(numbers)
    return JudgedMove(notation, **base)  # type: ignore[arg-type]


Side = tuple[JudgedMove, Move | None]


def facts_of(
    best: Side, played: Side, method: str = "simulation", where: Scene | None = None
) -> tuple[Fact, ...]:
    where = where or scene(board((7, 6, True, "CAT")))
    return compare(*(move_profile(j, m, method, where) for j, m in (best, played)))


def kinds(facts: tuple[Fact, ...]) -> list[FactKind]:
    return [f.kind for f in facts]


def sim(best: dict[str, object], played: dict[str, object]) -> tuple[Fact, ...]:
    return facts_of((judged("B", **best), None), (judged("P", **played), None))


# ------------------------------------------------------------ from the simulation
def test_the_headline_is_win_pct_first_whatever_the_difference() -> None:
    facts = sim({"win_pct": 61.25}, {"win_pct": 61.0})
    assert kinds(facts) == [K.WIN]
    assert facts[0].sentence == "B wins 61.2% of the simulations, P 61.0%."
    assert facts[0].favours == "best" and facts[0].numbers == {"best": 61.25, "played": 61.0}


@pytest.mark.parametrize(
    ("kind", "field", "best", "played", "small"),
    [
        (K.REPLY_SCORE, "reply_score", 30.0, 36.5, 31.5),
        (K.REPLY_BINGO, "reply_bingo_pct", 5.0, 20.0, 7.0),
        (K.FOLLOW_BINGO, "follow_bingo_pct", 40.0, 10.0, 38.0),
        (K.SPREAD, "spread", 12.0, -3.0, 10.0),
    ],
)
def test_a_playout_fact_appears_only_past_its_minimum(
    kind: FactKind, field: str, best: float, played: float, small: float
) -> None:
    facts = sim({field: best}, {field: played})
    fact = next(f for f in facts if f.kind is kind)
    assert fact.favours == "best" and (fact.best, fact.played) == (best, played)
    assert fact.sentence == TEMPLATES[kind].format(
        B="B", P="P", b=_shown(kind, best), p=_shown(kind, played)
    )
    assert kind not in kinds(sim({field: best}, {field: small}))  # below its minimum


def _shown(kind: FactKind, value: float) -> str:
    if kind is K.SPREAD:
        return f"{value:+.1f}"
    return f"{value:.1f}%" if kind in (K.REPLY_BINGO, K.FOLLOW_BINGO) else f"{value:.1f}"


def test_a_fact_can_favour_the_move_played() -> None:
    facts = sim({"reply_score": 40.0}, {"reply_score": 30.0})
    reply = next(f for f in facts if f.kind is K.REPLY_SCORE)
    assert reply.favours == "played"  # the opponent scores less after the move played


def test_facts_are_ordered_by_weighted_difference_and_capped() -> None:
    best = {"reply_score": 30.0, "reply_bingo_pct": 5.0, "follow_bingo_pct": 30.0,
            "spread": 20.0, "score": 40}  # fmt: skip
    played = {"reply_score": 33.0, "reply_bingo_pct": 25.0, "follow_bingo_pct": 26.0,
              "spread": 0.0, "score": 30}  # fmt: skip
    facts = sim(best, played)
    # spread 20 x 1, score 10 x 1, reply bingo 20 x 0.4 = 8, reply score 3, follow 1.6
    assert kinds(facts) == [K.WIN, K.SPREAD, K.SCORE, K.REPLY_BINGO, K.REPLY_SCORE]
    assert len(facts) == 1 + MAX_FACTS
    assert sim(best, played) == facts  # deterministic


# -------------------------------------------------------------- from the leave
@pytest.mark.parametrize(
    ("kind", "kept", "other", "same"),
    [
        (K.BLANK, "?AE", "AEI", "AER"),
        (K.S, "AES", "AEI", "AER"),
        (K.Q_WITHOUT_U, "AEQ", "AEI", "AQU"),
        (K.DUPLICATES, "EII", "AEI", "AER"),
        (K.BALANCE, "AEIO", "AERT", "AER"),
    ],
)
def test_a_leave_fact_appears_when_the_leaves_differ_in_it(
    kind: FactKind, kept: str, other: str, same: str
) -> None:
    best = (judged("-X"), exchange(other))
    facts = facts_of(best, (judged("-Y"), exchange(kept)))
    assert kind in kinds(facts)
    assert kind not in kinds(facts_of(best, (judged("-Y"), exchange(same))))


def test_the_leave_fact_names_the_tiles_and_their_values() -> None:
    facts = facts_of((judged("-X"), exchange("EST", 14.0)), (judged("-Y"), exchange("UVW", -9.5)))
    leave = next(f for f in facts if f.kind is K.LEAVE_VALUE)
    assert leave.sentence == "-X keeps EST (+14.0), -Y keeps UVW (-9.5)."
    assert leave.favours == "best"
    near = facts_of((judged("-X"), exchange("EST", 14.0)), (judged("-Y"), exchange("ERT", 12.5)))
    assert K.LEAVE_VALUE not in kinds(near)  # 1.5 points: below the minimum


def test_no_leave_facts_with_the_bag_empty() -> None:
    empty = scene(board((7, 6, True, "CAT")), bag=0)
    facts = facts_of((judged("-X"), exchange("?")), (judged("-Y"), exchange("Q")), where=empty)
    assert not {K.BLANK, K.Q_WITHOUT_U, K.LEAVE_VALUE} & set(kinds(facts))


# -------------------------------------------------------------- from the board
def test_triple_words_in_reach() -> None:
    centre = board((7, 7, True, "AT"))
    assert tws_in_reach(centre, 7) == {"A8", "O8", "H1", "H15"}
    assert tws_in_reach(board(), 7) == frozenset()
    near_corner = board((7, 7, True, "AT"), (0, 3, True, "AT"))
    assert "A1" in tws_in_reach(near_corner, 7)
    assert "A1" not in tws_in_reach(near_corner, 2)  # three tiles needed


def test_a_play_that_brings_a_triple_word_in_reach() -> None:
    where = scene(board((7, 7, True, "AT")))
    facts = facts_of((judged("-X"), exchange("")), (judged("1D AT"), play(0, 3, True, "AT")),
                     where=where)  # fmt: skip
    opened = next(f for f in facts if f.kind is K.TWS_OPENED)
    assert opened.sentence == "Triple words brought in reach: none by -X, A1 by 1D AT."
    assert opened.favours == "best"
    quiet = facts_of((judged("-X"), exchange("")), (judged("9H AT"), play(8, 9, True, "AT")),
                     where=where)  # fmt: skip
    assert K.TWS_OPENED not in kinds(quiet) and K.TWS_CLOSED not in kinds(quiet)


def test_a_play_that_takes_a_triple_word() -> None:
    where = scene(board((7, 7, True, "AT")))
    facts = facts_of((judged("-X"), exchange("")), (judged("H1 ZA"), play(0, 7, False, "ZA")),
                     where=where)  # fmt: skip
    closed = next(f for f in facts if f.kind is K.TWS_CLOSED)
    assert (closed.best, closed.played) == (0, 1) and "H1 by H1 ZA" in closed.sentence


def test_hook_spots_and_the_unseen_tiles_that_fit_them() -> None:
    after = board((7, 7, True, "AT"))
    spots = hook_spots(after, play(7, 7, True, "AT"), WORDS, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert sorted(spots) == [("G8", frozenset("C")), ("J8", frozenset("E"))]
    where = scene(board(), unseen="CCEQ?")
    facts = facts_of((judged("-X"), exchange("")), (judged("8H AT"), play(7, 7, True, "AT")),
                     where=where)  # fmt: skip
    hooks = next(f for f in facts if f.kind is K.HOOKS)
    assert hooks.numbers == {"best": 0, "played": 2, "best_fitting_tiles": 0,
                             "played_fitting_tiles": 4}  # fmt: skip
    assert hooks.sentence == "Hook spots made: none by -X, 2 (4 tiles fit) by 8H AT."
    plain = replace(where, lexicon=Lexicon.from_words(["AT"]))
    none = facts_of((judged("-X"), exchange("")), (judged("8H AT"), play(7, 7, True, "AT")),
                    where=plain)  # fmt: skip
    assert K.HOOKS not in kinds(none)


# ------------------------------------------------------------------- the endgame
def endgame_scene() -> Scene:
    """CAT on 8G; we hold E and X, the opponent S (CATS would take them out)."""
    return scene(board((7, 6, True, "CAT")), rack="EX", unseen="S", bag=0)


def test_goes_out_and_the_final_spread_headline() -> None:
    where = endgame_scene()
    best = (judged("8G (CAT)E", spread=12.0, pv=("8G (CAT)E",)), None)
    facts = facts_of(best, (judged("K7 EX", spread=20.0, pv=("K7 EX",)), None), "endgame", where)
    assert kinds(facts)[0] is K.FINAL_SPREAD and K.WIN not in kinds(facts)
    out = next(f for f in facts if f.kind is K.GOES_OUT)
    assert (out.best, out.played, out.favours) == (0, 1, "played")
    same = facts_of(best, (judged("8J E", spread=2.0, pv=("8J E",)), None), "endgame", where)
    assert K.GOES_OUT not in kinds(same)


def test_sets_up_an_out_play_from_the_principal_variation() -> None:
    where = endgame_scene()
    best = (judged("8G (CAT)E", spread=30.0, pv=("8G (CAT)E", "-", "K7 X")), None)
    late = (judged("8J E", spread=5.0, pv=("8J E", "9G S", "-")), None)
    facts = facts_of(best, late, "endgame", where)
    setup = next(f for f in facts if f.kind is K.SETS_UP_OUT)
    assert (setup.best, setup.played, setup.favours) == (1, 0, "best")
    also = (judged("8J E", spread=5.0, pv=("8J E", "-", "K7 X")), None)
    assert K.SETS_UP_OUT not in kinds(facts_of(best, also, "endgame", where))


def test_blocking_the_opponents_out_play() -> None:
    where = endgame_scene()
    block = (judged("8G (CAT)E", spread=30.0), play(7, 9, True, "E"))
    open_ = (judged("-", spread=-5.0, score=0), Move("pass", 0, 0, True, (), 0, 0, "EX", 0, 0))
    facts = facts_of(block, open_, "endgame", where)
    out = next(f for f in facts if f.kind is K.OPPONENT_OUT)
    assert (out.best, out.played, out.favours) == (0, 1, "best")
    assert out.sentence == "Opponent can go out at once: no after 8G (CAT)E, yes after -."
    elsewhere = (judged("K7 X", spread=1.0), play(6, 10, True, "X"))
    assert K.OPPONENT_OUT not in kinds(facts_of(open_, elsewhere, "endgame", where))


# ------------------------------------------------------------ a turn, end to end
def position(rack: str, bag: int = 50) -> RecordPosition:
    return RecordPosition(1, board((7, 6, True, "CAT")), DEFAULT_RULES, 0, "ann", list(rack),
                          bag, None, (100, 90), 0, None)  # fmt: skip


def test_turn_facts_from_the_record_position() -> None:
    best = judged("8G (CAT)E", win_pct=60.0, reply_score=20.0)
    played = judged("8G (CAT)S", win_pct=50.0, reply_score=30.0)
    facts = turn_facts(position("ESX"), WORDS, None, "simulation", best, played)
    assert kinds(facts)[0] is K.WIN and K.REPLY_SCORE in kinds(facts)
    s = next(f for f in facts if f.kind is K.S)  # found by the move generator
    assert s.sentence == "S tiles kept: 1 by 8G (CAT)E, 0 by 8G (CAT)S."
    assert all(f.to_dict()["sentence"] == f.sentence for f in facts)


def test_no_facts_when_nothing_separates_the_moves() -> None:
    best = judged("8G (CAT)E", win_pct=60.0)
    assert turn_facts(position("ESX"), WORDS, None, "simulation", best, best) == ()
    assert turn_facts(position("ESX"), WORDS, None, "simulation", best, None) == ()
    tie = judged("8G (CAT)S", win_pct=60.0)
    assert turn_facts(position("ESX"), WORDS, None, "simulation", best, tie) == ()
    assert turn_facts(position("ESX"), WORDS, None, "none", best, tie) == ()


def test_facts_survive_the_result_cache() -> None:
    from gcgtools.analysis.grading import Phase
    from gcgtools.analysis.results import Judgement
    from gcgtools.batch.codec import decode, encode

    best = judged("8G (CAT)E", win_pct=60.0, reply_score=20.0, reply_bingo_pct=5.0)
    played = judged("8G (CAT)S", win_pct=50.0, reply_score=30.0)
    facts = turn_facts(position("ESX"), WORDS, None, "simulation", best, played)
    judgement = Judgement(Phase.MIDGAME, "simulation", best, played, facts=facts)
    assert decode(encode(judgement)) == judgement
    row = judgement.to_dict()
    assert [f["kind"] for f in row["facts"]] == [f.kind.value for f in facts]  # type: ignore[union-attr]
    assert row["best"]["reply_score"] == 20.0 and "follow_score" not in row["best"]  # type: ignore[index]


# --------------------------------------------------------- JSON and analyse --why
EXAMPLE = Path(__file__).parents[2] / "examples" / "club-final.gcg"
TINY = ("--sim-iterations", "8", "--sim-candidates", "4", "--endgame-nodes", "3000",
        "--preendgame-nodes", "300", "--no-cache")  # fmt: skip


def analyse(*extra: str) -> str:
    from support.reference_data import DATA
    from typer.testing import CliRunner

    from gcgtools.cli import app

    assert DATA is not None
    lexicon = str(DATA / "lexica" / "ENABLE.kwg")
    result = CliRunner().invoke(app, ["analyse", str(EXAMPLE), "--lexicon", lexicon,
                                      "--depth", "sim", *TINY, *extra])  # fmt: skip
    assert result.exit_code == 0, result.output
    return result.stdout


@needs_data
def test_json_and_why_show_the_facts_of_each_judged_turn() -> None:
    turns = json.loads(analyse("-f", "json"))["turns"]
    judged_turns = [t for t in turns if t.get("judgement")]
    assert judged_turns and all("facts" in t["judgement"] for t in judged_turns)
    with_facts = [t for t in judged_turns if t["judgement"]["facts"]]
    assert with_facts
    for t in with_facts:
        j = t["judgement"]
        assert j["played"]["move"] != j["best"]["move"]
        assert j["facts"][0]["kind"] in ("win", "final_spread")
        for f in j["facts"]:
            assert set(f) == {"kind", "favours", "numbers", "sentence"}
            assert f["favours"] in ("best", "played", "neither")
    text = analyse("--why")
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    joined = " ".join(line.strip() for line in lines)
    for t in with_facts:
        for f in t["judgement"]["facts"]:
            assert f["sentence"] in joined  # wrapped lines joined back
    assert "facts: + in favour of the best move" in text
    plain = analyse()
    assert with_facts[0]["judgement"]["facts"][0]["sentence"] not in plain


def test_the_html_report_lists_the_facts_beside_the_candidates_escaped() -> None:
    from gcgtools.analysis.grading import Phase
    from gcgtools.analysis.results import ANALYSED, Judgement, RecordAnalysis, TurnAnalysis
    from gcgtools.render.judgement_html import judgement_extras

    best, played = judged("8G (CAT)E", win_pct=60.0), judged("8G (CAT)S", win_pct=50.0)
    odd = Fact(K.SCORE, 1.0, 2.0, "played", "<b>a & b</b>")
    j = Judgement(Phase.MIDGAME, "simulation", best, played, moves=[best, played],
                  facts=(*turn_facts(position("ESX"), WORDS, None, "simulation", best, played),
                         odd))  # fmt: skip
    turn = TurnAnalysis(1, 3, "ann", "play", "8G (CAT)S", "ESX", 7, 7, ANALYSED, judgement=j)
    html = "".join(judgement_extras(RecordAnalysis("x.gcg", turns=[turn]), 3))
    assert '<div class="candidates"><table>' in html and '<ul class="facts"' in html
    assert html.count("<li ") == len(j.facts)
    assert '<li class="best" data-kind="win">8G (CAT)E wins 60.0%' in html
    assert "&lt;b&gt;a &amp; b&lt;/b&gt;" in html and "<b>a" not in html
    without = replace(turn, judgement=replace(j, facts=()))
    assert "facts" not in "".join(judgement_extras(RecordAnalysis("x.gcg", turns=[without]), 3))


@needs_data
def test_the_report_shows_each_judged_turns_facts(tmp_path: Path) -> None:
    from support.reference_data import DATA
    from typer.testing import CliRunner

    from gcgtools.cli import app
    from gcgtools.render.markup import escape

    assert DATA is not None
    lines = EXAMPLE.read_text().splitlines()
    game = tmp_path / "start.gcg"  # the first twelve turns: simulated only
    game.write_text("\n".join([x for x in lines if x.startswith("#")]
                              + [x for x in lines if x.startswith(">")][:12]) + "\n")  # fmt: skip
    common = ["--lexicon", str(DATA / "lexica" / "ENABLE.kwg"), "--depth", "sim",
              "--sim-iterations", "8", "--sim-candidates", "4"]  # fmt: skip
    runner = CliRunner()
    result = runner.invoke(app, ["analyse", str(game), *common, "-f", "json", "--no-cache"])
    turns = json.loads(result.stdout)["turns"]
    sentences = [f["sentence"] for t in turns if t.get("judgement")
                 for f in t["judgement"]["facts"]]  # fmt: skip
    page = tmp_path / "game.html"
    result = runner.invoke(app, ["report", str(game), *common, "-o", str(page)])
    assert result.exit_code == 0, result.output
    html = page.read_text()
    assert html.count("<li class=") == len(sentences) > 0
    for sentence in sentences:
        assert escape(sentence) in html  # as the page escapes text


def test_no_facts_when_the_tiles_do_not_add_up() -> None:
    best = judged("8G (CAT)E", win_pct=60.0)
    played = judged("8G (CAT)S", win_pct=50.0)
    too_many = position("ZZZ")  # the tile set has one Z
    assert turn_facts(too_many, WORDS, None, "simulation", best, played) == ()
