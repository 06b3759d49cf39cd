"""The judge's results are values: judging returns the judgements (from one replay of the
record) and a new analysis built from them, the analysis given stays as it was, phase and
mistake are enums, and a turn the judge cannot judge is finding W806, not silence."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import valid_file
from support.reference_data import DATA, needs_data

from gcgtools.analysis.analyse import analyse_record
from gcgtools.analysis.grading import Mistake, Phase
from gcgtools.analysis.judge import JudgeSettings, judge_record, judge_turns, with_judgements
from gcgtools.batch.codec import CodecError, decode, encode
from gcgtools.findings import Code
from gcgtools.lexicon import Lexicon, load_lexicon
from gcgtools.movegen.record import record_position, record_position_at
from gcgtools.replay.after import position_at, replay_positions
from gcgtools.sources.load import load_game

#: a real game whose racks are all known (as in test_judge.py)
GAME = "domino14__macondo/preendgame__testdata__issue_476.gcg"
TINY = JudgeSettings(sim_iterations=6, sim_candidates=3, endgame_nodes=3000, preendgame_nodes=300)


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    if DATA is None:
        pytest.skip("the shared data (ENABLE) is absent")
    return load_lexicon(DATA / "lexica" / "ENABLE.kwg")


def short_game(tmp_path: Path, turns: int) -> Path:
    lines = valid_file(GAME).read_text().splitlines()
    head = [x for x in lines if x.startswith("#")]
    moves = [x for x in lines if x.startswith(">")][:turns]
    path = tmp_path / "short.gcg"
    path.write_text("\n".join(head + moves) + "\n")
    return path


@needs_data
def test_judging_builds_a_new_analysis_and_leaves_the_given_one(
    tmp_path: Path, enable: Lexicon
) -> None:
    game = load_game(str(short_game(tmp_path, 5)))
    analysis = analyse_record(game, lexicon=enable)
    before = analysis.to_dict()
    judged = judge_record(game, analysis, enable, None, TINY)
    assert analysis.to_dict() == before and analysis.depth == "static"
    assert all(t.judgement is None for t in analysis.turns)
    assert judged is not analysis and judged.depth == "sim"
    judgements = [t.judgement for t in judged.turns if t.analysed]
    assert judgements and all(j is not None for j in judgements)
    for j in judgements:
        assert j is not None and isinstance(j.phase, Phase)
        assert j.mistake is None or isinstance(j.mistake, Mistake)
        assert j.to_dict()["phase"] == j.phase.value  # plain text in the output
    with pytest.raises(dataclasses.FrozenInstanceError):
        judged.turns[0].judgement = None  # type: ignore[misc]
    # the two steps, by hand: the same as judge_record
    apart = with_judgements(analysis, judge_turns(game, analysis, enable, None, TINY))
    assert apart.to_dict() == judged.to_dict()


@needs_data
def test_judged_values_round_trip_through_the_cache_codec(tmp_path: Path, enable: Lexicon) -> None:
    game = load_game(str(short_game(tmp_path, 3)))
    judged = judge_record(game, analyse_record(game, lexicon=enable), enable, None, TINY)
    copy = decode(encode(judged))
    assert copy == judged
    j = copy.turns[0].judgement
    assert j is not None and j.phase is Phase.OPENING
    # an enum value that is not one, or a class that is not an enum, is refused
    data = encode(Phase.MIDGAME).replace(b'"midgame"', b'"teatime"')
    with pytest.raises(CodecError):
        decode(data)
    with pytest.raises(CodecError):
        decode(encode(Phase.MIDGAME).replace(b"grading:Phase", b"judge:JudgeSettings"))


@needs_data
def test_the_positions_of_one_replay_are_the_positions_after_each_event() -> None:
    """The judge takes every turn's position from one replay: each is the position that
    replaying the record up to that event gives."""
    game = load_game(str(valid_file(GAME)))
    positions, rules = replay_positions(game)
    assert len(positions) == len(game.events) + 1
    for event in range(len(game.events) + 1):
        carried = record_position_at(game, event, position_at(positions, event), rules)
        alone = record_position(game, event)
        assert carried.board.cells == alone.board.cells, event
        assert (carried.player, carried.nick, carried.rack, carried.bag) == (
            alone.player, alone.nick, alone.rack, alone.bag,
        )  # fmt: skip
        assert (carried.opponent_rack, carried.scores, carried.zeros) == (
            alone.opponent_rack, alone.scores, alone.zeros,
        )  # fmt: skip


@needs_data
def test_a_turn_the_judge_cannot_judge_is_finding_w806(tmp_path: Path, enable: Lexicon) -> None:
    """Ann moves twice in a row: her second turn is analysed (her whole rack is known),
    but the position before it has Bob to move, so it cannot be judged; before, it was
    left without a judgement and without a word."""
    path = tmp_path / "twice.gcg"
    path.write_text(
        "#player1 Ann Ann\n#player2 Bob Bob\n"
        ">Ann: AEINRST 8D RETAINS +66 66\n"
        ">Ann: DGOOWEI 9C WOOD +20 86\n"
        ">Bob: EEILNST 10A LENIS +20 20\n"
    )
    game = load_game(str(path))
    analysis = analyse_record(game, lexicon=enable)
    assert [t.analysed for t in analysis.turns] == [True, True, True]
    judged = judge_record(game, analysis, enable, None, TINY)
    assert [t.judgement is not None for t in judged.turns] == [True, False, True]
    found = [f for f in judged.findings if f.code == Code.NOT_JUDGED]
    assert len(found) == 1
    assert (found[0].line, found[0].severity, found[0].path) == (4, "warning", str(path))
    assert "event 2 (9C WOOD) was not judged" in found[0].message
    assert "Bob to move, not Ann" in found[0].message
    assert not [f for f in analysis.findings if f.code == Code.NOT_JUDGED]


@needs_data
def test_a_preendgame_turns_candidates_are_every_legal_move(enable: Lexicon) -> None:
    """In the pre-endgame the judge's candidates are the legal moves (the solver's first
    stage), not the top by static equity: with one simulation candidate, event 24 of the
    game (2 tiles in the bag) is still judged among many moves, the one played included."""
    game = load_game(str(valid_file(GAME)))
    analysis = analyse_record(game, lexicon=enable)
    only = [
        t if t.event == 24 else dataclasses.replace(t, status="not judged here")
        for t in analysis.turns
    ]
    analysis = dataclasses.replace(analysis, turns=only)
    settings = dataclasses.replace(TINY, sim_candidates=1, preendgame_nodes=3000, keep=100)
    judged = judge_turns(game, analysis, enable, None, settings)
    (j,) = judged.judgements.values()
    assert j.phase is Phase.PREENDGAME and j.method == "preendgame"
    assert len(j.moves) > 2  # more than the top move by equity and the move played
    assert j.played is not None and j.played.move == "K14 (U)P"
    assert j.played in j.moves and j.best == j.moves[0]


@needs_data
def test_unproved_values_are_marked_in_text_json_and_html(enable: Lexicon) -> None:
    """A solver's value it did not prove (its budget ran out) is marked: ``~`` before it
    in the text table with a line saying what it means, ``proved: false`` in JSON, and
    ``~`` (with its meaning on hover) after it in the HTML report."""
    from gcgtools.render.judgement import judgement_lines
    from gcgtools.render.judgement_html import judgement_extras

    game = load_game(str(valid_file(GAME)))
    analysis = analyse_record(game, lexicon=enable)
    only = [t if t.event == 24 else dataclasses.replace(t, status="-") for t in analysis.turns]
    analysis = dataclasses.replace(analysis, turns=only)
    judged = judge_record(game, analysis, enable, None, TINY)  # 300 nodes: not proved
    (turn,) = [t for t in judged.turns if t.judgement is not None]
    j = turn.judgement
    assert j is not None and j.method == "preendgame" and j.best.proved is False
    text = "\n".join(judgement_lines(judged))
    assert f"{j.best.move} ~{j.best.win_pct:.1f}%" in text
    assert "~ not proved: the solver's budget ran out first" in text
    assert turn.to_dict()["judgement"]["best"]["proved"] is False
    (html,) = judgement_extras(judged, turn.line)
    assert html.count('<abbr title="not proved') == sum(m.proved is False for m in j.moves) > 0


@needs_data
def test_an_endgame_turns_best_line_steps_on_the_board(enable: Lexicon) -> None:
    """An endgame judgement keeps the best move's principal variation (JSON: ``pv``), and
    the HTML report lists it a move a row: the row of move k shows on the board the tiles
    of the first k moves of the line (the tiles put down so far, never fewer)."""
    import json

    from gcgtools.batch.codec import decode, encode
    from gcgtools.render.judgement_html import candidate_tiles, judgement_extras
    from gcgtools.rules.tiles import tile_set

    game = load_game(str(valid_file(GAME)))
    analysis = analyse_record(game, lexicon=enable)
    only = [t if t.event == 28 else dataclasses.replace(t, status="-") for t in analysis.turns]
    analysis = dataclasses.replace(analysis, turns=only)
    settings = dataclasses.replace(TINY, endgame_nodes=100_000)  # enough to prove it
    judged = judge_record(game, analysis, enable, None, settings)
    (turn,) = [t for t in judged.turns if t.judgement is not None]
    j = turn.judgement
    assert j is not None and j.method == "endgame" and j.proved
    pv = j.best.pv
    assert len(pv) >= 2 and pv[0] == j.best.move
    assert turn.to_dict()["judgement"]["best"]["pv"] == list(pv)
    assert decode(encode(judged)) == judged
    english = tile_set("english")
    (html,) = judgement_extras(judged, turn.line, before=27, tiles=english)
    steps = html.split('<tr class="candidate line"')[1:]
    assert len(steps) == len(pv)
    shown = []
    for k, (step, move) in enumerate(zip(steps, pv, strict=True), 1):
        assert f"<td>{k}.</td><td>{move}</td>" in step and 'data-before="27"' in step
        tiles = json.loads(step.split('data-tiles="')[1].split('"')[0].replace("&quot;", '"'))
        shown += [[r, c] for r, c, *_ in candidate_tiles(move, english)]
        assert [[r, c] for r, c, *_ in tiles] == shown
