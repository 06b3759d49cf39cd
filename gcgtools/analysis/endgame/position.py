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
from gcgtools.rules.tiles import BLANK, TileError, TileSet, is_blank_tile

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
        """A position from racks written as text (``AEI?``) or as lists of tiles.

        Every input is checked; :class:`EndgameError` (a ValueError, one line) says what
        is wrong: something else than a lexicon (with a KWG and tiles) or a rule set; a
        board of another size than the rules' or holding a tile the tile set
        does not have; a rack, the opponent's or the bag holding something that is not a
        tile; a rack of more tiles than the rules allow (or the player to move's of none);
        more of a tile on the board, in the racks and in the bag together than the tile
        set has (five blanks; a blank on the board counts as a ``?``); ``zeros`` not a
        whole number from 0 to one less than the rules' scoreless turns; ``scores`` not
        two whole numbers."""
        if not isinstance(rules, RuleSet):
            raise EndgameError(f"rules must be a RuleSet, not {type(rules).__name__}")
        if not isinstance(board, Board) or board.size != rules.board.size:
            raise EndgameError(f"the board is not a {rules.board.size}x{rules.board.size} board")
        if not hasattr(lexicon, "kwg") or not hasattr(lexicon, "tiles"):
            raise EndgameError(f"the lexicon must be a Lexicon, not {type(lexicon).__name__}")
        tiles = rules.tiles
        mine = _tiles_of(rack, tiles, "the rack")
        theirs = _tiles_of(opponent_rack, tiles, "the opponent's rack")
        in_bag = _tiles_of(bag, tiles, "the bag")
        if not mine:
            raise EndgameError("the player to move has no tiles: the game is over")
        if not theirs and not in_bag:
            raise EndgameError("the opponent has no tiles: the game is over")
        for what, held in (("the rack", mine), ("the opponent's rack", theirs)):
            if len(held) > rules.rack_size:
                raise EndgameError(
                    f"{what} has {len(held)} tiles; a rack holds at most {rules.rack_size}"
                )
        _check_counts(board, (*mine, *theirs, *in_bag), tiles)
        if isinstance(zeros, bool) or not isinstance(zeros, int):
            raise EndgameError(f"zeros must be a whole number, not {zeros!r}")
        if not 0 <= zeros < rules.max_scoreless_turns:
            raise EndgameError(
                f"zeros is {zeros}: scoreless turns so far run from 0 to "
                f"{rules.max_scoreless_turns - 1} ({rules.max_scoreless_turns} end the game)"
            )
        if (
            not isinstance(scores, tuple)
            or len(scores) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in scores)
        ):
            raise EndgameError(f"scores must be two whole numbers, not {scores!r}")
        return cls(board, (mine, theirs), lexicon, rules, in_bag, zeros, scores)


#: how much of a rack's or the bag's text a message quotes
_QUOTE = 40


def _tiles_of(held: str | Sequence[str], tiles: TileSet, what: str) -> tuple[str, ...]:
    """``held`` (text, or a sequence of tile texts) as tiles: upper case, blanks ``?``;
    :class:`EndgameError` naming ``what`` for anything that is not a tile of ``tiles``."""
    if not isinstance(held, (str, Sequence)):
        raise EndgameError(f"{what} must be text or a list of tiles, not {type(held).__name__}")
    if not isinstance(held, str) and not all(isinstance(t, str) for t in held):
        raise EndgameError(f"{what} must hold tiles as text")
    try:
        out = tuple(rack_tiles(held, tiles))
    except TileError as exc:
        raise EndgameError(f"{what}: {exc}") from None
    for t in out:
        if t != BLANK and t not in tiles.counts:
            quoted = t[:_QUOTE]
            raise EndgameError(f"{what} holds {quoted!r}, which is not a tile of {tiles.name}")
    return out


def _check_counts(board: Board, held: Sequence[str], tiles: TileSet) -> None:
    """:class:`EndgameError` when the board's tiles (a blank as ``?``) and ``held``
    hold more of a tile than ``tiles`` has, or the board holds a tile it does not have."""
    seen: Counter[str] = Counter(held)
    for cell in board.cells:
        if cell is not None:
            seen[BLANK if is_blank_tile(cell) else cell] += 1
    unknown = sorted(t for t in seen if t != BLANK and t not in tiles.counts)
    if unknown:
        raise EndgameError(f"the board holds {unknown[0][:_QUOTE]!r}, not a tile of {tiles.name}")
    over = {t: n for t, n in seen.items() if n > tiles.counts.get(t, 0)}
    if over:
        extra = ", ".join(f"{n} {t} (the tile set has {tiles.counts.get(t, 0)})"
                          for t, n in sorted(over.items()))  # fmt: skip
        raise EndgameError(f"the board, the racks and the bag hold {extra}")


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
