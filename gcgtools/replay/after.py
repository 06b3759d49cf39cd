"""The position after one event of a record: the replay run up to it (what ``board``,
``picture``, ``moves`` and ``board -o`` start from)."""

from __future__ import annotations

from collections.abc import Iterable

from gcgtools.model.game import Game
from gcgtools.replay.walk import Position, replay
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.rules.resolve import resolve
from gcgtools.rules.rulesets import RuleSet

__all__ = ["position_after", "position_at", "replay_positions"]


def position_after(
    game: Game, move: int | None = None, options: RuleOptions = NO_OPTIONS
) -> tuple[Position, RuleSet]:
    """The position after event ``move`` (1-based; 0 is the empty board; None the end)
    and the rules it was replayed under (``options`` over what the record implies).
    Raises ValueError when there is no such event, KeyError for an unknown tile set or
    board name in ``options``."""
    if move is not None and not 0 <= move <= len(game.events):
        raise ValueError(f"move must be between 0 and {len(game.events)}")
    rules = resolve(game, options)
    return position_at(replay(game, rules), move), rules


def replay_positions(
    game: Game, options: RuleOptions = NO_OPTIONS
) -> tuple[list[Position], RuleSet]:
    """Every position of one replay of ``game`` (the start, then after each event) and the
    rules it was replayed under, as :func:`position_after` replays it: for a caller that
    needs the positions after many events (:func:`position_at` picks one)."""
    rules = resolve(game, options)
    return list(replay(game, rules)), rules


def position_at(positions: Iterable[Position], move: int | None) -> Position:
    """The position after event ``move`` among ``positions`` (a replay's, in order): the
    first numbered ``move`` or later; None, or a number past the last, the last."""
    last: Position | None = None
    for pos in positions:
        last = pos
        if move is not None and pos.number >= move:
            break
    assert last is not None
    return last
