"""The engine core: the incremental board (play / undo keep the cross-sets a fresh board
computes), the top K and best-only requests, MoveKind, and C against Python on real
positions of the corpus (all moves, the top 5 and the best, in the same order)."""

from __future__ import annotations

import json
import random
from collections import Counter
from types import ModuleType

import pytest
from conftest import valid_files
from support.movegen_cases import MAGPIE_README_CGP, MINI9, SMALL_WORDS, small_lexicon
from support.reference_data import DATA, needs_data
from test_movegen_native import compiled_helper, facts, same_moves

from gcgtools.lexicon import Lexicon, builtin_leaves, load_leaves, load_lexicon
from gcgtools.movegen import (
    EngineBoard,
    Move,
    MoveKind,
    MoveRequest,
    best_move,
    generate_moves,
    parse_cgp,
)
from gcgtools.movegen.core import fits_native
from gcgtools.movegen.turns import standard_games, turn_positions
from gcgtools.replay import Board
from gcgtools.rules import tile_set
from gcgtools.rules.rulesets import DEFAULT_RULES
from gcgtools.rules.tiles import TileError


def state(e: EngineBoard) -> tuple[object, ...]:
    """What an EngineBoard holds about its board: tiles and cross-sets."""
    return (list(e.board.cells), list(e._bt), list(e._bv), list(e._cross), list(e._xsum))


def test_play_and_undo_keep_the_cross_sets_of_a_fresh_board() -> None:
    lexicon = small_lexicon(SMALL_WORDS)
    english = tile_set("english")
    rng = random.Random(3)
    for native in (True, False):
        engine = EngineBoard(Board(MINI9, english), lexicon, native=native)
        bag = [t for t in english.letters for _ in range(english.counts[t])]
        rng.shuffle(bag)
        states = [state(engine)]
        played = 0
        for _turn in range(10):
            rack = [bag.pop() for _ in range(7)]
            moves = engine.moves(rack, leaves=None, bag_count=len(bag))
            fresh = generate_moves(engine.board, rack, lexicon, leaves=None, bag_count=len(bag))
            assert facts(moves) == facts(fresh)
            plays = [m for m in moves if m.kind == "play"]
            if not plays:
                continue
            move = rng.choice(plays)
            engine.play(move)
            played += 1
            assert engine.board.last_placed == tuple(move.squares)
            assert state(engine) == state(EngineBoard(engine.board, lexicon, native=native))
            states.append(state(engine))
        assert played >= 5
        for expected in reversed(states[:-1]):
            engine.undo()
            assert state(engine) == expected
        with pytest.raises(IndexError):
            engine.undo()


def test_play_refuses_a_taken_square_and_copies_are_independent() -> None:
    lexicon = small_lexicon(SMALL_WORDS)
    engine = EngineBoard(Board(MINI9, tile_set("english")), lexicon)
    move = next(
        m for m in engine.moves(list("RATES"), leaves=None, bag_count=50) if m.kind == "play"
    )
    other = engine.copy()
    engine.play(move)
    with pytest.raises(ValueError, match="taken"):
        engine.play(move)
    assert not any(other.board.cells)
    assert facts(other.moves(list("RATES"), leaves=None, bag_count=50)) != facts(
        engine.moves(list("RATES"), leaves=None, bag_count=50)
    )
    engine.play(Move("pass", 0, 0, True, (), 0, 0, "", 0.0, 0.0, tiles=""))
    engine.undo()  # the pass
    engine.undo()  # the play
    assert facts(other.moves(list("RATES"), leaves=None, bag_count=50)) == facts(
        engine.moves(list("RATES"), leaves=None, bag_count=50)
    )


def test_the_functions_leave_the_board_alone_and_copy_false_shares_it() -> None:
    """generate_moves and best_move use the caller's board without copying it, and leave
    it as it was; an EngineBoard made with copy=False plays on the board it was given."""
    lexicon = small_lexicon(SMALL_WORDS)
    board = Board(MINI9, tile_set("english"))
    best = best_move(board, list("RATES"), lexicon, leaves=None, bag_count=50)
    assert best is not None and best.kind == "play"
    generate_moves(board, list("RATES"), lexicon, leaves=None, bag_count=50)
    assert (
        not any(board.cells) and board.last_placed == Board(MINI9, tile_set("english")).last_placed
    )
    shared = EngineBoard(board, lexicon, copy=False)
    shared.play(best)
    assert shared.board is board and sum(1 for c in board.cells if c) == len(best.squares)
    shared.undo()
    assert not any(board.cells)


