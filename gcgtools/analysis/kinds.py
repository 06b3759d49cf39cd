"""What kind of mistake a judged turn is, and the Mistake Index of a game split by phase
and by kind: the per-game parts of a player profile (``gcgtools stats --by profile``).

Every graded mistake (a :class:`~gcgtools.analysis.results.Judgement` whose ``mistake``
is small, medium or large) has exactly one :class:`MistakeKind`, the first that fits:

1. ``endgame``: the turn is in the pre-endgame or the endgame (1 to 4 tiles in the bag,
   or none), whatever the moves;
2. ``missed_bingo``: the best move is a bingo (it places a whole rack,
   :data:`BINGO_TILES` tiles) and the move played is not;
3. ``exchange``: exchange or not: the best move is an exchange and the move played is
   not (a play or a pass), or the move played is an exchange and the best is not;
4. ``leave``: the move played scored at least as much as the best: what it lost, it lost
   on what it kept (the leave) and on the board it left, not on points (exchanging other
   tiles than the best exchange is one: both score 0);
5. ``other``: the rest, a play that scored less than the best (its loss is score, leave
   and board together: the judgement does not split them).

The kinds (and the phases) split the Mistake Index: the parts of a game add up to the
Mistake Index of the player in that game. Only the judgement's public values are read
(the phase, the notation and score of the best move and of the move played), so a
judgement from the cache gives the same parts as a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from gcgtools.analysis.grading import Mistake, Phase
from gcgtools.analysis.results import Judgement, RecordAnalysis

__all__ = [
    "BINGO_TILES",
    "GameMistakes",
    "MistakeKind",
    "game_mistakes",
    "is_bingo",
    "is_exchange",
    "mistake_kind",
    "tiles_placed",
]

#: the tiles a bingo places: a whole rack of every rule set gcgtools knows
BINGO_TILES = 7


class MistakeKind(str, Enum):
    """What kind of mistake a graded turn is (see the module docstring for the order)."""

    MISSED_BINGO = "missed_bingo"
    EXCHANGE = "exchange"
    LEAVE = "leave"
    ENDGAME = "endgame"
    OTHER = "other"

    def __str__(self) -> str:
        return self.value


def tiles_placed(notation: str) -> int:
    """The tiles a move in analysers' notation places: ``8D QUITE`` 5, ``O1 HAN(G)OVER``
    7 (the letters in parentheses were on the board), ``8D [CH]E`` 2 (a bracketed
    multi-letter tile is one tile); 0 for an exchange (``-ABC``) or a pass (``-``)."""
    if notation.startswith("-"):
        return 0
    word = notation.partition(" ")[2]
    count, through, bracket = 0, False, False
    for char in word:
        if char == "(":
            through = True
        elif char == ")":
            through = False
        elif char == "[":
            bracket = True
            count += not through
        elif char == "]":
            bracket = False
        elif not through and not bracket:
            count += 1
    return count


def is_exchange(notation: str) -> bool:
    """An exchange (``-ABC``); a pass (``-``) is not one."""
    return notation.startswith("-") and len(notation) > 1


def is_bingo(notation: str) -> bool:
    """A play that places :data:`BINGO_TILES` tiles."""
    return tiles_placed(notation) >= BINGO_TILES


def mistake_kind(judgement: Judgement) -> MistakeKind | None:
    """The kind of the judged turn's mistake; None when it is no mistake or not graded
    (no move played among the legal ones, a turn not judged)."""
    mistake, played = judgement.mistake, judgement.played
    if mistake is None or mistake is Mistake.NONE or played is None:
        return None
    if judgement.phase in (Phase.PREENDGAME, Phase.ENDGAME):
        return MistakeKind.ENDGAME
    best = judgement.best
    if is_bingo(best.move) and not is_bingo(played.move):
        return MistakeKind.MISSED_BINGO
    if is_exchange(best.move) != is_exchange(played.move):
        return MistakeKind.EXCHANGE
    if played.score >= best.score:
        return MistakeKind.LEAVE
    return MistakeKind.OTHER


@dataclass(frozen=True, slots=True)
class GameMistakes:
    """One player's judged turns in one game: the Mistake Index and its parts by phase
    and by kind (every phase and kind present, 0.0 when none), the turns graded and how
    many of them were the best move."""

    mistake_index: float = 0.0
    by_phase: dict[Phase, float] = field(default_factory=lambda: dict.fromkeys(Phase, 0.0))
    by_kind: dict[MistakeKind, float] = field(
        default_factory=lambda: dict.fromkeys(MistakeKind, 0.0)
    )
    judged_turns: int = 0
    best_moves: int = 0


def game_mistakes(analysis: RecordAnalysis) -> dict[str, GameMistakes]:
    """Per player of a judged analysis (every player of the record, in seat order, then
    any other that played a judged turn): their :class:`GameMistakes`. Empty for a
    static analysis."""
    if analysis.depth == "static":
        return {}
    weights: dict[str, list[tuple[Judgement, float]]] = {nick: [] for nick in analysis.players}
    for turn in analysis.turns:
        j = turn.judgement
        if j is None or j.mistake is None:
            continue
        weights.setdefault(turn.player, []).append((j, j.mistake.weight))
    return {nick: _summed(graded) for nick, graded in weights.items()}


def _summed(graded: list[tuple[Judgement, float]]) -> GameMistakes:
    by_phase = dict.fromkeys(Phase, 0.0)
    by_kind = dict.fromkeys(MistakeKind, 0.0)
    best = 0
    for j, weight in graded:
        by_phase[j.phase] += weight
        kind = mistake_kind(j)
        if kind is not None:
            by_kind[kind] += weight
        best += int(j.played is not None and j.played.move == j.best.move)
    return GameMistakes(
        mistake_index=round(sum(w for _, w in graded), 6),
        by_phase={p: round(v, 6) for p, v in by_phase.items()},
        by_kind={k: round(v, 6) for k, v in by_kind.items()},
        judged_turns=len(graded),
        best_moves=best,
    )
