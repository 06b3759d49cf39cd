"""The text of `analyse`: the judged table fits 80 columns whatever its moves and nicknames,
names the win model; the lexicon header repeats W804; many phonies earn a hint. All from
hand-made analysis values (no lexicon, no simulation)."""

from __future__ import annotations

from gcgtools.analysis.analyse import RecordAnalysis, TurnAnalysis
from gcgtools.analysis.judge import JudgedMove, Judgement
from gcgtools.findings import Code, make
from gcgtools.render.analysis import HINT_PHONIES, HINT_SHARE, lexicon_hint, used_lines
from gcgtools.render.judgement import display_width, judgement_lines


def _turn(
    event: int, player: str, judgement: Judgement | None = None, **kw: object
) -> TurnAnalysis:
    fields: dict[str, object] = {
        "event": event, "line": event + 4, "player": player, "kind": "play",
        "played": "8H AB", "rack": None, "score": 4, "computed": 4, "status": "analysed",
    }  # fmt: skip
    fields.update(kw)
    return TurnAnalysis(**fields, judgement=judgement)  # type: ignore[arg-type]


def _sim(played: str, best: str, lost: float, mistake: str, phase: str = "midgame") -> Judgement:
    return Judgement(
        phase, "simulation", JudgedMove(best, 80, 100.0), JudgedMove(played, 12, 100.0 - lost),
        win_pct_lost=lost, mistake=mistake,
    )  # fmt: skip


def _judged_record() -> RecordAnalysis:
    """The widest cells a judged table meets: long nicknames (one of wide characters),
    15-letter moves with parentheses, a pre-endgame, an endgame loss, every badge."""
    long_move = "O1 (HAN)G(OVE)R(S)OVERLONG"
    turns = [
        _turn(1, "Ada_Quill_the_Second", _sim("8G FUTZ", "H7 FUTZ", 1.0, "small", "opening")),
        _turn(2, "漢字漢字漢字漢字", _sim(long_move, "J2 K(N)I(T)TE(R)S", 22.1, "large")),
        _turn(103, "Brendan", _sim("13B FLATS", long_move, 4.0, "medium", "preendgame")),
        _turn(
            104,
            "Brendan",
            Judgement(
                "endgame",
                "endgame",
                JudgedMove("12D (WAD)ER", 9, 0.0, value=-13),
                JudgedMove("G9 RUE", 5, 0.0, value=-61),
                spread_lost=48.0,
                mistake="large",
            ),
        ),  # fmt: skip
        _turn(
            105,
            "Ada_Quill_the_Second",
            Judgement(
                "midgame",
                "simulation",
                JudgedMove("2L JEW", 30, 56.5),
                None,
                note="phony (JESW): not among the legal moves, not graded",
            ),
            played="2L JESW",
        ),  # fmt: skip
    ]
    return RecordAnalysis("game.gcg", turns, lexicon="ENABLE", depth="sim",
                          mistake_index={"Ada_Quill_the_Second": 0.2, "Brendan": 1.5},
                          win_model="winpct table magpie.csv")  # fmt: skip


def test_the_judged_table_fits_80_columns_and_keeps_every_cell() -> None:
    result = _judged_record()
    lines = judgement_lines(result)
    assert all(display_width(line) <= 80 for line in lines), max(map(display_width, lines))
    text = "\n".join(lines)
    # nothing lost to the width: every move, loss and badge is there
    for cell in ("8G FUTZ 99.0%", "H7 FUTZ 100.0%", "J2 K(N)I(T)TE(R)S 100.0%", "22.1% ???",
                 "4.0% ??", "1.0% ?", "48 pts ???", "G9 RUE -61", "12D (WAD)ER -13",
                 "O1 (HAN)G(OVE)R(S)OVERLONG 77.9%", "2L JESW (phony (JESW))"):  # fmt: skip
        assert cell in text, cell
    # each phase is named once, as it begins
    assert [line.strip() for line in lines if line.strip() in
            ("opening", "midgame", "preendgame", "endgame")] == [
        "opening", "midgame", "preendgame", "endgame", "midgame"]  # fmt: skip
    assert "  mistakes: ? small, ?? medium, ??? large" in lines


