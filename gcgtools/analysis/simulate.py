"""Monte Carlo simulation of a position: the candidates with the highest static equity,
each played out a few plies against random draws of the unseen tiles, judged by win
probability.

Algorithm (defaults in :class:`SimLimit`):

1. The candidates are the ``candidates`` moves of the player to move with the highest
   static equity (:func:`gcgtools.movegen.generate` with a ``top``); on an empty board whose
   layout is symmetric across the diagonal, a play's mirror image (``H7 FUTZ`` for
   ``8G FUTZ``: the same move, by the board's symmetry) is not a candidate of its own.
2. Iteration ``i`` draws the unseen tiles (bag plus opponent's rack) at random into the
   opponent's rack and the bag, with a random generator seeded from ``(seed, position
   key, i)`` alone; every candidate is played against the *same* draw (common random
   numbers). The candidate is made, then ``plies`` more moves are made by the static
   player (``plies`` 2: the opponent's best reply, then our best follow-up), each
   drawing from the bag as usual, the game ending early if a player goes out or the
   scoreless turns run out.
3. The end is valued from the root player's view: a finished game by its result (1,
   0.5, 0); otherwise the spread plus the *leftover* (the leave value of the last move of
   each side among the last two moves made, ours added and the opponent's subtracted, as
   MAGPIE and Quackle do) goes into the win model for the player then to move (for an
   even ``plies`` that is the opponent: ``1 - P(opponent wins)`` with the spread turned
   round). The spread plus leftover is also averaged (``spread``), and so are what the
   plies were (:class:`Sample`): the opponent's reply score and how often it was a
   bingo, and the same for our follow-up (``reply_score``, ``reply_bingo_pct``,
   ``follow_score``, ``follow_bingo_pct``).
4. Every ``check_every`` iterations, after ``min_iterations``, a candidate is dropped
   when its win%, draw by draw, is behind the leader's by more than ``z`` standard
   errors of the mean difference (a one-sided paired test on the common draws; when the
   two never differ in win%, e.g. both always win, their spreads are compared the same
   way); with ``min_iterations`` equal to ``iterations`` none is dropped (no early
   stop: :func:`least_iterations`). The run stops when one candidate is left
   (a lone candidate still gets ``min_iterations``), when ``iterations`` are done, or
   when ``seconds`` have passed (the only setting that makes a result depend on the
   machine), or when asked to stop (Ctrl-C or SIGTERM inside
   :func:`gcgtools.console.stopping_on_signals`: ``"interrupted"``, the candidates as
   far as they got). The clock and the stop request are checked every few samples
   (:func:`_chunk`: a chunk takes at most a 50th of the budget, and a 20th of a second),
   so a time budget holds within a few percent, whatever the number of candidates; every
   candidate still gets its first iteration, and a run stopped within an iteration
   leaves some candidates one sample ahead.

The samples are computed in C where the C helper runs and can take the simulation
(:mod:`gcgtools.analysis.sim_native`: the same values); :class:`_Sampler` is the
reference, and computes them in Python otherwise.

Determinism: a sample is a pure function of (seed, position, candidate, iteration) and
the decisions to drop and stop are taken only at the check points, from the samples
alone, so a given seed gives the same result whatever order or process computes the
samples in (``runner``: any function that maps sample tasks to values in order).
"""

from __future__ import annotations

import hashlib
import math
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, cast

from gcgtools.analysis.playout import GameState, advance, full_bag, play_best
from gcgtools.analysis.sim_native import NativePlayouts, native_playouts
from gcgtools.analysis.winprob import WinModel, builtin_model, decided
from gcgtools.console import stop_requested
from gcgtools.movegen import EngineBoard, Move, MoveRequest, generate
from gcgtools.movegen.generate import LeaveValues, LexiconLike
from gcgtools.movegen.record import RecordPosition
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import RuleSet
from gcgtools.rules.tiles import BLANK

__all__ = [
    "Sample",
    "SimCandidate",
    "SimLimit",
    "SimPosition",
    "SimResult",
    "least_iterations",
    "position_from_board",
    "position_from_record",
    "simulate",
]


