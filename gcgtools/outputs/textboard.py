"""The board as text, with the players' scores and racks after a move."""

from __future__ import annotations

from gcgtools.model.game import Game
from gcgtools.replay.engine import Position


def position_text(game: Game, pos: Position) -> str:
    """The board after ``pos`` with a line per player: score and last known rack."""
    lines = [str(pos.board), ""]
    if pos.event is not None:
        e = pos.event
        lines.append(f"after line {e.line}: {game.lines[e.line - 1].text.strip()}")
    else:
        lines.append("before the first move")
    for p in game.players:
        if p.index >= len(pos.scores):
            continue
        rack = pos.racks[p.index] or "?"
        lines.append(
            f"  {p.nick:<16} {pos.recorded[p.index]:>4} (computed {pos.scores[p.index]:>4})"
            f"  rack {rack}"
        )
    lines.append(f"  bag: {pos.bag} tiles; unseen: {pos.unseen}")
    return "\n".join(lines)
