"""A full-tree minimax of small endgames, for the tests of the endgame solver: every move
of every line to the end of the game, no pruning, no transposition table, no depth
limit; written out here from the rules, independently of the solver's code.

Rules (those ``docs/endgame.md`` states): a play scores its score; a play of ``k`` tiles
draws ``min(k, bag)`` tiles from the front of the bag; a player whose rack is empty with
the bag empty has gone out and gains twice the opponent's rack points; passes in a row
end the game (two, or one when the position's scoreless turns stand one short of six),
each player losing their own rack points. Generated move lists are remembered per board
and rack (the values never are), so that a tree of some hundred thousand lines is quick.
"""

from __future__ import annotations

from gcgtools.movegen import generate_moves


class TooBig(Exception):
    """The tree has more lines than the cap: the caller picks a smaller position."""


class Brute:
    def __init__(self, lexicon, rules, cap: int = 200_000) -> None:
        self.lexicon = lexicon
        self.rules = rules
        self.values = rules.tiles.token_values
        self.memo: dict[tuple, list] = {}
        self.nodes = 0
        self.cap = cap

    def points(self, rack) -> int:
        return sum(self.values[t] for t in rack)

    def moves(self, board, rack, other, bag):
        key = (tuple(board.cells), tuple(sorted(rack)), len(bag) > 0)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = generate_moves(
                board, list(rack), self.lexicon, leaves=None, bag_count=len(bag),
                opponent_rack=list(other) if not bag else None, exchanges=False,
                rules=self.rules,
            )  # fmt: skip
        return found

    def value(self, board, mine, theirs, bag, passes: int, end: int) -> int:
        """The value for the player to move (holding ``mine``) after ``passes`` passes
        in a row, the game ending at ``end`` of them."""
        self.nodes += 1
        if self.nodes > self.cap:
            raise TooBig
        best = None
        for m in self.moves(board, mine, theirs, bag):
            if m.kind == "pass":
                if passes + 1 >= end:
                    v = self.points(theirs) - self.points(mine)
                else:
                    v = -self.value(board, theirs, mine, bag, passes + 1, end)
            else:
                child = board.copy()
                left = list(mine)
                for r, c, t in m.squares:
                    child[r, c] = t
                    left.remove(t if t.isupper() else "?")
                k = min(len(m.squares), len(bag))
                left += bag[:k]
                rest = bag[k:]
                if not left:
                    v = m.score + 2 * self.points(theirs)
                else:
                    v = m.score - self.value(child, theirs, left, rest, 0, end)
            if best is None or v > best:
                best = v
        assert best is not None  # the pass is always there
        return best

    def root_values(self, board, mine, theirs, bag=(), zeros: int = 0) -> dict[str, int]:
        """Every root move's value, by its notation."""
        end = 1 if zeros + 1 >= self.rules.max_scoreless_turns else 2
        out = {}
        for m in self.moves(board, mine, theirs, list(bag)):
            if m.kind == "pass":
                if end == 1:
                    v = self.points(theirs) - self.points(mine)
                else:
                    v = -self.value(board, theirs, mine, list(bag), 1, end)
            else:
                child = board.copy()
                left = list(mine)
                for r, c, t in m.squares:
                    child[r, c] = t
                    left.remove(t if t.isupper() else "?")
                k = min(len(m.squares), len(bag))
                left += list(bag[:k])
                if not left:
                    v = m.score + 2 * self.points(theirs)
                else:
                    v = m.score - self.value(child, theirs, left, list(bag[k:]), 0, end)
            out[m.notation()] = v
        return out
