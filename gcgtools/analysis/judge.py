"""Judging the turns of a record at a depth: simulation in the mid-game, the pre-endgame
solver with 1 to 4 tiles in the bag, the exact endgame solver with the bag empty.

:class:`Depth` names how deep (``gcgtools analyse --depth static|sim|full``):

* ``static``: no judgement, only the static analysis of
  :func:`gcgtools.analysis.analyse.analyse_record` (score plus leave; the fast default);
* ``sim``: every turn whose rack is known is judged with small budgets
  (:data:`SIM_SETTINGS`);
* ``full``: the same with larger budgets (:data:`FULL_SETTINGS`).

For each such turn :func:`judge_record` finds the phase (:func:`grading.phase`), judges
the best move and the move played by the method of the phase, and grades the difference
(:func:`grading.grade`): win% lost in the opening, the mid-game and the pre-endgame, spread
lost in the endgame. Only two-player games are judged (the turns of others get none).
The result is a :class:`Judgement` on the turn
(``TurnAnalysis.judgement``) and a Mistake Index per player on the record
(``RecordAnalysis.mistake_index``).

A play withdrawn with ``--`` is judged as the pass the turn became (as the static
analysis does); a phony that stood, or an exchange whose tiles are not recorded, is not
among the legal moves: the best move is still judged but no loss or mistake is given
(``note`` says why).

Determinism: every budget is counted in iterations or nodes, never seconds, and each
turn's seed is derived from (the settings' seed, the record's key, the event number)
alone, so a run gives the same judgements on any machine, in any process, pool or Dask.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

from gcgtools.analysis import grading
from gcgtools.analysis.endgame import (
    EndgameError,
    Limit,
    endgame_position,
    preendgame_position,
    solve_endgame,
    solve_preendgame,
)
from gcgtools.analysis.engine import top_moves
from gcgtools.analysis.simulate import SimLimit, position_from_board, simulate
from gcgtools.movegen import Move
from gcgtools.movegen.record import MovesError, RecordPosition, record_position
from gcgtools.rules.options import NO_OPTIONS, RuleOptions

if TYPE_CHECKING:
    from gcgtools.analysis.analyse import RecordAnalysis, TurnAnalysis
    from gcgtools.lexicon import Leaves, Lexicon
    from gcgtools.model.game import Game

__all__ = [
    "FULL_SETTINGS",
    "SIM_SETTINGS",
    "Depth",
    "JudgeSettings",
    "JudgedMove",
    "Judgement",
    "judge_record",
    "settings_for",
    "turn_seed",
]


class Depth(str, Enum):
    """How deep a record is judged (see the module docstring)."""

    STATIC = "static"
    SIM = "sim"
    FULL = "full"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class JudgeSettings:
    """The budgets of a judgement. ``sim_candidates`` (N), ``sim_iterations`` (K) and
    ``sim_plies`` (P) as in :class:`gcgtools.analysis.simulate.SimLimit`;
    ``endgame_nodes``: the endgame solver's budget per turn (positions visited);
    ``preendgame_nodes``: the pre-endgame solver's budget per turn (in all); ``keep``: the
    judged moves kept per turn (best first; the move played is always kept); ``seed``:
    the root of every turn's seed."""

    sim_candidates: int = 10
    sim_iterations: int = 300
    sim_plies: int = 2
    endgame_nodes: int = 100_000
    preendgame_nodes: int = 40_000
    keep: int = 5
    seed: int = 0

    def __post_init__(self) -> None:
        numbers = (self.sim_candidates, self.sim_iterations, self.endgame_nodes)
        if min(numbers + (self.preendgame_nodes,)) < 1 or self.sim_plies < 0 or self.keep < 0:
            raise ValueError("judge budgets must be >= 1 (plies and keep >= 0)")

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


