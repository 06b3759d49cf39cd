"""The C helper of the engine gives exactly the moves of the pure-Python reference: the
same plays, scores, leaves, equities and order, for every move, the top K and the best.

The helper is what ``pip install .`` builds (setup.py); where it is not built (tests run
from a source tree), this test compiles it into a temporary folder with setuptools, the
same way. Only a machine without a C compiler skips it, and says so.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest
from support.movegen_cases import MAGPIE_README_CGP, MINI9, SMALL_WORDS, small_lexicon
from support.reference_data import DATA, needs_data

from gcgtools.lexicon import builtin_leaves, load_leaves, load_lexicon
from gcgtools.movegen import EngineBoard, Move, MoveKind, generate_moves
from gcgtools.movegen.cgp import parse_cgp
from gcgtools.movegen.core import PURE_ENV, native_module, read_pure_switch
from gcgtools.movegen.request import LeaveValues, MoveRequest
from gcgtools.replay import Board
from gcgtools.rules import board_layout, tile_set

MOVEGEN = Path(__file__).resolve().parents[2] / "gcgtools" / "movegen"
#: the C helper's files as setup.py builds them: the module file, then the plain C files
SOURCES = [MOVEGEN / "_gaddag.c", *sorted(p for p in MOVEGEN.glob("*.c") if p.stem != "_gaddag")]


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return compiled_helper(tmp_path_factory)


def compiled_helper(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The C helper: the built one, else compiled now (skips without a compiler)."""
    built = native_module()
    if built is not None:
        return built
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    out = tmp_path_factory.mktemp("native")
    dist = Distribution({"ext_modules": [Extension("_gaddag", [str(p) for p in SOURCES])]})
    cmd = build_ext(dist)
    cmd.build_lib = str(out)
    cmd.build_temp = str(out / "tmp")
    cmd.ensure_finalized()
    try:
        cmd.run()
    except Exception as exc:  # no compiler: the pure-Python engine is all there is
        pytest.skip(f"cannot compile the C helper here: {exc}")
    path = next(out.glob("_gaddag*"))
    spec = importlib.util.spec_from_file_location("_gaddag", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.configure(Move, MoveKind.PLAY, MoveKind.EXCHANGE, MoveKind.PASS)
    return module


def facts(moves: list[Move]) -> list[tuple[object, ...]]:
    """Everything a move says, in the order the moves come."""
    return [
        (m.kind, m.row, m.col, m.across, m.cells, m.new, m.score, m.leave, m.leave_value,
         m.equity, m.bingo, m.tiles)
        for m in moves
    ]  # fmt: skip


def same_moves(
    c: EngineBoard, py: EngineBoard, rack: list[str], leaves: LeaveValues | None, **kw: object
) -> list[Move]:
    """C and Python give the same moves, all of them, the top 3 and the best; the top K
    and the best are the first of all the moves. Returns all the moves."""
    every = c.moves(rack, leaves=leaves, **kw)  # type: ignore[arg-type]
    assert facts(every) == facts(py.moves(rack, leaves=leaves, **kw))  # type: ignore[arg-type]
    for top in (1, 3):
        got = c.moves(rack, leaves=leaves, top=top, **kw)  # type: ignore[arg-type]
        assert facts(got) == facts(every[:top])
        assert facts(py.moves(rack, leaves=leaves, top=top, **kw)) == facts(every[:top])  # type: ignore[arg-type]
    best = c.best_move(rack, leaves=leaves, **kw)  # type: ignore[arg-type]
    assert best is not None and facts([best]) == facts(every[:1])
    return every


def test_native_equals_python_on_small_boards(native: ModuleType) -> None:
    lexicon = small_lexicon(SMALL_WORDS)
    english = tile_set("english")
    leaves = builtin_leaves()
    rng = random.Random(7)
    total = 0
    for _game in range(4):
        c = EngineBoard(Board(MINI9, english), lexicon, native=native)
        py = EngineBoard(Board(MINI9, english), lexicon, native=False)
        bag = [t for t in english.letters for _ in range(english.counts[t])]
        rng.shuffle(bag)
        for _turn in range(8):
            rack = [bag.pop() for _ in range(7)]
            moves = same_moves(c, py, rack, leaves, bag_count=len(bag))
            total += len(moves)
            plays = [m for m in moves if m.kind == "play"]
            if plays:
                move = rng.choice(plays)
                c.play(move)
                py.play(move)
    assert total > 100


def test_native_equals_python_multi_letter_and_super(native: ModuleType) -> None:
    words = ["CHICO", "LLAMA", "CARRO", "CHE", "OCHO", "HOLA", "LA", "AL", "LO", "OLA"]
    lexicon = small_lexicon(words, "spanish")
    board = Board(board_layout("standard"), tile_set("spanish"))
    rack = ["CH", "I", "C", "O", "?", "LL", "A"]
    c, py = EngineBoard(board, lexicon, native=native), EngineBoard(board, lexicon, native=False)
    assert len(same_moves(c, py, rack, None, bag_count=40)) > 10
    # a board with tiles: the C helper looks plays up in its word index, blanks included
    opening = c.best_move(["CH", "I", "C", "O"], leaves=None, bag_count=40)
    assert opening is not None and opening.kind == MoveKind.PLAY
    c.play(opening)
    py.play(opening)
    assert len(same_moves(c, py, ["LL", "A", "M", "A", "?", "O", "H"], None, bag_count=40)) > 5
    lexicon = small_lexicon(SMALL_WORDS, "english_super")
    board = Board(board_layout("super"), tile_set("english_super"))
    c, py = EngineBoard(board, lexicon, native=native), EngineBoard(board, lexicon, native=False)
    assert len(same_moves(c, py, list("RATES??"), None, bag_count=40)) > 100
    opening = c.best_move(list("RATES??"), leaves=None, bag_count=40)
    assert opening is not None and opening.kind == MoveKind.PLAY
    c.play(opening)
    py.play(opening)
    assert len(same_moves(c, py, list("TONES?A"), None, bag_count=40)) > 20


@needs_data
def test_native_equals_python_on_a_real_board(native: ModuleType, monkeypatch) -> None:
    assert DATA is not None
    enable = load_lexicon(DATA / "lexica" / "ENABLE.kwg")
    board = parse_cgp(MAGPIE_README_CGP).board
    c, py = EngineBoard(board, enable, native=native), EngineBoard(board, enable, native=False)
    klv = load_leaves(DATA / "lexica" / "CSW21.klv2")
    for leaves in (klv, builtin_leaves(), None):
        for rack in ["ENOSTXY", "AEINST?", "DDESW??", "Q"]:
            assert len(same_moves(c, py, list(rack), leaves, bag_count=30)) > 1
    # the bag empty, the opponent's rack known or not; a nearly empty bag
    for opponent in ("AEIRT", None):
        same_moves(c, py, list("CEIQUZ"), klv, bag_count=0, opponent_rack=opponent)
    same_moves(c, py, list("EEIOUVW"), klv, bag_count=3)
    # and the whole generate_moves, with the helper switched off by the environment
    fast = generate_moves(board, list("AEINST?"), enable, leaves=klv, bag_count=30)
    monkeypatch.setenv(PURE_ENV, "1")
    assert read_pure_switch() and native_module() is None
    slow = generate_moves(board, list("AEINST?"), enable, leaves=klv, bag_count=30)
    monkeypatch.delenv(PURE_ENV)
    read_pure_switch()
    assert facts(fast) == facts(slow)


def test_the_switch_is_read_when_asked_not_on_every_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """native_module follows GCGTOOLS_PURE_PYTHON as read_pure_switch last read it
    (unset, set, set to 0 and unset again), not the environment of the moment; and
    generator_name reads it afresh."""
    from gcgtools.movegen.core import generator_name, native_built

    monkeypatch.delenv(PURE_ENV, raising=False)
    read_pure_switch()
    for value in (None, "1", "0", "yes", "", None):
        before = native_module()
        if value is None:
            monkeypatch.delenv(PURE_ENV, raising=False)
        else:
            monkeypatch.setenv(PURE_ENV, value)
        assert native_module() is before  # not read yet
        on = value not in (None, "", "0")
        assert read_pure_switch() == on
        assert (native_module() is not None) == (native_built() and not on)
        assert generator_name().startswith("C") == (native_built() and not on)
    read_pure_switch()


def test_native_touched_squares_equal_python(native: ModuleType) -> None:
    """The squares whose cross-sets a play changes (EngineBoard.play recomputes only
    those): the C helper's list equals the pure-Python one, on boards filled at random."""
    english = tile_set("english")
    rng = random.Random(11)
    lexicon = small_lexicon(SMALL_WORDS)
    for _board in range(30):
        py = EngineBoard(Board(MINI9, english), lexicon, native=False)
        size = py.size
        filled = rng.sample(range(size * size), rng.randrange(1, 40))
        for f in filled:
            py._bt[f] = 1
        new = rng.sample(filled, rng.randrange(1, min(7, len(filled)) + 1))
        expected = py._touched(new)
        assert native.touched(py._bt, size, new) == expected
        assert set(new) <= set(expected)
    with pytest.raises(ValueError, match="off the board"):
        native.touched(py._bt, size, [size * size])


def test_native_placing_equals_python(native: ModuleType) -> None:
    """EngineBoard.play puts a play's tiles down by the C helper's place_tiles: the same
    cells, tiles, values, squares and state as the pure-Python path, play after play of
    random games; a square taken or off the board, or a tile the tile set lacks, changes
    nothing and gets the pure-Python path's error."""
    from gcgtools.rules.tiles import TileError

    english = tile_set("english")
    lexicon = small_lexicon(SMALL_WORDS)
    rng = random.Random(12)
    for _game in range(6):
        c = EngineBoard(Board(MINI9, english), lexicon, native=native)
        py = EngineBoard(Board(MINI9, english), lexicon, native=False)
        for _turn in range(8):
            rack = rng.sample(list("AEIRSTCON?"), 7)
            plays = [m for m in py.moves(rack, leaves=None, bag_count=50) if m.kind == "play"]
            if not plays:
                break
            move = rng.choice(plays)
            placed = native.place_tiles(list(c.board.cells), c._codes, c._bt[:], c._bv[:],
                                        c.size, move.row, move.col, move.across,
                                        tuple(move.cells), move.new)  # fmt: skip
            assert placed is not None and placed[0] == [r * c.size + k for r, k, _ in
                                                       move.squares]  # fmt: skip
            assert list(placed[1]) == move.squares
            c.play(move)
            py.play(move)
            assert c.board.last_placed == py.board.last_placed == tuple(move.squares)
            assert c._count == py._count
            assert (c.board.cells, list(c._bt), list(c._bv), list(c._cross)) == (
                py.board.cells, list(py._bt), list(py._bv), list(py._cross))  # fmt: skip
        played = next(m for m in reversed([h for h in c._history]) if m[0])
        square = played[0][0]
        r0, c0 = divmod(square, c.size)
        before = (list(c.board.cells), list(c._bt), list(c._bv), c._count, len(c._history))
        taken = Move("play", r0, c0, True, ("A", "T"), 0b11, 0, "", 0.0, 0.0)
        off = Move("play", 0, c.size - 1, True, ("A", "T"), 0b11, 0, "", 0.0, 0.0)
        lacks = Move("play", 0, 0, True, ("#",), 0b1, 0, "", 0.0, 0.0)
        for engine in (c, py):
            for bad, error in ((taken, ValueError), (off, ValueError), (lacks, TileError)):
                if bad is lacks and engine.board.cells[0] is not None:
                    continue
                if bad is taken and engine.board.cells[square + 1] is None:
                    bad = Move("play", r0, c0, True, ("A",), 0b1, 0, "", 0.0, 0.0)
                with pytest.raises(error):
                    engine.play(bad)
        assert before == (list(c.board.cells), list(c._bt), list(c._bv), c._count,
                          len(c._history))  # fmt: skip
    half = Move("play", 4, 3, True, ("A", "#"), 0b11, 0, "", 0.0, 0.0)
    for native_or_not in (native, False):  # no tile goes down before the one it lacks
        engine = EngineBoard(Board(MINI9, english), lexicon, native=native_or_not)
        with pytest.raises(TileError):
            engine.play(half)
        assert not any(engine.board.cells) and not any(engine._bt) and engine._count == 0
    with pytest.raises(ValueError, match="out of range"):
        native.place_tiles([None] * 4, {}, c._bt, c._bv, 9, 0, 0, True, ("A",), 1)


def test_native_refuses_a_damaged_anagram_index(native: ModuleType) -> None:
    """The bounds' anagram index is the C helper's own bytes; one that is not (too short,
    a slot count that is no power of two or beyond the buffer, another filter size) is
    refused with ValueError, never read out of bounds."""
    import struct

    lexicon = small_lexicon(SMALL_WORDS)
    engine = EngineBoard(Board(MINI9, tile_set("english")), lexicon, native=native)
    good = native.anagram_index(engine._nodes, lexicon.kwg.dawg_root)
    slots, lg = struct.unpack_from("<QQ", good)
    damaged = [
        good[:8],
        struct.pack("<QQ", 3, lg) + good[16:],
        struct.pack("<QQ", 1 << 62, lg) + good[16:],
        struct.pack("<QQ", slots, lg + 1) + good[16:],
        good[: len(good) // 2],
    ]
    refuses(native, engine, "anagrams", damaged, good, "not an anagram_index")


def refuses(
    native: ModuleType,
    engine: EngineBoard,
    field: str,
    damaged: list[bytes],
    good: bytes,
    match: str,
) -> None:
    """A top-1 request of ``engine`` with each of ``damaged`` as its ``field`` is refused
    with ValueError (``match``); with ``good`` it gives moves."""
    req, _ = engine.inputs(MoveRequest(list("CATSEAR"), leaves=None, bag_count=40), 1)
    for bad in damaged:
        with pytest.raises(ValueError, match=match):
            native.generate(req._replace(**{field: bad}))
    assert native.generate(req._replace(**{field: good}))


def test_native_rack_parts_equal_python(native: ModuleType) -> None:
    """What a request says of a rack (its kinds in the order they come, counts by tile
    index, leave-code radices, points, sort order with blanks last, texts): the C
    helper's rack_parts equals the pure-Python one, for English racks drawn at random,
    Spanish multi-letter tiles, and tiles the lexicon's alphabet lacks."""
    from gcgtools.movegen.plays import RackIndex, rack_parts

    rng = random.Random(5)
    english = tile_set("english")
    words = ["CHICO", "LLAMA", "CARRO", "CHE", "OCHO", "HOLA"]
    cases = [(small_lexicon(SMALL_WORDS), english), (small_lexicon(words, "spanish"),
             tile_set("spanish"))]  # fmt: skip
    checked = 0
    for lexicon, tiles in cases:
        index, values = lexicon.kwg.index, tiles.token_values
        n_letters = len(lexicon.kwg.letters) - 1
        bag = [t for t in tiles.letters for _ in range(tiles.counts[t])]
        for size in (0, 1, 2, 7, 7, 7, 9, 20):
            rack = rng.sample(bag, size)
            expected = rack_parts(RackIndex(rack, index, n_letters), values)
            assert native.rack_parts(rack, index, values, n_letters) == expected
            checked += 1
    assert checked == 16
    # a tile the tile set lacks: KeyError by both
    index, values = cases[0][0].kwg.index, english.token_values
    with pytest.raises(KeyError):
        rack_parts(RackIndex(["A", "#"], index, 26), values)
    with pytest.raises(KeyError):
        native.rack_parts(["A", "#"], index, values, 26)
    with pytest.raises(ValueError, match="too large"):
        native.rack_parts(["A"] * 65, index, values, 26)


def test_native_cross_set_memo(native: ModuleType) -> None:
    """The C helper remembers the cross-sets of short runs of tiles in a memo kept per
    lexicon: with it, cold and warm, the cross-sets equal those made without it; a memo
    filled for another lexicon is emptied (its header names the lexicon), not read."""
    from array import array

    english = tile_set("english")
    rng = random.Random(3)
    small, other = small_lexicon(SMALL_WORDS), small_lexicon(["AT", "TA", "EAT", "TEA"])
    memo = array("Q", bytes(8 * native.MEMO_WORDS))
    for lexicon in (small, other, small):
        engine = EngineBoard(Board(MINI9, english), lexicon, native=False)
        for _board in range(20):
            bt = engine._bt
            for f in range(len(bt)):
                bt[f] = rng.randrange(1, 27) if rng.random() < 0.3 else 0
            args = (engine._nodes, lexicon.kwg.dawg_root, lexicon.kwg.gaddag_root,
                    engine.size, bt, engine._bv)  # fmt: skip
            plain = (array("Q", bytes(16 * len(bt))), array("i", bytes(8 * len(bt))))
            native.cross_sets(*args, *plain, engine._full, None)
            for _pass in range(2):
                kept = (array("Q", bytes(16 * len(bt))), array("i", bytes(8 * len(bt))))
                native.cross_sets(*args, *kept, engine._full, None, memo)
                assert kept == plain
    assert any(memo[5:])
    with pytest.raises(ValueError, match="memo"):
        native.cross_sets(*args, *plain, engine._full, None, array("Q", bytes(64)))


def test_each_c_file_names_its_python_twin_and_equality_tests() -> None:
    """The C helper's files by concern: only the module file includes Python.h; every
    other one's header names its Python twin (or why it has none) and the tests that
    compare them, and those modules and tests exist."""
    import re

    tests = Path(__file__).resolve().parents[1]
    for source in SOURCES:
        text = source.read_text()
        if source.stem == "_gaddag":
            assert "#include <Python.h>" in text
            continue
        assert "Python.h" not in text, source.name
        header = (MOVEGEN / f"{source.stem}.h").read_text()
        assert "Python.h" not in header
        header = re.sub(r"\s*\n\s*\*\s*", " ", header)  # comment lines joined
        assert "Python twin:" in header, source.name
        named = re.findall(r"gcgtools/movegen/(\w+)\.py", header)
        assert all((MOVEGEN / f"{m}.py").is_file() for m in named), (source.name, named)
        cited = re.findall(r"tests/(movegen|analysis)/(\w+)\.py(?:::(\w+))?", header + text)
        assert cited, source.name
        for folder, module, test in cited:
            code = (tests / folder / f"{module}.py").read_text()
            assert not test or f"def {test}(" in code, (source.name, module, test)