@dataclass(frozen=True)
class SimLimit:
    """How much to simulate (like ``chess.engine.Limit``).

    ``candidates`` (N): moves simulated, best by static equity first; ``iterations``
    (K): at most this many draws per candidate; ``plies`` (P): moves made after the
    candidate (2: the opponent's reply and our follow-up); ``seconds``: stop after this
    long (None: no time limit); ``min_iterations``: none is dropped before this;
    ``check_every``: iterations between the checks that drop candidates; ``z``: how
    many standard errors (of its mean difference from the leader) behind the leader
    drops a candidate."""

    iterations: int = 1000
    seconds: float | None = None
    candidates: int = 20
    plies: int = 2
    min_iterations: int = 64
    check_every: int = 32
    z: float = 2.6

    def __post_init__(self) -> None:
        if self.iterations < 1 or self.candidates < 1 or self.plies < 0:
            raise ValueError("iterations and candidates must be >= 1, plies >= 0")
        if self.check_every < 1 or self.min_iterations < 0 or self.z < 0:
            raise ValueError("check_every must be >= 1, min_iterations and z >= 0")


def least_iterations(iterations: int, early_stop: bool = True) -> int:
    """The ``min_iterations`` of a simulation of ``iterations`` per candidate: the
    default (or all of them when fewer), or all of them without ``early_stop`` (no
    candidate dropped: each runs every iteration)."""
    return min(SimLimit.min_iterations, iterations) if early_stop else iterations


@dataclass(frozen=True)
class SimPosition:
    """What a simulation starts from: the board, the rack of the player to move, the tiles
    they cannot see (``unseen``: bag plus opponent's rack), the scores (player to move
    first), the rules and the scoreless turns in a row so far. ``kept``: the tiles the
    opponent likely kept with their last turn, each with its probability (an inference,
    :mod:`gcgtools.analysis.inference`): each iteration's opponent rack is one of them
    (drawn by its probability) filled up from the unseen tiles; empty: a uniform draw."""

    board: Board
    rack: tuple[str, ...]
    unseen: tuple[str, ...]
    scores: tuple[int, int]
    rules: RuleSet
    zeros: int = 0
    kept: tuple[tuple[tuple[str, ...], float], ...] = ()

    @property
    def opponent_tiles(self) -> int:
        """How many tiles the opponent holds: a full rack, or all the unseen tiles."""
        return min(self.rules.rack_size, len(self.unseen))

    @property
    def bag_count(self) -> int:
        return len(self.unseen) - self.opponent_tiles

    def key(self) -> str:
        """A digest of everything the simulation depends on (seeds the draws)."""
        text = "|".join(
            [
                "".join(t or "." for t in self.board.cells),
                self.board.layout.name,
                ",".join(sorted(self.rack)),
                ",".join(sorted(self.unseen)),
                f"{self.scores[0]},{self.scores[1]},{self.zeros}",
                self.rules.name,
            ]
            + [f"{','.join(t)}:{p!r}" for t, p in self.kept]  # nothing when drawn uniformly
        )
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class SimCandidate:
    """One simulated move: ``win_pct`` (0..100) and its standard error ``stderr`` (in
    percentage points), ``spread`` (mean final spread plus leftover, root's view) and its
    error, ``iterations`` done; ``dropped`` when it was dropped early. From the same
    playouts: ``reply_score``, the opponent's mean reply score, and ``reply_bingo_pct``,
    how often (0..100) that reply was a bingo (over the playouts where the opponent
    replied; None when none did), ``follow_score`` and ``follow_bingo_pct`` the same
    for our follow-up (the second ply)."""

    move: Move
    win_pct: float
    stderr: float
    spread: float
    spread_stderr: float
    iterations: int
    dropped: bool = False
    reply_score: float | None = None
    reply_bingo_pct: float | None = None
    follow_score: float | None = None
    follow_bingo_pct: float | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.move.notation(),
            "score": self.move.score,
            "equity": round(self.move.equity, 3),
            "win_pct": round(self.win_pct, 3),
            "stderr": round(self.stderr, 3),
            "spread": round(self.spread, 3),
            "spread_stderr": round(self.spread_stderr, 3),
            "iterations": self.iterations,
            "dropped": self.dropped,
            "reply_score": _round(self.reply_score),
            "reply_bingo_pct": _round(self.reply_bingo_pct),
            "follow_score": _round(self.follow_score),
            "follow_bingo_pct": _round(self.follow_bingo_pct),
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


