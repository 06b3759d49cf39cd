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
from gcgtools.rules.tiles import BLANK

__all__ = ["SearchState", "passes_to_end"]

_SEED = 0x5EED_E6

#: what :meth:`SearchState.undo` needs: player, scoreless turns, hash, rack, bag size,
#: rack points and rack hash
Undo = tuple[int, int, int, list[str], int, int, int]
#: what a move does from its position (:meth:`SearchState.after`): the hash change, the
#: rack left (never changed in place), the scoreless turns after it, its gain, whether
#: the game is over, the squares filled, the tiles drawn, the points and hash of the rack left
After = tuple[int, list[str], int, int, bool, tuple[tuple[int, str], ...], int, int, int]
_MASK = (1 << 64) - 1


def passes_to_end(zeros: int, max_scoreless_turns: int) -> int:
    """Scoreless turns in a row that end the game from a position with ``zeros`` of
    them so far: 1 when one more reaches the rule's limit, else 2."""
    return 1 if zeros + 1 >= max_scoreless_turns else 2


class _Keys(dict[tuple[object, ...], int]):
    """Zobrist keys, made on demand from a fixed seed: ``keys[("sq", i, tile)]``."""

    def __init__(self) -> None:
        super().__init__()
        self._rng = random.Random(_SEED)

    def __missing__(self, what: tuple[object, ...]) -> int:
        key = self[what] = self._rng.getrandbits(64)
        return key


class SearchState:
    """The mutable state of one search (player 0 is the player to move at the root).

    The hash is the exclusive or of the keys of the board's tiles, of the bag (by place),
    of the scoreless turns and of the side to move, and of each rack's hash: the sum
    (modulo 2**64) of its tiles' keys, so that a rack is hashed as a multiset and a tile
    played or drawn changes it by one key."""

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
        self.points = [rack_points_of(r, self.values) for r in self.racks]
        self.rack_hashes = [self._rack_hash(p, r) for p, r in enumerate(self.racks)]
        self.hash = self._full_hash()

    # ------------------------------------------------------------------ hashing
    def _rack_hash(self, player: int, rack: Sequence[str]) -> int:
        keys = self.keys
        return sum(keys[("rack", player, t)] for t in rack) & _MASK

    def _bag_hash(self, bag: Sequence[str]) -> int:
        h = 0
        n = len(bag)
        for j, t in enumerate(bag):
            h ^= self.keys[("bag", n - 1 - j, t)]
        return h

    def _full_hash(self) -> int:
        keys = self.keys
        h = 0
        for i, t in enumerate(self.board.cells):
            if t is not None:
                h ^= keys[("sq", i, t)]
        h ^= self.rack_hashes[0] ^ self.rack_hashes[1]
        h ^= self._bag_hash(self.bag)
        h ^= keys[("zeros", self.zeros)] ^ keys[("side", self.to_move)]
        return h

    # ------------------------------------------------------------------ values
    def rack_points(self, player: int) -> int:
        return self.points[player]

    def estimate(self) -> int:
        """A guess at the value for the player to move where the search stops short of
        the end: the opponent's rack points minus their own (as if both were stuck)."""
        p = self.to_move
        return self.points[1 - p] - self.points[p]

    def moves(self, top: int | None = None, skip: int = 0) -> list[EgMove]:
        """The moves of the player to move (see :meth:`MoveSource.moves`)."""
        p = self.to_move
        return self.source.moves(
            self.board, self.racks[p], self.racks[1 - p], len(self.bag), top=top, skip=skip
        )

    # ------------------------------------------------------------------ play / undo
    def play(self, m: EgMove) -> tuple[int, bool, Undo]:
        """Play ``m`` for the player to move: its gain, whether the game is over, and
        what :meth:`undo` needs. What the move does is worked out the first time it is
        played (:meth:`after`) and kept on the move: a move is only played from the
        position whose move list holds it."""
        p = self.to_move
        undo = (
            p, self.zeros, self.hash, self.racks[p], len(self.bag), self.points[p],
            self.rack_hashes[p],
        )  # fmt: skip
        after = m.after
        if after is None:
            after = m.after = self.after(m)
        delta, left, zeros, gain, over, cells, drawn, points, rack_hash = after  # type: ignore[misc]
        if cells:
            board = self.board.cells
            for i, t in cells:
                board[i] = t
            if drawn:
                del self.bag[:drawn]
        self.racks[p] = left
        self.points[p] = points
        self.rack_hashes[p] = rack_hash
        self.zeros = zeros
        self.hash ^= delta
        self.to_move = 1 - p
        return gain, over, undo

    def after(self, m: EgMove) -> After:
        """What playing ``m`` here does, without playing it (see :data:`After`)."""
        p = self.to_move
        rack = self.racks[p]
        keys = self.keys
        points, rack_hash = self.points[p], self.rack_hashes[p]
        delta = keys[("zeros", self.zeros)] ^ keys[("side", p)] ^ keys[("side", 1 - p)]
        if m.is_pass:
            zeros = self.zeros + 1
            delta ^= keys[("zeros", zeros)]
            over = zeros >= self.end_zeros
            gain = self.points[1 - p] - points if over else 0
            return delta, rack, zeros, gain, over, (), 0, points, rack_hash
        cells = m.cells(self.board.size)
        left = list(rack)
        values = self.values
        for i, t in cells:
            delta ^= keys[("sq", i, t)]
            u = t if t.isupper() else BLANK
            left.remove(u)
            points -= values[u]
            rack_hash -= keys[("rack", p, u)]
        drawn = min(len(cells), len(self.bag))
        if drawn:
            delta ^= self._bag_hash(self.bag) ^ self._bag_hash(self.bag[drawn:])
            for t in self.bag[:drawn]:
                left.append(t)
                points += values[t]
                rack_hash += keys[("rack", p, t)]
        rack_hash &= _MASK
        delta ^= self.rack_hashes[p] ^ rack_hash ^ keys[("zeros", 0)]
        if not left:
            gain = m.move.score + self.out_factor * self.points[1 - p]
            return delta, left, 0, gain, True, cells, 0, 0, rack_hash
        return delta, left, 0, m.move.score, False, cells, drawn, points, rack_hash

    def undo(self, m: EgMove, undo: Undo) -> None:
        p, zeros, h, rack, bag_len, points, rack_hash = undo
        drawn = bag_len - len(self.bag)
        if drawn:
            self.bag[:0] = self.racks[p][len(self.racks[p]) - drawn :]
        cells = self.board.cells
        for i, _ in m.after[5]:  # type: ignore[index]
            cells[i] = None
        self.racks[p] = rack
        self.points[p] = points
        self.rack_hashes[p] = rack_hash
        self.to_move, self.zeros, self.hash = p, zeros, h


def rack_points_of(rack: Sequence[str], values: dict[str, int]) -> int:
    return sum(values[t] for t in rack)
