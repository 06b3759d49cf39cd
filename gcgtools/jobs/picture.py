"""The board picture of an event: the replay to that event computed here, the picture
drawn by :func:`gcgtools.render.svg.position_picture` (which replays nothing).

    >>> svg = picture(gcgtools.read_game("game.gcg"), 12)  # doctest: +SKIP
"""

from __future__ import annotations

from gcgtools.model.game import Game
from gcgtools.render.svg import position_picture
from gcgtools.replay.after import position_after
from gcgtools.rules.options import NO_OPTIONS, RuleOptions

__all__ = ["picture", "position_after"]  # position_after: re-exported from gcgtools.replay


def picture(
    game: Game,
    move: int | None = None,
    *,
    fmt: str = "svg",
    options: RuleOptions = NO_OPTIONS,
    size: int = 600,
) -> bytes:
    """The board after event ``move`` (see :func:`position_after`) as SVG or PNG bytes,
    ``size`` pixels wide."""
    pos, rules = position_after(game, move, options)
    return position_picture(game, pos, fmt=fmt, tiles=rules.tiles, size=size)
