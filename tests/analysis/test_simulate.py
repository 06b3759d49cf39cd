"""Monte Carlo simulation: reproducible for a seed whatever computes the samples, stable
across seeds within its error for a clearly best move, candidates dropped early; and the
pieces under it (the engine adapter, the playout, the position from a record)."""

from __future__ import annotations

import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from support.positions import magpie_position
from support.reference_data import needs_data

from gcgtools.analysis.playout import full_bag, play, play_best, start_game
from gcgtools.analysis.simulate import (
    Sample,
    SimLimit,
    SimPosition,
    position_from_board,
    position_from_record,
    simulate,
)
from gcgtools.analysis.winprob import LogisticWinModel
from gcgtools.movegen import EngineBoard, best_move, generate_moves
from gcgtools.movegen.move import apply_move, move_tiles, rack_after
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import DEFAULT_RULES

pytestmark = needs_data


def opening(rack: str) -> SimPosition:
    board = Board(DEFAULT_RULES.board, DEFAULT_RULES.tiles)
    return position_from_board(board, DEFAULT_RULES, list(rack), (0, 0))


def summary(result) -> list[tuple[object, ...]]:
    return [(c.move.notation(), c.win_pct, c.stderr, c.spread, c.iterations, c.dropped)
            for c in result.candidates]  # fmt: skip


SMALL = SimLimit(iterations=16, candidates=3, plies=2, min_iterations=8, check_every=8)


# ---------------------------------------------------------------- reproducibility
def test_the_same_seed_gives_the_same_result(lexicon, leaves) -> None:
    pos = magpie_position()
    a = simulate(pos, lexicon, leaves, SMALL, seed=7)
    b = simulate(pos, lexicon, leaves, SMALL, seed=7)
    assert summary(a) == summary(b)
    assert a.stopped == b.stopped and a.seed == 7 and a.model == b.model
    c = simulate(pos, lexicon, leaves, SMALL, seed=8)
    assert summary(c) != summary(a)  # another seed draws other racks


def test_the_result_does_not_depend_on_who_computes_the_samples(lexicon, leaves) -> None:
    pos = magpie_position()
    serial = simulate(pos, lexicon, leaves, SMALL, seed=3)

    def backwards(fn, tasks):
        return [fn(t) for t in reversed(tasks)][::-1]

    def threads(fn, tasks):
        with ThreadPoolExecutor(2) as pool:
            return list(pool.map(fn, tasks))

    assert summary(simulate(pos, lexicon, leaves, SMALL, seed=3, runner=backwards)) == (
        summary(serial)
    )
    assert summary(simulate(pos, lexicon, leaves, SMALL, seed=3, runner=threads)) == (
        summary(serial)
    )


def test_a_candidates_samples_do_not_depend_on_the_others(lexicon, leaves) -> None:
    """The draws depend on (seed, position, iteration) only: the best static move gets
    the same values whether it is simulated alone or with others (common random
    numbers: every candidate meets the same draws)."""
    pos = magpie_position()
    alone = simulate(pos, lexicon, leaves, SimLimit(iterations=16, candidates=1,
                     min_iterations=16, check_every=16), seed=2)  # fmt: skip
    assert alone.stopped == "single" and alone.best.iterations == 16
    three = simulate(pos, lexicon, leaves, SimLimit(iterations=16, candidates=3,
                     min_iterations=100), seed=2)  # fmt: skip
    same = next(c for c in three.candidates if c.move == alone.best.move)
    assert (same.win_pct, same.spread, same.iterations) == (
        alone.best.win_pct, alone.best.spread, 16,
    )  # fmt: skip


def test_a_move_outside_the_top_candidates_can_be_included(lexicon, leaves) -> None:
    pos = magpie_position()
    moves = generate_moves(
        pos.board, pos.rack, lexicon, top=50, leaves=leaves, bag_count=pos.bag_count
    )
    extra = moves[-1]
    limit = SimLimit(iterations=8, candidates=2, plies=1, min_iterations=100)
    result = simulate(pos, lexicon, leaves, limit, seed=1, include=[extra, moves[0]])
    assert len(result.candidates) == 3
    assert any(c.move == extra and c.iterations == 8 for c in result.candidates)


