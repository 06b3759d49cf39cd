"""``gcgtools moves --sim`` and ``moves --endgame`` as text (at most 80 columns a line for
moves of ordinary length) and as JSON lines (one per root move, best first)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

from gcgtools.analysis.endgame.result import EndgameResult, RootMove
from gcgtools.analysis.simulate import SimResult
from gcgtools.movegen.record import PositionMoves
from gcgtools.render import WIDTH
from gcgtools.replay.position import tiles_text

if TYPE_CHECKING:
    from gcgtools.analysis.endgame.preendgame import PreendgameResult

__all__ = ["deep_json", "endgame_lines", "sim_lines"]


def _header(pm: PositionMoves, where: str) -> str:
    pos = pm.position
    rack = tiles_text(pm.rack)
    if pos.event or pos.position is not None:
        return f"{where} after event {pos.event}: {pos.nick} to move with {rack} (bag {pos.bag})"
    return f"{where}: to move with {rack} (bag {pos.bag})"


def deep_json(result: SimResult | EndgameResult | PreendgameResult, top: int) -> Iterator[str]:
    """One JSON object per root move, best first (``top`` <= 0: every one); a simulated
    one names the win model (``win_model``)."""
    if isinstance(result, SimResult):
        rows = [{**c.to_dict(), "win_model": result.model} for c in result.candidates]
    elif isinstance(result, EndgameResult):
        rows = [r.to_dict() for r in result.moves]
    else:
        rows = [
            {**c.to_dict(), "preendgame": True, "stage": c.stage, "coverage": round(c.coverage, 6)}
            for c in result.candidates
        ]
    for row in rows if top <= 0 else rows[:top]:
        yield json.dumps(row, ensure_ascii=False)


def sim_lines(pm: PositionMoves, result: SimResult, where: str, top: int) -> Iterator[str]:
    """The header, one line per candidate (win% with its standard error, mean spread,
    iterations) and how the run stopped."""
    yield _header(pm, where)
    limit = result.limit
    yield (
        f"simulated: {limit.candidates} candidates, up to {limit.iterations} iterations of "
        f"{limit.plies} plies; seed {result.seed}"
    )
    yield f"win model: {result.model}"
    shown = result.candidates if top <= 0 else result.candidates[:top]
    width = min(max([len(c.move.notation()) for c in shown] + [4]), 24)
    yield f"{'#':>3}  {'move':<{width}}  {'score':>5}  {'win%':>6}  {'±':>5}  {'spread':>7}  iters"
    for rank, c in enumerate(shown, 1):
        dropped = "  dropped" if c.dropped else ""
        yield (
            f"{rank:>3}  {c.move.notation():<{width}}  {c.move.score:>5}  {c.win_pct:>6.1f}  "
            f"{c.stderr:>5.1f}  {c.spread:>+7.1f}  {c.iterations:>5}{dropped}"
        )
    yield f"stopped: {result.stopped} after {result.seconds:.1f} s"


def endgame_lines(
    pm: PositionMoves, result: EndgameResult | PreendgameResult, where: str, top: int
) -> Iterator[str]:
    """The header and one line per root move: the endgame value (points gained over the
    opponent to the end, best play by both) with whether it is proved and the principal
    variation; for a pre-endgame the win% and mean final spread over the draws that may
    be in the bag."""
    yield _header(pm, where)
    if not isinstance(result, EndgameResult):  # a pre-endgame's
        yield from _preendgame_lines(result, top)
        return
    proved = "proved" if result.proved else f"not proved ({result.why})"
    yield f"endgame: {proved}; depth {result.depth}, {result.nodes:,} nodes, {result.seconds:.1f} s"
    shown = result.moves if top <= 0 else result.moves[:top]
    width = min(max([len(r.notation) for r in shown] + [4]), 24)
    yield f"{'#':>3}  {'move':<{width}}  {'score':>5}  {'value':>6}  line"
    for rank, r in enumerate(shown, 1):
        value = ("" if r.proved else "~") + f"{r.value:+d}"  # ~: not proved
        head = f"{rank:>3}  {r.notation:<{width}}  {r.move.score:>5}  {value:>6}  "
        yield (head + _line(r, WIDTH - len(head))).rstrip()


def _line(r: RootMove, room: int) -> str:
    """The rest of ``r``'s principal variation, each move with its score, and the rack
    points it ends with (``rack +4``), in ``room`` characters (``...`` where cut)."""
    parts = [f"{m} {score}" for m, score in zip(r.pv[1:], r.pv_scores[1:], strict=False)]
    if r.ending is not None:
        parts.append(f"rack {r.ending:+d}")
    kept = len(parts)
    while kept and len(", ".join(parts[:kept]) + (", ..." if kept < len(parts) else "")) > room:
        kept -= 1
    text = ", ".join(parts[:kept])
    if kept < len(parts):
        text += ", ..." if text else "..."
    return text


def _preendgame_lines(result: PreendgameResult, top: int) -> Iterator[str]:
    """The header (proved or not, the draws, the budget spent), one line per stage and
    one per candidate: win%, mean final spread (``~``: not proved), the share of the
    draws valued and the stage that valued it last."""
    proved = "proved" if result.proved else f"not proved ({result.why})"
    tiles = "1 tile" if result.bag_size == 1 else f"{result.bag_size} tiles"
    yield (
        f"pre-endgame ({tiles} in the bag, {result.scenarios} draws): {proved}; "
        f"{result.nodes:,} nodes, {result.seconds:.1f} s"
    )
    for s in result.stages:
        yield (
            f"  stage {s.number} {s.method}: {s.candidates} moves, {s.scenarios} draws, "
            f"{s.nodes:,} nodes, {s.seconds:.1f} s"
        )
    shown = result.candidates if top <= 0 else result.candidates[:top]
    width = min(max([len(c.move.notation()) for c in shown] + [4]), 24)
    yield f"{'#':>3}  {'move':<{width}}  {'score':>5}  {'win%':>6}  {'spread':>8}  draws   stage"
    for rank, c in enumerate(shown, 1):
        spread = ("" if c.proved else "~") + f"{c.spread:+.1f}"  # ~: not proved
        yield (
            f"{rank:>3}  {c.move.notation():<{width}}  {c.move.score:>5}  {c.win_pct:>6.1f}  "
            f"{spread:>8}  {100 * c.coverage:>5.1f}%  {c.stage:>5}"
        )
