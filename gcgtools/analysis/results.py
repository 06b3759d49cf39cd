"""What analysing and judging a record give: values, made once and never changed.

* :class:`Candidate`: a generated move, as plain data;
* :class:`TurnAnalysis`: one turn, judged against the lexicon (the static analysis of
  :func:`gcgtools.analysis.analyse.analyse_record`), with its :class:`Judgement` when the
  turn was judged at a depth;
* :class:`RecordAnalysis`: the analysis of one record;
* :class:`JudgedMove` and :class:`Judgement`: a turn judged by simulation or a solver
  (:mod:`gcgtools.analysis.judge`), its phase and mistake as the enums
  :class:`~gcgtools.analysis.grading.Phase` and :class:`~gcgtools.analysis.grading.Mistake`;
* :class:`RecordJudgements`: what judging one record gives, the judgements by event, the
  Mistake Index per player and the findings of turns that could not be judged.

Every class is a frozen dataclass: a step that adds to a result (the judge adding its
judgements to the static analysis) builds a new value (:func:`dataclasses.replace`) and
leaves the one it was given as it was. :func:`rounded` is the one rounding of the numbers
these values show.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from gcgtools.analysis.facts import Fact
from gcgtools.analysis.grading import Mistake, Phase
from gcgtools.findings import Finding
from gcgtools.wording import NO_LEXICON, plural, plural_form

__all__ = [
    "AFTER_LOST_LINE",
    "ANALYSED",
    "LOST_TURN",
    "PARTIAL_RACK",
    "UNKNOWN_RACK",
    "Candidate",
    "JudgedMove",
    "Judgement",
    "RecordAnalysis",
    "RecordJudgements",
    "TurnAnalysis",
    "rounded",
]

# what a turn's status says
ANALYSED = "analysed"
UNKNOWN_RACK = "phony check only: rack unknown"
LOST_TURN = "turn lost to a challenge: not judged"
AFTER_LOST_LINE = "phony check only: a line before it could not be read"
PARTIAL_RACK = "phony check only: partial rack"


def rounded(value: float | None, places: int = 2) -> float | None:
    """``value`` rounded to ``places`` decimals as the results show it (None stays None)."""
    return None if value is None else round(value, places)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A generated move, as plain data: ``notation`` as analysers write it (``8D QUITE``,
    ``O1 HAN(G)OVER``, ``-ABC`` for an exchange, ``-`` for a pass)."""

    notation: str
    kind: str
    coord: str | None
    word: str | None
    tiles: str
    score: int
    leave: str
    equity: float
    bingo: bool

    def __repr__(self) -> str:
        return (
            f"<Candidate {self.notation} score {self.score} leave {self.leave or '-'} "
            f"equity {self.equity:.1f}>"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.notation,
            "kind": self.kind,
            "coord": self.coord,
            "word": self.word,
            "tiles": self.tiles,
            "score": self.score,
            "leave": self.leave,
            "equity": round(self.equity, 2),
            "bingo": self.bingo,
        }


@dataclass(frozen=True, slots=True)
class JudgedMove:
    """One judged move: its notation and score, its win% (0..100) with ``stderr``
    (simulation only), the mean final ``spread`` (root's view), the ``iterations``
    simulated, or the endgame ``value``, whether ``proved`` and the principal variation
    ``pv`` (this move first, then both sides' best replies; endgame only); from the
    simulation's playouts (simulation only): the opponent's mean ``reply_score`` and
    ``reply_bingo_pct`` (0..100), our ``follow_score`` and ``follow_bingo_pct``."""

    move: str
    score: int
    win_pct: float
    stderr: float | None = None
    spread: float | None = None
    iterations: int | None = None
    value: int | None = None
    proved: bool | None = None
    pv: tuple[str, ...] = ()
    reply_score: float | None = None
    reply_bingo_pct: float | None = None
    follow_score: float | None = None
    follow_bingo_pct: float | None = None

    def to_dict(self) -> dict[str, object]:
        out = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in asdict(self).items()}
        if self.pv:
            out["pv"] = list(self.pv)
        else:
            del out["pv"]  # a simulated or pre-endgame move has none
        for name in _PLAYOUT_KEYS:
            if out[name] is None:
                del out[name]  # only a simulated move has them
        return out


_PLAYOUT_KEYS = ("reply_score", "reply_bingo_pct", "follow_score", "follow_bingo_pct")


