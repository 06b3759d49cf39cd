"""The coach's facts: why the best move of a judged turn is better than the move played,
in numbers a player can check, each said by one fixed sentence.

A :class:`Fact` has a :class:`FactKind`, the numbers behind it (the best move's, the
move played's, and a few more for some kinds), which move it favours, and a
``sentence`` made from the kind's template (:data:`TEMPLATES`). Nothing is estimated
for the facts: they are read from the judgement (the simulation's own playouts, the
endgame's principal variation) or computed from the position (the move generator, the
lexicon, the leave values; in the pre-endgame, every draw of the bag the solver enumerates).

:func:`move_profile` gives the numbers of one move, :func:`turn_facts` the facts that
separate the move played from the best: the headline first (win% in the simulation and
the pre-endgame, the final spread in the endgame), then at most :data:`MAX_FACTS` others,
largest difference first. A kind's *difference* is ``|best - played|`` in its own unit
times the kind's weight (:data:`WEIGHTS`, points a unit is roughly worth), and a kind is
listed only when the difference in its unit reaches its minimum (:data:`MINIMUMS`); ties
keep the order of :class:`FactKind`. See ``docs/coach.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from gcgtools.analysis.endgame.draws import draws, orderings
from gcgtools.analysis.endgame.position import MAX_PREENDGAME_BAG
from gcgtools.analysis.lanes import hook_spots, tws_in_reach
from gcgtools.analysis.simulate import position_from_board
from gcgtools.movegen import Move, MoveRequest, generate
from gcgtools.movegen.generate import LeaveValues
from gcgtools.movegen.move import apply_move
from gcgtools.movegen.record import RecordPosition
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import RuleSet
from gcgtools.rules.tiles import BLANK
from gcgtools.wording import plural

if TYPE_CHECKING:
    from gcgtools.lexicon import Lexicon

__all__ = [
    "MAX_FACTS",
    "MINIMUMS",
    "TEMPLATES",
    "WEIGHTS",
    "Fact",
    "FactKind",
    "Judged",
    "MoveProfile",
    "Scene",
    "compare",
    "move_profile",
    "turn_facts",
]


class FactKind(str, Enum):
    """What a fact is about (its order here breaks ties between equal differences)."""

    WIN = "win"
    FINAL_SPREAD = "final_spread"
    GOES_OUT = "goes_out"
    EMPTIES_BAG = "empties_bag"
    SETS_UP_OUT = "sets_up_out"
    OPPONENT_OUT = "opponent_out"
    OPPONENT_OUT_SHARE = "opponent_out_share"
    REPLY_BINGO = "reply_bingo"
    FOLLOW_BINGO = "follow_bingo"
    REPLY_SCORE = "reply_score"
    SPREAD = "spread"
    SCORE = "score"
    LEAVE_VALUE = "leave_value"
    BLANK = "blank"
    S = "s"
    Q_WITHOUT_U = "q_without_u"
    DUPLICATES = "duplicates"
    BALANCE = "balance"
    TWS_OPENED = "tws_opened"
    TWS_CLOSED = "tws_closed"
    HOOKS = "hooks"

    def __str__(self) -> str:
        return self.value


K = FactKind

#: each kind's sentence: ``{B}`` and ``{P}`` the best and played moves, ``{b}`` and
#: ``{p}`` what the kind shows of each
TEMPLATES: Mapping[FactKind, str] = {
    K.WIN: "{B} wins {b} of the simulations, {P} {p}.",
    K.FINAL_SPREAD: "Final spread with best play by both: {b} after {B}, {p} after {P}.",
    K.GOES_OUT: "Goes out now: {b} for {B}, {p} for {P}.",
    K.EMPTIES_BAG: "Empties the bag: {b} for {B}, {p} for {P}.",
    K.SETS_UP_OUT: "Goes out next turn in the best line: {b} after {B}, {p} after {P}.",
    K.OPPONENT_OUT: "Opponent can go out at once: {b} after {B}, {p} after {P}.",
    K.OPPONENT_OUT_SHARE: "Opponent can go out at once: {b} of the draws after {B}, {p} after {P}.",
    K.REPLY_BINGO: "Opponent bingos next turn: {b} after {B}, {p} after {P}.",
    K.FOLLOW_BINGO: "We bingo next turn: {b} after {B}, {p} after {P}.",
    K.REPLY_SCORE: "Opponent's reply scores {b} after {B}, {p} after {P}.",
    K.SPREAD: "Mean spread after the plies: {b} for {B}, {p} for {P}.",
    K.SCORE: "{B} scores {b}, {P} {p}.",
    K.LEAVE_VALUE: "{B} keeps {b}, {P} keeps {p}.",
    K.BLANK: "Blanks kept: {b} by {B}, {p} by {P}.",
    K.S: "S tiles kept: {b} by {B}, {p} by {P}.",
    K.Q_WITHOUT_U: "Q kept without U: {b} by {B}, {p} by {P}.",
    K.DUPLICATES: "Duplicates kept: {b} by {B}, {p} by {P}.",
    K.BALANCE: "Vowels/consonants kept: {b} by {B}, {p} by {P}.",
    K.TWS_OPENED: "Triple words brought in reach: {b} by {B}, {p} by {P}.",
    K.TWS_CLOSED: "Triple words taken or closed: {b} by {B}, {p} by {P}.",
    K.HOOKS: "Hook spots made: {b} by {B}, {p} by {P}.",
}

#: the pre-endgame's own wording where the simulation's would be wrong: its win% and
#: spread come from the solver's searches over the bag's draws, not from playouts
PREENDGAME_TEMPLATES: Mapping[FactKind, str] = {
    K.WIN: "{B} wins {b} of the bag's draws, {P} {p}.",
    K.SPREAD: "Mean spread over the bag's draws: {b} for {B}, {p} for {P}.",
}

#: roughly what one unit of a kind is worth in points (orders the facts of a turn)
WEIGHTS: Mapping[FactKind, float] = {
    K.WIN: 1.0, K.FINAL_SPREAD: 1.0, K.GOES_OUT: 20.0, K.EMPTIES_BAG: 10.0,
    K.SETS_UP_OUT: 10.0, K.OPPONENT_OUT: 15.0, K.OPPONENT_OUT_SHARE: 0.15,
    K.REPLY_BINGO: 0.4, K.FOLLOW_BINGO: 0.4, K.REPLY_SCORE: 1.0,
    K.SPREAD: 1.0, K.SCORE: 1.0, K.LEAVE_VALUE: 1.0, K.BLANK: 25.0, K.S: 8.0,
    K.Q_WITHOUT_U: 7.0, K.DUPLICATES: 4.0, K.BALANCE: 2.0, K.TWS_OPENED: 6.0,
    K.TWS_CLOSED: 6.0, K.HOOKS: 2.0,
}  # fmt: skip

#: the least difference, in the kind's unit, that makes a fact
MINIMUMS: Mapping[FactKind, float] = {
    K.REPLY_BINGO: 3.0, K.FOLLOW_BINGO: 3.0, K.REPLY_SCORE: 2.0, K.SPREAD: 3.0,
    K.SCORE: 3.0, K.LEAVE_VALUE: 2.0, K.BALANCE: 2.0, K.OPPONENT_OUT_SHARE: 1.0,
}  # fmt: skip

#: +1 when more is better for the player to move, -1 when less is, 0 when it depends
_BETTER: Mapping[FactKind, int] = {
    K.OPPONENT_OUT: -1, K.OPPONENT_OUT_SHARE: -1, K.EMPTIES_BAG: 0, K.REPLY_BINGO: -1,
    K.REPLY_SCORE: -1, K.Q_WITHOUT_U: -1,
    K.DUPLICATES: -1, K.BALANCE: -1, K.TWS_OPENED: -1, K.HOOKS: 0,
}  # fmt: skip

#: facts listed after the headline
MAX_FACTS = 4

_HEADLINES = (K.WIN, K.FINAL_SPREAD)


class Judged(Protocol):
    """What the facts read of a judged move (:class:`~gcgtools.analysis.results.JudgedMove`)."""

    @property
    def move(self) -> str: ...
    @property
    def score(self) -> int: ...
    @property
    def win_pct(self) -> float: ...
    @property
    def spread(self) -> float | None: ...
    @property
    def pv(self) -> tuple[str, ...]: ...
    @property
    def reply_score(self) -> float | None: ...
    @property
    def reply_bingo_pct(self) -> float | None: ...
    @property
    def follow_bingo_pct(self) -> float | None: ...


@dataclass(frozen=True)
class Fact:
    """One fact of a turn: its ``kind``, the ``best`` move's number and the ``played``
    move's, ``more`` numbers behind it (name, value), which move it ``favours``
    (``best``, ``played`` or ``neither``) and its ``sentence``."""

    kind: FactKind
    best: float
    played: float
    favours: str
    sentence: str
    more: tuple[tuple[str, float], ...] = ()

    @property
    def numbers(self) -> dict[str, float]:
        """The numbers behind the fact: ``best``, ``played`` and the ``more``."""
        return {"best": self.best, "played": self.played, **dict(self.more)}

    def to_dict(self) -> dict[str, object]:
        numbers = {k: round(v, 3) if isinstance(v, float) else v for k, v in self.numbers.items()}
        return {"kind": self.kind.value, "favours": self.favours, "numbers": numbers,
                "sentence": self.sentence}  # fmt: skip


@dataclass(frozen=True)
class MoveProfile:
    """The numbers of one move for each kind that applies to it, what its sentence shows
    of each (``shown``), and more numbers for some kinds (``more``)."""

    notation: str
    values: Mapping[FactKind, float]
    shown: Mapping[FactKind, str]
    more: Mapping[FactKind, tuple[tuple[str, float], ...]] = field(default_factory=dict)
    method: str = "simulation"


def compare(best: MoveProfile, played: MoveProfile) -> tuple[Fact, ...]:
    """The facts that separate ``played`` from ``best`` (see the module docstring)."""
    head: list[Fact] = []
    rest: list[tuple[float, int, Fact]] = []
    order = list(FactKind)
    for kind in order:
        if kind not in best.values or kind not in played.values:
            continue
        b, p = best.values[kind], played.values[kind]
        if kind not in _HEADLINES and abs(b - p) < MINIMUMS.get(kind, 1e-9):
            continue
        fact = _fact(kind, best, played)
        if kind in _HEADLINES:
            head.append(fact)
        else:
            rest.append((-abs(b - p) * WEIGHTS[kind], order.index(kind), fact))
    rest.sort(key=lambda x: (x[0], x[1]))
    return tuple(head + [f for _, _, f in rest[:MAX_FACTS]])


def _fact(kind: FactKind, best: MoveProfile, played: MoveProfile) -> Fact:
    b, p = best.values[kind], played.values[kind]
    sign = (b > p) - (b < p)
    better = _BETTER.get(kind, 1) * sign
    favours = "neither" if better == 0 else ("best" if better > 0 else "played")
    own = PREENDGAME_TEMPLATES if best.method == "preendgame" else TEMPLATES
    sentence = own.get(kind, TEMPLATES[kind]).format(
        B=best.notation, P=played.notation, b=best.shown[kind], p=played.shown[kind]
    )
    more = tuple(
        (f"{side}_{name}", value)
        for side, profile in (("best", best), ("played", played))
        for name, value in profile.more.get(kind, ())
    )
    return Fact(kind, b, p, favours, sentence, more)


# ---------------------------------------------------------------- the numbers of a move
def _pct(x: float) -> str:
    return f"{x:.1f}%"


def _simulated(judged: Judged, method: str) -> tuple[dict[FactKind, float], dict[FactKind, str]]:
    """The kinds the judgement itself gives: win%, the final spread, the playouts'."""
    values: dict[FactKind, float] = {}
    shown: dict[FactKind, str] = {}
    if method == "endgame":
        if judged.spread is not None:
            values[K.FINAL_SPREAD] = judged.spread
            shown[K.FINAL_SPREAD] = f"{judged.spread:+.0f}"
        return values, shown
    values[K.WIN], shown[K.WIN] = judged.win_pct, _pct(judged.win_pct)
    if judged.spread is not None:
        values[K.SPREAD], shown[K.SPREAD] = judged.spread, f"{judged.spread:+.1f}"
    if judged.reply_score is not None:
        values[K.REPLY_SCORE] = judged.reply_score
        shown[K.REPLY_SCORE] = f"{judged.reply_score:.1f}"
    for kind, pct in ((K.REPLY_BINGO, judged.reply_bingo_pct),
                      (K.FOLLOW_BINGO, judged.follow_bingo_pct)):  # fmt: skip
        if pct is not None:
            values[kind], shown[kind] = pct, _pct(pct)
    return values, shown


