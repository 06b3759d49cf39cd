"""What the opponent kept: the likely leaves of the opponent's last turn (``moves --infer``).

The opponent held a rack drawn from the tiles the player to move cannot see (the unseen
tiles before the opponent's turn: bag plus the opponent's rack). A play shows the tiles it
used; the rest of the rack, the leave, is one of the multisets of the unseen tiles left
when those are taken out. Each possible leave is weighed twice, as MAGPIE's ``infer`` and
Macondo's rangefinder do:

1. by how often it is drawn: the product over tiles of ``C(n_t, k_t)`` (``n_t`` copies of
   tile ``t`` unseen once the played tiles are out, ``k_t`` of them in the leave);
2. by whether the play chosen was near the best for the full rack (played tiles + leave):
   its static equity (score plus the leave's value) within ``margin`` points of the best
   move's equity for that rack (one best-move generation per leave, on the board before the
   play, made once). A leave for which the play was clearly worse gets weight 0.

The weights are normalised to probabilities summing to 1. If no leave made the play
within the margin (a player who does not play by static equity), the draw odds alone are
used and the result says so (``fallback``). An exchange keeps the tiles not thrown back
(when the record shows which); a pass, a withdrawn play or an exchange of unknown tiles
say nothing: the rack is a uniform draw from the unseen tiles (``uniform``, no leaves).

Too many leaves (more than ``cap``, e.g. after a one-tile play early in the game): instead
of every leave, ``cap`` leaves are drawn at random (seeded) by the draw odds and each
distinct one is weighed once, by how often it was drawn (``exhaustive`` False).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import comb
from os import PathLike

from gcgtools.lexicon import Leaves, Lexicon
from gcgtools.model.game import Game
from gcgtools.movegen.board_state import EngineBoard
from gcgtools.movegen.record import (
    MovesError,
    given_rack,
    moves_leaves,
    moves_lexicon,
    record_position,
)
from gcgtools.movegen.request import MoveRequest
from gcgtools.replay.after import position_at, replay_positions
from gcgtools.replay.board import Board
from gcgtools.replay.position import Position, known_rack, tiles_text
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.rules.rulesets import RuleSet
from gcgtools.rules.tiles import BLANK, is_blank_tile
from gcgtools.syntax.records import TURN_KINDS, EventKind

__all__ = [
    "DEFAULT_CAP",
    "DEFAULT_MARGIN",
    "MAX_CAP",
    "MAX_MARGIN",
    "Inference",
    "InferenceError",
    "InferenceQuery",
    "InferredLeave",
    "PlayedTurn",
    "infer_leaves",
    "inference_query",
    "opponent_turn",
    "record_inference",
    "turn_inference",
]

#: the equity margin (points): the play must be within this of the best for the rack
#: (MAGPIE's default for its inference, 5)
DEFAULT_MARGIN = 5.0
#: at most this many leaves weighed one by one; beyond it, this many are drawn at random
DEFAULT_CAP = 5000
#: the bounds of the margin and of the cap
MAX_MARGIN = 1000.0
MAX_CAP = 1_000_000


class InferenceError(MovesError):
    """The inference cannot be made (no previous opponent turn, bad input): one line."""


@dataclass(frozen=True, slots=True)
class PlayedTurn:
    """The opponent's turn inferred from: ``kind`` (``"play"``, ``"exchange"``,
    ``"pass"``), ``tiles`` the tiles it took from the rack as in the bag (``?`` a blank;
    an exchange's thrown tiles, empty for a pass or an exchange of unknown tiles),
    ``count`` how many tiles left the rack, ``score`` its score, ``text`` how the record
    writes it, ``event`` its event number (0 for a hand-made one)."""

    kind: str
    tiles: tuple[str, ...]
    count: int
    score: int
    text: str
    event: int = 0


@dataclass(frozen=True, slots=True)
class InferredLeave:
    """One leave the opponent may have kept: ``tiles`` (sorted, as in the bag),
    ``probability``, ``draws`` (ways it is drawn from the unseen tiles, or how often it
    was drawn when sampling), ``best`` the best move of the full rack (notation) and
    ``gap`` how many equity points the play chosen was below it."""

    tiles: tuple[str, ...]
    probability: float
    draws: int
    best: str
    gap: float

    @property
    def text(self) -> str:
        return tiles_text(self.tiles) or "-"

    def to_dict(self) -> dict[str, object]:
        return {
            "leave": self.text,
            "probability": self.probability,
            "draws": self.draws,
            "best": self.best,
            "gap": round(self.gap, 3),
        }


@dataclass(frozen=True, slots=True)
class Inference:
    """The leaves the opponent may have kept with ``turn``, likeliest first (all of them
    that got weight; their probabilities sum to 1), from the ``unseen`` tiles (sorted).
    ``margin``: the equity margin; ``possible``: how many distinct leaves there are;
    ``considered``: how many were weighed (generations run); ``exhaustive``: every one
    was (else ``considered`` came from ``samples`` random draws); ``fallback``: none made
    the play within the margin, the draw odds alone; ``uniform``: the turn says nothing
    (pass, withdrawn play, exchange of unknown tiles): ``leaves`` is empty and the rack
    is a uniform draw of ``rack_size`` tiles; ``recorded``: the leave the record itself
    shows, when it shows the opponent's rack; ``rack_known`` False: the rack of the player
    to move was not known, so ``unseen`` includes it."""

    nick: str
    turn: PlayedTurn
    unseen: tuple[str, ...]
    rack_size: int
    margin: float
    leaves: tuple[InferredLeave, ...]
    possible: int
    considered: int
    exhaustive: bool
    samples: int = 0
    fallback: bool = False
    uniform: bool = False
    recorded: tuple[str, ...] | None = None
    rack_known: bool = True

    def total(self) -> float:
        return sum(leave.probability for leave in self.leaves)

    def to_dict(self) -> dict[str, object]:
        return {
            "opponent": self.nick,
            "event": self.turn.event,
            "turn": self.turn.text,
            "kind": self.turn.kind,
            "tiles": tiles_text(self.turn.tiles),
            "unseen": tiles_text(self.unseen),
            "margin": self.margin,
            "possible": self.possible,
            "considered": self.considered,
            "exhaustive": self.exhaustive,
            "samples": self.samples,
            "fallback": self.fallback,
            "uniform": self.uniform,
            "rack_known": self.rack_known,
            "recorded": tiles_text(self.recorded) if self.recorded is not None else None,
            "leaves": [leave.to_dict() for leave in self.leaves],
        }

    def kept(self) -> tuple[tuple[tuple[str, ...], float], ...]:
        """The leaves with their probabilities, as a simulation draws the opponent's
        kept tiles from them (``SimPosition.kept``); empty when the turn said nothing."""
        return tuple((leave.tiles, leave.probability) for leave in self.leaves)


# ---------------------------------------------------------------------------- counting


def _count_multisets(counts: Sequence[int], size: int) -> int:
    """How many distinct multisets of ``size`` tiles there are with at most ``counts[i]``
    copies of tile ``i``."""
    ways = [1] + [0] * size
    for c in counts:
        new = [0] * (size + 1)
        for k in range(size + 1):
            if ways[k]:
                for j in range(min(c, size - k) + 1):
                    new[k + j] += ways[k]
        ways = new
    return ways[size]


def _multisets(
    tiles: Sequence[tuple[str, int]], size: int, start: int = 0
) -> Iterator[tuple[tuple[str, ...], int]]:
    """Every multiset of ``size`` of the ``(tile, count)`` pairs from ``start`` on, with
    the ways it is drawn (the product of ``C(count, taken)``)."""
    if size == 0:
        yield (), 1
        return
    if start >= len(tiles):
        return
    tile, count = tiles[start]
    for take in range(min(count, size), -1, -1):
        for rest, ways in _multisets(tiles, size - take, start + 1):
            yield (tile,) * take + rest, comb(count, take) * ways


def _sampled(pool: Counter[str], size: int, samples: int, seed: int) -> dict[tuple[str, ...], int]:
    """``samples`` leaves drawn tile by tile from ``pool`` (seeded): each distinct one with
    how often it came."""
    rng = random.Random(f"infer:{seed}")
    tiles = sorted(pool.elements())
    hits: Counter[tuple[str, ...]] = Counter()
    for _ in range(samples):
        hits[tuple(sorted(rng.sample(tiles, size)))] += 1
    return dict(hits)


# ---------------------------------------------------------------------------- weighing


def infer_leaves(
    board: Board,
    rules: RuleSet,
    lexicon: Lexicon,
    leaves: Leaves,
    turn: PlayedTurn,
    unseen: Sequence[str],
    *,
    bag: int,
    nick: str = "opponent",
    margin: float = DEFAULT_MARGIN,
    cap: int = DEFAULT_CAP,
    seed: int = 0,
    native: bool = True,
    recorded: tuple[str, ...] | None = None,
    rack_known: bool = True,
) -> Inference:
    """The leaves the opponent may have kept with ``turn``, made on ``board`` (the board
    before it) from the ``unseen`` tiles (bag plus the opponent's rack, as the player to
    move sees them before the turn), ``bag`` tiles in the bag then. Raises
    :class:`InferenceError` when the turn used tiles that are not unseen, for a negative
    margin or a cap below 1."""
    if margin < 0:
        raise InferenceError(f"the equity margin must be at least 0, not {margin:g}")
    if cap < 1:
        raise InferenceError(f"the cap must be at least 1, not {cap}")
    rack_size = rules.rack_size
    pool = Counter(unseen)
    held = min(rack_size, len(unseen))
    common = dict(nick=nick, turn=turn, unseen=tuple(sorted(unseen)), rack_size=rack_size,
                  margin=margin, recorded=recorded, rack_known=rack_known)  # fmt: skip
    if turn.kind == "pass" or (turn.kind == "exchange" and not turn.tiles):
        return Inference(**common, leaves=(), possible=0, considered=0, exhaustive=True,  # type: ignore[arg-type]
                         uniform=True)  # fmt: skip
    missing = Counter(turn.tiles) - pool
    if missing:
        raise InferenceError(
            f"the turn {turn.text} uses {tiles_text(sorted(missing.elements()))}, which are not "
            f"among the tiles unseen before it ({tiles_text(sorted(unseen))})"
        )
    rest = pool - Counter(turn.tiles)
    size = max(held - len(turn.tiles), 0)
    kinds = sorted(rest.items())
    possible = _count_multisets([c for _, c in kinds], size)
    if possible <= cap:
        weighed = dict(_multisets(kinds, size))
        samples, exhaustive = 0, True
    else:
        weighed = _sampled(rest, size, cap, seed)
        samples, exhaustive = cap, False
    engine = EngineBoard(board, lexicon, rules=rules, native=native)
    rows: list[tuple[tuple[str, ...], int, str, float]] = []
    for leave, draws in weighed.items():
        rack = [*turn.tiles, *leave]
        best = engine.generate_best(MoveRequest(rack, leaves, bag_count=bag, rules=rules))
        chosen = (turn.score if turn.kind == "play" else 0) + leaves.value(leave)
        rows.append((leave, draws, best.notation(), best.equity - chosen))
    kept = [r for r in rows if r[3] <= margin + 1e-9]
    fallback = not kept
    if fallback:
        kept = rows
    total = sum(r[1] for r in kept)
    out = sorted(
        (InferredLeave(leave, draws / total, draws, best, gap) for leave, draws, best, gap in kept),
        key=lambda x: (-x.probability, x.tiles),
    )
    return Inference(**common, leaves=tuple(out), possible=possible, considered=len(rows),  # type: ignore[arg-type]
                     exhaustive=exhaustive, samples=samples, fallback=fallback)  # fmt: skip


# ---------------------------------------------------------------------------- records


def _bag_tile(tile: str) -> str:
    return BLANK if is_blank_tile(tile) else tile


def opponent_turn(game: Game, event: int, player: int) -> int:
    """The event number of the last turn before the position after event ``event``, when
    it was the opponent's of ``player`` (the player to move then); 0 when it was not, or
    there is none."""
    for k in range(event, 0, -1):
        e = game.events[k - 1]
        if e.kind in TURN_KINDS:
            return k if e.player != player else 0
    return 0


def _played_turn(game: Game, found: int, after: Position, rules: RuleSet) -> PlayedTurn:
    """The opponent's turn of event ``found`` (``after``: the position after it): the
    tiles it took from the rack, as far as the record shows them."""
    e = game.events[found - 1]
    withdrawn = found < len(game.events) and game.events[found].kind is EventKind.WITHDRAWN
    if e.kind is EventKind.PLAY and not withdrawn:
        tiles = tuple(_bag_tile(t) for _, _, t in after.placed)
        kind = "play"
    elif e.kind is EventKind.EXCHANGE:
        shown = known_rack(e.tiles, rules.tiles) if e.tiles and e.tiles.isalpha() else None
        tiles = tuple(_bag_tile(t) for t in shown) if shown else ()
        kind = "exchange"
    else:
        tiles, kind = (), "pass"
    text = e.text.split(":", 1)[-1].strip() if e.text else str(e.kind)
    return PlayedTurn(kind, tiles, len(tiles) or (e.count or 0), e.score, text, found)


@dataclass(frozen=True, slots=True)
class InferenceQuery:
    """What an inference of the opponent's turn needs from the record (a picklable
    value, made from one replay: :func:`inference_query`); :meth:`infer` weighs it with
    a lexicon and leaves, in any process."""

    board: Board
    rules: RuleSet
    turn: PlayedTurn
    pool: tuple[str, ...]
    bag: int
    nick: str
    recorded: tuple[str, ...] | None
    rack_known: bool

    def infer(
        self, lexicon: Lexicon, leaves: Leaves, *, margin: float = DEFAULT_MARGIN,
        cap: int = DEFAULT_CAP, seed: int = 0,
    ) -> Inference:  # fmt: skip
        """The inference (:func:`infer_leaves`; raises :class:`InferenceError` as it does)."""
        return infer_leaves(
            self.board, self.rules, lexicon, leaves, self.turn, list(self.pool), bag=self.bag,
            nick=self.nick, margin=margin, cap=cap, seed=seed, recorded=self.recorded,
            rack_known=self.rack_known,
        )  # fmt: skip


def inference_query(
    game: Game,
    found: int,
    positions: Sequence[Position],
    rules: RuleSet,
    mine: Sequence[str] | None,
) -> InferenceQuery:
    """The query of the opponent's turn of event ``found`` of ``game`` (replayed into
    ``positions`` by :func:`~gcgtools.replay.after.replay_positions`), seen by the other
    player holding ``mine`` (None or empty: not known, none taken out of the unseen
    tiles)."""
    before = position_at(positions, found - 1)
    turn = _played_turn(game, found, position_at(positions, found), rules)
    pool = Counter(before.pool)
    if mine:
        pool -= Counter(_bag_tile(t) for t in mine)
    theirs = known_rack(game.events[found - 1].rack, rules.tiles)
    recorded = None
    if theirs is not None and turn.kind != "pass":
        left = Counter(_bag_tile(t) for t in theirs) - Counter(turn.tiles)
        recorded = tuple(sorted(left.elements()))
    return InferenceQuery(
        before.board, rules, turn, tuple(sorted(pool.elements())), before.bag,
        game.events[found - 1].nick, recorded, bool(mine),
    )  # fmt: skip


def turn_inference(
    game: Game,
    found: int,
    positions: Sequence[Position],
    rules: RuleSet,
    mine: Sequence[str] | None,
    lexicon: Lexicon,
    leaves: Leaves,
    *,
    margin: float = DEFAULT_MARGIN,
    cap: int = DEFAULT_CAP,
    seed: int = 0,
) -> Inference:
    """The inference of the opponent's turn of event ``found`` of ``game`` (see
    :func:`inference_query`). Raises :class:`InferenceError` as :func:`infer_leaves` does."""
    query = inference_query(game, found, positions, rules, mine)
    return query.infer(lexicon, leaves, margin=margin, cap=cap, seed=seed)


def record_inference(
    game: Game,
    event: int,
    *,
    rack: str | None = None,
    lexicon: str | PathLike[str] | None = None,
    lexica: str | PathLike[str] | None = None,
    leaves: str | PathLike[str] | None = None,
    options: RuleOptions = NO_OPTIONS,
    margin: float = DEFAULT_MARGIN,
    cap: int = DEFAULT_CAP,
    seed: int = 0,
) -> Inference:
    """The inference of the opponent's last turn before the player to move after event
    ``event`` (``moves --move N --infer``). The unseen tiles are those not on the board
    before that turn, less the rack of the player to move (``rack``, else the record's;
    unknown: none taken out). Raises :class:`InferenceError` (a subclass of MovesError)
    when there is no previous opponent turn, and MovesError for bad input or no lexicon."""
    now = record_position(game, event, options=options)
    rules = now.rules
    mine = given_rack(rack, rules) if rack is not None else now.rack
    found = opponent_turn(game, event, now.player)
    if not found:
        raise InferenceError(
            f"the position after event {event} follows no turn of the opponent of "
            f"{now.nick}: nothing to infer from",
            option="move",
        )
    positions, _ = replay_positions(game, options)
    lex = moves_lexicon(game.lexicon, rules, lexicon, lexica)
    table = moves_leaves(lex.name if lexicon is not None else game.lexicon, rules, leaves, lexica)
    return turn_inference(
        game, found, positions, rules, mine, lex, table, margin=margin, cap=cap, seed=seed
    )
