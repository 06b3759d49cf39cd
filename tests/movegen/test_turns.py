"""The positions of records' turns (gcgtools.movegen.turns): one per play, pass and
exchange, the board before it, the mover's rack when known, and the unseen tiles."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from gcgtools.movegen.turns import standard_games, turn_positions
from gcgtools.replay.walk import replay
from gcgtools.sources.load import load_game
from gcgtools.syntax.records import TURN_KINDS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_one_position_per_turn_with_the_board_before_it() -> None:
    game = load_game(EXAMPLES / "club-final.gcg")
    turns = list(turn_positions(game))
    events = [e for e in game.events if e.kind in TURN_KINDS]
    assert len(turns) == len(events) > 10
    after = list(replay(game))  # after[n]: the position after n events
    for turn in turns:
        assert game.events[turn.event - 1].kind in TURN_KINDS
        before = after[turn.event - 1]
        assert turn.board.cells == before.board.cells
        assert (turn.bag, turn.scores) == (before.bag, list(before.scores))
    assert turns[0].board.is_empty() and not turns[1].board.is_empty()
    first = turns[0]
    assert first.rack is not None and len(first.rack) == first.rules.rack_size
    unseen = first.unseen()
    assert unseen is not None
    assert Counter(unseen) + Counter(first.rack) == +first.pool


def test_an_unknown_rack_is_none(tmp_path: Path) -> None:
    path = tmp_path / "g.gcg"
    path.write_text(
        "#character-encoding UTF-8\n#player1 A Ann\n#player2 B Bob\n"
        ">A: AEINRST H4 RETINAS +66 66\n>B: UNKNOWN - +0 0\n",
        encoding="utf-8",
    )
    turns = list(turn_positions(load_game(path)))
    assert [t.event for t in turns] == [1, 2]
    assert turns[0].rack == list("AEINRST") and turns[1].rack is None
    assert turns[1].unseen() is None


def test_standard_games_leave_out_other_boards_and_tile_sets() -> None:
    found = [Path(path).name for path, _, _ in standard_games([EXAMPLES])]
    assert "club-final.gcg" in found and "german.gcg" not in found
    two = [Path(path).name for path, _, _ in standard_games([EXAMPLES], two_players=True)]
    assert "three-players.gcg" in found and "three-players.gcg" not in two
