"""The C helper of the move generator finds exactly the plays the pure-Python loop finds.

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
from test_movegen import (
    DATA,
    MAGPIE_README_CGP,
    MINI9,
    SMALL_WORDS,
    needs_data,
    small_lexicon,
)

from gcgtools.lexicon import Lexicon, builtin_leaves, load_lexicon
from gcgtools.movegen import generate_moves
from gcgtools.movegen.cgp import parse_cgp
from gcgtools.movegen.generator import PURE_ENV, RackIndex, find_plays, native_module
from gcgtools.replay import Board
from gcgtools.rules import board_layout, tile_set

SOURCE = Path(__file__).resolve().parents[1] / "gcgtools" / "movegen" / "_gaddag.c"


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    built = native_module()
    if built is not None:
        return built
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    out = tmp_path_factory.mktemp("native")
    dist = Distribution({"ext_modules": [Extension("_gaddag", [str(SOURCE)])]})
    cmd = build_ext(dist)
    cmd.build_lib = str(out)
    cmd.build_temp = str(out / "tmp")
    cmd.ensure_finalized()
    try:
        cmd.run()
    except Exception as exc:  # no compiler: the pure-Python loop is all there is
        pytest.skip(f"cannot compile the C helper here: {exc}")
    path = next(out.glob("_gaddag*"))
    spec = importlib.util.spec_from_file_location("_gaddag", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def both(board: Board, rack: list[str], lexicon: Lexicon, native: ModuleType) -> int:
    values = board.tileset.token_values  # type: ignore[union-attr]
    n = len(lexicon.kwg.letters) - 1
    py = find_plays(board, lexicon.kwg, RackIndex(rack, lexicon.kwg.index, n), values, native=False)
    c = find_plays(board, lexicon.kwg, RackIndex(rack, lexicon.kwg.index, n), values, native=native)
    assert sorted(py) == sorted(c)
    return len(py)


def test_native_equals_python_on_small_boards(native: ModuleType) -> None:
    lexicon = small_lexicon(SMALL_WORDS)
    english = tile_set("english")
    rng = random.Random(7)
    total = 0
    for _game in range(4):
        board = Board(MINI9, english)
        bag = [t for t in english.letters for _ in range(english.counts[t])]
        rng.shuffle(bag)
        for _turn in range(8):
            rack = [bag.pop() for _ in range(7)]
            total += both(board, rack, lexicon, native)
            plays = find_plays(board, lexicon.kwg, RackIndex(rack, lexicon.kwg.index, 26),
                               english.token_values, native=False)  # fmt: skip
            if not plays:
                continue
            ms, wmul, xs, n, code, across, line, start, end, mask, cells = rng.choice(plays)
            for k, tile in enumerate(cells):
                pos = start + k
                r, c = (line, pos) if across else (pos, line)
                board[r, c] = tile
    assert total > 100


def test_native_equals_python_multi_letter_and_super(native: ModuleType) -> None:
    words = ["CHICO", "LLAMA", "CARRO", "CHE", "OCHO", "HOLA", "LA", "AL", "LO", "OLA"]
    lexicon = small_lexicon(words, "spanish")
    board = Board(board_layout("standard"), tile_set("spanish"))
    assert both(board, ["CH", "I", "C", "O", "?", "LL", "A"], lexicon, native) > 10
    super_tiles = tile_set("english_super")
    lexicon = small_lexicon(SMALL_WORDS, "english_super")
    board = Board(board_layout("super"), super_tiles)
    assert both(board, list("RATES??"), lexicon, native) > 100


@needs_data
def test_native_equals_python_on_a_real_board(native: ModuleType, monkeypatch) -> None:
    assert DATA is not None
    enable = load_lexicon(DATA / "lexica" / "ENABLE.kwg")
    board = parse_cgp(MAGPIE_README_CGP).board
    for rack in ["ENOSTXY", "AEINST?", "DDESW??"]:
        assert both(board, list(rack), enable, native) > 500
    # and the whole generate_moves, with the helper switched off by the environment
    leaves = builtin_leaves()
    fast = generate_moves(board, list("AEINST?"), enable, leaves=leaves, bag_count=30)
    monkeypatch.setenv(PURE_ENV, "1")
    assert native_module() is None
    slow = generate_moves(board, list("AEINST?"), enable, leaves=leaves, bag_count=30)
    assert sorted((m.notation(), m.score, m.equity) for m in fast) == sorted(
        (m.notation(), m.score, m.equity) for m in slow
    )
