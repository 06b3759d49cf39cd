"""The endgame and pre-endgame solvers against a full-tree minimax
(``tests/support/endgame_brute.py``: every line to the end, no pruning, no table), on small
endgames (up to 3 tiles a side) on real boards of the corpus: random racks drawn from
the unseen tiles (seeded), and the racks the records show; the table and the deepening
change no proved value; a budget gives an answer that says it is not proved; the
principal variation, played out, is worth the value; the pre-endgame equals its
endgames enumerated here."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import valid_files
from support.endgame_brute import Brute, TooBig
from support.reference_data import DATA, needs_data

from gcgtools.analysis.endgame import (
    EndgameError,
    EndgamePosition,
    Limit,
    PreendgamePosition,
    endgame_position,
    preendgame_position,
    solve_endgame,
    solve_preendgame,
)
from gcgtools.analysis.endgame.search import OutOfBudget, Searcher
from gcgtools.lexicon import Lexicon, load_lexicon
from gcgtools.movegen import generate_moves
from gcgtools.movegen.record import record_position
from gcgtools.replay.setup import rules_for
from gcgtools.replay.walk import replay
from gcgtools.sources.load import load_game

pytestmark = needs_data

#: records read for boards (the first ones of the corpus, sorted)
RECORDS = 40
#: lines the full tree may have for a position to be compared (about 0.5 ms a line)
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
    """``(board, unseen tiles, rules, game, event)`` at the first empty-bag turn of each
    record."""
    out = []
    for game, rules in _games():
        for pos in replay(game, rules):
            if pos.bag == 0 and not pos.game_over and pos.number >= 1:
                tiles = sorted(pos.pool.elements())
                out.append((pos.board.copy(), tiles, rules, game, pos.number))
                break
    assert len(out) >= 10
    return out


def _random_case(rng: random.Random, boards: list) -> tuple:
    board, pool, rules, _, _ = rng.choice(boards)
    a, b = rng.randint(1, 2), rng.randint(1, 3)
    tiles = rng.sample(pool, min(a + b, len(pool)))
    mine, theirs = tiles[:a], tiles[a:]
    rest = list(pool)
    for t in tiles:
        rest.remove(t)
    bag = [rng.choice(rest)] if rest and rng.random() < 0.3 else []
    zeros = 5 if rng.random() < 0.15 else rng.choice([0, 1])
    return board, mine, theirs, bag, zeros, rules


def _compare(enable, board, mine, theirs, bag, zeros, rules) -> bool:
    """Solver and full tree agree on every root move (False: the tree is too big)."""
    brute = Brute(enable, rules, cap=CAP)
    try:
        expected = brute.root_values(board, mine, theirs, bag, zeros)
    except TooBig:
        return False
    pos = EndgamePosition.of(board, mine, theirs, enable, rules, bag=bag, zeros=zeros)
    result = solve_endgame(pos, all_moves=True)
    assert result.proved
    assert {m.notation: m.value for m in result.moves} == expected, (mine, theirs, bag)
    assert all(m.proved for m in result.moves)
    assert result.value == max(expected.values())
    assert expected[result.pv[0]] == result.value
    best = solve_endgame(pos)  # only the best move: the same value
    assert best.proved and best.value == result.value
    return True


def test_equals_the_full_tree_on_random_small_endgames(enable, boards) -> None:
    rng = random.Random(2026)
    compared = 0
    for _ in range(7):
        if _compare(enable, *_random_case(rng, boards)):
            compared += 1
    assert compared >= 3


def test_equals_the_full_tree_on_real_endgames(enable) -> None:
    """The racks the records show, where both hold at most 3 tiles."""
    compared = 0
    for game, _ in _games():
        for pos in replay(game):
            if pos.bag != 0 or pos.game_over or pos.number < 1:
                continue
            rp = record_position(game, pos.number)
            if rp.rack is None:
                continue
            try:
                eg = endgame_position(rp, enable)
            except EndgameError:  # a record whose racks cannot be (an opponent of 11 tiles)
                continue
            if max(len(r) for r in eg.racks) <= 3:
                mine, theirs = eg.racks
                compared += _compare(enable, eg.board, mine, theirs, [], eg.zeros, eg.rules)
            if compared == 2:
                return
    raise AssertionError(f"{compared} real endgames small enough were found")


def _cases(
    enable, boards, n: int, seed: int, small: bool = False, with_bag: bool = True
) -> list[EndgamePosition]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        board, mine, theirs, bag, zeros, rules = _random_case(rng, boards)
        if (small and len(mine) + len(theirs) > 3) or (bag and not with_bag):
            continue
        out.append(EndgamePosition.of(board, mine, theirs, enable, rules, bag=bag, zeros=zeros))
    return out


def test_the_table_and_the_deepening_do_not_change_a_proved_value(enable, boards) -> None:
    for pos in _cases(enable, boards, 4, 11, small=True):
        values = set()
        for tt in (True, False):
            for deepening in (True, False):
                r = solve_endgame(pos, transposition=tt, iterative=deepening)
                assert r.proved
                values.add(r.value)
        assert len(values) == 1


def _play_out(enable, pos: EndgamePosition, pv: list[str], to_end: bool = True) -> int:
    """The spread the line ``pv`` gains for the player to move, played out here (every
    move must be legal; ``to_end``: the line must end the game)."""
    board = pos.board.copy()
    racks = [list(pos.racks[0]), list(pos.racks[1])]
    values = pos.rules.tiles.token_values
    points = lambda rack: sum(values[t] for t in rack)  # noqa: E731
    total, sign, passes, p = 0, 1, 0, 0
    end = 1 if pos.zeros + 1 >= 6 else 2
    for notation in pv:
        moves = generate_moves(
            board, racks[p], enable, leaves=None, bag_count=0, exchanges=False, rules=pos.rules
        )
        (m,) = [m for m in moves if m.notation() == notation]
        if m.kind == "pass":
            passes += 1
            if passes == end:
                return total + sign * (points(racks[1 - p]) - points(racks[p]))
        else:
            passes = 0
            for r, c, t in m.squares:
                board[r, c] = t
                racks[p].remove(t if t.isupper() else "?")
            total += sign * m.score
            if not racks[p]:
                return total + sign * 2 * points(racks[1 - p])
        sign, p = -sign, 1 - p
    assert not to_end, f"the line {pv} does not end the game"
    return total


def test_the_principal_variation_is_worth_the_value(enable, boards) -> None:
    for pos in _cases(enable, boards, 3, 8, with_bag=False):
        r = solve_endgame(pos, all_moves=True)
        assert r.proved
        assert _play_out(enable, pos, r.pv) == r.value
        for root in r.moves[:5]:
            assert root.pv[0] == root.notation
            assert _play_out(enable, pos, root.pv) == root.value


def _possible(boards: list) -> tuple:
    """The first of ``boards`` whose record's racks can be (not a rack of 2 with the
    opponent holding 11: some records' tiles do not add up)."""
    for board, pool, rules, game, event in boards:
        rack = record_position(game, event).rack
        if rack is None or len(pool) - len(rack) <= rules.rack_size:
            return board, pool, rules, game, event
    raise AssertionError("no record's endgame has racks that can be")


