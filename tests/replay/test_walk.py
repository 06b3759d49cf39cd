"""The one walk through a record (``replay.walk.walk``) and the visitors it drives: a
visitor of one's own sees every event in order, numbered as :func:`replay` numbers them,
and every finding once; the findings visitor finds what :func:`validate` finds."""

from __future__ import annotations

from pathlib import Path

import pytest

from gcgtools import read_game, replay, validate
from gcgtools.findings import Finding
from gcgtools.model import parse_string
from gcgtools.model.game import Game
from gcgtools.replay import (
    EachEvent,
    FindingsOnly,
    Position,
    Positions,
    Replayer,
    ReplayVisitor,
    rules_for,
    walk,
)
from gcgtools.syntax.records import EventKind

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").rglob("*.gcg"))
# a misscored play, a lost line (rack only: replayed), a lost line (a gap), a phony
RECORD = """\
#player1 A Alice
#player2 B Bob
>A: AEINRST 8H RETAINS +60 60
>B: DG0OPRW I7 D.G +9 9
>A: EEILMOT N8 .MILE +9 69
>B: DOORWXY 9I .O +5 14
>A: EEOTTUV zz +0 69
>B: DORWXY? -  +0 14
>A: EEOTTUV M3 VOTE +20 89
>A: EEOTTUV -- -20 69
"""


class Recorder(ReplayVisitor[list[str]]):
    """Everything the walk tells a visitor, in order."""

    def __init__(self, *, positions: bool = True) -> None:
        self.positions = positions
        self.log: list[str] = []
        self.numbers: list[int] = []
        self.events: list[object] = []
        self.findings: list[Finding] = []
        self.seen_at_event: list[int] = []

    def begin(self, replayer: Replayer) -> None:
        self.log.append("begin")

    def visit_finding(self, finding: Finding) -> None:
        self.log.append(f"finding {finding.code}")
        self.findings.append(finding)

    def visit_event(self, pos: Position, replayer: Replayer) -> None:
        self.log.append(f"event {pos.number}")
        self.numbers.append(pos.number)
        self.events.append(pos.event)
        if self.positions:  # the event's own findings were visited before the event
            assert all(any(f is g for g in self.findings) for f in pos.findings)
        self.seen_at_event.append(len(self.findings))

    def end(self, replayer: Replayer) -> list[str]:
        self.log.append("end")
        self.final = list(replayer.findings)
        return self.log


def games() -> list[Game]:
    return [parse_string(RECORD), *(read_game(path) for path in EXAMPLES)]


@pytest.mark.parametrize("positions", [True, False])
def test_a_visitor_sees_every_event_in_order_numbered_as_replay_numbers_them(positions):
    for game in games():
        rules, _ = rules_for(game)
        recorder = Recorder(positions=positions)
        log = walk(game, rules, recorder)
        assert log[0] == "begin" and log[-1] == "end" and log.count("begin") == 1
        assert recorder.numbers == list(range(1, len(game.events) + 1))
        assert all(a is b for a, b in zip(recorder.events, game.events, strict=True))
        after = [p for p in replay(game) if p.event is not None]
        assert [p.number for p in after] == recorder.numbers
        assert [p.event for p in after] == recorder.events
        # every finding of the replay is visited once, in the order it was reported
        assert [id(f) for f in recorder.findings] == [id(f) for f in recorder.final]


def test_the_findings_visitor_finds_what_validate_finds():
    for game in games():
        rules, _ = rules_for(game)
        outcome = walk(game, rules, FindingsOnly())
        result = validate(game)
        replayed = [f for f in result.findings if not any(f is g for g in game.findings)]
        key = lambda f: (f.line, f.code, f.column, f.message)  # noqa: E731
        assert sorted(map(key, outcome.findings)) == sorted(map(key, replayed))
        assert (outcome.recorded, outcome.computed) == (result.recorded, result.computed)
        assert (outcome.end_reason, outcome.end_rule) == (result.end_reason, result.end_rule)


def test_the_record_exercises_the_walk():
    # the test record: a misscore, a salvaged line, a lost line, a withdrawn phony
    game = parse_string(RECORD)
    codes = [(f.code, f.line) for f in validate(game).findings if f.severity == "error"]
    assert ("S601", 3) in codes and ("P102", 4) in codes and ("P103", 7) in codes
    assert [lost.line for lost in game.lost] == [4, 7] and game.lost[0].event is not None


def test_the_positions_visitor_is_what_replay_yields():
    for game in games():
        mine = walk(game, rules_for(game)[0], Positions())
        theirs = list(replay(game))
        assert len(mine) == len(theirs) == len(game.events) + 1
        for a, b in zip(mine, theirs, strict=True):
            assert (a.number, a.event, a.scores, a.recorded, a.bag, a.racks, a.kept) == (
                b.number, b.event, b.scores, b.recorded, b.bag, b.racks, b.kept,
            )  # fmt: skip
            assert a.board.cells == b.board.cells and a.pool == b.pool
            assert [f.code for f in a.findings] == [f.code for f in b.findings]
            assert (a.words, a.leave, a.to_move) == (b.words, b.leave, b.to_move)
        # each position owns its board: the start is still empty at the end
        assert not any(mine[0].board.cells)


@pytest.mark.parametrize("detail", [True, False])
def test_each_event_hands_lean_positions_while_the_walk_stands_at_them(detail):
    for game in games():
        rules, _ = rules_for(game)
        full = walk(game, rules, Positions())[1:]
        seen: list[tuple[int, list[str], list[str], object]] = []

        def on_event(pos: Position, replayer: Replayer, seen: list = seen) -> None:
            # the live board is the one after this event: its words are the position's
            words = [w.text for w in replayer.words_now(pos)]
            shown = [w.text for w in pos.words]
            seen.append((pos.number, words, shown, pos.leave))

        end = walk(game, rules, EachEvent(on_event, detail=detail))
        assert isinstance(end, Replayer) and end.recorded == full[-1].recorded
        assert [s[0] for s in seen] == [p.number for p in full]
        for (_, words, shown, leave), pos in zip(seen, full, strict=True):
            assert words == [w.text for w in pos.words]
            assert shown == (words if detail else [])
            # without detail a play's leave is not worked out (a pass's and an exchange's are)
            if detail or pos.event.kind is not EventKind.PLAY:
                assert leave == pos.leave
            else:
                assert leave is None


def test_replay_is_lazy_it_replays_no_further_than_it_is_asked(monkeypatch):
    game = max(games(), key=lambda g: len(g.events))
    assert len(game.events) > 10
    steps: list[int] = []
    step = Replayer._step

    def counted(self: Replayer, i: int, e: object) -> Position:
        steps.append(i)
        return step(self, i, e)

    monkeypatch.setattr(Replayer, "_step", counted)
    positions = replay(game)
    assert steps == []  # nothing is replayed before the first position is asked for
    first = [next(positions), next(positions)]
    assert [p.number for p in first] == [0, 1] and steps == [0]
    rest = list(positions)
    assert [p.number for p in rest] == list(range(2, len(game.events) + 1))
    assert steps == list(range(len(game.events)))
    # the positions made lazily are those of the walk that runs the whole record
    full = walk(game, rules_for(game)[0], Positions())
    for a, b in zip([*first, *rest], full, strict=True):
        assert (a.number, a.scores, a.recorded, a.bag, a.racks, a.kept, a.to_move) == (
            b.number, b.scores, b.recorded, b.bag, b.racks, b.kept, b.to_move,
        )  # fmt: skip
        assert a.board.cells == b.board.cells and a.pool == b.pool
        assert [f.code for f in a.findings] == [f.code for f in b.findings]
