"""A replayed board knows its tile set: pictures show the right values, racks split right."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import gcgtools
from gcgtools.replay.position import sorted_tiles, take

GERMAN = """#character-encoding UTF-8
#player1 anna Anna
#player2 ben Ben
#tile-distribution german
>anna: ÖLHAUS 8G ÖL +18 18
#incomplete
"""

SPANISH_LEAVE = """#character-encoding UTF-8
#player1 ana Ana
#player2 beto Beto
#tile-distribution spanish
>ana: CHAOSTE 8G SE +4 4
#incomplete
"""

SPANISH = """#character-encoding UTF-8
#player1 ana Ana
#player2 beto Beto
#tile-distribution spanish
>ana: CHAOSTE 8G CHA +12 12
#incomplete
"""


def test_inline_svg_uses_the_games_tile_values() -> None:
    game = gcgtools.parse_string(GERMAN)
    board = list(gcgtools.replay(game))[-1].board
    assert board.tileset is not None and board.tileset.name == "german"
    root = ET.fromstring(board._repr_svg_())
    values = {
        g.get("data-letter"): g.get("data-value")
        for g in root.iter()
        if g.get("data-letter") is not None
    }
    # German tile values: Ö is worth 8 and L 2 (English has no Ö at all)
    assert values == {"Ö": "8", "L": "2"}


def test_unseen_for_splits_multi_letter_tiles() -> None:
    game = gcgtools.parse_string(SPANISH)
    pos = list(gcgtools.replay(game))[-1]
    spanish = pos.board.tileset
    assert spanish is not None and spanish.name == "spanish"
    # the rack CH A O S T E is six tiles (CH is one); CH and A go on the board, and the
    # player keeps O S T E
    assert pos.kept[0] == "EOST"
    unseen = pos.unseen_for(0)
    assert pos.pool["CH"] == 0 and unseen["CH"] == 0
    assert unseen["A"] == spanish.counts["A"] - 1
    assert unseen["O"] == spanish.counts["O"] - 1
    assert unseen["C"] == spanish.counts["C"]
    assert sum(unseen.values()) == spanish.total_tiles - 2 - 4


def test_a_leave_with_a_multi_letter_tile_is_bracketed() -> None:
    pos = list(gcgtools.replay(gcgtools.parse_string(SPANISH_LEAVE)))[-1]
    assert pos.leave == "A[CH]OT"
    spanish = pos.board.tileset
    assert spanish is not None
    assert pos.unseen_for(0)["CH"] == 0
    assert pos.unseen_for(0)["C"] == spanish.counts["C"]


@pytest.mark.parametrize(
    ("tiles", "text"),
    [([], ""), (["?"], "?"), (["Z", "?", "A", "?", "E"], "AEZ??"), (["Ñ", "A", "?"], "AÑ?"),
     (["CH", "?", "C", "D"], "C[CH]D?"), (["L·L", "A"], "A[L·L]")],
)  # fmt: skip
def test_sorted_tiles_puts_blanks_last_and_brackets_long_tiles(tiles: list[str], text: str) -> None:
    assert sorted_tiles(tiles) == text


def test_take_reports_the_tiles_a_rack_lacks() -> None:
    assert take(["A", "?", "Q"], ["A", "B", "?", "A"]) == (["Q"], ["B", "A"])


def test_last_play_follows_the_replay_and_can_be_set() -> None:
    game = gcgtools.parse_string(
        "#player1 A A\n#player2 B B\n>A: ADEFGOT 8H TOAD +10 10\n>B: ENOPRSU 9K PE +13 13\n"
    )
    positions = list(gcgtools.replay(game))
    assert positions[1].board.last_play == ((7, 7), (7, 8), (7, 9), (7, 10))
    second = positions[2].board
    assert second.last_play == ((8, 10), (8, 11))
    assert [t for _, _, t in second.last_placed] == ["P", "E"]
    second.last_play = [(7, 7)]
    assert second.last_play == ((7, 7),) and second.last_placed == ((7, 7, "T"),)
    assert positions[1].board.last_play == ((7, 7), (7, 8), (7, 9), (7, 10))  # a copy