@dataclass(frozen=True, slots=True)
class Judgement:
    """The judgement of one turn. ``phase``: the phase of the game; ``method``:
    ``simulation``, ``preendgame`` or ``endgame`` (``none`` when the judging failed:
    ``note`` says why); ``best`` and ``played`` the moves (``played`` None when it is not
    among the legal moves, see ``note``); ``win_pct_lost`` (percentage points) outside the
    endgame, ``spread_lost`` in it; ``mistake`` the grade (None when not graded);
    ``proved``: every solver value exact (solvers only); ``moves``: the judged moves kept,
    best first; ``model``: the win model's name; ``seed``: the turn's seed; ``facts``:
    what separates the move played from the best (:mod:`gcgtools.analysis.facts`)."""

    phase: Phase
    method: str
    best: JudgedMove
    played: JudgedMove | None
    win_pct_lost: float | None = None
    spread_lost: float | None = None
    mistake: Mistake | None = None
    proved: bool | None = None
    note: str | None = None
    moves: list[JudgedMove] = field(default_factory=list)
    model: str = ""
    seed: int = 0
    facts: tuple[Fact, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "phase": self.phase.value,
            "method": self.method,
            "best": self.best.to_dict(),
            "played": self.played.to_dict() if self.played is not None else None,
            "win_pct_lost": rounded(self.win_pct_lost, 3),
            "spread_lost": rounded(self.spread_lost, 3),
            "mistake": self.mistake.value if self.mistake is not None else None,
            "proved": self.proved,
            "note": self.note,
            "moves": [m.to_dict() for m in self.moves],
            "model": self.model,
            "seed": self.seed,
            "facts": [f.to_dict() for f in self.facts],
        }


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """One turn (play, exchange or pass) of a record, judged against the lexicon.

    ``event`` is the 1-based event number; ``status`` is ``analysed`` or says why only the
    phony check was done. ``phony_words`` is None when the words were not checked (no
    lexicon, not a play). ``rank`` is 1 for the best move; a recorded move that is not
    among the generated ones (``legal`` False) has none. ``equity_lost`` is never below
    zero. ``moves`` counts the legal moves generated.
    """

    event: int
    line: int
    player: str
    kind: str
    played: str
    rack: str | None
    score: int
    computed: int | None
    status: str
    words: list[str] = field(default_factory=list)
    phony_words: list[str] | None = None
    withdrawn: bool = False
    challenged: bool = False
    equity: float | None = None
    best: list[Candidate] = field(default_factory=list)
    best_equity: float | None = None
    equity_lost: float | None = None
    rank: int | None = None
    legal: bool | None = None
    moves: int | None = None
    bingo_available: bool | None = None
    missed_bingo: bool | None = None
    best_bingo: Candidate | None = None
    found: Candidate | None = None  # the recorded move among the generated ones
    leave: str | None = None  # the tiles the recorded move kept, when the rack is known
    judgement: Judgement | None = None  # --depth sim/full (gcgtools.analysis.judge)

    @property
    def analysed(self) -> bool:
        return self.status == ANALYSED

    def __repr__(self) -> str:
        """``<TurnAnalysis 6: Bob H5 WOG(R) equity 9.9, lost 20.1, phony WOGR | best M3
        GODOW(N) 30.1>``; a turn not judged says why."""
        head = f"<TurnAnalysis {self.event}: {self.player} {self.played}"
        if self.withdrawn:
            head += " (withdrawn)"
        if not self.analysed:
            return f"{head}: {self.status}>"
        parts = [f"equity {_fmt(self.equity)}", f"lost {_fmt(self.equity_lost)}"]
        if self.rank is not None:
            parts.append(f"rank {self.rank} of {self.moves}")
        if self.phony_words:
            parts.append(f"{plural_form('phony', len(self.phony_words))} "
                         f"{','.join(self.phony_words)}")  # fmt: skip
        if self.missed_bingo and self.best_bingo is not None:
            parts.append(f"missed bingo {self.best_bingo.notation}")
        best = f" | best {self.best_move} {_fmt(self.best_equity)}" if self.best_move else ""
        return f"{head} {', '.join(parts)}{best}>"

    @property
    def best_move(self) -> str | None:
        return self.best[0].notation if self.best else None

    def to_dict(self) -> dict[str, object]:
        return {
            "event": self.event,
            "line": self.line,
            "player": self.player,
            "kind": self.kind,
            "played": self.played,
            "rack": self.rack,
            "score": self.score,
            "computed": self.computed,
            "status": self.status,
            "words": self.words,
            "phony_words": self.phony_words,
            "withdrawn": self.withdrawn,
            "challenged": self.challenged,
            "equity": rounded(self.equity),
            "best_move": self.best_move,
            "best_equity": rounded(self.best_equity),
            "equity_lost": rounded(self.equity_lost),
            "rank": self.rank,
            "legal": self.legal,
            "moves": self.moves,
            "bingo_available": self.bingo_available,
            "missed_bingo": self.missed_bingo,
            "best_bingo": self.best_bingo.to_dict() if self.best_bingo is not None else None,
            "found": self.found.to_dict() if self.found is not None else None,
            "leave": self.leave,
            "best": [c.to_dict() for c in self.best],
            # a new key only when judged (--depth sim/full): the static output as before
            **({"judgement": self.judgement.to_dict()} if self.judgement is not None else {}),
        }