def _leave(move: Move, rules: RuleSet) -> tuple[dict[FactKind, float], dict[FactKind, str]]:
    """The leave's kinds: its value and what it keeps."""
    tiles = rules.tiles.split(move.leave) if move.leave else []
    counts = Counter(tiles)
    doubled = "".join(t * n for t, n in sorted(counts.items()) if t != BLANK and n > 1)
    extra = sum(n - 1 for t, n in counts.items() if t != BLANK)
    vowels = sum(1 for t in tiles if t != BLANK and rules.tiles.is_vowel(t))
    consonants = sum(1 for t in tiles if t != BLANK) - vowels
    q_alone = "Q" in counts and "U" not in counts and BLANK not in counts
    text = move.leave or "nothing"
    values = {
        K.LEAVE_VALUE: move.leave_value,
        K.BLANK: float(counts[BLANK]),
        K.S: float(counts["S"]),
        K.Q_WITHOUT_U: float(q_alone),
        K.DUPLICATES: float(extra),
        K.BALANCE: float(abs(vowels - consonants)),
    }
    shown = {
        K.LEAVE_VALUE: f"{text} ({move.leave_value:+.1f})",
        K.BLANK: str(counts[BLANK]),
        K.S: str(counts["S"]),
        K.Q_WITHOUT_U: "yes" if q_alone else "no",
        K.DUPLICATES: doubled or "none",
        K.BALANCE: f"{vowels}/{consonants}",
    }
    return values, shown


