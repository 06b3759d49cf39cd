"""The colours of the players, defined once for every output: the score band of board
pictures, the HTML report (names, score lines) and the matplotlib charts. Player ``k``
(0-based seat) is ``player_colour(k)`` everywhere."""

from __future__ import annotations

__all__ = ["PLAYER_COLOURS", "player_colour"]

PLAYER_COLOURS = ("#1f6fb2", "#c0392b", "#2e8b57", "#8e44ad")
"""Blue, red, green, purple: seats 1 to 4 (then again)."""


def player_colour(seat: int) -> str:
    """The colour of the player in 0-based ``seat``."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