@dataclass(frozen=True)
class SimResult:
    """The candidates best first (win%, then spread), why the run stopped
    (``"separated"``, ``"iterations"``, ``"seconds"``, ``"single"``: one candidate
    only), the seed, the win model's name, the limit, and the time taken."""

    candidates: list[SimCandidate]
    stopped: str
    seed: int
    model: str
    limit: SimLimit
    seconds: float = field(compare=False)

    @property
    def best(self) -> SimCandidate:
        return self.candidates[0]


class _Stat:
    """Running mean and variance (Welford), and the samples themselves (in iteration
    order: the dropping rule compares candidates draw by draw)."""

    __slots__ = ("n", "mean", "m2", "values")

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.values: list[float] = []

    def push(self, x: float) -> None:
        self.n += 1
        d = x - self.mean
        self.mean += d / self.n
        self.m2 += d * (x - self.mean)
        self.values.append(x)

    @property
    def stderr(self) -> float:
        if self.n < 2:
            return math.inf if self.n == 0 else 0.0
        return math.sqrt(self.m2 / (self.n - 1) / self.n)


class _Plies:
    """Sums over the playouts of one candidate of what its plies were (see
    :class:`Sample`): replies and follow-ups made, their scores, their bingos."""

    __slots__ = ("replies", "reply_points", "reply_bingos", "follows", "follow_points",
                 "follow_bingos")  # fmt: skip

    def __init__(self) -> None:
        self.replies = self.reply_points = self.reply_bingos = 0
        self.follows = self.follow_points = self.follow_bingos = 0

    def push(self, sample: Sample) -> None:
        if sample.reply_score is not None:
            self.replies += 1
            self.reply_points += sample.reply_score
            self.reply_bingos += bool(sample.reply_bingo)
        if sample.follow_score is not None:
            self.follows += 1
            self.follow_points += sample.follow_score
            self.follow_bingos += bool(sample.follow_bingo)

    def means(self) -> dict[str, float | None]:
        """The :class:`SimCandidate` fields they give."""
        r, f = self.replies, self.follows
        return {
            "reply_score": self.reply_points / r if r else None,
            "reply_bingo_pct": 100 * self.reply_bingos / r if r else None,
            "follow_score": self.follow_points / f if f else None,
            "follow_bingo_pct": 100 * self.follow_bingos / f if f else None,
        }


#: One sample to compute: (candidate index, iteration).
Task = tuple[int, int]


class Sample(NamedTuple):
    """What one playout of one candidate gives (one candidate, one iteration): the win
    probability (0..1) and the spread plus leftover (root's view) of its end, and what
    the plies after the candidate were: the opponent's reply's score and whether it was
    a bingo (None when the game ended with the candidate, or ``plies`` is 0), our
    follow-up's score and whether it was a bingo (None when the game ended before it, or
    ``plies`` is below 2). A plain tuple of these six, in this order, is one too."""

    win: float
    spread: float
    reply_score: int | None = None
    reply_bingo: bool | None = None
    follow_score: int | None = None
    follow_bingo: bool | None = None


Runner = Callable[[Callable[[Task], Sample], Sequence[Task]], list[Sample]]


def _serial(fn: Callable[[Task], Sample], tasks: Sequence[Task]) -> list[Sample]:
    many = getattr(fn, "many", None)  # a _Sampler: the C playouts take them in one call
    return many(tasks) if many is not None else [fn(t) for t in tasks]


def _digest(seed: int, key: str, iteration: int) -> bytes:
    """What seeds an iteration's generator: 16 bytes of a sha256, a big-endian number."""
    return hashlib.sha256(f"gcgtools-sim:{seed}:{key}:{iteration}".encode()).digest()[:16]


def _rng(seed: int, key: str, iteration: int) -> random.Random:
    return random.Random(int.from_bytes(_digest(seed, key, iteration), "big"))


def _shuffled(
    seed: int, key: str, iteration: int, unseen: list[str]
) -> tuple[random.Random, list[str]]:
    """An iteration's random numbers: its generator, and the unseen tiles in the order it
    shuffles them (the same for every candidate: common random numbers)."""
    rng = _rng(seed, key, iteration)
    tiles = list(unseen)
    rng.shuffle(tiles)
    return rng, tiles


