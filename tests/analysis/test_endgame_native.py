"""The endgame search in C (``endgame.c``, through
:mod:`gcgtools.analysis.endgame.native`) against the Python reference search and a
full-tree minimax (``tests/support/endgame_brute.py``): random small endgames on real
boards of the corpus (blanks, a tile in the bag and scoreless turns included) and the
real endgames the records show; its node budget holds; a stop asked for (SIGINT inside
:func:`gcgtools.console.stopping_on_signals`) gives the last completed depth's answer,
not proved. Skipped when the C helper is not built or is switched off."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Iterator

import pytest
from conftest import valid_files
from support.endgame_brute import Brute, TooBig
from support.reference_data import DATA, needs_data

from gcgtools.analysis.endgame import (
    EndgameError,
    EndgamePosition,
    Limit,
    endgame_position,
    solve_endgame,
)
from gcgtools.analysis.endgame.native import native_endgame, solve_native
from gcgtools.analysis.endgame.search import Searcher
from gcgtools.console import stopping_on_signals
from gcgtools.lexicon import Lexicon, load_lexicon
from gcgtools.movegen.core import native_module
from gcgtools.movegen.record import record_position
from gcgtools.replay.setup import rules_for
from gcgtools.replay.walk import replay
from gcgtools.sources.load import load_game

pytestmark = [
    needs_data,
    pytest.mark.skipif(
        native_module() is None or not hasattr(native_module(), "solve_endgame_native"),
        reason="the C helper is not built (or GCGTOOLS_PURE_PYTHON is set): the Python "
        "search is the only one",
    ),
]

RECORDS = 40
CAP = 600


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    assert DATA is not None
    return load_lexicon(DATA / "lexica" / "ENABLE.kwg")


def _games() -> list:
    out = []
    for path in valid_files()[:RECORDS]:
        game = load_game(path)
        if game.unreadable or len(game.players) != 2:
            continue
        rules, _ = rules_for(game)
        if rules.tiles.name == "english" and rules.board.name == "CrosswordGame":
            out.append((game, rules))
    return out


@pytest.fixture(scope="module")
def boards() -> list:
    """``(board, unseen tiles, rules)`` at the first empty-bag turn of each record."""
    out = []
    for game, rules in _games():
        for pos in replay(game, rules):
            if pos.bag == 0 and not pos.game_over and pos.number >= 1:
                out.append((pos.board.copy(), sorted(pos.pool.elements()), rules))
                break
    assert len(out) >= 10
    return out


def _random_position(rng: random.Random, enable, boards, most: int) -> EndgamePosition:
    board, pool, rules = rng.choice(boards)
    a, b = rng.randint(1, most), rng.randint(1, most)
    pool = list(pool)
    blanks = pool.count("?") + sum(1 for t in board.cells if t is not None and t.islower())
    if blanks < 2 and rng.random() < 0.5:  # a blank for a letter, now and then
        pool[rng.randrange(len(pool))] = "?"
    tiles = rng.sample(pool, min(a + b, len(pool)))
    mine, theirs = tiles[:a], tiles[a:]
    rest = list(pool)
    for t in tiles:
        rest.remove(t)
    bag = [rng.choice(rest)] if rest and rng.random() < 0.3 else []
    zeros = 5 if rng.random() < 0.15 else rng.choice([0, 1])
    return EndgamePosition.of(board, mine, theirs, enable, rules, bag=bag, zeros=zeros)


def _same(pos: EndgamePosition, all_moves: bool = True) -> tuple:
    """Solve in C and in Python: the same value, proof and (every move) root values. The
    two order moves differently, so of root moves worth the same the best-only searches
    may name different ones."""
    assert native_endgame(pos) is not None
    c = solve_endgame(pos, all_moves=all_moves)
    py = solve_endgame(pos, all_moves=all_moves, native=False)
    assert (c.value, c.proved, c.stopped) == (py.value, py.proved, py.stopped)
    if all_moves:
        assert {m.notation: m.value for m in c.moves} == {m.notation: m.value for m in py.moves}
    assert c.best is not None and py.best is not None
    assert c.moves[0].value == c.value == py.moves[0].value
    return c, py


def test_c_equals_python_and_the_full_tree_on_random_small_endgames(enable, boards) -> None:
    rng = random.Random(2812)
    compared = 0
    for _ in range(12):
        pos = _random_position(rng, enable, boards, 3)
        try:
            expected = Brute(enable, pos.rules, cap=CAP).root_values(
                pos.board, pos.racks[0], pos.racks[1], list(pos.bag), pos.zeros
            )
        except TooBig:
            continue
        c, _ = _same(pos)
        assert c.proved and all(m.proved for m in c.moves)
        assert {m.notation: m.value for m in c.moves} == expected
        assert expected[c.pv[0]] == c.value == max(expected.values())
        compared += 1
    assert compared >= 4


def test_c_equals_python_on_bigger_random_endgames(enable, boards) -> None:
    """Racks of up to 4 tiles (blanks now and then): the best move's value and proof."""
    rng = random.Random(77)
    for _ in range(6):
        pos = _random_position(rng, enable, boards, 4)
        c, py = _same(pos, all_moves=False)
        assert c.proved
        assert c.pv[0] in {m.notation for m in py.moves} or c.value == py.value