# ------------------------------------------------------------- stable across seeds
def test_a_clearly_best_move_is_stable_across_seeds(lexicon, leaves) -> None:
    pos = opening("QUIXOTE")  # 8D QUIXOTE 116 against a two-tile play
    moves = generate_moves(pos.board, pos.rack, lexicon, top=10_000, leaves=leaves, bag_count=86)
    weak = next(m for m in moves if m.kind == "play" and m.tiles_played == 2)
    limit = SimLimit(iterations=24, candidates=1, plies=2, min_iterations=1000)
    results = [simulate(pos, lexicon, leaves, limit, seed=s, include=[weak]) for s in (1, 2)]
    for r in results:
        assert r.best.move == moves[0] and r.best.move.bingo
        assert r.best.win_pct > r.candidates[1].win_pct
        assert r.best.iterations == 24
    a, b = (r.best for r in results)
    assert abs(a.win_pct - b.win_pct) <= 4 * (a.stderr**2 + b.stderr**2) ** 0.5
    assert a.win_pct > 60  # 116 points up, opponent to move
    assert (a.win_pct, a.spread) != (b.win_pct, b.spread)  # other draws, other values


# ----------------------------------------------------------------- early dropping
def test_clearly_worse_candidates_are_dropped_early(lexicon, leaves) -> None:
    pos = opening("QUIXOTE")
    limit = SimLimit(iterations=48, candidates=6, plies=1, min_iterations=8, check_every=8)
    result = simulate(pos, lexicon, leaves, limit, seed=5)
    best = result.best
    assert not best.dropped and best.move.bingo
    dropped = [c for c in result.candidates if c.dropped]
    assert all(c.iterations <= best.iterations for c in dropped)
    assert any(c.iterations < best.iterations for c in dropped)  # dropped before the end
    assert all(c.iterations % limit.check_every == 0 for c in result.candidates)
    assert all(c.win_pct < best.win_pct for c in dropped)
    # 8D and H4 QUIXOTE, the same play turned round, are one candidate (they never
    # separated, and ran to the end): the best is now separated before the end
    assert result.stopped == "separated" and best.iterations < limit.iterations
    assert "H4 QUIXOTE" not in {c.move.notation() for c in result.candidates}


def test_the_run_stops_when_the_best_is_separated(lexicon, leaves) -> None:
    pos = opening("QUIXOTE")
    moves = generate_moves(pos.board, pos.rack, lexicon, top=10_000, leaves=leaves, bag_count=86)
    weak = next(m for m in moves if m.kind == "play" and m.tiles_played == 2)
    limit = SimLimit(iterations=400, candidates=1, plies=1, min_iterations=8, check_every=8)
    result = simulate(pos, lexicon, leaves, limit, seed=5, include=[weak])
    assert result.stopped == "separated"
    assert result.best.move == moves[0] and result.best.iterations < 400
    assert result.candidates[1].dropped


def test_a_seconds_budget_stops_the_run(lexicon, leaves) -> None:
    limit = SimLimit(iterations=10_000, candidates=3, plies=1, seconds=0.0, check_every=4,
                     min_iterations=10_000)  # fmt: skip
    result = simulate(magpie_position(), lexicon, leaves, limit, seed=1)
    assert result.stopped == "seconds"
    # the clock is looked at between samples, not only every check_every iterations;
    # every candidate gets its first iteration
    assert all(c.iterations == 1 for c in result.candidates)


def test_the_model_used_is_named_and_changes_the_values(lexicon, leaves) -> None:
    coin = LogisticWinModel("always a coin toss", 0.0, 0.0, 1e9, 0.0)
    limit = SimLimit(iterations=8, candidates=2, plies=2, min_iterations=100)
    result = simulate(opening("AEINRST"), lexicon, leaves, limit, seed=1, model=coin)
    assert result.model == "always a coin toss"
    for c in result.candidates:
        assert c.win_pct == pytest.approx(50.0, abs=1e-3) and c.stderr < 1e-3
        assert c.to_dict()["iterations"] == 8


def test_limit_is_checked() -> None:
    with pytest.raises(ValueError):
        SimLimit(iterations=0)
    with pytest.raises(ValueError):
        SimLimit(check_every=0)