def test_reload_gives_a_new_boards_state_in_the_same_buffers() -> None:
    """An EngineBoard reloaded with another board (after plays on its own) holds what a
    new EngineBoard of that board holds, its history dropped; fits says which calls
    it can serve."""
    lexicon = small_lexicon(SMALL_WORDS)
    english = tile_set("english")
    for native in (True, False):
        engine = EngineBoard(Board(MINI9, english), lexicon, native=native)
        for rack in ("RATES", "CATS"):
            move = next(
                m for m in engine.moves(list(rack), leaves=None, bag_count=50) if m.kind == "play"
            )
            engine.play(move)
        other = Board(MINI9, english)
        other.cells[40] = "A"
        other.cells[41] = "t"
        buffers = engine._cross
        engine.reload(other)
        assert engine.board is other and engine._cross is buffers
        assert state(engine) == state(EngineBoard(other, lexicon, native=native))
        assert engine._count == 2
        with pytest.raises(IndexError):
            engine.undo()
        engine.reload(Board(MINI9, english))  # every tile taken off again
        assert state(engine) == state(EngineBoard(Board(MINI9, english), lexicon, native=native))
    engine = EngineBoard(Board(MINI9, english), lexicon)
    assert engine.fits(Board(MINI9, english), lexicon, None)
    assert not engine.fits(Board(MINI9, english), small_lexicon(SMALL_WORDS), None)
    assert not engine.fits(Board(MINI9, tile_set("french")), lexicon, None)
    assert not engine.fits(Board(MINI9, english), lexicon, DEFAULT_RULES)


def test_the_functions_reuse_an_engine_board_and_give_what_a_new_one_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """generate_moves and best_move take back an EngineBoard a call kept when it fits
    (the same lexicon, layout, tiles, rules and engine) and give exactly what a new
    EngineBoard gives, board after board; with GCGTOOLS_PURE_PYTHON set, a kept C one is
    not used."""
    import importlib

    from gcgtools.movegen.core import read_pure_switch

    gen = importlib.import_module("gcgtools.movegen.generate")

    lexicon = small_lexicon(SMALL_WORDS)
    english = tile_set("english")
    leaves = builtin_leaves()
    rng = random.Random(5)
    boards = [Board(MINI9, english)]
    walker = EngineBoard(Board(MINI9, english), lexicon)
    for _ in range(4):
        plays = [m for m in walker.moves(list("RATESCO"), leaves=None, bag_count=50)
                 if m.kind == "play"]  # fmt: skip
        walker.play(rng.choice(plays))
        boards.append(walker.board.copy())
    gen._SPARE.clear()
    for pure in ("", "1", ""):
        if pure:
            monkeypatch.setenv("GCGTOOLS_PURE_PYTHON", pure)
        else:
            monkeypatch.delenv("GCGTOOLS_PURE_PYTHON", raising=False)
        read_pure_switch()  # as a program that changes the switch while it runs does
        for board in boards + boards[::-1]:
            before = list(board.cells)
            rack = rng.sample(list("AEIRSTCON?"), 7)
            fresh = EngineBoard(board, lexicon)
            every = generate_moves(board, rack, lexicon, leaves=leaves, bag_count=40)
            assert facts(every) == facts(fresh.moves(rack, leaves=leaves, bag_count=40))
            best = best_move(board, rack, lexicon, leaves=leaves, bag_count=40)
            assert best is not None and facts([best]) == facts(every[:1])
            assert board.cells == before
            (kept,) = [e for spares in gen._SPARE.values() for e in spares]
            assert kept._native is fresh._native  # the kept one runs this engine
    rules = [DEFAULT_RULES, None]
    for r in rules:  # another rule set is another key, and both are kept
        best_move(boards[2], list("RATES"), lexicon, leaves=None, bag_count=40, rules=r)
    assert sum(len(v) for v in gen._SPARE.values()) == 2


def test_top_and_best_move_functions() -> None:
    lexicon = small_lexicon(SMALL_WORDS)
    board = Board(MINI9, tile_set("english"))
    leaves = builtin_leaves()
    every = generate_moves(board, list("AERST?"), lexicon, leaves=leaves, bag_count=40)
    top = generate_moves(board, list("AERST?"), lexicon, leaves=leaves, bag_count=40, top=4)
    assert facts(top) == facts(every[:4])
    best = best_move(board, list("AERST?"), lexicon, leaves=leaves, bag_count=40)
    assert best is not None and facts([best]) == facts(every[:1])
    with pytest.raises(ValueError, match="top"):
        generate_moves(board, list("AERST"), lexicon, leaves=None, bag_count=40, top=0)