def _records_endgames(enable) -> Iterator[EndgamePosition]:
    """The first empty-bag turn of each record whose rack the record shows."""
    for game, _ in _games():
        for pos in replay(game):
            if pos.bag != 0 or pos.game_over or pos.number < 1:
                continue
            rp = record_position(game, pos.number)
            if rp.rack is None:
                continue
            try:
                yield endgame_position(rp, enable)
            except EndgameError:
                pass
            break


def test_c_equals_python_on_the_records_endgames(enable) -> None:
    """The racks the records show (up to 9 tiles on both racks), best move only and
    every move."""
    compared = 0
    for eg in _records_endgames(enable):
        if len(eg.racks[0]) + len(eg.racks[1]) <= 9:
            best, _ = _same(eg, all_moves=False)
            every, _ = _same(eg, all_moves=True)
            values = {m.notation: m.value for m in every.moves}
            assert values[best.moves[0].notation] == best.value == max(values.values())
            compared += 1
        if compared == 4:
            return
    raise AssertionError(f"only {compared} real endgames small enough were found")


def _pruned_and_whole(pos: EndgamePosition, limit: Limit) -> None:
    """The search with the cut-down lexicon and with the whole one: the same values,
    lines, proofs and node counts (the moves and their order are the same everywhere)."""
    native = native_endgame(pos)
    assert native is not None
    runs = [
        solve_native(
            native,
            pos,
            limit,
            all_moves=True,
            exact=(),
            roots=None,
            source=None,
            on_depth=None,
            prune=prune,
        )  # fmt: skip
        for prune in (True, False)
    ]
    cut, whole = ([(m.notation, m.value, m.proved, m.pv, m.ending) for m in r.moves] for r in runs)
    assert cut == whole
    assert (runs[0].nodes, runs[0].depth, runs[0].stopped) == (
        runs[1].nodes, runs[1].depth, runs[1].stopped,
    )  # fmt: skip


def test_pruning_changes_nothing_on_random_endgames(enable, boards) -> None:
    """Racks of up to 6 tiles (blanks now and then, a tile in the bag now and then),
    each within a node budget: every root move's value, line and proof, and the nodes."""
    rng = random.Random(4628)
    for _ in range(12):
        pos = _random_position(rng, enable, boards, 6)
        _pruned_and_whole(pos, Limit(nodes=30_000))


def test_pruning_changes_nothing_on_the_records_endgames(enable) -> None:
    compared = 0
    for eg in _records_endgames(enable):
        _pruned_and_whole(eg, Limit(nodes=50_000))
        compared += 1
        if compared == 8:
            return
    raise AssertionError(f"only {compared} real endgames were found")


def _line_caches(pos: EndgamePosition, limit: Limit, monkeypatch) -> None:
    """The search with the generator's line cache (LineCache in generation.c) at its
    default size, with a cache of 4 slots (lines replace each other at once; it keeps 16
    records at most, so it is emptied often and many lines are not kept at all) and
    without one: the same root moves, values, lines and proofs, and the same nodes (the
    generator gives the same moves in the same order)."""
    from gcgtools.analysis.endgame import native

    runs = []
    for lg in (None, 2, 0):
        if lg is not None:
            monkeypatch.setattr(native, "LINE_CACHE_LG", lg)
            monkeypatch.setattr(native, "SMALL_LINE_CACHE_LG", lg)
        r = solve_endgame(pos, limit, all_moves=True)
        monkeypatch.undo()
        runs.append(([(m.notation, m.value, m.proved, m.pv, m.ending) for m in r.moves],
                     r.nodes, r.depth, r.stopped))  # fmt: skip
    assert runs[0] == runs[1] == runs[2]


def test_the_line_cache_changes_nothing_on_random_endgames(enable, boards, monkeypatch) -> None:
    rng = random.Random(1805)
    for _ in range(10):
        _line_caches(_random_position(rng, enable, boards, 7), Limit(nodes=40_000), monkeypatch)


def test_the_line_cache_changes_nothing_on_the_records_endgames(enable, monkeypatch) -> None:
    """Real endgames, each within 150,000 nodes (the default cache's size for searches of
    100,000 nodes or more, the small one's below)."""
    compared = 0
    for eg in _records_endgames(enable):
        if len(eg.racks[0]) + len(eg.racks[1]) < 8:
            continue
        _line_caches(eg, Limit(nodes=150_000), monkeypatch)
        compared += 1
        if compared == 6:
            return
    raise AssertionError(f"only {compared} real endgames of 8 tiles or more were found")