# ----------------------------------------------------------- positions, playout
def test_position_from_a_record_counts_the_unseen_tiles() -> None:
    from conftest import valid_file

    from gcgtools.movegen.record import record_position
    from gcgtools.sources.load import load_game

    game = load_game(valid_file("domino14__macondo/gcgio__testdata__guy_vs_bot.gcg"))
    rp = record_position(game, 10)
    assert rp.rack is not None and rp.position is not None
    pos = position_from_record(rp)
    assert Counter(pos.unseen) == +(rp.position.pool - Counter(rp.rack))
    assert pos.bag_count == rp.bag and pos.opponent_tiles == 7
    assert pos.scores == rp.scores and pos.rack == tuple(rp.rack)
    other = position_from_record(rp, rack=list("AEINRST"))
    assert len(other.unseen) == len(pos.unseen)
    rp.rack = None
    with pytest.raises(ValueError, match="does not show the rack"):
        position_from_record(rp)


def test_position_with_too_many_tiles_is_refused() -> None:
    board = Board(DEFAULT_RULES.board, DEFAULT_RULES.tiles)
    board[7, 7] = "Z"
    with pytest.raises(ValueError, match="Z x1"):
        position_from_board(board, DEFAULT_RULES, ["Z"], (0, 0))


def test_apply_move_puts_tiles_on_a_copy(lexicon, leaves) -> None:
    board = Board(DEFAULT_RULES.board, DEFAULT_RULES.tiles)
    rack = list("QUIZ?ES")
    move = best_move(board, rack, lexicon, leaves=leaves, bag_count=80)
    after = apply_move(board, move)
    assert board.is_empty() and not after.is_empty()
    assert sorted(after.last_placed) == sorted(move.squares)
    assert sorted(rack_after(rack, move) + move_tiles(move)) == sorted(rack)
    top = generate_moves(board, rack, lexicon, top=5, leaves=leaves, bag_count=80)
    assert top[0] == move and len(top) == 5
    assert [m.equity for m in top] == sorted((m.equity for m in top), reverse=True)


def test_playout_keeps_every_tile_and_ends_the_game(lexicon, leaves) -> None:
    rng = random.Random(4)
    state = start_game(DEFAULT_RULES, rng)
    full = Counter(full_bag(DEFAULT_RULES))
    turns = 0
    while not state.over:
        state, move = play_best(state, lexicon, leaves, rng)
        turns += 1
        on_board = Counter(t if t.isupper() else "?" for t in state.board.cells if t)
        held = Counter(state.racks[0]) + Counter(state.racks[1]) + Counter(state.bag)
        assert on_board + held == full
        assert all(len(r) <= 7 for r in state.racks)
    assert not state.bag and (not state.racks[0] or not state.racks[1] or state.zeros >= 6)
    assert 10 <= turns <= 60


def test_play_best_on_an_engine_makes_the_moves_it_makes_without(lexicon, leaves) -> None:
    plain_rng, engine_rng = random.Random(7), random.Random(7)
    plain = start_game(DEFAULT_RULES, plain_rng)
    on_engine = start_game(DEFAULT_RULES, engine_rng)
    start = on_engine.board
    engine = EngineBoard(start, lexicon, rules=DEFAULT_RULES)
    turns = 0
    while not plain.over:
        plain, move = play_best(plain, lexicon, leaves, plain_rng)
        on_engine, same = play_best(on_engine, lexicon, leaves, engine_rng, engine=engine)
        turns += 1
        assert (same.notation(), same.equity) == (move.notation(), move.equity)
        assert (on_engine.racks, on_engine.bag) == (plain.racks, plain.bag)
        assert (on_engine.scores, on_engine.to_move) == (plain.scores, plain.to_move)
        assert engine.board.cells == plain.board.cells  # played on the engine...
        assert on_engine.board is start  # ... and not on the state's board
    assert on_engine.over and turns >= 10
    for _ in range(turns):
        engine.undo()
    assert engine.board.is_empty()


def test_play_best_on_an_engine_takes_its_move_back_when_the_state_cannot_go_on(
    lexicon, leaves, monkeypatch
) -> None:
    import gcgtools.analysis.playout as playout

    rng = random.Random(3)
    state = start_game(DEFAULT_RULES, rng)
    engine = EngineBoard(state.board, lexicon, rules=DEFAULT_RULES)

    def broken(*_args: object) -> None:
        raise RuntimeError("cannot go on")

    monkeypatch.setattr(playout, "advance", broken)
    with pytest.raises(RuntimeError, match="cannot go on"):
        play_best(state, lexicon, leaves, rng, engine=engine)
    assert engine.board.is_empty()  # the move is taken back: the sampler never saw it
    with pytest.raises(IndexError):
        engine.undo()


