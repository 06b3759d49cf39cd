"""The scenarios of a pre-endgame: every order in which the bag may hold its tiles.

The player to move sees the board and their rack; the other tiles of the tile set are
**unseen**: ``k`` of them are in the bag (1 to 4 here) and the rest on the opponent's rack.
Every physical tile of the unseen ones is equally likely to be in each place of the bag,
so each *ordered* draw of ``k`` of the ``N`` unseen tiles has probability
``1 / (N (N-1) ... (N-k+1))``. Tiles of the same letter cannot be told apart: a
scenario is a sequence of letters ``(t1, ..., tk)`` (``t1`` drawn first), its **weight**
the number of ordered draws of physical tiles that give it,
``c(t1) * (c(t2) - [t2 = t1]) * ...`` (``c`` the unseen counts), and its probability the
weight over ``N (N-1) ... (N-k+1)`` (the weights sum to that). The order matters: a
play of ``n < k`` tiles draws the first ``n`` and leaves the others in the bag, in order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Draw", "draws", "orderings"]


@dataclass(frozen=True)
class Draw:
    """One scenario: the ``bag`` in draw order, its ``weight`` (ordered draws of physical
    tiles that give it) and the ``opponent``'s rack (the unseen tiles less the bag,
    sorted)."""

    bag: tuple[str, ...]
    weight: int
    opponent: tuple[str, ...]

    @property
    def name(self) -> str:
        """The bag as text in draw order (``EI``: E drawn first), blanks ``?``."""
        return "".join(self.bag)


def orderings(unseen: int, k: int) -> int:
    """How many ordered draws of ``k`` physical tiles there are among ``unseen``:
    ``unseen (unseen-1) ... (unseen-k+1)`` (the sum of the scenarios' weights)."""
    out = 1
    for i in range(k):
        out *= unseen - i
    return out


def draws(unseen: Sequence[str], k: int) -> list[Draw]:
    """Every scenario with ``k`` tiles in the bag, in order of their bags (sorted)."""
    if not 1 <= k < len(unseen):
        raise ValueError(f"{k} tiles in the bag of {len(unseen)} unseen: no pre-endgame")
    counts = Counter(unseen)
    out: list[Draw] = []

    def walk(bag: list[str], weight: int) -> None:
        if len(bag) == k:
            rest = counts - Counter(bag)
            out.append(Draw(tuple(bag), weight, tuple(sorted(rest.elements()))))
            return
        for t in sorted(counts):
            left = counts[t] - bag.count(t)
            if left > 0:
                bag.append(t)
                walk(bag, weight * left)
                bag.pop()

    walk([], 1)
    return out