@dataclass(frozen=True, slots=True)
class RecordAnalysis:
    """The analysis of one record: every turn, the W8xx findings, and which lexicon and
    leaves were used (``message``: why there is no lexicon, or a problem with the leaves).
    ``unreadable``: the file could not be read (``reason`` says why)."""

    path: str
    turns: list[TurnAnalysis] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    lexicon: str | None = None
    lexicon_source: str | None = None
    leaves: str | None = None
    leaves_source: str | None = None
    message: str | None = None
    players: list[str] = field(default_factory=list)
    unreadable: bool = False
    reason: str | None = None
    depth: str = "static"  # how deep the turns were judged (gcgtools.analysis.judge.Depth)
    mistake_index: dict[str, float] = field(default_factory=dict)  # per player, when judged
    win_model: str | None = None  # the name of the win model of the judgement, when judged
    inference: str | None = None  # how the opponent's rack was inferred (None: uniform draws)

    def __repr__(self) -> str:
        """``<RecordAnalysis 'game.gcg': 24 turns, 20 analysed, lexicon ENABLE, leaves
        CSW21>``."""
        if self.unreadable:
            return f"<RecordAnalysis {self.path!r}: unreadable: {self.reason}>"
        analysed = sum(1 for t in self.turns if t.analysed)
        used = f"lexicon {self.lexicon}" if self.lexicon is not None else NO_LEXICON
        if self.lexicon is not None and self.leaves is not None:
            used += f", leaves {self.leaves}"
        return (
            f"<RecordAnalysis {self.path!r}: {plural(len(self.turns), 'turn')}, {analysed} "
            f"analysed, {plural(len(self.findings), 'finding')}, {used}>"
        )

    @property
    def used(self) -> str:
        """One line: which lexicon and leaves were used, or why there was no lexicon."""
        if self.lexicon is None:
            return self.message or "no lexicon"
        text = f"lexicon {self.lexicon}: {self.lexicon_source}"
        if self.leaves is not None:
            text += f"; leaves {self.leaves}: {self.leaves_source}"
        return f"{text}; {self.message}" if self.message else text

    def player_summary(self) -> dict[str, dict[str, Any]]:
        """Per player: phonies played and stood, missed bingos, turns analysed, best moves
        found (analysed turns whose move ranks first, withdrawn plays not counted), total
        and average equity lost per analysed turn (None without a lexicon)."""
        out: dict[str, dict[str, Any]] = {}
        checked = self.lexicon is not None
        for nick in self.players:
            out[nick] = _empty_summary(checked)
        for t in self.turns:
            s = out.setdefault(t.player, _empty_summary(checked))
            if not checked:
                continue
            if t.phony_words:
                s["phonies_played"] += 1
                if not t.withdrawn:
                    s["phonies_stood"] += 1
            if t.missed_bingo:
                s["missed_bingos"] += 1
            if t.equity_lost is not None:
                s["analysed_turns"] += 1
                s["equity_lost"] += t.equity_lost
                if t.rank == 1 and not t.withdrawn:
                    s["best_moves"] += 1
        for s in out.values():
            if checked:
                s["equity_lost"] = round(s["equity_lost"], 2)
                turns = s["analysed_turns"]
                s["avg_equity_lost"] = round(s["equity_lost"] / turns, 2) if turns else None
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "lexicon": self.lexicon,
            "lexicon_source": self.lexicon_source,
            "leaves": self.leaves,
            "leaves_source": self.leaves_source,
            "message": self.message,
            "unreadable": self.unreadable,
            "reason": self.reason,
            "players": self.player_summary(),
            "findings": [f.to_dict() for f in self.findings],
            "turns": [t.to_dict() for t in self.turns],
            **(_judged(self.depth, self.mistake_index, self.win_model, self.inference)),
        }


@dataclass(frozen=True, slots=True)
class RecordJudgements:
    """What judging one record at ``depth`` gives: the :class:`Judgement` of each judged
    turn by event number, the Mistake Index per player, and a finding (W806) for each
    turn that could not be judged."""

    depth: str
    judgements: dict[int, Judgement] = field(default_factory=dict)
    mistake_index: dict[str, float] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    win_model: str | None = None  # the name of the win model the simulations used
    inference: str | None = None  # how the opponent's rack was inferred (None: uniform draws)


def _empty_summary(checked: bool) -> dict[str, Any]:
    zero = 0 if checked else None
    return {
        "phonies_played": zero,
        "phonies_stood": zero,
        "missed_bingos": zero,
        "analysed_turns": zero,
        "best_moves": zero,
        "equity_lost": 0.0 if checked else None,
        "avg_equity_lost": None,
    }


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _judged(
    depth: str, index: dict[str, float], model: str | None, inference: str | None
) -> dict[str, object]:
    """The keys a judged record adds (none for the static depth)."""
    if depth == "static":
        return {}
    return {"depth": depth, "mistake_index": dict(index), "win_model": model,
            "inference": inference}  # fmt: skip