def _big(boards, enable) -> EndgamePosition:
    board, pool, rules, game, event = _possible(boards)
    rp = record_position(game, event)
    return (
        endgame_position(rp, enable)
        if rp.rack
        else EndgamePosition.of(board, pool[:7], pool[7:14], enable, rules)
    )


def test_a_budget_answers_and_says_not_proved(enable, boards) -> None:
    pos = _big(boards, enable)
    assert len(pos.racks[0]) + len(pos.racks[1]) >= 6
    r = solve_endgame(pos, Limit(nodes=30), all_moves=True)
    assert not r.proved
    assert r.best is not None and r.pv and r.pv[0] == r.best.notation()
    assert r.nodes <= 31
    # stopped anywhere in the tree, the search leaves its state as it found it
    for nodes in (30, 70, 130):
        s = Searcher(pos, Limit(nodes=nodes))
        before = (s.state.hash, list(s.state.board.cells), [list(r) for r in s.state.racks])
        with pytest.raises(OutOfBudget):
            s.root(6, s.moves_here(), True)
        after = (s.state.hash, list(s.state.board.cells), [list(r) for r in s.state.racks])
        assert after == before and s.state.to_move == 0 and s.state.zeros == 0
    assert {m.notation for m in r.moves} >= {r.best.notation()}
    shallow = solve_endgame(pos, Limit(depth=1))
    assert shallow.depth == 1 and not shallow.proved
    timed = solve_endgame(pos, Limit(seconds=0.0001))  # far less than proving it takes
    assert not timed.proved and timed.best is not None
    _play_out(enable, pos, timed.pv, to_end=False)


def test_limit_and_positions_reject_bad_input(enable, boards) -> None:
    with pytest.raises(ValueError, match="Limit.nodes"):
        Limit(nodes=0)
    board, _, rules, _, _ = boards[0]
    with pytest.raises(EndgameError, match="no tiles"):
        EndgamePosition.of(board, "", "AB", enable, rules)


def test_a_record_position_becomes_an_endgame(enable, boards) -> None:
    _, _, _, game, event = _possible(boards)
    rp = record_position(game, event)
    assert rp.rack is not None and rp.position is not None
    eg = endgame_position(rp, enable)
    assert Counter(eg.racks[0]) + Counter(eg.racks[1]) == +rp.position.pool
    assert eg.scores == rp.scores
    with pytest.raises(EndgameError, match="bag holds"):
        endgame_position(record_position(game, 1), enable)
    with pytest.raises(EndgameError, match="a pre-endgame needs 1"):
        preendgame_position(rp, enable)