def test_an_exchange_puts_its_tiles_back_in_the_bag(lexicon, leaves) -> None:
    rng = random.Random(1)
    state = start_game(DEFAULT_RULES, rng)
    board = state.board
    moves = generate_moves(board, state.racks[0], lexicon, top=10_000, leaves=leaves,
                      bag_count=len(state.bag))  # fmt: skip
    swap = next(m for m in moves if m.kind == "exchange" and len(move_tiles(m)) == 3)
    after = play(state, swap, rng)
    assert len(after.racks[0]) == 7 and len(after.bag) == len(state.bag)
    assert Counter(after.racks[0]) + Counter(after.bag) == Counter(state.racks[0]) + Counter(
        state.bag
    )
    assert after.to_move == 1 and after.zeros == 1 and after.scores == (0, 0)


def _state(racks, bag=(), zeros=0, rules=DEFAULT_RULES):
    from gcgtools.analysis.playout import GameState

    board = Board(rules.board, rules.tiles)
    board[7, 8] = "T"
    return GameState(board, racks, tuple(bag), (100, 90), 0, rules, zeros)


def test_going_out_ends_the_game_with_the_rack_points() -> None:
    from dataclasses import replace

    from gcgtools.movegen import Move
    from gcgtools.rules.rulesets import EndRule

    at = Move("play", 7, 7, True, ("A", "T"), 0b01, 2, "", 0.0, 2.0)
    out = play(_state((("A",), ("Q", "Z"))), at, random.Random(0))
    assert out.over and out.board[7, 7] == "A"
    assert out.scores == (100 + 2 + 2 * 20, 90)  # standard: twice the opponent's rack
    intl = replace(DEFAULT_RULES, end_rule=EndRule.INTERNATIONAL, name="intl")
    out = play(_state((("A",), ("Q", "Z")), rules=intl), at, random.Random(0))
    assert out.scores == (100 + 2 + 20, 90 - 20)


def test_the_sixth_scoreless_turn_ends_the_game() -> None:
    from gcgtools.movegen import Move

    pass_ = Move("pass", 0, 0, True, (), 0, 0, "", 0.0, 0.0, tiles="")
    state = _state((("A", "E"), ("Q",)), bag=("I", "O"), zeros=4)
    once = play(state, pass_, random.Random(0))
    assert not once.over and once.zeros == 5 and once.to_move == 1
    twice = play(once, pass_, random.Random(0))
    assert twice.over and twice.scores == (100 - 2, 90 - 10)  # each loses their rack


def test_the_simulation_can_overrule_static_equity(lexicon, leaves) -> None:
    """MAGPIE's VS_JEREMY game after event 23 (two tiles in the bag): static equity prefers
    2F (ZOON)AL (35.0) to 5E HAL(E) (34.4); played out, HAL(E) wins far more often."""
    from conftest import valid_file

    from gcgtools.movegen.record import record_position
    from gcgtools.sources.load import load_game

    game = load_game(valid_file("jvc56__MAGPIE-DATA/testdata__gcgs__vs_jeremy.gcg"))
    pos = position_from_record(record_position(game, 23))
    assert pos.bag_count == 2
    moves = generate_moves(pos.board, pos.rack, lexicon, top=2, leaves=leaves, bag_count=2)
    assert [m.notation() for m in moves] == ["2F (ZOON)AL", "5E HAL(E)"]
    limit = SimLimit(iterations=32, candidates=2, plies=2, min_iterations=1000)
    result = simulate(pos, lexicon, leaves, limit, seed=1)
    best, other = result.candidates
    assert best.move.notation() == "5E HAL(E)"
    assert best.win_pct - other.win_pct > 2 * (best.stderr**2 + other.stderr**2) ** 0.5


def test_an_iterations_draw_is_made_once_and_its_generator_only_when_asked() -> None:
    """Every candidate of an iteration gets the same shuffle of the unseen tiles, made
    once per iteration; the generator after that shuffle (which a playout asks for a
    number only to put exchanged tiles back) is made when first asked, and draws exactly
    what the generator that made the shuffle would have drawn next."""
    from gcgtools.analysis.simulate import _LaterRng, _shuffled

    unseen = sorted("AEIOURSTLNDGBC??")
    for iteration in range(5):
        eager, tiles = _shuffled(7, "key", iteration, unseen)
        later = _LaterRng(7, "key", iteration, unseen)
        assert later._rng is None
        assert [later.randrange(40) for _ in range(30)] == [eager.randrange(40) for _ in range(30)]
        assert later.random() == eager.random()
        assert sorted(tiles) == unseen
    assert _shuffled(7, "key", 1, unseen)[1] != _shuffled(7, "key", 2, unseen)[1]


