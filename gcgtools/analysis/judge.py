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
:func:`judge_turns` replays the record once, takes each judged turn's position from that
replay, and returns the judgements as a value (:class:`~gcgtools.analysis.results.RecordJudgements`:
a :class:`Judgement` per turn and a Mistake Index per player); :func:`with_judgements`
builds the judged analysis from the static one and them (``TurnAnalysis.judgement``,
``RecordAnalysis.mistake_index``), and :func:`judge_record` does both. The analysis given
is never changed. A turn the judge cannot judge (its position cannot be rebuilt, it has
another player to move, no whole rack) gets finding W806 on the record, with the reason.

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
from dataclasses import dataclass, fields, replace
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
from gcgtools.analysis.facts import turn_facts
from gcgtools.analysis.inference import (
    DEFAULT_CAP,
    DEFAULT_MARGIN,
    MAX_CAP,
    MAX_MARGIN,
    InferenceError,
    InferenceQuery,
    inference_query,
    opponent_turn,
)
from gcgtools.analysis.results import (
    JudgedMove,
    Judgement,
    RecordAnalysis,
    RecordJudgements,
    TurnAnalysis,
)
from gcgtools.analysis.simulate import (
    SimLimit,
    least_iterations,
    position_from_board,
    simulate,
)
from gcgtools.analysis.winprob import WinModel, builtin_model, decided
from gcgtools.findings import Code, Finding, make
from gcgtools.lexicon import builtin_leaves
from gcgtools.movegen import Move, MoveRequest, generate
from gcgtools.movegen.record import RecordPosition, record_position_at
from gcgtools.replay.after import position_at, replay_positions
from gcgtools.replay.walk import Position
from gcgtools.rules.options import NO_OPTIONS, RuleOptions

if TYPE_CHECKING:
    from gcgtools.lexicon import Leaves, Lexicon
    from gcgtools.model.game import Game
    from gcgtools.rules.rulesets import RuleSet

__all__ = [
    "FULL_SETTINGS",
    "SIM_SETTINGS",
    "Depth",
    "JudgeSettings",
    "JudgedMove",
    "Judgement",
    "TurnTask",
    "judge_record",
    "judge_task",
    "judge_turns",
    "not_judged",
    "record_judgements",
    "settings_for",
    "turn_seed",
    "turn_tasks",
    "with_judgements",
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
    the root of every turn's seed; ``model``: the win model of the simulations (None: the
    built-in one, :func:`gcgtools.analysis.winprob.builtin_model`); ``early_stop`` False:
    no candidate is dropped early, each runs all its iterations (a fixed budget, MAGPIE's
    ``-threshold none``); ``infer``: each simulation draws the opponent's rack from the
    leaves they likely kept with their last turn (:mod:`gcgtools.analysis.inference`,
    weighed with ``infer_margin`` equity points, at most ``infer_cap`` leaves one by one)
    instead of a uniform draw."""

    sim_candidates: int = 10
    sim_iterations: int = 300
    sim_plies: int = 2
    endgame_nodes: int = 100_000
    preendgame_nodes: int = 40_000
    keep: int = 5
    seed: int = 0
    model: WinModel | None = None
    early_stop: bool = True
    infer: bool = False
    infer_margin: float = DEFAULT_MARGIN
    infer_cap: int = DEFAULT_CAP

    def __post_init__(self) -> None:
        numbers = (self.sim_candidates, self.sim_iterations, self.endgame_nodes)
        if min(numbers + (self.preendgame_nodes,)) < 1 or self.sim_plies < 0 or self.keep < 0:
            raise ValueError("judge budgets must be >= 1 (plies and keep >= 0)")
        if not 0 <= self.infer_margin <= MAX_MARGIN:
            raise ValueError(f"the inference's margin must be between 0 and {MAX_MARGIN:g}")
        if not 1 <= self.infer_cap <= MAX_CAP:
            raise ValueError(f"the inference's cap must be between 1 and {MAX_CAP}")

    def to_dict(self) -> dict[str, int | float | str]:
        """The budgets and the seed; with a ``model``, its identity (``win_model``: its
        name and a digest of its parameters), so that the result cache tells models apart;
        the inference's settings only when it is on (the entries without it keep their
        keys)."""
        skipped = {"model"} if self.infer else {"model", "infer", "infer_margin", "infer_cap"}
        out: dict[str, int | float | str] = {
            f.name: getattr(self, f.name) for f in fields(self) if f.name not in skipped
        }
        if self.model is not None:
            out["win_model"] = _model_identity(self.model)
        return out

    @property
    def inference(self) -> str | None:
        """How the opponent's rack is inferred, in words (None: a uniform draw)."""
        if not self.infer:
            return None
        return f"inferred from their last turn (margin {self.infer_margin:g}, cap {self.infer_cap})"

    @property
    def model_name(self) -> str:
        """The name of the win model the simulations use."""
        return (self.model or builtin_model()).name


