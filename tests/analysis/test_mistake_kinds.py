"""The kind of each judged mistake and a game's Mistake Index split by phase and by kind,
on judgements built by hand (no lexicon, no simulation)."""

from __future__ import annotations

import pytest

from gcgtools.analysis.grading import Mistake, Phase
from gcgtools.analysis.kinds import (
    MistakeKind,
    game_mistakes,
    is_bingo,
    is_exchange,
    mistake_kind,
    tiles_placed,
)
from gcgtools.analysis.results import JudgedMove, Judgement, RecordAnalysis, TurnAnalysis


def judged(
    best: str,
    played: str | None,
    mistake: Mistake | None = Mistake.MEDIUM,
    phase: Phase = Phase.MIDGAME,
    *,
    best_score: int = 30,
    played_score: int = 20,
) -> Judgement:
    move = JudgedMove(played, played_score, 40.0) if played is not None else None
    return Judgement(phase, "simulation", JudgedMove(best, best_score, 45.0), move,
                     mistake=mistake)  # fmt: skip


def turn(event: int, player: str, judgement: Judgement | None) -> TurnAnalysis:
    played = judgement.played.move if judgement and judgement.played else "8D X"
    return TurnAnalysis(event, event + 2, player, "play", played, "AEINRST", 0, 0, "analysed",
                        judgement=judgement)  # fmt: skip


@pytest.mark.parametrize(
    ("notation", "tiles"),
    [
        ("8D QUITE", 5),
        ("O1 HAN(G)OVER", 7),  # G was on the board
        ("8D [CH]E", 2),  # a multi-letter tile is one tile
        ("H4 (QU)I(T)E", 2),
        ("8H RETAiNS", 7),  # a blank is a tile
        ("-ABC", 0),
        ("-", 0),
    ],
)
def test_tiles_placed(notation: str, tiles: int) -> None:
    assert tiles_placed(notation) == tiles


def test_bingo_and_exchange_from_the_notation() -> None:
    assert is_bingo("O1 HAN(G)OVER") and is_bingo("8H RETAINS")
    assert not is_bingo("8D QUITE") and not is_bingo("-AEINRST")
    assert is_exchange("-ABC") and not is_exchange("-") and not is_exchange("8D QUITE")


@pytest.mark.parametrize(
    ("judgement", "kind"),
    [
        (judged("8H RETAINS", "8D RET"), MistakeKind.MISSED_BINGO),
        (judged("8H RETAINS", "-AE"), MistakeKind.MISSED_BINGO),  # bingo before exchange
        (judged("-QV", "8D RET"), MistakeKind.EXCHANGE),  # exchange best, a play made
        (judged("8D RET", "-QV"), MistakeKind.EXCHANGE),  # the reverse
        (judged("-QV", "-"), MistakeKind.EXCHANGE),  # a pass is not an exchange
        # other tiles exchanged (both score 0): lost on what was kept
        (judged("-QV", "-QVU", best_score=0, played_score=0), MistakeKind.LEAVE),
        (judged("8D RET", "8D RE", played_score=30), MistakeKind.LEAVE),  # scored as much
        (judged("8D RET", "8D RE", played_score=34), MistakeKind.LEAVE),  # scored more
        (judged("8D RET", "8D RE", played_score=29), MistakeKind.OTHER),  # scored less
        # the pre-endgame and the endgame come first, whatever the moves
        (judged("8H RETAINS", "8D RET", phase=Phase.PREENDGAME), MistakeKind.ENDGAME),
        (judged("8D RET", "-QV", phase=Phase.ENDGAME), MistakeKind.ENDGAME),
        (judged("8H RETAINS", "8D RET", phase=Phase.OPENING), MistakeKind.MISSED_BINGO),
    ],
)
def test_mistake_kind(judgement: Judgement, kind: MistakeKind) -> None:
    assert mistake_kind(judgement) is kind


@pytest.mark.parametrize(
    "judgement",
    [
        judged("8H RETAINS", "8D RET", Mistake.NONE),  # no mistake
        judged("8H RETAINS", "8D RET", None),  # not graded
        judged("8H RETAINS", None, None),  # the move played is not a legal one
    ],
)
def test_no_kind_without_a_mistake(judgement: Judgement) -> None:
    assert mistake_kind(judgement) is None


def test_a_games_parts_add_up_to_its_mistake_index() -> None:
    turns = [
        turn(1, "ann", judged("8H RETAINS", "8D RET", Mistake.LARGE, Phase.OPENING)),  # 1.0
        turn(2, "bob", judged("-QV", "8D RET", Mistake.MEDIUM)),  # 0.5 exchange
        turn(3, "ann", judged("8D RET", "8D RE", Mistake.SMALL, played_score=30)),  # leave
        turn(4, "bob", judged("8D RET", "8D RE", Mistake.SMALL, Phase.ENDGAME)),  # 0.2
        turn(5, "ann", judged("8D RET", "8D RET", Mistake.NONE)),  # the best move
        turn(6, "bob", judged("8D RET", "8D QI", Mistake.MEDIUM, Phase.PREENDGAME)),
        turn(7, "bob", None),  # not judged: not counted
    ]
    analysis = RecordAnalysis("g.gcg", turns=turns, players=["ann", "bob"], depth="sim")
    parts = game_mistakes(analysis)
    ann, bob = parts["ann"], parts["bob"]
    assert ann.mistake_index == pytest.approx(1.2)
    assert ann.by_phase == {Phase.OPENING: 1.0, Phase.MIDGAME: 0.2, Phase.PREENDGAME: 0.0,
                            Phase.ENDGAME: 0.0}  # fmt: skip
    assert ann.by_kind[MistakeKind.MISSED_BINGO] == 1.0
    assert ann.by_kind[MistakeKind.LEAVE] == 0.2
    assert (ann.judged_turns, ann.best_moves) == (3, 1)
    assert bob.mistake_index == pytest.approx(1.2)
    assert bob.by_phase[Phase.MIDGAME] == 0.5
    assert bob.by_phase[Phase.PREENDGAME] == 0.5
    assert bob.by_phase[Phase.ENDGAME] == 0.2
    assert bob.by_kind[MistakeKind.EXCHANGE] == 0.5
    assert bob.by_kind[MistakeKind.ENDGAME] == pytest.approx(0.7)
    assert (bob.judged_turns, bob.best_moves) == (3, 0)
    for g in parts.values():
        assert sum(g.by_phase.values()) == pytest.approx(g.mistake_index)
        assert sum(g.by_kind.values()) == pytest.approx(g.mistake_index)


def test_a_static_analysis_has_no_parts_and_a_player_without_turns_has_zeros() -> None:
    assert game_mistakes(RecordAnalysis("g.gcg", players=["ann", "bob"])) == {}
    judged_only_ann = RecordAnalysis(
        "g.gcg", turns=[turn(1, "ann", judged("8D RET", "8D RET", Mistake.NONE))],
        players=["ann", "bob"], depth="full",
    )  # fmt: skip
    parts = game_mistakes(judged_only_ann)
    assert parts["bob"].judged_turns == 0 and parts["bob"].mistake_index == 0.0
    assert set(parts["bob"].by_kind) == set(MistakeKind)