def _kept_first(
    tiles: list[str],
    kept: Sequence[tuple[tuple[str, ...], float]],
    seed: int,
    key: str,
    iteration: int,
) -> list[str]:
    """The shuffled unseen ``tiles`` with one of the ``kept`` leaves (drawn by its
    probability, from the iteration's own generator) moved to the front, so that the
    opponent's rack holds it; unchanged when that leave is not among the tiles."""
    x = _rng(seed, f"{key}:kept", iteration).random()
    leave = kept[-1][0]
    acc = 0.0
    for tiles_kept, p in kept:
        acc += p
        if x < acc:
            leave = tiles_kept
            break
    rest = list(tiles)
    for t in leave:
        if t not in rest:
            return tiles
        rest.remove(t)
    return [*leave, *rest]


class _LaterRng:
    """Stands for an iteration's generator after its shuffle, and is made (seeded and
    shuffled again, so that it draws the same numbers) only when a playout asks it for
    one, which only an exchange does: making it took a tenth of a sample's time."""

    __slots__ = ("_args", "_rng")

    def __init__(self, seed: int, key: str, iteration: int, unseen: list[str]) -> None:
        self._args = (seed, key, iteration, unseen)
        self._rng: random.Random | None = None

    def __getattr__(self, name: str) -> object:
        if self._rng is None:
            self._rng = _shuffled(*self._args)[0]
        return getattr(self._rng, name)


#: How many iterations' shuffled tiles a sampler keeps (each candidate's sample of an
#: iteration uses the same ones).
_DRAWS_KEPT = 4096


