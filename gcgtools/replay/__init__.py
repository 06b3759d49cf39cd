"""Replay layer: board state, scoring, and the findings of a whole record."""

from gcgtools.replay.board import Board, square_name
from gcgtools.replay.engine import Position, Replayer, Validation, replay, validate
from gcgtools.replay.scoring import PlayScore, Word, score_play
from gcgtools.replay.setup import rules_for

__all__ = [
    "Board",
    "PlayScore",
    "Position",
    "Replayer",
    "Validation",
    "Word",
    "replay",
    "rules_for",
    "score_play",
    "square_name",
    "validate",
]
