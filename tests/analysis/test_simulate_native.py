"""The simulation's playouts in C (gcgtools/movegen/simulation.c, through
gcgtools.analysis.sim_native) equal the Python reference (simulate._Sampler) sample by
sample: the same draws (Python's Mersenne Twister, its shuffle and randrange, redone in
C), the same replies and follow-ups, the same values; on every turn of a real game (full
bags to the endgame, blanks, the game ending within the plies), on hand-made positions
(exchanges put back into the bag, the scoreless turns running out, a table win model, no
leaves, the built-in heuristic leaves), and whole simulations give the same results
either way."""

from __future__ import annotations

import hashlib
import random

import pytest
from conftest import valid_file
from support.positions import magpie_position
from support.reference_data import needs_data

from gcgtools.analysis import simulate as sim
from gcgtools.analysis.simulate import (
    Sample,
    SimLimit,
    SimPosition,
    _candidates,
    _Sampler,
    position_from_board,
    simulate,
)
from gcgtools.analysis.winprob import TableWinModel, builtin_model
from gcgtools.movegen import MoveRequest, generate
from gcgtools.movegen.core import native_module
from gcgtools.movegen.turns import turn_positions
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import DEFAULT_RULES
from gcgtools.sources.load import load_game

pytestmark = [
    needs_data,
    pytest.mark.skipif(native_module() is None, reason="the C helper is not built or is off"),
]

#: a real game whose racks are all known, from the first turn to the endgame
GAME = "domino14__macondo/preendgame__testdata__issue_476.gcg"


def samplers(position: SimPosition, lexicon, leaves, *, count: int = 4, plies: int = 2,
             seed: int = 5, model=None, include=()) -> tuple[_Sampler, _Sampler, int]:  # fmt: skip
    """The C and the Python sampler of one simulation, and its number of candidates."""
    moves = _candidates(position, lexicon, leaves, count, include)
    args = (position, moves, lexicon, leaves, model or builtin_model(), plies, seed)
    native, python = _Sampler(*args), _Sampler(*args, native=False)
    assert native._playouts() is not None and python._playouts() is None
    return native, python, len(moves)


def compare(native: _Sampler, python: _Sampler, count: int, iterations: int) -> list[Sample]:
    """Every (candidate, iteration) sample of both, asserted equal; the samples."""
    out = []
    for iteration in range(iterations):
        for c in range(count):
            a, b = native((c, iteration)), python((c, iteration))
            assert type(a) is Sample and a == b, (c, iteration, native.moves[c])
            out.append(a)
    return out


def test_the_c_draws_are_pythons_random() -> None:
    """The shuffle and the randrange after it are random.Random's, for digests whose
    number needs one to four 32-bit words (zero included)."""
    rng = random.Random(3)
    digests = [bytes(16), bytes(15) + b"\x01", bytes(12) + b"\xff" * 4, bytes(8) + b"\x01" * 8]
    digests += [hashlib.sha256(str(k).encode()).digest()[:16] for k in range(40)]
    for digest in digests:
        n = rng.randrange(0, 120)
        ranges = [rng.randrange(1, 130) for _ in range(30)]
        expected_rng = random.Random(int.from_bytes(digest, "big"))
        perm = list(range(n))
        expected_rng.shuffle(perm)
        draws = [expected_rng.randrange(r) for r in ranges]
        assert native_module().sim_draws(digest, n, ranges) == (perm, draws)


def test_c_samples_equal_python_samples_on_every_turn_of_a_real_game(lexicon, leaves) -> None:
    game = load_game(valid_file(GAME))
    ended = bags = 0
    for turn in turn_positions(game):
        rack = turn.rack
        if not rack or turn.board.is_empty():
            continue
        p = turn.player or 0
        scores = (turn.scores[p], turn.scores[1 - p])
        position = position_from_board(turn.board, turn.rules, rack, scores)
        native, python, count = samplers(position, lexicon, leaves, seed=turn.event)
        samples = compare(native, python, count, 3)
        ended += sum(s.follow_score is None for s in samples)
        bags += position.bag_count < 7
    assert bags >= 3 and ended > 0  # near-empty bags, and games that ended in the plies