def _model_identity(model: WinModel) -> str:
    """A win model's name and a digest of its parameters (its ``repr``)."""
    return f"{model.name} {hashlib.sha256(repr(model).encode()).hexdigest()[:16]}"


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


@dataclass(frozen=True)
class TurnTask:
    """One turn to judge on its own (a picklable value: the unit of work of a deep
    analysis split over processes, see :mod:`gcgtools.batch.analyses`): the turn's static
    analysis, the position before it (from the record's one replay), the settings and the
    turn's seed (:func:`turn_seed`: the same whichever process judges it); ``query``:
    what the inference of the opponent's last turn needs, when the settings ask for one
    and the record has such a turn."""

    turn: TurnAnalysis
    position: RecordPosition
    settings: JudgeSettings
    seed: int
    query: InferenceQuery | None = None


class _NotJudged(Exception):
    """A turn the judge cannot judge: the message says why (finding W806)."""


def turn_tasks(
    game: Game,
    analysis: RecordAnalysis,
    settings: JudgeSettings,
    *,
    key: str | None = None,
    options: RuleOptions = NO_OPTIONS,
) -> tuple[list[TurnTask], list[Finding]]:
    """The turns of ``analysis`` (the static analysis of ``game``) to judge, as tasks,
    from one replay of ``game``, and a W806 finding for each analysed turn that cannot be
    judged (for a game not for two players, no task and no finding: the simulation and
    the solvers are for two). ``key`` identifies the record in the turns' seeds (default
    a digest of its lines); ``options``: the rule options of the static analysis."""
    todo = [t for t in analysis.turns if t.analysed]
    findings: list[Finding] = []
    if len(game.players) != 2:
        return [], findings
    try:
        positions, rules = replay_positions(game, options)
    except (KeyError, ValueError) as exc:
        findings.append(_not_judged(game, 0, f"the turns were not judged: {_reason(exc)}"))
        return [], findings
    key = key or record_key(game)
    tasks = []
    for turn in todo:
        try:
            rp = _position_before(game, turn, positions, rules)
        except _NotJudged as exc:
            findings.append(not_judged(game, turn, str(exc)))
            continue
        seed = turn_seed(settings.seed, key, turn.event)
        query = _query(game, rp, positions, rules) if settings.infer else None
        tasks.append(TurnTask(turn, rp, settings, seed, query))
    return tasks, findings


def _query(
    game: Game, rp: RecordPosition, positions: list[Position], rules: RuleSet
) -> InferenceQuery | None:
    """What the inference of the opponent's last turn before ``rp`` needs (None before
    their first turn)."""
    found = opponent_turn(game, rp.event, rp.player)
    return inference_query(game, found, positions, rules, rp.rack) if found else None


def not_judged(game: Game, turn: TurnAnalysis, reason: str) -> Finding:
    """Finding W806 for ``turn`` of ``game``, not judged for ``reason``."""
    message = f"event {turn.event} ({turn.played}) was not judged: {reason}"
    return _not_judged(game, turn.line, message)


def _position_before(
    game: Game, turn: TurnAnalysis, positions: list[Position], rules: RuleSet
) -> RecordPosition:
    """The position before ``turn``, from the one replay; :class:`_NotJudged` when the
    turn cannot be judged from it."""
    try:
        event = turn.event - 1
        rp = record_position_at(game, event, position_at(positions, event), rules)
    except (KeyError, ValueError) as exc:
        raise _NotJudged(f"the position before it cannot be rebuilt: {_reason(exc)}") from None
    if rp.nick != turn.player:
        raise _NotJudged(f"the position before it has {rp.nick} to move, not {turn.player}")
    if rp.rack is None:
        raise _NotJudged(f"the record does not show the whole rack of {rp.nick}")
    return rp