#: ``--depth sim``: some seconds to tens of seconds a mid-game turn with today's generator
SIM_SETTINGS = JudgeSettings()
#: ``--depth full``: the issue's defaults (N 20, K 1000, P 2) and larger solver budgets
#: (the endgame's 300,000 nodes: about 75 s on a 7-tile endgame with today's generator;
#: 1,000,000 took 990 s there)
FULL_SETTINGS = JudgeSettings(
    sim_candidates=20, sim_iterations=1000, endgame_nodes=300_000, preendgame_nodes=400_000
)


def settings_for(depth: Depth | str, *, seed: int = 0, **overrides: int | None) -> JudgeSettings:
    """The default settings of ``depth`` (``sim`` or ``full``) with ``seed`` and the
    ``overrides`` that are not None. Raises ValueError for ``static``."""
    depth = Depth(depth)
    if depth is Depth.STATIC:
        raise ValueError("the static depth has no judge settings")
    base = SIM_SETTINGS if depth is Depth.SIM else FULL_SETTINGS
    given = {k: v for k, v in overrides.items() if v is not None}
    return replace(base, seed=seed, **given)


@dataclass(slots=True)
class JudgedMove:
    """One judged move: its notation and score, its win% (0..100) with ``stderr``
    (simulation only), the mean final ``spread`` (root's view), the ``iterations``
    simulated, or the endgame ``value`` and whether ``proved``."""

    move: str
    score: int
    win_pct: float
    stderr: float | None = None
    spread: float | None = None
    iterations: int | None = None
    value: int | None = None
    proved: bool | None = None

    def to_dict(self) -> dict[str, object]:
        return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in asdict(self).items()}


@dataclass(slots=True)
class Judgement:
    """The judgement of one turn. ``method``: ``simulation``, ``preendgame`` or
    ``endgame``; ``best`` and ``played`` the moves (``played`` None when it is not among
    the legal moves, see ``note``); ``win_pct_lost`` (percentage points) outside the
    endgame, ``spread_lost`` in it; ``mistake`` the grade (None when not graded);
    ``proved``: every solver value exact (solvers only); ``moves``: the judged moves kept,
    best first; ``model``: the win model's name; ``seed``: the turn's seed."""

    phase: str
    method: str
    best: JudgedMove
    played: JudgedMove | None
    win_pct_lost: float | None = None
    spread_lost: float | None = None
    mistake: str | None = None
    proved: bool | None = None
    note: str | None = None
    moves: list[JudgedMove] = field(default_factory=list)
    model: str = ""
    seed: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "phase": self.phase,
            "method": self.method,
            "best": self.best.to_dict(),
            "played": self.played.to_dict() if self.played is not None else None,
            "win_pct_lost": _round(self.win_pct_lost),
            "spread_lost": _round(self.spread_lost),
            "mistake": self.mistake,
            "proved": self.proved,
            "note": self.note,
            "moves": [m.to_dict() for m in self.moves],
            "model": self.model,
            "seed": self.seed,
        }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


def turn_seed(seed: int, record_key: str, event: int) -> int:
    """The seed of one turn: from the run's seed, the record's key and the event alone."""
    text = f"gcgtools-judge:{seed}:{record_key}:{event}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def record_key(game: Game) -> str:
    """A digest of a record's lines (used when the caller gives no key)."""
    digest = hashlib.sha256()
    for line in game.lines:
        digest.update(line.text.encode("utf-8", "surrogatepass") + b"\n")
    return digest.hexdigest()


class _Context:
    """What every turn of one record is judged with."""

    def __init__(
        self, game: Game, lexicon: Lexicon, leaves: Leaves | None, settings: JudgeSettings,
        key: str, options: RuleOptions,
    ) -> None:  # fmt: skip
        self.game = game
        self.lexicon = lexicon
        self.leaves = leaves
        self.settings = settings
        self.key = key
        self.options = options