_More = dict[FactKind, tuple[tuple[str, float], ...]]


def _lanes(
    before: Board, after: Board, move: Move, scene: Scene
) -> tuple[dict[FactKind, float], dict[FactKind, str], _More]:
    """The board's kinds: triple-word squares brought in reach or taken, hook spots."""
    rules, words, unseen = scene.rules, scene.lexicon, scene.unseen
    reach_before = tws_in_reach(before, rules.rack_size)
    reach_after = tws_in_reach(after, rules.rack_size)
    opened = sorted(reach_after - reach_before)
    closed = sorted(reach_before - reach_after)
    letters = [t for t in rules.tiles.letters if t != BLANK]
    spots = hook_spots(after, move, words, letters)
    fitting = set().union(*(s.letters for s in spots)) if spots else set()
    fit = sum(1 for t in unseen if t in fitting or (t == BLANK and fitting))
    values = {K.TWS_OPENED: float(len(opened)), K.TWS_CLOSED: float(len(closed)),
              K.HOOKS: float(len(spots))}  # fmt: skip
    shown = {
        K.TWS_OPENED: ", ".join(opened) or "none",
        K.TWS_CLOSED: ", ".join(closed) or "none",
        K.HOOKS: f"{len(spots)} ({plural(fit, 'tile')} fit{'s' if fit == 1 else ''})"
        if spots
        else "none",
    }
    more = {K.HOOKS: (("fitting_tiles", float(fit)),)}
    return values, shown, more


