"""The lexicon an endgame search is cut down to (``word_prune.c`` and its Python twin
:mod:`gcgtools.movegen.word_prune`): the C helper finds the same words as the twin, its
KWG holds exactly those words (DAWG and GADDAG, as :func:`build_nodes` builds them), and
the generator finds the same moves, in the same order, with the cut-down lexicon as with
the whole one in every position of random lines played from real endgames (blanks
included): every word a move of the search can form is kept."""

from __future__ import annotations

import random
from array import array

import pytest
from conftest import valid_files
from support.reference_data import DATA, needs_data

from gcgtools.analysis.endgame import EndgamePosition
from gcgtools.analysis.endgame.moves import MoveSource
from gcgtools.analysis.endgame.state import SearchState
from gcgtools.lexicon import Lexicon, load_lexicon
from gcgtools.lexicon.build import build_nodes
from gcgtools.lexicon.kwg import Kwg
from gcgtools.movegen.core import native_module
from gcgtools.movegen.word_prune import free_run, pruned_words
from gcgtools.replay.board import Board
from gcgtools.replay.setup import rules_for
from gcgtools.replay.walk import replay
from gcgtools.sources.load import load_game

pytestmark = needs_data


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    assert DATA is not None
    return load_lexicon(DATA / "lexica" / "ENABLE.kwg")


@pytest.fixture(scope="module")
def boards() -> list:
    """``(board, unseen tiles, rules)`` at the first empty-bag turn of some records."""
    out = []
    for path in valid_files()[:30]:
        game = load_game(path)
        if game.unreadable or len(game.players) != 2:
            continue
        rules, _ = rules_for(game)
        if rules.tiles.name != "english" or rules.board.name != "CrosswordGame":
            continue
        for pos in replay(game, rules):
            if pos.bag == 0 and not pos.game_over and pos.number >= 1:
                out.append((pos.board.copy(), sorted(pos.pool.elements()), rules))
                break
    assert len(out) >= 8
    return out


def _letters(board: Board, kwg: Kwg) -> list[int]:
    """The board's squares as KWG indices (a blank as its letter), 0 empty."""
    return [0 if t is None else kwg.index[t.upper()] for t in board.cells]


def _counts(tiles: list[str], kwg: Kwg) -> list[int]:
    out = [0] * len(kwg.letters)
    for t in tiles:
        out[0 if t == "?" else kwg.index[t]] += 1
    return out


def _position(rng: random.Random, enable: Lexicon, boards: list, most: int) -> EndgamePosition:
    board, pool, rules = rng.choice(boards)
    pool = list(pool)
    on_board = sum(1 for t in board.cells if t is not None and t.islower())
    if pool.count("?") + on_board < 2 and rng.random() < 0.6:
        pool[rng.randrange(len(pool))] = "?"  # a blank now and then
    a, b = rng.randint(1, most), rng.randint(1, most)
    tiles = rng.sample(pool, min(a + b, len(pool)))
    return EndgamePosition.of(board, tiles[:a], tiles[a:], enable, rules)


def _pruned(enable: Lexicon, pos: EndgamePosition) -> Lexicon:
    kwg = enable.kwg
    tiles = _counts([*pos.racks[0], *pos.racks[1]], kwg)
    words = pruned_words(kwg, _letters(pos.board, kwg), pos.board.size, tiles)
    nodes = build_nodes(words)
    return Lexicon(Kwg(nodes, kwg.alphabet), name="pruned", source="pruned")


def test_free_run() -> None:
    assert free_run([0] * 15) == 15
    assert free_run([0, 0, 0, 5, 0, 0, 0, 0, 7, 0]) == 2
    assert free_run([5, 0, 0, 0, 0]) == 3
    assert free_run([5, 0, 5]) == 0


def test_pruned_words_on_a_small_board(enable) -> None:
    """A hand-made 5 x 5 board, CAT across the middle, the tiles S and ?: CATS, SCAT and
    SCATS (the blank an S) are kept, and the words of the tiles alone (AS, OS: an empty
    row is a free run of 5), but not CAT (no tile of the racks in it) nor any word longer
    than the board."""
    kwg = enable.kwg
    size = 5
    board = [0] * (size * size)
    for k, letter in enumerate("CAT"):
        board[2 * size + 1 + k] = kwg.index[letter]
    found = pruned_words(kwg, board, size, _counts(["S", "?"], kwg))
    words = {"".join(kwg.letters[t] for t in w) for w in found}
    assert {"CATS", "SCAT", "SCATS", "AS", "OS"} <= words
    assert "CAT" not in words  # no tile of the racks in it
    assert all(len(w) <= size for w in words)


def test_c_words_equal_python(enable, boards) -> None:
    native = native_module()
    if native is None or not hasattr(native, "prune_words"):
        pytest.skip("the C helper is not built (or GCGTOOLS_PURE_PYTHON is set)")
    kwg = enable.kwg
    rng = random.Random(28)
    for _ in range(10):
        pos = _position(rng, enable, boards, 7)
        tiles = _counts([*pos.racks[0], *pos.racks[1]], kwg)
        letters = _letters(pos.board, kwg)
        size = pos.board.size
        words, raw = native.prune_words(
            kwg.nodes, kwg.dawg_root, kwg.gaddag_root, size, array("i", letters), tiles
        )
        assert words == pruned_words(kwg, letters, size, tiles)
        nodes = array("I")
        nodes.frombytes(raw)
        ours, theirs = Kwg(nodes, kwg.alphabet), Kwg(build_nodes(words), kwg.alphabet)
        assert list(ours.words()) == words
        assert list(ours.gaddag_paths()) == list(theirs.gaddag_paths())


def _same_moves(full: SearchState, cut: SearchState) -> None:
    a = [(m.notation(), m.move.score) for m in full.moves()]
    b = [(m.notation(), m.move.score) for m in cut.moves()]
    assert a == b


def test_the_generator_finds_the_same_moves_along_random_lines(enable, boards) -> None:
    """Random lines of play (both sides, blanks included): at every position the moves
    with the cut-down lexicon are those of the whole one, in the same order."""
    rng = random.Random(1828)
    checked = 0
    for _ in range(6):
        pos = _position(rng, enable, boards, 7)
        full = SearchState(pos, MoveSource(enable, pos.rules))
        cut = SearchState(pos, MoveSource(_pruned(enable, pos), pos.rules))
        for _ in range(8):
            _same_moves(full, cut)
            checked += 1
            moves = full.moves()
            plays = [m for m in moves if not m.is_pass] or moves
            m = rng.choice(plays[:20])
            _, over, _ = full.play(m)
            if over:
                break
            twin = next(x for x in cut.moves() if x.notation() == m.notation())
            cut.play(twin)
    assert checked >= 20