def test_the_judged_table_of_ordinary_moves_is_one_line_a_turn() -> None:
    turns = [_turn(n, "Ada_Quill", _sim("H5 FUTZ", "8G FUTZ", 1.0, "small")) for n in (1, 3)]
    result = RecordAnalysis("game.gcg", turns, lexicon="ENABLE", depth="full",
                            win_model="gcgtools self-play logistic")  # fmt: skip
    lines = judgement_lines(result)
    rows = [line for line in lines if "FUTZ" in line]
    assert len(rows) == 2 and all(len(r) <= 80 for r in rows)
    assert lines[:2] == [
        "game.gcg: judged at depth full",
        "  win model: gcgtools self-play logistic",
    ]
    # a long path: on a line of its own
    long = RecordAnalysis("/" + "d" * 60 + "/game.gcg", turns, lexicon="ENABLE", depth="sim")
    head = judgement_lines(long)[:3]
    assert head == [f"{long.path}:", "  judged at depth sim", "  win model: built-in"]
    assert all(len(line) <= 80 for line in head)


def test_the_lexicon_header_repeats_w804() -> None:
    said = "lexicon ENABLE is for english tiles, the record uses german tiles: its words"
    misfit = make(Code.LEXICON_MISFIT, said + " and best moves are not moves of this game", 2)
    result = RecordAnalysis("g.gcg", [], [misfit], lexicon="ENABLE", lexicon_source="ENABLE.kwg")
    lines = used_lines(result)
    assert lines[0] == "lexicon ENABLE: ENABLE.kwg"
    assert lines[1].startswith("  W804 lexicon ENABLE is for english tiles")
    assert all(len(line) <= 80 for line in lines)
    fits = RecordAnalysis("g.gcg", [], [], lexicon="ENABLE", lexicon_source="ENABLE.kwg")
    assert used_lines(fits) == ["lexicon ENABLE: ENABLE.kwg"]


def _phonies(plays: int, phonies: int) -> RecordAnalysis:
    turns = [
        _turn(n, "Ada", None, phony_words=["XYZ"] if n <= phonies else None)
        for n in range(1, plays + 1)
    ]
    turns.append(_turn(plays + 1, "Ada", None, kind="exchange", played="-ABC"))
    return RecordAnalysis("g.gcg", turns, lexicon="ENABLE", lexicon_source="ENABLE.kwg")


def test_many_phonies_earn_a_hint_that_the_lexicon_may_not_be_the_games() -> None:
    # 10 phonies in 24 plays (a real game read with another lexicon): the hint
    hint = " ".join(lexicon_hint(_phonies(24, 10)))
    assert "10 of the 24 plays" in hint and "another lexicon" in hint and "--lexicon" in hint
    # both sides of each threshold (exchanges are not plays)
    share = int(HINT_SHARE * 40)  # 8 of 40 plays: the share itself is not over it
    assert lexicon_hint(_phonies(40, share)) == []
    assert lexicon_hint(_phonies(40, share + 1)) != []
    few = HINT_PHONIES - 1  # 4 of 5 plays: a large share, but too few to say anything
    assert lexicon_hint(_phonies(few + 1, few)) == []
    assert lexicon_hint(_phonies(HINT_PHONIES, HINT_PHONIES)) != []
    assert lexicon_hint(_phonies(24, 2)) == []


def test_an_endgame_loss_of_one_point_is_one_pt() -> None:
    def endgame(lost: float) -> Judgement:
        return Judgement(
            "endgame", "endgame", JudgedMove("4A (R)UI(N)", 4, 0.0, value=-2),
            JudgedMove("1N U(H)", 3, 0.0, value=-2 - int(lost)), spread_lost=lost,
            mistake="small" if lost else "none",
        )  # fmt: skip

    turns = [_turn(n, "Ada_Quill", endgame(lost)) for n, lost in ((33, 1.0), (35, 2.0), (37, 0.0))]
    lines = judgement_lines(RecordAnalysis("game.gcg", turns, lexicon="ENABLE", depth="sim"))
    text = "\n".join(lines)
    assert "1 pt ?" in text and "1 pts" not in text
    assert "2 pts ?" in text and "0 pts" in text