def _tiles_of(notation: str, rules: RuleSet) -> int:
    """How many tiles a move in the project's notation takes from the rack (``8D
    QU(I)TE``: 4; ``-``: 0; ``-ABC``: 0, an exchange keeps the rack's size)."""
    if " " not in notation:
        return 0
    word = notation.split(" ", 1)[1]
    out, depth = [], 0
    for ch in word:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    try:
        return len(rules.tiles.split("".join(out)))
    except ValueError:
        return len(out)


def _goes_out_at(pv: Sequence[str], racks: tuple[int, int], rules: RuleSet) -> int | None:
    """The ply (0: the move itself) of the line ``pv`` at which a side goes out, if any."""
    left = list(racks)
    for ply, notation in enumerate(pv):
        side = ply % 2
        left[side] -= _tiles_of(notation, rules)
        if left[side] <= 0:
            return ply
    return None


def _can_go_out(board: Board, words: Lexicon, rack: Sequence[str], rules: RuleSet) -> bool:
    """Whether ``rack`` has a play on ``board`` that uses all of it."""
    moves = generate(board, words, MoveRequest(list(rack), leaves=None, bag_count=0,
                                               exchanges=False, rules=rules))  # fmt: skip
    return any(m.tiles_played == len(rack) for m in moves)


def _endgame(
    judged: Judged, move: Move | None, scene: Scene
) -> tuple[dict[FactKind, float], dict[FactKind, str]]:
    """The endgame's kinds: goes out now, goes out next in the principal variation, and
    whether the opponent (whose tiles are known) can then go out at once."""
    rack, unseen, rules = scene.rack, scene.unseen, scene.rules
    at = _goes_out_at(judged.pv or (judged.move,), (len(rack), len(unseen)), rules)
    now = _tiles_of(judged.move, rules) >= len(rack)
    values = {K.GOES_OUT: float(now), K.SETS_UP_OUT: float(not now and at == 2)}
    if move is not None:
        values[K.OPPONENT_OUT] = float(
            not now and _can_go_out(apply_move(scene.board, move), scene.lexicon, unseen, rules)
        )
    shown = {k: "yes" if v else "no" for k, v in values.items()}
    return values, shown


