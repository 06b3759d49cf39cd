"""What the solvers start from: a board, both racks (the player to move first), the tiles
left in the bag, the scoreless turns in a row so far and the scores; and how to make one
from a record's position (:class:`gcgtools.movegen.record.RecordPosition`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from gcgtools.movegen.generate import LexiconLike, rack_tiles
from gcgtools.movegen.record import RecordPosition
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import RuleSet
from gcgtools.rules.tiles import BLANK

__all__ = [
    "MAX_PREENDGAME_BAG",
    "EndgameError",
    "EndgamePosition",
    "PreendgamePosition",
    "endgame_position",
    "preendgame_position",
]


#: the most tiles in the bag the pre-endgame solver takes
MAX_PREENDGAME_BAG = 4


class EndgameError(ValueError):
    """A position the solvers cannot take: the message says why (one line)."""


@dataclass(frozen=True)
class EndgamePosition:
    """A position with both racks known. ``racks``: the player to move's, then the
    opponent's (tile texts, upper case, blanks ``?``). ``bag``: the tiles still in the
    bag in the order they will be drawn (empty in an endgame; one tile in a scenario of a
    pre-endgame). ``zeros``: scoreless turns in a row so far (it decides when passes end
    the game, see :mod:`gcgtools.analysis.endgame.state`). ``scores``: the player to
    move's score, then the opponent's (only the pre-endgame's win% uses them)."""

    board: Board
    racks: tuple[tuple[str, ...], tuple[str, ...]]
    lexicon: LexiconLike
    rules: RuleSet
    bag: tuple[str, ...] = ()
    zeros: int = 0
    scores: tuple[int, int] = (0, 0)

    @classmethod
    def of(
        cls,
        board: Board,
        rack: str | Sequence[str],
        opponent_rack: str | Sequence[str],
        lexicon: LexiconLike,
        rules: RuleSet,
        *,
        bag: Sequence[str] = (),
        zeros: int = 0,
        scores: tuple[int, int] = (0, 0),
    ) -> EndgamePosition:
        """A position from racks written as text (``AEI?``) or as lists of tiles."""
        tiles = rules.tiles
        mine = tuple(rack_tiles(rack, tiles))
        theirs = tuple(rack_tiles(opponent_rack, tiles))
        if not mine:
            raise EndgameError("the player to move has no tiles: the game is over")
        if not theirs and not bag:
            raise EndgameError("the opponent has no tiles: the game is over")
        return cls(board, (mine, theirs), lexicon, rules, tuple(bag), zeros, scores)


@dataclass(frozen=True)
class PreendgamePosition:
    """A position with ``bag_size`` tiles in the bag (1 to :data:`MAX_PREENDGAME_BAG`)
    and the opponent's rack unknown:
    ``unseen`` are the tiles the player to move cannot see (the opponent's rack and the
    bag together)."""

    board: Board
    rack: tuple[str, ...]
    unseen: tuple[str, ...]
    lexicon: LexiconLike
    rules: RuleSet
    bag_size: int = 1
    zeros: int = 0
    scores: tuple[int, int] = (0, 0)


def _unseen(rp: RecordPosition) -> list[str]:
    if rp.rack is None:
        raise EndgameError(f"the record does not show the rack of {rp.nick} after event {rp.event}")
    if rp.position is None:
        raise EndgameError("the position has no tile pool (a CGP position)")
    pool = Counter(t if t == BLANK else t.upper() for t in rp.position.pool.elements())
    missing = Counter(rp.rack) - pool
    if missing:
        raise EndgameError(f"the rack holds {''.join(missing.elements())}, which are not unseen")
    return sorted((pool - Counter(rp.rack)).elements())


def _game_over(rp: RecordPosition) -> None:
    if rp.position is not None and rp.position.game_over:
        raise EndgameError(f"the game is over after event {rp.event}")


def endgame_position(rp: RecordPosition, lexicon: LexiconLike) -> EndgamePosition:
    """The endgame after a record's event: the bag must be empty and the rack of the
    player to move known; the opponent holds every other unseen tile."""
    _game_over(rp)
    if rp.bag != 0:
        raise EndgameError(f"the bag holds {rp.bag} tiles after event {rp.event}: no endgame")
    unseen = rp.opponent_rack if rp.position is None else _unseen(rp)
    if rp.rack is None or unseen is None:
        raise EndgameError(f"the racks after event {rp.event} are not known")
    return EndgamePosition.of(
        rp.board, rp.rack, unseen, lexicon, rp.rules, zeros=rp.zeros, scores=rp.scores
    )


def preendgame_position(rp: RecordPosition, lexicon: LexiconLike) -> PreendgamePosition:
    """The pre-endgame after a record's event: 1 to :data:`MAX_PREENDGAME_BAG` tiles in
    the bag, the rack of the player to move known."""
    _game_over(rp)
    if not 1 <= rp.bag <= MAX_PREENDGAME_BAG:
        raise EndgameError(
            f"the bag holds {rp.bag} tiles after event {rp.event}: "
            f"a pre-endgame needs 1 to {MAX_PREENDGAME_BAG}"
        )
    unseen = _unseen(rp)
    assert rp.rack is not None
    return PreendgamePosition(
        rp.board, tuple(rp.rack), tuple(unseen), lexicon, rp.rules, rp.bag, rp.zeros, rp.scores
    )