def judge_turns(
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
) -> RecordJudgements:
    """The judgements of every analysed turn of ``analysis`` (the static analysis of
    ``game``), from one replay of ``game`` (:func:`turn_tasks`, each judged here by
    :func:`judge_task`); ``analysis`` is not changed. ``key`` identifies the record in the
    turns' seeds (default a digest of its lines); ``track`` wraps the turns to judge, each
    judged once ``track`` hands it on (a progress bar; a benchmark's timer); ``options``:
    the rule options of the static analysis. A turn that cannot be judged gets a W806
    finding instead of a judgement."""
    tasks, findings = turn_tasks(game, analysis, settings, key=key, options=options)
    turns: Iterator[TurnAnalysis] = (task.turn for task in tasks)
    if track is not None:
        turns = track(turns, len(tasks))
    judgements = {
        turn.event: judge_task(task, lexicon, leaves)
        for task, turn in zip(tasks, turns, strict=True)
    }
    return record_judgements(analysis, depth, settings, judgements, findings)


def record_judgements(
    analysis: RecordAnalysis,
    depth: Depth | str,
    settings: JudgeSettings,
    judgements: dict[int, Judgement],
    findings: list[Finding],
) -> RecordJudgements:
    """The judgements of a record's turns (by event), whichever process made them, with
    the Mistake Index of each player of ``analysis`` and the W806 ``findings``."""
    graded = [
        (t.player, judgements[t.event].mistake)
        for t in analysis.turns
        if t.event in judgements and judgements[t.event].mistake is not None
    ]
    index = {nick: 0.0 for nick in analysis.players}
    index.update(grading.mistake_indices(graded))  # type: ignore[arg-type]
    return RecordJudgements(
        str(Depth(depth)), judgements, index, findings, win_model=settings.model_name,
        inference=settings.inference,
    )  # fmt: skip


class _Tools:
    """What every turn is judged with: the lexicon and leaves, and the settings."""

    def __init__(self, lexicon: Lexicon, leaves: Leaves | None, settings: JudgeSettings) -> None:
        self.lexicon = lexicon
        self.leaves = leaves
        self.settings = settings


def with_judgements(analysis: RecordAnalysis, judged: RecordJudgements) -> RecordAnalysis:
    """A new analysis: ``analysis`` with the judgements of ``judged`` on its turns, its
    depth and Mistake Index, and its findings (W806) after the analysis's own."""
    turns = [
        replace(t, judgement=judged.judgements[t.event]) if t.event in judged.judgements else t
        for t in analysis.turns
    ]
    return replace(
        analysis,
        turns=turns,
        findings=[*analysis.findings, *judged.findings],
        depth=judged.depth,
        mistake_index=dict(judged.mistake_index),
        win_model=judged.win_model,
        inference=judged.inference,
    )


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
    """The judged analysis of ``game``: :func:`judge_turns` then :func:`with_judgements`
    (a new value; ``analysis`` is not changed)."""
    judged = judge_turns(
        game, analysis, lexicon, leaves, settings, depth=depth, key=key, track=track,
        options=options,
    )  # fmt: skip
    return with_judgements(analysis, judged)


def _reason(exc: Exception) -> str:
    """An exception's message (a KeyError's without its quotes)."""
    return str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)


def _not_judged(game: Game, line: int, message: str) -> Finding:
    finding = make(Code.NOT_JUDGED, message, line)
    finding.path = game.path
    return finding