def _preendgame(
    judged: Judged, move: Move | None, scene: Scene
) -> tuple[dict[FactKind, float], dict[FactKind, str]]:
    """The pre-endgame's kinds: whether the move empties the bag, and the share of the
    bag's draws after which the opponent can then go out at once (none when the tiles
    cannot make a pre-endgame: no draws to weigh)."""
    empties = _tiles_of(judged.move, scene.rules) >= scene.bag
    values = {K.EMPTIES_BAG: float(empties)}
    shown = {K.EMPTIES_BAG: "yes" if empties else "no"}
    theirs = len(scene.unseen) - scene.bag  # the opponent's rack in every draw
    drawn = 1 <= scene.bag <= MAX_PREENDGAME_BAG and 0 < theirs <= scene.rules.rack_size
    if move is not None and drawn:
        share = _opponent_out_share(apply_move(scene.board, move), scene) if empties else 0.0
        values[K.OPPONENT_OUT_SHARE], shown[K.OPPONENT_OUT_SHARE] = share, _pct(share)
    return values, shown


def _opponent_out_share(after: Board, scene: Scene) -> float:
    """The share (percent, by probability) of the bag's draws (the pre-endgame solver's
    scenarios: the opponent holds the unseen tiles less the bag) after which the
    opponent can play their whole rack on ``after``, the bag empty: one move generation
    per distinct rack of theirs."""
    out: dict[tuple[str, ...], bool] = {}
    weight = 0
    for d in draws(scene.unseen, scene.bag):
        if d.opponent not in out:
            out[d.opponent] = _can_go_out(after, scene.lexicon, d.opponent, scene.rules)
        weight += d.weight * out[d.opponent]
    return 100.0 * weight / orderings(len(scene.unseen), scene.bag)


@dataclass(frozen=True)
class Scene:
    """The position a turn's moves are made in: the board, the rules, the lexicon, the
    rack, the tiles the player to move cannot see (``unseen``) and the tiles in the bag."""

    board: Board
    rules: RuleSet
    lexicon: Lexicon
    rack: tuple[str, ...]
    unseen: tuple[str, ...]
    bag: int


def move_profile(judged: Judged, move: Move | None, method: str, scene: Scene) -> MoveProfile:
    """The numbers of one judged move (``move``: the generated move of the same notation,
    None when not found: only the judgement's own numbers then)."""
    values, shown = _simulated(judged, method)
    more: dict[FactKind, tuple[tuple[str, float], ...]] = {}
    values[K.SCORE], shown[K.SCORE] = float(judged.score), str(judged.score)
    if method == "endgame":
        v, t = _endgame(judged, move, scene)
        values.update(v)
        shown.update(t)
        return MoveProfile(judged.move, values, shown, more, method)
    if method == "preendgame":
        v, t = _preendgame(judged, move, scene)
        values.update(v)
        shown.update(t)
    if move is not None:
        if scene.bag > 0:
            v, t = _leave(move, scene.rules)
            values.update(v)
            shown.update(t)
        after = apply_move(scene.board, move)
        v, t, more = _lanes(scene.board, after, move, scene)
        values.update(v)
        shown.update(t)
    return MoveProfile(judged.move, values, shown, more, method)


def turn_facts(
    position: RecordPosition,
    lexicon: Lexicon,
    leaves: LeaveValues | None,
    method: str,
    best: Judged,
    played: Judged | None,
) -> tuple[Fact, ...]:
    """The facts that separate ``played`` from ``best`` in ``position`` (the record's
    position before the turn, its player to move), judged by ``method`` (``simulation``,
    ``preendgame`` or ``endgame``); none when the two are the same move, when the move
    played is not among the judged ones, the rack is unknown or the tiles do not add up."""
    if played is None or played.move == best.move or position.rack is None:
        return ()
    if (played.win_pct, played.spread) == (best.win_pct, best.spread):
        return ()  # nothing separates them in the judgement
    if method not in ("simulation", "preendgame", "endgame"):
        return ()
    rack = tuple(position.rack)
    try:
        unseen = position_from_board(position.board, position.rules, rack, position.scores).unseen
    except ValueError:  # the tiles do not add up: no facts rather than wrong ones
        return ()
    scene = Scene(position.board, position.rules, lexicon, rack, unseen, position.bag)
    opponent = unseen if position.bag == 0 else None
    moves = generate(position.board, lexicon, MoveRequest(
        list(rack), leaves=leaves, bag_count=position.bag, opponent_rack=opponent,
        rules=position.rules,
    ))  # fmt: skip
    found = {m.notation(): m for m in moves}
    profiles = [move_profile(j, found.get(j.move), method, scene) for j in (best, played)]
    return compare(*profiles)