def test_blanks_and_longer_playouts_equal(lexicon, leaves) -> None:
    position = magpie_position()
    native, python, count = samplers(position, lexicon, leaves, count=5, plies=4, seed=2)
    compare(native, python, count, 6)
    blanks = position_from_board(early_board(), DEFAULT_RULES, list("?AEIRS?"), (20, 40))
    native, python, count = samplers(blanks, lexicon, leaves, count=5, seed=9)
    compare(native, python, count, 6)


def test_an_exchanged_candidate_puts_its_tiles_back_as_python_does(lexicon, leaves) -> None:
    """The exchange's tiles go back into the bag at the places the iteration's generator
    draws after its shuffle: the later plies draw them the same in C."""
    position = position_from_board(early_board(), DEFAULT_RULES, list("UUVWIIQ"), (30, 10))
    swaps = [m for m in generate(position.board, lexicon, MoveRequest(
        position.rack, leaves=leaves, bag_count=position.bag_count, rules=position.rules,
    )) if m.kind == "exchange"][:3]  # fmt: skip
    native, python, count = samplers(position, lexicon, leaves, count=2, plies=5,
                                     include=swaps)  # fmt: skip
    assert sum(m.kind == "exchange" for m in native.moves) >= 3
    compare(native, python, count, 8)


def test_the_scoreless_turns_running_out_and_a_pass(lexicon, leaves) -> None:
    board = early_board()
    position = position_from_board(board, DEFAULT_RULES, list("EIRSTAN"), (50, 60), zeros=5)
    passes = [m for m in generate(board, lexicon, MoveRequest(
        position.rack, leaves=leaves, bag_count=position.bag_count, rules=position.rules,
    )) if m.kind == "pass"]  # fmt: skip
    native, python, count = samplers(position, lexicon, leaves, count=2, include=passes)
    samples = compare(native, python, count, 4)
    assert any(s.win in (0.0, 0.5, 1.0) and s.reply_score is None for s in samples)


def test_a_table_model_and_no_leaves(lexicon, leaves) -> None:
    rows = tuple(tuple(min(1.0, max(0.0, 0.5 + (s - 40) / (80.0 + u))) for s in range(81))
                 for u in range(1, 101))  # fmt: skip
    table = TableWinModel("test table", 40, rows)
    position = magpie_position()
    native, python, count = samplers(position, lexicon, leaves, model=table)
    compare(native, python, count, 5)
    native, python, count = samplers(position, lexicon, None)
    compare(native, python, count, 5)


def test_the_built_in_heuristic_leaves(lexicon) -> None:
    """The leaves `analyse` uses without --leaves are valued in C as in Python."""
    from gcgtools.lexicon import builtin_leaves

    heuristic = builtin_leaves()
    for position in (magpie_position(), position_from_board(
        early_board(), DEFAULT_RULES, list("?AEIRSS"), (20, 40)
    )):  # fmt: skip
        native, python, count = samplers(position, lexicon, heuristic, count=5)
        compare(native, python, count, 6)


def early_board() -> Board:
    """A board of one word, most tiles unseen (exchanges allowed)."""
    board = Board(DEFAULT_RULES.board, DEFAULT_RULES.tiles)
    for k, tile in enumerate("HOTEL"):
        board[7, 5 + k] = tile
    return board


def summary(result) -> list[tuple[object, ...]]:
    return [tuple(c.to_dict().items()) for c in result.candidates]


def test_simulate_gives_the_same_result_with_the_c_playouts(lexicon, leaves, monkeypatch) -> None:
    limit = SimLimit(iterations=24, candidates=4, plies=2, min_iterations=8, check_every=8)
    position = magpie_position()
    native = simulate(position, lexicon, leaves, limit, seed=7)
    monkeypatch.setattr(sim, "native_playouts", lambda *a, **k: None)
    python = simulate(position, lexicon, leaves, limit, seed=7)
    assert summary(native) == summary(python)
    assert native.stopped == python.stopped


def test_each_thread_makes_its_own_c_state_with_the_same_samples(lexicon, leaves) -> None:
    """Threads that share a sampler each play on their own C board: the same samples, in
    whatever order they are asked for."""
    from concurrent.futures import ThreadPoolExecutor

    native, _, count = samplers(magpie_position(), lexicon, leaves)
    tasks = [(c, i) for i in range(4) for c in range(count)]
    before = [native(t) for t in tasks]
    with ThreadPoolExecutor(3) as pool:
        again = list(pool.map(native, reversed(tasks)))
    assert again == before[::-1]