def judge_task(task: TurnTask, lexicon: Lexicon, leaves: Leaves | None) -> Judgement:
    """The judgement of one turn (:func:`turn_tasks`) with ``lexicon`` and ``leaves``:
    the same in any process, for the same task."""
    ctx = _Tools(lexicon, leaves, task.settings)
    turn, rp, seed = task.turn, task.position, task.seed
    empty = all(c is None for c in rp.board.cells)
    phase = grading.phase(empty, rp.bag)
    played = "-" if turn.withdrawn else (turn.found.notation if turn.found else None)
    try:
        if phase is grading.Phase.ENDGAME:
            judgement = _endgame(ctx, rp, played)
        elif phase is grading.Phase.PREENDGAME:
            judgement = _preendgame(ctx, rp, played)
        else:
            judgement = _simulation(ctx, rp, played, phase, seed, task.query)
    except (EndgameError, ValueError) as exc:
        return Judgement(phase, "none", JudgedMove("", 0, 0.0), None, note=str(exc))
    note = judgement.note
    if played is None:
        note = _not_legal(turn)
    elif turn.withdrawn:
        note = "withdrawn: judged as the pass the turn became"
    facts = turn_facts(rp, ctx.lexicon, ctx.leaves, judgement.method, judgement.best,
                       judgement.played)  # fmt: skip
    return replace(judgement, seed=seed, note=note, facts=facts)


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
    ctx: _Tools, rp: RecordPosition, played: str | None, phase: grading.Phase, seed: int,
    query: InferenceQuery | None = None,
) -> Judgement:  # fmt: skip
    s = ctx.settings
    assert rp.rack is not None
    position = position_from_board(rp.board, rp.rules, rp.rack, rp.scores, rp.zeros)
    position = replace(position, kept=_inferred(ctx, query, seed))
    include: list[Move] = []
    if played is not None:
        every = generate(rp.board, ctx.lexicon, MoveRequest(
            rp.rack, leaves=ctx.leaves, bag_count=position.bag_count, rules=rp.rules,
        ))  # fmt: skip
        include = [m for m in every if m.notation() == played][:1]
    limit = SimLimit(
        iterations=s.sim_iterations, candidates=s.sim_candidates, plies=s.sim_plies,
        min_iterations=least_iterations(s.sim_iterations, s.early_stop),
    )  # fmt: skip
    result = simulate(
        position, ctx.lexicon, ctx.leaves, limit, seed, model=s.model, include=include
    )
    moves = [
        JudgedMove(
            c.move.notation(),
            c.move.score,
            c.win_pct,
            c.stderr,
            c.spread,
            c.iterations,
            reply_score=c.reply_score,
            reply_bingo_pct=c.reply_bingo_pct,
            follow_score=c.follow_score,
            follow_bingo_pct=c.follow_bingo_pct,
        )  # fmt: skip
        for c in result.candidates
    ]
    best = moves[0]
    mine = _find(moves, played)
    lost = None if mine is None else max(0.0, best.win_pct - mine.win_pct)
    mistake = None if lost is None else grading.grade(phase, win_pct_lost=lost)
    return Judgement(
        phase, "simulation", best, mine, win_pct_lost=lost, mistake=mistake,
        moves=_kept(moves, mine, s.keep), model=result.model,
    )  # fmt: skip


def _inferred(
    ctx: _Tools, query: InferenceQuery | None, seed: int
) -> tuple[tuple[tuple[str, ...], float], ...]:
    """The leaves the opponent likely kept with their last turn (``query``, made with the
    turn's task when the settings ask for an inference), with their probabilities
    (``SimPosition.kept``); empty (a uniform draw) without a query, or when the record's
    turn uses tiles the player to move cannot have left unseen."""
    if query is None:
        return ()
    s = ctx.settings
    leaves = ctx.leaves if ctx.leaves is not None else builtin_leaves(query.rules.tiles)
    try:
        inferred = query.infer(
            ctx.lexicon, leaves, margin=s.infer_margin, cap=s.infer_cap, seed=seed
        )
    except InferenceError:
        return ()
    return inferred.kept()


def _preendgame(ctx: _Tools, rp: RecordPosition, played: str | None) -> Judgement:
    s = ctx.settings
    assert rp.rack is not None
    # every legal move is a candidate (the solver's first stage values them by a fast
    # playout, best first by static equity, as far as its share of the budget goes)
    position = preendgame_position(rp, ctx.lexicon)
    keep = {played} if played is not None else set()  # never dropped by a stage
    limit = Limit(nodes=s.preendgame_nodes)
    result = solve_preendgame(position, limit, keep=keep)
    moves = [
        JudgedMove(c.move.notation(), c.move.score, c.win_pct, spread=c.spread, proved=c.proved)
        for c in result.candidates
    ]
    best = moves[0]
    mine = _find(moves, played)
    lost = None if mine is None else max(0.0, best.win_pct - mine.win_pct)
    phase = grading.Phase.PREENDGAME
    mistake = None if lost is None else grading.grade(phase, win_pct_lost=lost)
    return Judgement(
        phase, "preendgame", best, mine, win_pct_lost=lost, mistake=mistake,
        proved=result.proved, moves=_kept(moves, mine, s.keep), model="exact",
    )  # fmt: skip


def _endgame(ctx: _Tools, rp: RecordPosition, played: str | None) -> Judgement:
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
            100.0 * decided(base + r.value),
            spread=float(base + r.value),
            value=r.value,
            proved=r.proved,
            pv=tuple(r.pv),
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
        mistake = grading.grade(
            grading.Phase.ENDGAME, spread_lost=lost, best_final=float(base + best.value)
        )
    return Judgement(
        grading.Phase.ENDGAME, "endgame", best, mine, spread_lost=lost, mistake=mistake,
        proved=result.proved, moves=_kept(moves, mine, s.keep), model="exact",
    )  # fmt: skip
