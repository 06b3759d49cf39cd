"""One budget for a whole pre-endgame solve: nodes and seconds spent by every stage and
every scenario's search together (:class:`Budget`)."""

from __future__ import annotations

import time

from gcgtools.analysis.endgame.result import Limit
from gcgtools.console import stop_requested

__all__ = ["Budget"]

#: the share of a node budget kept back from the searches' own limits: a proved search
#: follows its principal variation after its limit (a few nodes more)
MARGIN = 0.03


class Budget:
    """What is left of ``limit`` (``nodes`` and ``seconds``; ``depth`` is each search's
    own) since the budget was made. ``charge`` counts the nodes a step spent."""

    def __init__(self, limit: Limit) -> None:
        self.limit = limit
        self.start = time.perf_counter()
        self.nodes = 0
        self.max_nodes = None if limit.nodes is None else limit.nodes * (1 - MARGIN)
        self.deadline = None if limit.seconds is None else self.start + limit.seconds

    @property
    def bounded(self) -> bool:
        return self.max_nodes is not None or self.deadline is not None

    def charge(self, nodes: int) -> None:
        self.nodes += nodes

    def nodes_left(self) -> float | None:
        return None if self.max_nodes is None else self.max_nodes - self.nodes

    def seconds_left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def spent(self) -> bool:
        """Whether nothing is left, or a stop was asked for (Ctrl-C, SIGTERM)."""
        return self.reason() is not None

    def reason(self) -> str | None:
        """Why nothing is left (``interrupted``, ``nodes``, ``seconds``), or None."""
        if stop_requested():
            return "interrupted"
        nodes, seconds = self.nodes_left(), self.seconds_left()
        if nodes is not None and nodes < 1:
            return "nodes"
        if seconds is not None and seconds <= 0:
            return "seconds"
        return None

    def share(self, fraction: float) -> tuple[float | None, float | None]:
        """``fraction`` of the nodes and of the seconds left (None: no limit)."""
        nodes, seconds = self.nodes_left(), self.seconds_left()
        return (
            None if nodes is None else nodes * fraction,
            None if seconds is None else seconds * fraction,
        )

    def search_limit(self, nodes: float | None, seconds: float | None) -> Limit | None:
        """A search's limit: at most ``nodes`` and ``seconds`` (None: no cap of its own)
        and never more than is left; None when nothing is left."""
        if self.spent():
            return None
        left_n, left_s = self.nodes_left(), self.seconds_left()
        n = _least(nodes, left_n)
        s = _least(seconds, left_s)
        return Limit(
            nodes=None if n is None else max(1, int(n)),
            seconds=None if s is None else max(s, 1e-3),
            depth=self.limit.depth,
        )

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def _least(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)