def judge_record(
    game: Game,
    analysis: RecordAnalysis,
    lexicon: Lexicon,
    leaves: Leaves | None,
    settings: JudgeSettings,
    *,
    depth: Depth | str = Depth.SIM,
    key: str | None = None,
    track: Callable[[Iterator[TurnAnalysis], int], Iterator[TurnAnalysis]] | None = None,
    options: RuleOptions = NO_OPTIONS,
) -> RecordAnalysis:
    """Judge every analysed turn of ``analysis`` (the static analysis of ``game``) and set
    ``turn.judgement``, ``analysis.depth`` and ``analysis.mistake_index``; returns
    ``analysis``. ``key`` identifies the record in the turns' seeds (default a digest of
    its lines); ``track`` wraps the turns judged (a progress bar); ``options``: the rule
    options of the static analysis."""
    ctx = _Context(game, lexicon, leaves, settings, key or record_key(game), options)
    todo = [t for t in analysis.turns if t.analysed]
    turns: Iterator[TurnAnalysis] = iter(todo)
    if track is not None:
        turns = track(turns, len(todo))
    for turn in turns:
        turn.judgement = _judge_turn(ctx, turn)
    analysis.depth = str(Depth(depth))
    graded = [
        (t.player, grading.Mistake(t.judgement.mistake))
        for t in analysis.turns
        if t.judgement is not None and t.judgement.mistake is not None
    ]
    index = {nick: 0.0 for nick in analysis.players}
    index.update(grading.mistake_indices(graded))  # type: ignore[arg-type]
    analysis.mistake_index = index
    return analysis


def _judge_turn(ctx: _Context, turn: TurnAnalysis) -> Judgement | None:
    if len(ctx.game.players) != 2:  # the simulation and the solvers are for two players
        return None
    try:
        rp = record_position(ctx.game, turn.event - 1, options=ctx.options)
    except (MovesError, KeyError, ValueError):
        return None
    if rp.rack is None or rp.nick != turn.player:
        return None
    empty = all(c is None for c in rp.board.cells)
    phase = grading.phase(empty, rp.bag)
    played = "-" if turn.withdrawn else (turn.found.notation if turn.found else None)
    seed = turn_seed(ctx.settings.seed, ctx.key, turn.event)
    try:
        if phase is grading.Phase.ENDGAME:
            judgement = _endgame(ctx, rp, played)
        elif phase is grading.Phase.PREENDGAME:
            judgement = _preendgame(ctx, rp, played)
        else:
            judgement = _simulation(ctx, rp, played, phase, seed)
    except (EndgameError, ValueError) as exc:
        return Judgement(str(phase), "none", JudgedMove("", 0, 0.0), None, note=str(exc))
    judgement.seed = seed
    if played is None:
        judgement.note = _not_legal(turn)
    elif turn.withdrawn:
        judgement.note = "withdrawn: judged as the pass the turn became"
    return judgement


def _not_legal(turn: TurnAnalysis) -> str:
    if turn.phony_words:
        return f"phony ({', '.join(turn.phony_words)}): not among the legal moves, not graded"
    if turn.kind == "exchange":
        return "exchange of tiles not recorded: not graded"
    return "not among the legal moves: not graded"


def _kept(moves: list[JudgedMove], played: JudgedMove | None, keep: int) -> list[JudgedMove]:
    out = moves[:keep]
    if played is not None and played not in out:
        out.append(played)
    return out


def _find(moves: list[JudgedMove], notation: str | None) -> JudgedMove | None:
    if notation is None:
        return None
    return next((m for m in moves if m.move == notation), None)