class _Sampler:
    """Plays one candidate against one draw (see the module docstring), on an
    ``EngineBoard`` of the position kept from sample to sample (each sample's moves are
    played on it, then taken back), one for each thread that computes samples.

    With ``native`` (the default) the samples are computed by the C helper where it runs
    and can take the simulation (:mod:`gcgtools.analysis.sim_native`: the same values);
    this class's own methods are the reference."""

    def __init__(
        self, position: SimPosition, moves: list[Move], lexicon: LexiconLike,
        leaves: LeaveValues | None, model: WinModel, plies: int, seed: int,
        native: bool = True,
    ) -> None:  # fmt: skip
        self.native = native
        self.position = position
        self.moves = moves
        self.lexicon = lexicon
        self.leaves = leaves
        self.model = model
        self.plies = plies
        self.seed = seed
        self.key = position.key()
        self.unseen = sorted(position.unseen)
        self._local = threading.local()
        self._draws: dict[int, tuple[str, ...]] = {}

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        del state["_local"], state["_draws"]  # made again where the samples are computed
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._local = threading.local()
        self._draws = {}

    def _draw(self, iteration: int) -> tuple[str, ...]:
        """The unseen tiles in the order of the iteration's shuffle, made once for all
        the candidates (kept for the last _DRAWS_KEPT iterations)."""
        hit = self._draws.get(iteration)
        if hit is None:
            if len(self._draws) >= _DRAWS_KEPT:
                self._draws.clear()
            _, tiles = _shuffled(self.seed, self.key, iteration, self.unseen)
            if self.position.kept:
                tiles = _kept_first(tiles, self.position.kept, self.seed, self.key, iteration)
            hit = self._draws[iteration] = tuple(tiles)
        return hit

    def _playouts(self) -> NativePlayouts | None:
        """This thread's C playouts, made on its first sample (None: the reference runs)."""
        local = self._local
        try:
            return local.native  # type: ignore[no-any-return]
        except AttributeError:
            pass
        pos = self.position
        local.native = None
        if self.native:
            engine = EngineBoard(pos.board, self.lexicon, rules=pos.rules)
            local.native = native_playouts(
                engine, rack=pos.rack, unseen=self.unseen, scores=pos.scores, zeros=pos.zeros,
                rules=pos.rules, moves=self.moves, leaves=self.leaves, model=self.model,
                plies=self.plies,
            )  # fmt: skip
        return local.native  # type: ignore[no-any-return]

    def many(self, tasks: Sequence[Task]) -> list[Sample]:
        """The samples of ``tasks``, in order (the C playouts in one call)."""
        native = self._playouts()
        if native is None:
            return [self(t) for t in tasks]
        digests: dict[int, bytes] = {}
        args = []
        for index, iteration in tasks:
            digest = digests.get(iteration)
            if digest is None:
                digest = digests[iteration] = _digest(self.seed, self.key, iteration)
            args.append((index, digest))
        return list(map(Sample._make, native.samples(args)))

    def __call__(self, task: Task) -> Sample:
        if self._playouts() is not None:
            return self.many([task])[0]
        engine: EngineBoard | None = getattr(self._local, "engine", None)
        if engine is None:
            pos = self.position
            engine = self._local.engine = EngineBoard(pos.board, self.lexicon, rules=pos.rules)
        played: list[Move] = []
        try:
            return self._sample(engine, task, played)
        finally:
            for _ in played:
                engine.undo()

    def _sample(self, engine: EngineBoard, task: Task, played: list[Move]) -> Sample:
        index, iteration = task
        pos = self.position
        tiles = self._draw(iteration)
        rng = cast(random.Random, _LaterRng(self.seed, self.key, iteration, self.unseen))
        n = pos.opponent_tiles
        opponent, bag = tuple(tiles[:n]), tuple(tiles[n:])
        state = GameState(pos.board, (pos.rack, opponent), bag, pos.scores, 0, pos.rules,
                          pos.zeros)  # fmt: skip
        made: list[tuple[int, float]] = []  # (player, leave value while the bag had tiles)
        move = self.moves[index]
        before = len(state.bag)
        engine.play(move)
        played.append(move)
        state = advance(state, move, rng)
        made.append((0, move.leave_value if before else 0.0))
        plies: list[Move] = []  # the moves after the candidate
        for _ in range(self.plies):
            if state.over:
                break
            mover, before = state.to_move, len(state.bag)
            state, reply = play_best(state, self.lexicon, self.leaves, rng, engine=engine)
            played.append(reply)
            plies.append(reply)
            made.append((mover, reply.leave_value if before else 0.0))
        win, spread = self._value(state, made)
        reply = plies[0] if plies else None
        follow = plies[1] if len(plies) > 1 else None
        return Sample(
            win, spread,
            None if reply is None else reply.score, None if reply is None else reply.bingo,
            None if follow is None else follow.score, None if follow is None else follow.bingo,
        )  # fmt: skip

    def _value(self, state: GameState, made: list[tuple[int, float]]) -> tuple[float, float]:
        spread = float(state.spread(0))
        if state.over:
            return decided(spread), spread
        leftover = sum(v if p == 0 else -v for p, v in made[-2:])
        total = spread + leftover
        p = state.to_move
        if p == 0:
            return self.model.probability(total, state.unseen(0)), total
        return 1.0 - self.model.probability(-total, state.unseen(1)), total


def simulate(
    position: SimPosition,
    lexicon: LexiconLike,
    leaves: LeaveValues | None,
    limit: SimLimit | None = None,
    seed: int = 0,
    *,
    model: WinModel | None = None,
    include: Sequence[Move] = (),
    runner: Runner | None = None,
) -> SimResult:
    """Simulate ``position`` (see the module docstring). ``model``: the win model
    (default the built-in one); ``include``: moves simulated too when they are not among
    the top candidates (e.g. the move a player made); ``runner``: computes a batch of
    samples (default: one after the other in this process; a parallel one gives the same
    result)."""
    limit = limit or SimLimit()
    model = model or builtin_model()
    run = runner or _serial
    started = time.perf_counter()
    moves = _candidates(position, lexicon, leaves, limit.candidates, include)
    sampler = _Sampler(position, moves, lexicon, leaves, model, limit.plies, seed)
    wins = [_Stat() for _ in moves]
    spreads = [_Stat() for _ in moves]
    plies = [_Plies() for _ in moves]
    alive = list(range(len(moves)))
    done = 0
    stopped = "iterations"
    clock = _Clock(started, limit.seconds)
    while done < limit.iterations:
        batch = min(limit.check_every - done % limit.check_every, limit.iterations - done)
        tasks = [(c, done + k) for k in range(batch) for c in alive]
        first = len(alive) if done == 0 else 0  # every candidate's first sample
        reason = clock.run(run, sampler, tasks, first, (wins, spreads, plies))
        if reason is not None:
            stopped = reason
            break
        done += batch
        if done >= limit.min_iterations:
            if limit.min_iterations < limit.iterations:  # else no early stop: none dropped
                alive = _survivors(alive, wins, spreads, limit.z)
            if len(alive) == 1:
                stopped = "single" if len(moves) == 1 else "separated"
                break
        if limit.seconds is not None and time.perf_counter() - started >= limit.seconds:
            stopped = "seconds"
            break
    out = [
        SimCandidate(
            moves[c],
            100 * wins[c].mean,
            100 * _finite(wins[c].stderr),
            spreads[c].mean,
            _finite(spreads[c].stderr),
            wins[c].n,
            dropped=c not in alive,
            **plies[c].means(),
        )  # fmt: skip
        for c in range(len(moves))
    ]
    out.sort(key=lambda x: (not x.dropped, x.win_pct, x.spread), reverse=True)
    return SimResult(out, stopped, seed, model.name, limit, time.perf_counter() - started)