def test_one_request_value_is_what_the_keywords_ask() -> None:
    """A MoveRequest, made once and passed down, gives what the keyword forms give:
    generate / generate_best on a board and on an EngineBoard, every move and the top K;
    its rules stand for the EngineBoard's (a 12-point bingo bonus: the bingo's score
    changes as on an EngineBoard made with those rules); it cannot be changed, and a
    negative top is refused."""
    import dataclasses

    from gcgtools.movegen import generate, generate_best

    lexicon = small_lexicon(SMALL_WORDS)
    board = Board(MINI9, tile_set("english"))
    leaves = builtin_leaves()
    engine = EngineBoard(board, lexicon)
    every = generate_moves(board, list("AERST?"), lexicon, leaves=leaves, bag_count=40)
    request = MoveRequest("AERST?", leaves=leaves, bag_count=40)
    assert facts(generate(board, lexicon, request)) == facts(every)
    assert facts(engine.generate(request)) == facts(every)
    top = request._replace(top=3)
    assert facts(generate(board, lexicon, top)) == facts(engine.generate(top)) == facts(every[:3])
    assert facts([generate_best(board, lexicon, request)]) == facts(every[:1])
    assert facts([engine.generate_best(top)]) == facts(every[:1])  # top is the call's here
    small = dataclasses.replace(DEFAULT_RULES, rack_size=5, bingo_bonus=12)
    ruled = request._replace(rack="STARE", rules=small)
    made_with = EngineBoard(board, lexicon, rules=small)
    plain = MoveRequest("STARE", leaves=leaves, bag_count=40)
    assert facts(engine.generate(ruled)) == facts(made_with.generate(plain))
    assert facts(engine.generate(ruled)) != facts(engine.generate(plain))
    assert facts(generate(board, lexicon, ruled)) == facts(made_with.generate(plain))
    with pytest.raises(AttributeError):
        request.top = 2  # type: ignore[misc]
    with pytest.raises(ValueError, match="top must be 0"):
        engine.generate(MoveRequest("CAT", leaves=None, bag_count=40, top=-1))
    with pytest.raises(ValueError, match="top must be 0"):
        generate(board, lexicon, MoveRequest("CAT", leaves=None, bag_count=40, top=-1))


def test_native_reads_the_inputs_in_the_order_python_makes_them(native: ModuleType) -> None:
    """The C helper unpacks EngineInputs by position: its INPUTS names the fields in its
    order, and they are EngineInputs' own; anything else is refused with a TypeError."""
    from gcgtools.movegen.core import EngineInputs

    assert native.INPUTS == EngineInputs._fields
    engine = EngineBoard(Board(MINI9, tile_set("english")), small_lexicon(SMALL_WORDS))
    inputs, _ = engine.inputs(MoveRequest("CATS", leaves=None, bag_count=40), 0)
    assert native.generate(inputs)
    with pytest.raises(TypeError, match="EngineInputs"):
        native.generate(tuple(inputs)[:-1])


def test_move_kind_is_a_string() -> None:
    lexicon = small_lexicon(SMALL_WORDS)
    moves = generate_moves(Board(MINI9, tile_set("english")), list("CAT"), lexicon,
                           leaves=None, bag_count=80)  # fmt: skip
    kinds = Counter(m.kind for m in moves)
    assert kinds["play"] > 0 and kinds["exchange"] > 0 and kinds["pass"] == 1
    move = moves[0]
    assert move.kind is MoveKind.PLAY and move.kind == "play"
    assert f"{move.kind}" == str(move.kind) == "play"
    assert json.loads(json.dumps(move.to_dict()))["kind"] == "play"
    assert Move("exchange", 0, 0, True, (), 0, 0, "", 0.0, 0.0, tiles="A").kind is MoveKind.EXCHANGE


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return compiled_helper(tmp_path_factory)


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    assert DATA is not None
    return load_lexicon(DATA / "lexica" / "ENABLE.kwg")


