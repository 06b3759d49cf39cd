"""The event lines the parser could not read, as the model keeps them (``Game.lost``):
the player each names and the event a repair recovers, so the replay re-reads no line."""

from __future__ import annotations

from gcgtools.findings import Code
from gcgtools.model import LostLine, parse_string
from gcgtools.syntax.records import EventKind

HEADER = "#player1 A Alice\n#player2 B Bob\n>A: AEINRST 8H RETAINS +66 66\n"


def test_a_readable_record_has_no_lost_line() -> None:
    assert parse_string(HEADER).lost == []


def test_a_line_whose_only_fault_is_its_rack_is_read_with_an_unknown_rack() -> None:
    game = parse_string(HEADER + ">B: DG0OPRW I7 P.G +11 11\n")
    assert [f.code for f in game.findings] == [Code.MALFORMED_RACK]
    assert len(game.events) == 1  # the recovered event is not one of the game's events
    (lost,) = game.lost
    assert (lost.line, lost.player) == (4, 1)
    e = lost.event
    assert e is not None and e.line == 4 and e.player == 1
    assert (e.kind, e.rack, e.word, e.position, e.score, e.cumulative) == (
        EventKind.PLAY, "UNKNOWN", "P.G", "I7", 11, 11,
    )  # fmt: skip


def test_a_line_missing_only_its_colon_is_read_with_it() -> None:
    game = parse_string(HEADER + ">B DGOOPRW I7 P.G +11 11\n")
    (lost,) = game.lost
    assert lost.player == 1 and lost.event is not None
    assert (lost.event.nick, lost.event.rack, lost.event.cumulative) == ("B", "DGOOPRW", 11)


def test_any_other_unreadable_event_line_is_lost_with_its_player() -> None:
    game = parse_string(HEADER + ">B: DGOOPRW I7 P.G 11+ 11\n>Zed: nonsense\n")
    assert game.lost == [LostLine(4, 1, None), LostLine(5, None, None)]


def test_a_colon_less_line_of_an_unknown_nickname_is_not_repaired() -> None:
    game = parse_string(HEADER + ">Zed DGOOPRW I7 P.G +11 11\n")
    assert game.lost == [LostLine(4, None, None)]


def test_an_unreadable_line_that_is_no_event_line_is_not_lost() -> None:
    game = parse_string(HEADER + "#player3\n")
    assert game.lost == []
