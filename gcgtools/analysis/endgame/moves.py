"""The solver's one door to the move generator: every move of a rack on a board, as the
small records the search plays and takes back.

Every call into :mod:`gcgtools.movegen` made by the endgame solver goes through
:class:`MoveSource`, so that a faster generator (a compiled one with an incremental board,
or one that returns only the best moves) is wired in here, in one place.
"""

from __future__ import annotations

from collections.abc import Sequence

from gcgtools.movegen.generate import LexiconLike, MoveRequest, generate
from gcgtools.movegen.move import Move, MoveKind
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import RuleSet

__all__ = ["EgMove", "MoveSource"]


class EgMove:
    """One move as the search sees it: the generator's :class:`Move` (its notation and
    score), whether it is the pass and its ``index`` in its position's move list
    (what the transposition table keeps as the best move: the list of a position is the
    same whenever it is generated).

    A move is only ever played from the position whose list holds it, so what playing it
    does (the squares, the rack left, the hash change, the gain) is worked out the first
    time it is played and kept in ``after`` (see :meth:`SearchState.play`); most moves
    of a list are never played (cut-offs), and none of this is computed for them."""

    __slots__ = ("move", "is_pass", "index", "after")

    def __init__(self, move: Move, index: int) -> None:
        self.move = move
        self.is_pass = move.kind is MoveKind.PASS
        self.index = index
        self.after: tuple[object, ...] | None = None

    def cells(self, size: int) -> tuple[tuple[int, str], ...]:
        """The squares it fills: flat board index and tile (blanks lower case)."""
        mv = self.move
        if self.is_pass:
            return ()
        step = 1 if mv.across else size
        at, new = mv.row * size + mv.col, mv.new
        return tuple((at + k * step, t) for k, t in enumerate(mv.cells) if new >> k & 1)

    def notation(self) -> str:
        return self.move.notation()

    def __repr__(self) -> str:
        return f"<EgMove {self.notation()} {self.move.score}>"


class MoveSource:
    """Every legal move (plays and the pass; never an exchange, as the bag holds fewer
    tiles than an exchange needs) of a rack, through :func:`~gcgtools.movegen.generate`.

    The moves come best first by the generator's end-of-game equity (a play that goes
    out first, with the opponent's rack; else score minus the tiles kept), which is the
    solver's first move ordering."""

    def __init__(self, lexicon: LexiconLike, rules: RuleSet) -> None:
        self.lexicon = lexicon
        self.rules = rules
        self.calls = 0

    def moves(
        self,
        board: Board,
        rack: Sequence[str],
        opponent_rack: Sequence[str],
        bag_count: int,
        *,
        top: int | None = None,
        skip: int = 0,
    ) -> list[EgMove]:
        """The moves best first; only the first ``top`` when given (the generator finds
        them without building the rest, and they are the first ``top`` of the full list);
        ``skip``: leave out the first ``skip`` of them (already had), the others keeping
        their indices in the full list."""
        self.calls += 1
        found = generate(board, self.lexicon, MoveRequest(
            list(rack), leaves=None, bag_count=bag_count,
            opponent_rack=list(opponent_rack) if bag_count == 0 else None, exchanges=False,
            rules=self.rules, top=top or 0,
        ))  # fmt: skip
        return [EgMove(m, i) for i, m in enumerate(found) if i >= skip]
