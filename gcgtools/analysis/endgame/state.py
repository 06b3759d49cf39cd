"""The state the search walks: board, racks, bag, side to move and scoreless turns, with
one move played or taken back at a time and a Zobrist hash kept up to date.

End of the game, and what it is worth to the player who made the last move (values are
always *gains over the opponent*, points added to the spread of the player to move):

* **Going out**: a play that leaves its player's rack empty with the bag empty ends the
  game. The player gains the play's score plus the opponent's rack as the end rule counts
  it in spread: twice its value under every rule set (standard: ``+2x`` to the player who
  went out; international and home: ``+x`` to them and ``-x`` to the opponent).
* **Scoreless turns**: passes in a row end the game, each player losing the value of their
  own rack (``RACK (RACK) -N`` lines, six-zero rule). As MAGPIE's endgame solver does
  (``game_set_endgame_solving_mode``), the search ends the game after **two** passes in
  a row, or after **one** when the position's scoreless turns already stand one short of
  the rule's limit (``max_scoreless_turns``, 6). Two passes in a row give back the same
  position, so the only difference a longer rule makes is a repetition.
* A play of tiles always resets the count (it changes the position), even one that
  scores 0 with blanks.

A play of ``k`` tiles draws ``min(k, len(bag))`` tiles from the front of ``bag``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gcgtools.analysis.endgame.moves import EgMove, MoveSource
from gcgtools.analysis.endgame.position import EndgamePosition

__all__ = ["SearchState", "passes_to_end"]

_SEED = 0x5EED_E6

#: what :meth:`SearchState.undo` needs: player, scoreless turns, hash, rack, bag size
Undo = tuple[int, int, int, list[str], int]


def passes_to_end(zeros: int, max_scoreless_turns: int) -> int:
    """Scoreless turns in a row that end the game from a position with ``zeros`` of
    them so far: 1 when one more reaches the rule's limit, else 2."""
    return 1 if zeros + 1 >= max_scoreless_turns else 2


class _Keys:
    """Zobrist keys, made on demand from a fixed seed."""

    def __init__(self) -> None:
        self._rng = random.Random(_SEED)
        self._keys: dict[tuple[object, ...], int] = {}

    def __call__(self, *what: object) -> int:
        key = self._keys.get(what)
        if key is None:
            key = self._keys[what] = self._rng.getrandbits(64)
        return key


class SearchState:
    """The mutable state of one search (player 0 is the player to move at the root)."""

    def __init__(self, position: EndgamePosition, source: MoveSource) -> None:
        self.board = position.board.copy()
        self.racks: list[list[str]] = [list(position.racks[0]), list(position.racks[1])]
        self.bag: list[str] = list(position.bag)
        self.to_move = 0
        self.zeros = 0
        self.end_zeros = passes_to_end(position.zeros, position.rules.max_scoreless_turns)
        self.source = source
        self.values = position.rules.tiles.token_values
        rule = position.rules.end_rule
        # the spread a player who goes out gains per point left on the opponent's rack
        self.out_factor = rule.out_multiplier + (1 if rule.deducts_own_rack else 0)
        self.keys = _Keys()
        self.hash = self._full_hash()

    # ------------------------------------------------------------------ hashing
    def _rack_hash(self, player: int, rack: Sequence[str]) -> int:
        h = 0
        seen: dict[str, int] = {}
        keys = self.keys
        for t in rack:
            n = seen[t] = seen.get(t, 0) + 1
            h ^= keys("rack", player, t, n)
        return h

    def _bag_hash(self, bag: Sequence[str]) -> int:
        h = 0
        n = len(bag)
        for j, t in enumerate(bag):
            h ^= self.keys("bag", n - 1 - j, t)
        return h

    def _full_hash(self) -> int:
        h = 0
        for i, t in enumerate(self.board.cells):
            if t is not None:
                h ^= self.keys("sq", i, t)
        h ^= self._rack_hash(0, self.racks[0]) ^ self._rack_hash(1, self.racks[1])
        h ^= self._bag_hash(self.bag)
        h ^= self.keys("zeros", self.zeros) ^ self.keys("side", self.to_move)
        return h

    # ------------------------------------------------------------------ values
    def rack_points(self, player: int) -> int:
        values = self.values
        return sum(values[t] for t in self.racks[player])

    def estimate(self) -> int:
        """A guess at the value for the player to move where the search stops short of
        the end: the opponent's rack points minus their own (as if both were stuck)."""
        p = self.to_move
        return self.rack_points(1 - p) - self.rack_points(p)

    def moves(self) -> list[EgMove]:
        p = self.to_move
        return self.source.moves(self.board, self.racks[p], self.racks[1 - p], len(self.bag))

    # ------------------------------------------------------------------ play / undo
    def play(self, m: EgMove) -> tuple[int, bool, Undo]:
        """Play ``m`` for the player to move: its gain, whether the game is over, and
        what :meth:`undo` needs."""
        p = self.to_move
        rack = self.racks[p]
        undo = (p, self.zeros, self.hash, rack, len(self.bag))
        keys = self.keys
        h = self.hash ^ keys("zeros", self.zeros) ^ keys("side", p) ^ keys("side", 1 - p)
        if m.is_pass:
            self.zeros += 1
            h ^= keys("zeros", self.zeros)
            self.hash, self.to_move = h, 1 - p
            if self.zeros >= self.end_zeros:
                return self.rack_points(1 - p) - rack_points_of(rack, self.values), True, undo
            return 0, False, undo
        cells = self.board.cells
        for i, t in m.cells:
            cells[i] = t
            h ^= keys("sq", i, t)
        left = list(rack)
        for t in m.used:
            left.remove(t)
        k = min(len(m.used), len(self.bag))
        if k:
            h ^= self._bag_hash(self.bag)
            left.extend(self.bag[:k])
            del self.bag[:k]
            h ^= self._bag_hash(self.bag)
        h ^= self._rack_hash(p, rack) ^ self._rack_hash(p, left)
        self.racks[p] = left
        self.zeros = 0
        h ^= keys("zeros", 0)
        self.hash, self.to_move = h, 1 - p
        if not left:
            return m.score + self.out_factor * self.rack_points(1 - p), True, undo
        return m.score, False, undo

    def undo(self, m: EgMove, undo: Undo) -> None:
        p, zeros, h, rack, bag_len = undo
        if not m.is_pass:
            cells = self.board.cells
            for i, _ in m.cells:
                cells[i] = None
            drawn = bag_len - len(self.bag)
            if drawn:
                self.bag[:0] = self.racks[p][len(self.racks[p]) - drawn :]
        self.racks[p] = rack
        self.to_move, self.zeros, self.hash = p, zeros, h


def rack_points_of(rack: Sequence[str], values: dict[str, int]) -> int:
    return sum(values[t] for t in rack)
