"""The simulation's candidates on the first move: a play and its mirror image across the
diagonal (8G FUTZ and H7 FUTZ, the same move on an empty board by the layout's symmetry)
are simulated once, only when the layout is symmetric."""

from __future__ import annotations

from dataclasses import replace

from support.reference_data import needs_data

from gcgtools.analysis.simulate import SimLimit, position_from_board, simulate
from gcgtools.movegen import Move, generate_moves
from gcgtools.replay.board import Board
from gcgtools.rules.boards import BoardLayout
from gcgtools.rules.rulesets import DEFAULT_RULES, RuleSet

pytestmark = needs_data
LIMIT = SimLimit(iterations=2, candidates=6, plies=0, min_iterations=2)


def where(m: Move) -> tuple[object, ...]:
    return (m.row, m.col, m.across, m.cells)


def mirror(m: Move) -> tuple[object, ...]:
    return (m.col, m.row, not m.across, m.cells)


def opening(rules: RuleSet = DEFAULT_RULES, rack: str = "FTUZAEI"):
    board = Board(rules.board, rules.tiles)
    return position_from_board(board, rules, list(rack), (0, 0))


def test_mirror_images_are_simulated_once_on_the_first_move(lexicon) -> None:
    position = opening(rack="QUIXOTE")  # 8D and H4 QUIXOTE: the best two by equity
    result = simulate(position, lexicon, None, LIMIT, 1)
    placed = [where(c.move) for c in result.candidates]
    assert len(placed) == LIMIT.candidates  # as many as asked for, all distinct
    assert not {mirror(c.move) for c in result.candidates} & set(placed)
    # the candidates are the best moves by equity, one of each mirror pair
    ranked = generate_moves(position.board, position.rack, lexicon, top=4 * LIMIT.candidates,
                       rules=position.rules, leaves=None, bag_count=position.bag_count)  # fmt: skip
    firsts: list[tuple[object, ...]] = []
    for m in ranked:
        if mirror(m) not in firsts and where(m) not in firsts:
            firsts.append(where(m))
    assert set(placed) == set(firsts[: LIMIT.candidates])


def test_an_included_move_takes_its_mirror_twins_place(lexicon) -> None:
    position = opening()
    best = generate_moves(
        position.board,
        position.rack,
        lexicon,
        top=1,
        rules=position.rules,
        leaves=None,
        bag_count=position.bag_count,
    )[0]
    twin = next(
        m
        for m in generate_moves(
            position.board,
            position.rack,
            lexicon,
            rules=position.rules,
            leaves=None,
            bag_count=position.bag_count,
        )  # fmt: skip
        if where(m) == mirror(best)
    )
    result = simulate(position, lexicon, None, LIMIT, 1, include=[twin])
    placed = [where(c.move) for c in result.candidates]
    assert where(twin) in placed and where(best) not in placed
    assert len(placed) == LIMIT.candidates


def test_an_asymmetric_layout_keeps_mirror_images(lexicon) -> None:
    rows = list(DEFAULT_RULES.board.rows)
    rows[7] = rows[7][:8] + '"' + rows[7][9:]  # 8I a triple letter, I8 still plain
    layout = BoardLayout("lopsided", 15, tuple(rows))
    assert layout.rows[7][8] != layout.rows[8][7]
    rules = replace(DEFAULT_RULES, board=layout)
    result = simulate(opening(rules, "FUTZAAA"), lexicon, None, LIMIT, 1)
    placed = {where(c.move) for c in result.candidates}
    assert any(mirror(c.move) in placed for c in result.candidates)