def test_a_growing_table_changes_no_value(enable, monkeypatch) -> None:
    """A table that starts at 64 entries and doubles up to 4,096 (so it grows several
    times mid-search, then stays full and replaces) finds the same value for every root
    move, and the same proofs, as the default one on real endgames."""
    from gcgtools.analysis.endgame import native

    compared = 0
    for eg in _records_endgames(enable):
        if len(eg.racks[0]) + len(eg.racks[1]) > 9:
            continue
        default = solve_endgame(eg, all_moves=True)
        monkeypatch.setattr(native, "TT_LG", 6)
        monkeypatch.setattr(native, "TT_MAX_LG", 12)
        small = solve_endgame(eg, all_moves=True)
        monkeypatch.undo()
        assert default.proved and small.proved
        if small.nodes < 5_000:  # too few nodes for the table to grow much
            continue
        assert {m.notation: m.value for m in small.moves} == {
            m.notation: m.value for m in default.moves
        }
        assert small.value == default.value
        compared += 1
        if compared == 2:
            return
    raise AssertionError(f"only {compared} real endgames of 5,000 nodes or more were found")


def _big(enable, boards) -> EndgamePosition:
    """A position that takes far more than a few thousand nodes to prove."""
    rng = random.Random(5)
    board, pool, rules = boards[0]
    while True:
        tiles = rng.sample(pool, min(14, len(pool)))
        half = len(tiles) // 2
        pos = EndgamePosition.of(board, tiles[:half], tiles[half:], enable, rules)
        if half >= 6:
            return pos


def test_the_node_budget_holds(enable, boards) -> None:
    pos = _big(enable, boards)
    for budget in (2_000, 20_000):
        r = solve_endgame(pos, Limit(nodes=budget))
        assert not r.proved and r.best is not None
        assert r.nodes <= budget * 1.1
        assert r.stopped in ("nodes", "hopeless")
        if r.stopped == "nodes":
            assert r.nodes >= budget * 0.9


def test_a_depth_limit_answers_that_depth(enable, boards) -> None:
    pos = _big(enable, boards)
    c = solve_endgame(pos, Limit(depth=2))
    py = solve_endgame(pos, Limit(depth=2), native=False)
    assert (c.depth, c.value, c.proved, c.stopped) == (2, py.value, False, "depth")


def _stuck_endgames(enable, boards) -> Iterator[EndgamePosition]:
    """Random endgames of 4 tiles against 1 where the 1 (no blank) has no play: the
    player holding it can only pass while the other plays."""
    rng = random.Random(5)
    for _ in range(400):
        board, pool, rules = rng.choice(boards)
        letters = [t for t in pool if t != "?"]
        if len(letters) < 5:
            continue
        tiles = rng.sample(letters, 5)
        mine, theirs = tiles[:4], tiles[4:]
        stuck = EndgamePosition.of(board, theirs, mine, enable, rules)
        only = Searcher(stuck).moves_here()
        if len(only) == 1 and only[0].is_pass:
            yield EndgamePosition.of(board, mine, theirs, enable, rules)


def test_a_forced_pass_costs_no_ply(enable, boards) -> None:
    """A pass that is the only move, after a play, is searched through at the same depth
    (in C and in Python alike): a line where the other player plays a tile a turn is
    proved at fewer plies of depth than it has (where no other line needs the depth), and
    the two searches give the same value at every depth on the way (the other root moves'
    values at a depth short of the proof may differ: the table's bounds come in a
    different order)."""
    compared = shorter = 0
    for pos in _stuck_endgames(enable, boards):
        c, _ = _same(pos, all_moves=True)
        assert c.proved
        if len(c.pv) < 3 or any(move != "-" for move in c.pv[1::2]):
            continue
        shorter += c.depth < len(c.pv)
        for depth in range(1, c.depth + 1):
            at_c = solve_endgame(pos, Limit(depth=depth))
            at_py = solve_endgame(pos, Limit(depth=depth), native=False)
            assert (at_c.value, at_c.proved) == (at_py.value, at_py.proved)
        compared += 1
        if compared == 4:
            break
    assert compared == 4, f"only {compared} endgames with a stuck player were found"
    assert shorter >= 2


def test_an_interrupt_gives_the_last_completed_depth_not_proved(enable, boards) -> None:
    pos = _big(enable, boards)
    with stopping_on_signals():
        os.kill(os.getpid(), signal.SIGINT)  # the handler sets the stop flag
        r = solve_endgame(pos)
    assert r.stopped == "interrupted" and not r.proved
    assert r.best is not None and r.nodes < 10_000