def _candidates(
    position: SimPosition,
    lexicon: LexiconLike,
    leaves: LeaveValues | None,
    count: int,
    include: Sequence[Move],
) -> list[Move]:
    """The ``count`` moves of highest static equity, then the ``include`` moves not among
    them. On an empty board whose layout is the same transposed (every standard one),
    a play and its mirror image across the diagonal (``8G FUTZ`` and ``H7 FUTZ``) are one
    move: only the first of the two is kept (an included move takes its twin's place)."""
    mirrored = _mirror_symmetric(position.board)
    opponent = position.unseen if position.bag_count == 0 else None
    moves = generate(position.board, lexicon, MoveRequest(
        position.rack, leaves=leaves, bag_count=position.bag_count, opponent_rack=opponent,
        rules=position.rules, top=2 * count if mirrored else count,
    ))  # fmt: skip
    if mirrored:
        seen: set[tuple[object, ...]] = set()
        distinct = []
        for m in moves:
            if _mirror(m) not in seen:
                seen.add(_place(m))
                distinct.append(m)
        moves = distinct[:count]
    for m in include:
        twin = next((k for k, c in enumerate(moves) if _place(c) == _mirror(m)), None)
        if mirrored and twin is not None and m not in moves:
            moves[twin] = m
        elif m not in moves:
            moves.append(m)
    return moves


def _mirror_symmetric(board: Board) -> bool:
    """Whether the board is empty and its layout the same transposed."""
    rows = board.layout.rows
    size = len(rows)
    return board.is_empty() and all(
        rows[r][c] == rows[c][r] for r in range(size) for c in range(r + 1, size)
    )


def _place(m: Move) -> tuple[object, ...]:
    """What a move puts where (a non-play: its kind and tiles)."""
    if m.kind != "play":
        return (str(m.kind), m.tiles)
    return (m.row, m.col, m.across, m.cells, m.new)


def _mirror(m: Move) -> tuple[object, ...]:
    """:func:`_place` of the move's mirror image across the diagonal (a non-play: itself)."""
    if m.kind != "play":
        return _place(m)
    return (m.col, m.row, not m.across, m.cells, m.new)


#: a chunk of samples takes at most this share of a time budget, and these seconds
CHUNK_SHARE = 0.02
CHUNK_SECONDS = 0.05


#: per candidate: its win probabilities, its spreads, its plies
_Tallies = tuple[list[_Stat], list[_Stat], list[_Plies]]


