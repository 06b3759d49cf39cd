"""Analysing a record against a lexicon: phonies, best moves, equity lost, missed bingos.

:func:`analyse_record` replays a game once and, for each turn (play, exchange, pass):

* checks every word a play formed against the lexicon (any turn, rack known or not): a
  phony that stood is finding W801 (info), a valid play withdrawn with ``--`` W802
  (warning), a challenge bonus after a play that formed a phony W803 (warning), each at
  the play's own line and naming the words;
* when the mover's full rack is known (the record's rack has as many tiles as the player
  holds), generates every legal move in the position before the turn
  (:func:`gcgtools.movegen.generate_moves`) and reports the recorded move's equity, the
  best moves, the equity lost, the recorded move's rank and whether a bingo was
  available and missed. A turn whose rack is unknown or partial gets the phony check
  only, and its :attr:`TurnAnalysis.status` says so.

Equity is the score plus the leave's value while the bag holds tiles; with the bag empty
it is the score plus twice the value of the opponents' tiles when the move goes out, else
minus the value of the tiles kept (the end-game adjustment).

The recorded move is looked up among the generated moves by its placement (the squares
and tiles it puts down); an exchange by the tiles exchanged; a pass as the pass. A play
that is not among them (a phony, or a placement the rules do not allow) gets the equity
of its computed score and leave as above and is marked ``legal`` False; as liwords
measures it, its equity lost is measured against the best legal move and is never below
zero (a phony that stood and outscored every legal move lost nothing by this measure),
and it has no rank among the legal moves (``rank`` None). A play withdrawn with ``--`` is
judged by what the turn became: a pass (no score, the whole rack kept, valued by the leave
model as any leave is).

    >>> result = analyse_record(read_game("game.gcg"), lexicon=lex)  # doctest: +SKIP
    >>> [(t.event, t.played, t.equity_lost) for t in result.turns]  # doctest: +SKIP
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gcgtools._version import __version__
from gcgtools.analysis.fit import lexicon_fit
from gcgtools.findings import Code, Finding, make
from gcgtools.lexicon.choice import describe
from gcgtools.model.game import Game, unreadable_reason
from gcgtools.replay.board import Board, square_name
from gcgtools.replay.engine import Position, Positions, Replayer, walk
from gcgtools.replay.notation import word_notation
from gcgtools.replay.position import known_rack, rack_tokens, tiles_text
from gcgtools.replay.scoring import Word
from gcgtools.rules.equity import equity as move_equity
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.rules.resolve import resolve
from gcgtools.rules.rulesets import RuleSet
from gcgtools.rules.tiles import BLANK
from gcgtools.syntax.records import Event, EventKind
from gcgtools.wording import NO_LEXICON as WORDING_NO_LEXICON
from gcgtools.wording import plural, plural_form

if TYPE_CHECKING:
    from gcgtools.analysis.judge import Judgement
    from gcgtools.lexicon import Leaves, Lexicon

__all__ = [
    "ANALYSIS_VERSION",
    "Candidate",
    "RecordAnalysis",
    "TurnAnalysis",
    "analyse_record",
    "phony_words",
]

#: Bumped when the results of the analysis change for the same inputs (cache keys).
ANALYSIS_VERSION = f"{__version__}+analysis3"  # 3: judgement fields, equity lost >= 0
#: Best moves kept per turn unless asked otherwise.
DEFAULT_TOP = 5

_TURNS = (EventKind.PLAY, EventKind.EXCHANGE, EventKind.PASS)
_IGNORED = frozenset(
    {Code.AFTER_GAME_END, Code.PASS_AFTER_OUT}
)  # turns the replay ignored (after the end)

# what a turn's status says
ANALYSED = "analysed"
UNKNOWN_RACK = "phony check only: rack unknown"
LOST_TURN = "turn lost to a challenge: not judged"
AFTER_LOST_LINE = "phony check only: a line before it could not be read"
UNSUCCESSFUL_CHALLENGE = "#unsuccessful-challenge"
PARTIAL_RACK = "phony check only: partial rack"
NO_LEXICON = WORDING_NO_LEXICON


@dataclass(slots=True)
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


@dataclass(slots=True)
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
            "equity": _round(self.equity),
            "best_move": self.best_move,
            "best_equity": _round(self.best_equity),
            "equity_lost": _round(self.equity_lost),
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


@dataclass(slots=True)
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
            **(_judged(self.depth, self.mistake_index, self.win_model)),
        }


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


def _judged(depth: str, index: dict[str, float], model: str | None) -> dict[str, object]:
    """The keys a judged record adds (none for the static depth)."""
    if depth == "static":
        return {}
    return {"depth": depth, "mistake_index": dict(index), "win_model": model}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


# ------------------------------------------------------------------- phonies
def phony_words(words: Iterable[str | Sequence[str]], lexicon: Lexicon) -> list[str]:
    """The words of ``words`` that are not in ``lexicon``, upper case, each once, in order.
    A word is a text (split into tiles by the lexicon's tile set, blanks lower case) or,
    better, the tiles as played, one text per tile (``["CH", "e"]``): a C tile then an H
    tile is then not read as the CH tile."""
    out: list[str] = []
    for word in words:
        if isinstance(word, str):
            valid = word in lexicon
            text = word
        else:
            valid = lexicon.contains_tile_texts(word)
            text = "".join(word)
        if not valid:
            upper = text.upper()
            if upper not in out:
                out.append(upper)
    return out


def word_tiles(board: Board, word: Word) -> list[str]:
    """The tiles of a word the replay formed, read off the board after the play."""
    size, cells = board.size, board.cells
    step = 1 if word.direction == "across" else size
    last = word.row * size + (size - 1) if step == 1 else (size - 1) * size + word.col
    i = word.row * size + word.col
    tiles: list[str] = []
    while i <= last and cells[i] is not None:
        tiles.append(cells[i])  # type: ignore[arg-type]
        i += step
    return tiles


def _phony_finding(turn: TurnAnalysis, column: int) -> Finding | None:
    """The W8xx finding of a play whose words were checked, if any."""
    phonies = turn.phony_words
    if phonies is None:
        return None
    named = ", ".join(phonies)
    if turn.withdrawn:
        if phonies:
            return None  # a phony challenged off: as it should be
        return make(
            Code.VALID_WITHDRAWN,
            f"{turn.played} was withdrawn (--) but every word is valid: {', '.join(turn.words)}",
            turn.line,
            column,
        )
    if not phonies:
        return None
    if turn.challenged:
        return make(
            Code.BONUS_AFTER_PHONY,
            f"challenge bonus after {turn.played}, which formed the "
            f"{plural_form('phony', len(phonies))} {named}",
            turn.line,
            column,
        )
    verb = "is" if len(phonies) == 1 else "are"
    return make(
        Code.PHONY, f"{named} {verb} not in the lexicon; {turn.played} stood", turn.line, column
    )


# ------------------------------------------------------------------ equity
def adjusted_equity(
    score: int,
    leave: Sequence[str],
    *,
    bag: int,
    leaves: Leaves,
    opponent: Sequence[str],
    rules: RuleSet,
) -> float:
    """Equity of a move scoring ``score`` and keeping ``leave`` (tiles, ``?`` a blank):
    score + leave value while the bag holds tiles; with the bag empty, score + the
    opponents' tiles (``opponent``) as the end-of-game rule counts them (twice under
    standard rules) when the move goes out, else score - own tiles kept (as
    :func:`gcgtools.movegen.generate_moves` values its moves)."""
    return move_equity(
        score, leave, bag=bag, tiles=rules.tiles, end_rule=rules.end_rule,
        leave_value=leaves.value, opponent=opponent, strict=False,
    )  # fmt: skip


# ------------------------------------------------------------ one record
def _played_text(e: Event, pos: Position | None = None, before: Board | None = None) -> str:
    """The recorded move as analysers write it: ``8D QUITE``, ``O1 HAN(G)OVER`` (letters
    already on the board in parentheses), ``-ABC``, ``-``."""
    if e.kind is EventKind.PLAY:
        if pos is not None and before is not None and pos.words:
            text = _word_notation(pos, before)
            if text is not None:
                return text
        return f"{e.position} {e.word}"
    if e.kind is EventKind.EXCHANGE:
        return f"-{e.tiles}" if e.tiles is not None else f"-{e.count}"
    return "-"


def _word_notation(pos: Position, before: Board) -> str | None:
    """``COORD WORD`` of the main word a play formed, played-through runs in parentheses,
    built from the tiles on the board (never by splitting the word's text again: with
    ``#tile [CH] [ch]`` the text ``CHICOS`` is not C-H-I-C-O-S)."""
    main = next((w for w in pos.words if w.main), pos.words[0])
    tiles = word_tiles(pos.board, main)
    if not tiles:
        return None
    step = 1 if main.direction == "across" else before.size
    start = main.row * before.size + main.col
    through = [before.cells[start + k * step] is not None for k in range(len(tiles))]
    return word_notation(square_name(main.row, main.col, main.direction), tiles, through)


def _candidate(move: Any) -> Candidate:
    return Candidate(
        notation=move.notation(),
        kind=move.kind,
        coord=move.coord if move.kind == "play" else None,
        word=move.word if move.kind == "play" else None,
        tiles=move.tiles if isinstance(move.tiles, str) else "".join(move.tiles),
        score=int(move.score),
        leave=move.leave if isinstance(move.leave, str) else "".join(move.leave),
        equity=float(move.equity),
        bingo=bool(move.bingo),
    )


def _recorded_index(
    moves: Sequence[Any], e: Event, pos: Position, before: Board, rules: RuleSet
) -> int | None:
    """The index in ``moves`` of the recorded move, or None."""
    kind = e.kind
    if kind is EventKind.PASS:
        return next((i for i, m in enumerate(moves) if m.kind == "pass"), None)
    if kind is EventKind.EXCHANGE:
        if e.tiles is None:
            return None
        try:
            wanted = sorted(rack_tokens(e.tiles, rules.tiles))
        except ValueError:
            return None
        for i, m in enumerate(moves):
            if m.kind == "exchange":
                tiles = rack_tokens(
                    m.tiles if isinstance(m.tiles, str) else tiles_text(list(m.tiles)),
                    rules.tiles,
                )
                if sorted(tiles) == wanted:
                    return i
        return None
    placed = frozenset(pos.placed)
    if not placed:
        return None
    for i, m in enumerate(moves):
        if m.kind != "play" or len(m.tiles) < 1:
            continue
        if frozenset(m.squares) == placed:
            return i
    return None


class _RackCounts(Positions):
    """The positions of a replay, and how many tiles each player holds at each."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: list[list[int]] = []

    def begin(self, replayer: Replayer) -> None:
        super().begin(replayer)
        self.counts.append(list(replayer.rack_counts))

    def visit_event(self, pos: Position, replayer: Replayer) -> None:
        super().visit_event(pos, replayer)
        self.counts.append(list(replayer.rack_counts))


class _Analyser:
    """The walk through one record."""

    def __init__(
        self,
        game: Game,
        rules: RuleSet,
        lexicon: Lexicon | None,
        leaves: Leaves | None,
        top: int,
    ) -> None:
        self.game = game
        self.rules = rules
        self.lexicon = lexicon
        self.leaves = leaves
        self.top = top
        self.nicks = {p.index: p.nick for p in game.players}

    def run(self) -> tuple[list[TurnAnalysis], list[Finding]]:
        game, rules = self.game, self.rules
        visitor = _RackCounts()
        positions = walk(game, rules, visitor)
        events = game.events
        turns: list[TurnAnalysis] = []
        findings: list[Finding] = []
        before: Position | None = None
        counts_before: list[int] = []
        # event lines the parser could not read: the replay may have replayed part of one
        # between two positions, so the position before the next turn is not known here
        lost = [lost.line for lost in game.lost]
        previous_line = 0
        for pos, counts in zip(positions, visitor.counts, strict=True):
            e = pos.event
            if e is None or before is None:
                before, counts_before = pos, counts
                continue
            gap = any(previous_line < line < e.line for line in lost)
            previous_line = e.line
            if e.kind in _TURNS and pos.player is not None:
                if not any(f.code in _IGNORED for f in pos.findings):
                    nxt = events[pos.number] if pos.number < len(events) else None
                    turn = self._turn(e, pos, before, counts_before, nxt, gap)
                    turns.append(turn)
                    finding = _phony_finding(turn, e.column)
                    if finding is not None:
                        findings.append(finding)
            before, counts_before = pos, counts
        for f in findings:
            f.path = game.path
        return turns, findings

    def _turn(
        self,
        e: Event,
        pos: Position,
        before: Position,
        counts: list[int],
        nxt: Event | None,
        gap: bool = False,
    ) -> TurnAnalysis:
        p = pos.player
        assert p is not None
        is_play = e.kind is EventKind.PLAY
        withdrawn = is_play and nxt is not None and nxt.kind is EventKind.WITHDRAWN
        challenged = is_play and nxt is not None and nxt.kind is EventKind.CHALLENGE_BONUS
        turn = TurnAnalysis(
            event=pos.number,
            line=e.line,
            player=self.nicks.get(p, e.nick),
            kind=e.kind.value,
            played=_played_text(e, pos, before.board),
            rack=e.rack,
            score=e.score,
            computed=pos.computed,
            status=NO_LEXICON,
            words=[w.text.upper() for w in pos.words] if is_play else [],
            leave=pos.leave,
            withdrawn=withdrawn,
            challenged=challenged,
        )
        lexicon = self.lexicon
        if lexicon is None:
            return turn
        if is_play:
            turn.phony_words = phony_words([word_tiles(pos.board, w) for w in pos.words], lexicon)
        rack = self._full_rack(e, counts[p] if p < len(counts) else self.rules.rack_size)
        if rack is None:
            known = known_rack(e.rack) is not None
            turn.status = PARTIAL_RACK if known else UNKNOWN_RACK
            return turn
        if gap:  # the position before the turn is not the one the replay had
            turn.status = AFTER_LOST_LINE
            return turn
        if e.kind is EventKind.PASS and any(UNSUCCESSFUL_CHALLENGE in n.text for n in e.notes):
            turn.status = LOST_TURN  # a pass forced by a lost double challenge: no choice
            return turn
        turn.status = ANALYSED
        self._evaluate(turn, e, pos, before, rack, withdrawn)
        return turn

    def _full_rack(self, e: Event, holds: int) -> list[str] | None:
        """The event's rack as tiles when it is the player's whole rack, else None."""
        tiles = known_rack(e.rack, self.rules.tiles)
        if not tiles or len(tiles) != holds:
            return None
        known = self.rules.tiles.token_values
        if any(t != BLANK and t not in known for t in tiles):
            return None
        return tiles

    def _evaluate(
        self,
        turn: TurnAnalysis,
        e: Event,
        pos: Position,
        before: Position,
        rack: list[str],
        withdrawn: bool,
    ) -> None:
        from gcgtools.movegen import generate_moves

        assert self.lexicon is not None and self.leaves is not None
        rules = self.rules
        board = before.board
        bag = before.bag
        # the opponents' tiles: not on the board, not on the mover's rack (exact once the
        # bag is empty, which is when they matter)
        unseen = before.pool.copy()
        unseen.subtract(Counter(rack))
        opponent = list((+unseen).elements()) if bag == 0 else None
        moves = generate_moves(
            board,
            rack,
            self.lexicon,
            leaves=self.leaves,
            bag_count=bag,
            opponent_rack=opponent,
            exchanges=True,
            rules=rules,
        )
        legal = len(moves)
        turn.moves = legal
        turn.best = [_candidate(m) for m in moves[: self.top]] if self.top else []
        turn.best_equity = float(moves[0].equity) if moves else None
        bingo = next((m for m in moves if m.kind == "play" and m.bingo), None)
        turn.bingo_available = bingo is not None
        turn.best_bingo = _candidate(bingo) if bingo is not None else None
        if withdrawn:  # the turn became a pass
            index = next((i for i, m in enumerate(moves) if m.kind == "pass"), None)
        else:
            index = _recorded_index(moves, e, pos, board, rules)
        if index is not None:
            found = moves[index]
            turn.found = _candidate(found)
            equity = float(found.equity)
            turn.legal = True
            played_bingo = found.kind == "play" and bool(found.bingo)
        else:
            turn.legal = False if e.kind is EventKind.PLAY else None
            played_bingo = False
            equity = self._recorded_equity(e, pos, rack, bag, opponent or [])
        turn.equity = equity
        if equity is not None:
            if turn.best_equity is not None:
                # measured against the best legal move: a play that is not one of them (a
                # phony that stood) loses what it falls short by, never less than nothing,
                # and has no rank among them
                turn.equity_lost = round(max(0.0, turn.best_equity - equity), 4)
                if index is not None:  # ties share the better rank
                    turn.rank = sum(1 for m in moves if m.equity > equity) + 1
            else:  # no legal move at all (a pass is always generated: should not happen)
                turn.equity_lost = 0.0
        turn.missed_bingo = bool(turn.bingo_available) and not played_bingo

    def _recorded_equity(
        self, e: Event, pos: Position, rack: list[str], bag: int, opponent: list[str]
    ) -> float | None:
        """Equity of a recorded move that is not among the generated ones: its computed
        (else recorded) score with its leave."""
        assert self.leaves is not None
        if e.kind is EventKind.EXCHANGE:
            return None  # -N: the tiles exchanged are not known
        if pos.leave is None:
            return None
        leave = rack_tokens(pos.leave, self.rules.tiles)
        score = pos.computed if pos.computed is not None else e.score
        return adjusted_equity(
            score, leave, bag=bag, leaves=self.leaves, opponent=opponent, rules=self.rules
        )


def analyse_record(
    game: Game,
    *,
    lexicon: Lexicon | None,
    leaves: Leaves | None = None,
    top: int = DEFAULT_TOP,
    message: str | None = None,
    options: RuleOptions = NO_OPTIONS,
) -> RecordAnalysis:
    """Analyse ``game`` with ``lexicon`` and ``leaves`` (the built-in heuristic when None).

    ``lexicon`` None: the turns are listed with status ``no lexicon`` and ``message`` (why
    there is none) is kept on the result. ``top`` best moves are kept per analysed turn.
    The rule ``options`` override what the record implies, as for
    :func:`gcgtools.validate`.
    """
    path = game.path or "<gcg>"
    if game.unreadable:
        return RecordAnalysis(path, unreadable=True, reason=unreadable_reason(game.findings))
    rules = resolve(game, options)
    if lexicon is not None and leaves is None:
        from gcgtools.lexicon import builtin_leaves

        leaves = builtin_leaves(rules.tiles)
    turns, findings = _Analyser(game, rules, lexicon, leaves, top).run()
    source = None
    if lexicon is not None:
        fit = lexicon_fit(game, rules.tiles, lexicon)  # W804/W805: say it, then analyse
        findings = [*fit, *findings]
        message = "; ".join([*(f.message for f in fit), *([message] if message else [])]) or None
        source = "; ".join([str(lexicon.source), *lexicon.notes])
    return RecordAnalysis(
        path,
        turns,
        findings,
        lexicon=lexicon.name if lexicon is not None else None,
        lexicon_source=source,
        leaves=leaves.name if lexicon is not None and leaves is not None else None,
        leaves_source=str(leaves.source) if lexicon is not None and leaves is not None else None,
        message=message if lexicon is None else message,
        players=[p.nick for p in sorted(game.players, key=lambda p: p.index)],
    )


__all__ += ["adjusted_equity", "describe"]