def test_the_preendgame_equals_its_endgames_enumerated(enable, boards) -> None:
    """Our tile, 3 unseen (two of one tile, one of another): each unseen tile in the
    bag in turn, weighted by its count, the opponent holding the other two; every
    candidate's win% and mean spread computed here from the full tree's values."""
    rng = random.Random(3)
    done = 0
    for _ in range(6):
        board, pool, rules, _, _ = rng.choice(boards)
        twice = sorted(t for t, n in Counter(pool).items() if n >= 2)
        x = rng.choice(twice)
        y = rng.choice([t for t in pool if t != x])
        rest = list(pool)
        for t in (x, x, y):
            rest.remove(t)
        rack, unseen = [rng.choice(rest)], [x, x, y]
        scores = (rng.randint(300, 400), rng.randint(300, 400))
        brute = Brute(enable, rules, cap=2 * CAP)
        expected: dict[str, list[tuple[int, int]]] = {}
        try:
            for t, n in sorted(Counter(unseen).items()):
                theirs = list(unseen)
                theirs.remove(t)
                for move, v in brute.root_values(board, rack, theirs, [t]).items():
                    expected.setdefault(move, []).append((n, v))
        except TooBig:
            continue
        pos = PreendgamePosition(board, tuple(rack), tuple(unseen), enable, rules, 1, 0, scores)
        result = solve_preendgame(pos)
        assert result.proved
        base = scores[0] - scores[1]
        got = {c.move.notation(): c for c in result.candidates}
        assert set(got) == set(expected)
        for move, rows in expected.items():
            weight = sum(n for n, _ in rows)
            spread = base + sum(n * v for n, v in rows) / weight
            wins = sum(n * (1 if base + v > 0 else 0.5 if base + v == 0 else 0) for n, v in rows)
            assert got[move].spread == pytest.approx(spread)
            assert got[move].win_pct == pytest.approx(100 * wins / weight)
        ranked = [(c.win_pct, c.spread) for c in result.candidates]
        assert ranked == sorted(ranked, reverse=True)
        # only some candidates (as the judge asks): each the same as in the full solve
        names = {c.move.notation() for c in result.candidates[1::2]}
        some = solve_preendgame(pos, candidates=names)
        assert {c.move.notation() for c in some.candidates} == names and some.proved
        for c in some.candidates:
            assert c.to_dict() == got[c.move.notation()].to_dict()
        done += 1
        if done == 2:
            return
    raise AssertionError(f"{done} pre-endgames small enough were found")


def _real_endgames(enable, most: int, tiles: int) -> list[EndgamePosition]:
    """The first ``most`` endgames of the records with at most ``tiles`` on both racks."""
    out = []
    for game, _ in _games():
        for pos in replay(game):
            if pos.bag != 0 or pos.game_over or pos.number < 1:
                continue
            rp = record_position(game, pos.number)
            if rp.rack is not None:
                try:
                    eg = endgame_position(rp, enable)
                except EndgameError:  # racks that cannot be (an opponent of 11 tiles)
                    break
                if len(eg.racks[0]) + len(eg.racks[1]) <= tiles:
                    out.append(eg)
                    break
        if len(out) == most:
            break
    return out


def test_named_moves_get_the_values_of_the_all_moves_solve(enable, boards) -> None:
    """What the judge asks for (the best move and the move played, each exact) equals
    the solve that values every root move, whichever root move is named."""
    positions = _cases(enable, boards, 4, 21) + _real_endgames(enable, 3, 7)
    assert len(positions) == 7
    for pos in positions:
        every = solve_endgame(pos, all_moves=True)
        assert every.proved
        values = {m.notation: m.value for m in every.moves}
        ranked = [m.notation for m in every.moves]
        named = {ranked[0], ranked[-1], ranked[len(ranked) // 2], ranked[len(ranked) // 3]}
        for notation in named:
            r = solve_endgame(pos, exact=[notation])
            assert r.proved and r.value == every.value
            got = {m.notation: m for m in r.moves}
            assert set(got) == {notation, r.best.notation()}
            assert values[r.best.notation()] == every.value
            assert got[notation].value == values[notation] and got[notation].proved
            if not pos.bag:  # the line, played out, is worth the value
                assert _play_out(enable, pos, got[notation].pv) == values[notation]


def test_the_best_move_is_among_the_moves_whatever_else_is_named(enable, boards) -> None:
    """Without a move named, or naming one that is not legal (a phony played), the
    result's moves still hold the best: the judge once found none there and said the
    player to move had no tiles."""
    for pos in _cases(enable, boards, 4, 21)[:3]:
        for exact in ((), ("A1 ZZZ",)):
            r = solve_endgame(pos, exact=exact)
            assert r.best is not None
            assert [(m.notation, m.value) for m in r.moves] == [(r.best.notation(), r.value)]