class _Clock:
    """Runs a batch of samples in chunks, looking at the clock and for a stop request
    between chunks (:func:`_chunk`); the runner gets whole chunks, so a parallel one still
    has work to share."""

    def __init__(self, started: float, seconds: float | None) -> None:
        self.deadline = None if seconds is None else started + seconds
        self.seconds = seconds
        self.per_sample: float | None = None  # seconds, measured

    def run(self, run: Runner, sampler: Callable[[Task], Sample], tasks: list[Task],
            first: int, into: _Tallies) -> str | None:  # fmt: skip
        """Push the samples of ``tasks`` (at least the ``first`` ones) into ``into``
        (per candidate: wins, spreads, plies); ``"seconds"`` or ``"interrupted"`` when it
        stopped before the end."""
        wins, spreads, plies = into
        start = 0
        while start < len(tasks):
            if start >= first:
                if stop_requested():
                    return "interrupted"
                if self.deadline is not None and time.perf_counter() >= self.deadline:
                    return "seconds"
            size = max(first - start, self._chunk(len(tasks) - start))
            chunk = tasks[start : start + size]
            began = time.perf_counter()
            for (c, _), sample in zip(chunk, run(sampler, chunk), strict=True):
                if type(sample) is not Sample:  # a runner may give back plain tuples
                    sample = Sample(*sample)
                wins[c].push(sample.win)
                spreads[c].push(sample.spread)
                plies[c].push(sample)
            took = (time.perf_counter() - began) / len(chunk)
            self.per_sample = took if self.per_sample is None else (self.per_sample + took) / 2
            start += size
        return None

    def _chunk(self, left: int) -> int:
        """Samples to run before the next look: a chunk that takes at most
        :data:`CHUNK_SECONDS` and :data:`CHUNK_SHARE` of the budget (one sample until a
        sample's time is known)."""
        if self.per_sample is None:
            return 1
        target = CHUNK_SECONDS
        if self.seconds is not None:
            target = min(target, CHUNK_SHARE * self.seconds)
        return max(1, min(left, int(target / max(self.per_sample, 1e-9))))


def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0


def _survivors(alive: list[int], wins: list[_Stat], spreads: list[_Stat], z: float) -> list[int]:
    """The candidates not clearly behind the leader: a candidate is dropped when the
    mean of its differences from the leader, draw by draw (the same draws: common random
    numbers), is more than ``z`` standard errors of that mean below zero; by win%, or by
    spread when their win% never differs (see the module docstring)."""
    leader = max(alive, key=lambda c: (wins[c].mean, spreads[c].mean))
    keep = []
    for c in alive:
        if c != leader:
            behind, same = _behind(wins[leader].values, wins[c].values, z)
            if behind or (same and _behind(spreads[leader].values, spreads[c].values, z)[0]):
                continue
        keep.append(c)
    return keep


def _behind(lead: list[float], other: list[float], z: float) -> tuple[bool, bool]:
    """Whether ``other`` is more than ``z`` standard errors behind ``lead`` on the draws
    both have, and whether the two never differ there."""
    diffs = [a - b for a, b in zip(lead, other, strict=True)]
    n = len(diffs)
    if n < 2:
        return False, not any(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean - z * math.sqrt(var / n) > 0, var == 0 and mean == 0


def position_from_board(
    board: Board,
    rules: RuleSet,
    rack: Sequence[str],
    scores: tuple[int, int],
    zeros: int = 0,
) -> SimPosition:
    """The simulation position for the player to move with ``rack`` on ``board``
    (``scores``: theirs first): the unseen tiles are the tile set's tiles less those on the
    board (a blank as ``?``) and those on the rack. Raises ValueError when the board and
    rack hold more of a tile than the tile set has."""
    pool = Counter(full_bag(rules))
    seen = Counter(t if t.isupper() else BLANK for t in board.cells if t is not None)
    mine = tuple(t if t == BLANK else t.upper() for t in rack)
    seen.update(mine)
    over = seen - pool
    if over:
        extra = ", ".join(f"{t} x{n}" for t, n in sorted(over.items()))
        raise ValueError(f"the board and the rack hold more tiles than the tile set has: {extra}")
    unseen = pool - seen
    return SimPosition(board, mine, tuple(sorted(unseen.elements())), scores, rules, zeros)


def position_from_record(record: RecordPosition, rack: Sequence[str] | None = None) -> SimPosition:
    """The simulation position of a record's position (``record_position(game, event)``,
    or ``cgp_moves(...).position`` for a CGP), for its player to move with ``rack``
    (default: the record's rack for them). Raises ValueError when there is no rack or the
    tiles do not add up."""
    tiles = list(rack) if rack is not None else record.rack
    if not tiles:
        raise ValueError(f"the record does not show the rack of {record.nick}: give one")
    return position_from_board(record.board, record.rules, tiles, record.scores, record.zeros)
