"""Replay layer: board state, scoring, and the findings of a whole record."""

import sys
import types
from collections.abc import Iterator
from typing import Any

from gcgtools.model.game import Game
from gcgtools.replay.board import Board, square_name
from gcgtools.replay.scoring import PlayScore, Word, score_play
from gcgtools.replay.setup import rules_for
from gcgtools.replay.walk import (
    EachEvent,
    FindingsOnly,
    Outcome,
    Position,
    Positions,
    Replayer,
    ReplayVisitor,
    Validation,
    replay,
    validate,
    walk,
)

__all__ = [
    "Board",
    "EachEvent",
    "FindingsOnly",
    "Outcome",
    "PlayScore",
    "Position",
    "Positions",
    "ReplayVisitor",
    "Replayer",
    "Validation",
    "Word",
    "replay",
    "rules_for",
    "score_play",
    "square_name",
    "validate",
    "walk",
]


class _CallableModule(types.ModuleType):
    """``gcgtools.replay`` is both this package and the function :func:`replay`: the root
    package imports its names lazily, so whichever of the two ``gcgtools.replay`` names,
    ``gcgtools.replay(game)`` replays the game."""

    def __call__(self, game: Game, *args: Any, **keywords: Any) -> Iterator[Position]:
        return replay(game, *args, **keywords)


sys.modules[__name__].__class__ = _CallableModule
