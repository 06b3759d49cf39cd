"""Text lines for an inference of the opponent's leave (``gcgtools moves --infer``)."""

from __future__ import annotations

from collections.abc import Iterator

from gcgtools.analysis.inference import Inference
from gcgtools.replay.position import tiles_text
from gcgtools.wording import plural

__all__ = ["inference_lines"]


def inference_lines(result: Inference, where: str, top: int) -> Iterator[str]:
    """A header (the turn inferred from, the unseen tiles, how many leaves were weighed),
    then the ``top`` likeliest leaves (0: all) with their probabilities."""
    turn = result.turn
    yield f"{where} event {turn.event}: {result.nick} played {turn.text}"
    yield f"unseen before it: {tiles_text(result.unseen)} ({len(result.unseen)})"
    if not result.rack_known:
        yield "(the rack of the player to move is not known: its tiles are counted unseen)"
    if result.uniform:
        yield (
            f"a {turn.kind} {'of unknown tiles ' if turn.kind == 'exchange' else ''}says nothing "
            f"of the rack: a uniform draw of {min(result.rack_size, len(result.unseen))} "
            "unseen tiles"
        )
        return
    how = (
        "every one weighed"
        if result.exhaustive
        else f"{plural(result.samples, 'random draw')} weighed, {result.considered} distinct"
    )
    yield (
        f"{plural(result.possible, 'possible leave')} ({how}); margin {result.margin:g} "
        f"points; {plural(len(result.leaves), 'leave')} kept"
    )
    if result.fallback:
        yield "no leave made the play within the margin of the best: the draw odds alone"
    if result.recorded is not None:
        yield f"the record shows the leave: {tiles_text(result.recorded) or '-'}"
    shown = result.leaves if top <= 0 else result.leaves[:top]
    width = max([len(x.text) for x in shown] + [5])
    yield f"{'#':>4}  {'leave':<{width}}  {'prob':>7}  {'draws':>6}  {'gap':>6}  best"
    for rank, x in enumerate(shown, 1):
        yield (
            f"{rank:>4}  {x.text:<{width}}  {x.probability:>7.2%}  {x.draws:>6}  "
            f"{x.gap:>6.2f}  {x.best}"
        )
    yield f"{len(shown)} of {plural(len(result.leaves), 'leave')} shown"