@needs_data
def test_play_and_undo_on_a_real_board(enable: Lexicon) -> None:
    assert DATA is not None
    klv = load_leaves(DATA / "lexica" / "CSW21.klv2")
    board = parse_cgp(MAGPIE_README_CGP).board
    engine = EngineBoard(board, enable)
    before = state(engine)
    for rack in ("AEINST?", "ENOSTXY", "DDESW??"):
        move = engine.best_move(list(rack), leaves=klv, bag_count=30)
        assert move is not None and move.kind == "play"
        engine.play(move)
        assert state(engine) == state(EngineBoard(engine.board, enable))
    for _ in range(3):
        engine.undo()
    assert state(engine) == before


def _corpus_positions(
    every: int, limit: int
) -> list[tuple[Board, list[str], int, list[str] | None]]:
    """Real turns of the corpus (every ``every``-th with a known rack, and every one with
    the bag empty, the opponent's rack then known), up to ``limit``."""
    out: list[tuple[Board, list[str], int, list[str] | None]] = []
    k = 0
    for _, game, rules in standard_games(valid_files()):
        for turn in turn_positions(game, rules):
            k += 1
            if turn.rack and (k % every == 0 or turn.bag == 0):
                opponent = turn.unseen() if turn.bag == 0 else None
                out.append((turn.board, turn.rack, turn.bag, opponent))
                if len(out) >= limit:
                    return out
    return out


@needs_data
def test_native_equals_python_on_corpus_positions(enable: Lexicon, native: ModuleType) -> None:
    assert DATA is not None
    klv = load_leaves(DATA / "lexica" / "CSW21.klv2")
    found = _corpus_positions(every=23, limit=60)
    assert len(found) >= 40
    endgames = 0
    for board, rack, bag, opponent in found:
        c, py = EngineBoard(board, enable, native=native), EngineBoard(board, enable, native=False)
        same_moves(c, py, rack, klv, bag_count=bag, opponent_rack=opponent)
        endgames += bag == 0
    assert endgames >= 1


@needs_data
def test_native_cross_sets_equal_python_on_corpus_boards(
    enable: Lexicon, native: ModuleType
) -> None:
    boards = [board for board, _, _, _ in _corpus_positions(every=41, limit=40)]
    assert len(boards) >= 30
    for board in boards:
        c, py = EngineBoard(board, enable, native=native), EngineBoard(board, enable, native=False)
        assert state(c) == state(py)


def test_a_rack_beyond_the_helpers_limits_runs_in_python() -> None:
    lexicon = small_lexicon(SMALL_WORDS)
    board = Board(MINI9, tile_set("english"))
    rack = list("A" * 12 + "TESRN")  # 17 tiles: more than the C helper takes
    engine = EngineBoard(board, lexicon)
    inputs, _ = engine.inputs(MoveRequest(rack, leaves=None, bag_count=50), 0)
    assert not fits_native(inputs)
    moves = engine.moves(rack, leaves=None, bag_count=50)
    assert facts(moves) == facts(EngineBoard(board, lexicon, native=False).moves(
        rack, leaves=None, bag_count=50))  # fmt: skip
    assert any(m.kind == "play" for m in moves)


def test_fits_native_is_the_helpers_limits() -> None:
    """fits_native (which skips the product of the kinds' counts when 2**tiles is small
    enough) says what the limits say, for racks of 0 to 17 tiles of 1 to 17 kinds."""
    from gcgtools.movegen.core import LIMITS

    lexicon = small_lexicon(SMALL_WORDS)
    engine = EngineBoard(Board(MINI9, tile_set("english")), lexicon)
    rng = random.Random(2)
    for n in range(18):
        for _ in range(5):
            rack = [rng.choice("ABCDEFGHIJKLMNOPQ"[: rng.randint(1, 17)]) for _ in range(n)]
            request, _ = engine.inputs(MoveRequest(rack, leaves=None, bag_count=50), 0)
            codes = 1
            for c in request.kind_counts:
                codes *= c + 1
            expected = bool(LIMITS) and (
                len(request.kind_counts) <= LIMITS["MAX_KINDS"]
                and len(rack) <= LIMITS["MAX_RACK"]
                and codes <= LIMITS["MAX_CODES"]
            )
            assert fits_native(request) == expected


def test_a_board_tile_the_tile_set_lacks_is_a_tile_error() -> None:
    board = Board(MINI9, tile_set("english"))
    board[4, 4] = "#"
    for native in (True, False):
        with pytest.raises(TileError, match="'#' on the board is not a tile of english"):
            EngineBoard(board, small_lexicon(SMALL_WORDS), native=native)