def _simulation(
    ctx: _Context, rp: RecordPosition, played: str | None, phase: grading.Phase, seed: int
) -> Judgement:
    s = ctx.settings
    assert rp.rack is not None
    position = position_from_board(rp.board, rp.rules, rp.rack, rp.scores, rp.zeros)
    include: list[Move] = []
    if played is not None:
        every = top_moves(
            rp.board, rp.rack, ctx.lexicon, 1 << 30, leaves=ctx.leaves,
            bag_count=position.bag_count, rules=rp.rules,
        )  # fmt: skip
        include = [m for m in every if m.notation() == played][:1]
    limit = SimLimit(
        iterations=s.sim_iterations, candidates=s.sim_candidates, plies=s.sim_plies,
        min_iterations=min(SimLimit.min_iterations, s.sim_iterations),
    )  # fmt: skip
    result = simulate(position, ctx.lexicon, ctx.leaves, limit, seed, include=include)
    moves = [
        JudgedMove(c.move.notation(), c.move.score, c.win_pct, c.stderr, c.spread, c.iterations)
        for c in result.candidates
    ]
    best = moves[0]
    mine = _find(moves, played)
    lost = None if mine is None else max(0.0, best.win_pct - mine.win_pct)
    mistake = None if lost is None else str(grading.grade(phase, win_pct_lost=lost))
    return Judgement(
        str(phase), "simulation", best, mine, win_pct_lost=lost, mistake=mistake,
        moves=_kept(moves, mine, s.keep), model=result.model,
    )  # fmt: skip


def _preendgame(ctx: _Context, rp: RecordPosition, played: str | None) -> Judgement:
    s = ctx.settings
    assert rp.rack is not None
    # as in the simulation: the top candidates by static equity and the move played
    top = top_moves(
        rp.board, rp.rack, ctx.lexicon, s.sim_candidates, leaves=ctx.leaves, bag_count=rp.bag,
        exchanges=False, rules=rp.rules,
    )  # fmt: skip
    names = {m.notation() for m in top} | ({played} if played is not None else set())
    position = preendgame_position(rp, ctx.lexicon)
    keep = {played} if played is not None else set()  # never dropped by a stage
    limit = Limit(nodes=s.preendgame_nodes)
    result = solve_preendgame(position, limit, candidates=names, keep=keep)
    moves = [
        JudgedMove(c.move.notation(), c.move.score, c.win_pct, spread=c.spread, proved=c.proved)
        for c in result.candidates
    ]
    best = moves[0]
    mine = _find(moves, played)
    lost = None if mine is None else max(0.0, best.win_pct - mine.win_pct)
    phase = grading.Phase.PREENDGAME
    mistake = None if lost is None else str(grading.grade(phase, win_pct_lost=lost))
    return Judgement(
        str(phase), "preendgame", best, mine, win_pct_lost=lost, mistake=mistake,
        proved=result.proved, moves=_kept(moves, mine, s.keep), model="exact",
    )  # fmt: skip


def _endgame(ctx: _Context, rp: RecordPosition, played: str | None) -> Judgement:
    s = ctx.settings
    position = endgame_position(rp, ctx.lexicon)
    # the best move's exact value and the played move's (not every root move's)
    exact = () if played is None else (played,)
    result = solve_endgame(position, Limit(nodes=s.endgame_nodes), exact=exact)
    base = rp.scores[0] - rp.scores[1]
    moves = [
        JudgedMove(
            r.notation,
            r.move.score,
            _decided(base + r.value),
            spread=float(base + r.value),
            value=r.value,
            proved=r.proved,
        )  # fmt: skip
        for r in result.moves
    ]
    if not moves:
        raise ValueError("no move to judge: the player to move has no tiles")
    best = moves[0]
    mine = _find(moves, played)
    lost = None
    mistake = None
    if mine is not None and best.value is not None and mine.value is not None:
        lost = float(max(0, best.value - mine.value))
        grade = grading.grade(
            grading.Phase.ENDGAME, spread_lost=lost, best_final=float(base + best.value)
        )
        mistake = str(grade)
    return Judgement(
        str(grading.Phase.ENDGAME), "endgame", best, mine, spread_lost=lost, mistake=mistake,
        proved=result.proved, moves=_kept(moves, mine, s.keep), model="exact",
    )  # fmt: skip


def _decided(final: int) -> float:
    return 100.0 if final > 0 else 50.0 if final == 0 else 0.0
