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
from typing import TYPE_CHECKING, Any

from gcgtools._version import __version__
from gcgtools.analysis.fit import lexicon_fit
from gcgtools.analysis.results import (
    AFTER_LOST_LINE,
    ANALYSED,
    LOST_TURN,
    PARTIAL_RACK,
    UNKNOWN_RACK,
    Candidate,
    RecordAnalysis,
    TurnAnalysis,
)
from gcgtools.findings import Code, Finding, make
from gcgtools.lexicon.choice import describe
from gcgtools.model.game import Game, unreadable_reason
from gcgtools.replay.board import Board, square_name
from gcgtools.replay.notation import word_notation
from gcgtools.replay.position import known_rack, rack_tokens, tiles_text
from gcgtools.replay.scoring import Word
from gcgtools.replay.walk import Position, Positions, Replayer, walk
from gcgtools.rules.equity import equity as move_equity
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.rules.resolve import resolve
from gcgtools.rules.rulesets import RuleSet
from gcgtools.rules.tiles import BLANK
from gcgtools.syntax.records import Event, EventKind
from gcgtools.wording import NO_LEXICON as WORDING_NO_LEXICON
from gcgtools.wording import plural_form

if TYPE_CHECKING:
    from gcgtools.lexicon import Leaves, Lexicon

__all__ = [
    "ANALYSIS_VERSION",
    "Candidate",
    "RecordAnalysis",
    "TurnAnalysis",
    "analyse_record",
    "phony_words",
    "turn_count",
]

#: Bumped when the results of the analysis change for the same inputs (cache keys).
# 3: judgement fields, equity lost >= 0; 4: the pre-endgame of 1 to 4 tiles, its budget in
# all, mirror-image openings simulated once, turns not judged as W806, enums in the cache;
# 5: a pre-endgame turn judged among every legal move; an endgame turn keeps its best line (pv)
# 6: a simulated move keeps its playouts' reply and follow-up numbers; a judgement its facts
# 7: a pre-endgame judgement's facts say whether a move empties the bag and in what share
# of the draws the opponent can then go out
ANALYSIS_VERSION = f"{__version__}+analysis7"
#: Best moves kept per turn unless asked otherwise.
DEFAULT_TOP = 5

_TURNS = (EventKind.PLAY, EventKind.EXCHANGE, EventKind.PASS)
_IGNORED = frozenset(
    {Code.AFTER_GAME_END, Code.PASS_AFTER_OUT}
)  # turns the replay ignored (after the end)

UNSUCCESSFUL_CHALLENGE = "#unsuccessful-challenge"
NO_LEXICON = WORDING_NO_LEXICON


def turn_count(game: Game) -> int:
    """The turns of ``game`` as parsed (plays, exchanges, passes): at least the turns
    its analysis holds, found without a replay (a batch's progress counts them)."""
    return sum(1 for e in game.events if e.kind in _TURNS)


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
        fields: dict[str, Any] = {
            "event": pos.number,
            "line": e.line,
            "player": self.nicks.get(p, e.nick),
            "kind": e.kind.value,
            "played": _played_text(e, pos, before.board),
            "rack": e.rack,
            "score": e.score,
            "computed": pos.computed,
            "words": [w.text.upper() for w in pos.words] if is_play else [],
            "leave": pos.leave,
            "withdrawn": withdrawn,
            "challenged": challenged,
        }
        lexicon = self.lexicon
        if lexicon is None:
            return TurnAnalysis(status=NO_LEXICON, **fields)
        if is_play:
            words = [word_tiles(pos.board, w) for w in pos.words]
            fields["phony_words"] = phony_words(words, lexicon)
        rack = self._full_rack(e, counts[p] if p < len(counts) else self.rules.rack_size)
        if rack is None:
            known = known_rack(e.rack) is not None
            return TurnAnalysis(status=PARTIAL_RACK if known else UNKNOWN_RACK, **fields)
        if gap:  # the position before the turn is not the one the replay had
            return TurnAnalysis(status=AFTER_LOST_LINE, **fields)
        if e.kind is EventKind.PASS and any(UNSUCCESSFUL_CHALLENGE in n.text for n in e.notes):
            # a pass forced by a lost double challenge: no choice
            return TurnAnalysis(status=LOST_TURN, **fields)
        fields.update(self._evaluate(e, pos, before, rack, withdrawn))
        return TurnAnalysis(status=ANALYSED, **fields)

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
        e: Event,
        pos: Position,
        before: Position,
        rack: list[str],
        withdrawn: bool,
    ) -> dict[str, Any]:
        """The fields of an analysed turn that come from its generated moves."""
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
        best_equity = float(moves[0].equity) if moves else None
        bingo = next((m for m in moves if m.kind == "play" and m.bingo), None)
        fields: dict[str, Any] = {
            "moves": len(moves),
            "best": [_candidate(m) for m in moves[: self.top]] if self.top else [],
            "best_equity": best_equity,
            "bingo_available": bingo is not None,
            "best_bingo": _candidate(bingo) if bingo is not None else None,
        }
        if withdrawn:  # the turn became a pass
            index = next((i for i, m in enumerate(moves) if m.kind == "pass"), None)
        else:
            index = _recorded_index(moves, e, pos, board, rules)
        if index is not None:
            found = moves[index]
            fields["found"] = _candidate(found)
            equity: float | None = float(found.equity)
            fields["legal"] = True
            played_bingo = found.kind == "play" and bool(found.bingo)
        else:
            fields["legal"] = False if e.kind is EventKind.PLAY else None
            played_bingo = False
            equity = self._recorded_equity(e, pos, rack, bag, opponent or [])
        fields["equity"] = equity
        if equity is not None:
            if best_equity is not None:
                # measured against the best legal move: a play that is not one of them (a
                # phony that stood) loses what it falls short by, never less than nothing,
                # and has no rank among them
                fields["equity_lost"] = round(max(0.0, best_equity - equity), 4)
                if index is not None:  # ties share the better rank
                    fields["rank"] = sum(1 for m in moves if m.equity > equity) + 1
            else:  # no legal move at all (a pass is always generated: should not happen)
                fields["equity_lost"] = 0.0
        fields["missed_bingo"] = bingo is not None and not played_bingo
        return fields

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