# ------------------------------------------------------------- what the plies were
#: the MAGPIE position, seed 11, 16 iterations of 4 candidates: the win% and spreads the
#: simulation gave before its samples carried the plies (they must not change)
BEFORE_PLIES = [
    ("13L ONYX", 86.7768251448178, 10.812500000000002, 16, False),
    ("13J EXON", 68.28197200178211, 15.062499999999998, 16, False),
    ("13J EXONS", 61.725266562588644, 11.125, 16, True),
    ("13L OXY", 49.67578770004052, 5.749999999999999, 16, True),
]


def test_the_ply_statistics_leave_win_and_spread_as_they_were(lexicon, leaves) -> None:
    limit = SimLimit(iterations=16, candidates=4, plies=2, min_iterations=8, check_every=8)
    result = simulate(magpie_position(), lexicon, leaves, limit, seed=11)
    got = [(c.move.notation(), c.win_pct, c.spread, c.iterations, c.dropped)
           for c in result.candidates]  # fmt: skip
    assert [g[0] for g in got] == [b[0] for b in BEFORE_PLIES]
    for g, b in zip(got, BEFORE_PLIES, strict=True):
        assert g[1:] == pytest.approx(b[1:], abs=1e-9)


def test_the_ply_statistics_are_the_means_of_the_samples(lexicon, leaves) -> None:
    seen: list[Sample] = []

    def keeping(fn, tasks):
        out = [fn(t) for t in tasks]
        seen.extend(out)
        return [tuple(s) for s in out]  # plain tuples are samples too

    limit = SimLimit(iterations=8, candidates=1, plies=2, min_iterations=8)
    c = simulate(magpie_position(), lexicon, leaves, limit, seed=4, runner=keeping).best
    assert len(seen) == c.iterations == 8
    assert all(s.reply_score is not None and s.follow_score is not None for s in seen)
    assert c.win_pct == pytest.approx(100 * sum(s.win for s in seen) / 8)
    assert c.reply_score == pytest.approx(sum(s.reply_score for s in seen) / 8)
    assert c.follow_score == pytest.approx(sum(s.follow_score for s in seen) / 8)
    assert c.reply_bingo_pct == pytest.approx(100 * sum(bool(s.reply_bingo) for s in seen) / 8)
    assert c.follow_bingo_pct == pytest.approx(100 * sum(bool(s.follow_bingo) for s in seen) / 8)
    row = c.to_dict()
    assert row["reply_score"] == round(c.reply_score, 3)
    assert {"reply_bingo_pct", "follow_score", "follow_bingo_pct"} <= set(row)


def _last_tiles_position(rack: str, unseen: str) -> SimPosition:
    """CAT on 8G, ``rack`` to move, the opponent holding all of ``unseen`` (bag empty)."""
    board = Board(DEFAULT_RULES.board, DEFAULT_RULES.tiles)
    for i, letter in enumerate("CAT"):
        board[7, 6 + i] = letter
    return SimPosition(board, tuple(rack), tuple(unseen), (200, 200), DEFAULT_RULES)


def test_an_opponent_who_holds_a_bingo_bingos_on_every_reply(lexicon, leaves) -> None:
    pos = _last_tiles_position("UUVVWWO", "AEINRST")
    limit = SimLimit(iterations=4, candidates=2, plies=2, min_iterations=4)
    result = simulate(pos, lexicon, leaves, limit, seed=1)
    for c in result.candidates:
        assert c.reply_bingo_pct == 100.0 and c.reply_score is not None
        assert c.reply_score >= 50
        assert c.follow_score is None and c.follow_bingo_pct is None  # they went out


def test_an_opponent_without_a_bingo_never_bingos(lexicon, leaves) -> None:
    pos = _last_tiles_position("AEINRSU", "UUVVWWO")
    limit = SimLimit(iterations=4, candidates=2, plies=1, min_iterations=4)
    result = simulate(pos, lexicon, leaves, limit, seed=1)
    for c in result.candidates:
        if c.move.bingo:  # we went out: no reply at all
            assert c.reply_score is None and c.reply_bingo_pct is None
        else:
            assert c.reply_bingo_pct == 0.0
        assert c.follow_score is None  # one ply only
