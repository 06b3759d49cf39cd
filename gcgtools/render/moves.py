"""Text lines for a position's moves (``gcgtools moves``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from gcgtools.movegen.move import Move
from gcgtools.movegen.record import PositionMoves
from gcgtools.render.analysis import wrapped
from gcgtools.replay.position import tiles_text
from gcgtools.wording import plural

__all__ = ["moves_lines"]


def moves_lines(result: PositionMoves, shown: list[Move], where: str) -> Iterator[str]:
    """A header (position, rack, lexicon, leaves), one line per move in ``shown``, and the
    count of every move by kind."""
    pos = result.position
    rack = tiles_text(result.rack)
    if pos.event or pos.position is not None:
        yield f"{where} after event {pos.event}: {pos.nick} to move with {rack} (bag {pos.bag})"
    else:
        yield f"{where}: to move with {rack} (bag {pos.bag})"
    yield from wrapped([result.lexicon.describe(), result.leaves.describe()])
    width = max([len(m.notation()) for m in shown] + [4])
    yield f"{'#':>4}  {'move':<{width}}  {'score':>5}  {'leave':<8}  {'equity':>7}"
    for rank, m in enumerate(shown, 1):
        bingo = "  bingo" if m.bingo else ""
        yield (
            f"{rank:>4}  {m.notation():<{width}}  {m.score:>5}  {m.leave:<8}  "
            f"{m.equity:>7.2f}{bingo}"
        )
    kinds = Counter(m.kind for m in result.moves)
    total = len(result.moves)
    yield (
        f"{plural(total, 'move')} ({plural(kinds['play'], 'play')}, "
        f"{plural(kinds['exchange'], 'exchange')}, {plural(kinds['pass'], 'pass')}); "
        f"{len(shown)} shown"
    )
