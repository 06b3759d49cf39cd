"""One game as table rows: the columns of the archive tables and :func:`analyse_game`.

The replay's positions become plain rows (tuples in the column order below), so a worker
process hands back a few kilobytes per game; :mod:`gcgtools.tables.frames` gathers the
rows of many games into DataFrames and files.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from importlib.metadata import version
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from gcgtools.analysis.results import RecordAnalysis, rounded
from gcgtools.batch.analyses import analyse_game_with
from gcgtools.batch.settings import AnalysisSettings
from gcgtools.findings import Code, Finding
from gcgtools.lexicon.choice import LexiconChoice
from gcgtools.lexicon.leaves import LeavesError
from gcgtools.lexicon.lexicon import LexiconError
from gcgtools.model.game import Game, unreadable_reason
from gcgtools.replay.notation import play_notation
from gcgtools.replay.walk import Position, Replayer, ReplayVisitor, walk
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.rules.resolve import resolve_with_findings
from gcgtools.rules.rulesets import EndRule, RuleSet
from gcgtools.rules.tiles import is_blank_tile
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import display_name
from gcgtools.syntax.records import EventKind
from gcgtools.tables.header import record_date, record_ratings
from gcgtools.tables.judged import (
    JUDGED_GAME_DTYPES,
    JUDGED_MOVE_DTYPES,
    JUDGED_PLAYER_DTYPES,
    judged_move_values,
    judged_player_values,
)

if TYPE_CHECKING:
    import pandas as pd

    from gcgtools.lexicon import Leaves, Lexicon

Source = str | os.PathLike[str] | Game
Keep = Literal["all", "bingos", "none"]

UNSUCCESSFUL_CHALLENGE = "#unsuccessful-challenge"
IGNORED_PASS = Code.PASS_AFTER_OUT  # the finding on a final pass after the opponent went out
# Files handed to the worker processes and not yet consumed: bounds the results waiting
# in memory.
CHUNK_FILES = 2048
# Rows per DataFrame piece, and per chunk written to a CSV or Parquet file.
CHUNK_ROWS = 10_000

# Column name -> pandas dtype. "Int64" is pandas' nullable integer; text columns use the
# string dtype of pandas 3 ("str", what read_parquet and read_csv give back), object before.
# (pandas' version read from its metadata: workers never need to import pandas itself)
STR_DTYPE = "str" if int(version("pandas").split(".")[0]) >= 3 else "object"
MOVE_DTYPES: dict[str, str] = {
    "file": STR_DTYPE,  # the path, or the game's display name for a Game object
    "game_id": STR_DTYPE,  # the #id identifier, else the file stem
    "event": "int64",  # 1-based index of the event in the record
    "turn": "int64",  # 1-based counter of turns (plays, passes, exchanges) so far
    "line": "int64",  # source line
    "player": STR_DTYPE,  # nickname
    "opponent": STR_DTYPE,  # the other nickname in a two-player game, else None
    "kind": STR_DTYPE,  # play, pass, exchange, withdrawn, challenge_bonus, end_rack_points, ...
    "rack": STR_DTYPE,  # as recorded (None, UNKNOWN, partial racks as they are)
    "position": STR_DTYPE,  # coordinate as written, e.g. 8D or H8
    "direction": STR_DTYPE,  # across / down
    "word": STR_DTYPE,  # main word with played-through letters filled in, blanks lower case
    "words": STR_DTYPE,  # every word formed, main word first, comma separated: "QI,UN"
    "tiles_played": "int64",
    "blanks_played": "int64",
    "score": "int64",  # as recorded
    "computed": "Int64",  # as computed by the replay (None when it could not be)
    "cumulative": "int64",  # as recorded
    "bingo": "bool",  # a full rack played, and the play stood (not withdrawn)
    "premiums": STR_DTYPE,  # premium squares under the new tiles, comma separated: "DW,TL"
    "leave": STR_DTYPE,  # tiles kept after a play or exchange, when the rack is known
    "withdrawn": "bool",  # a play taken back by the next line (--)
    "lost_challenge": "bool",  # a pass marked #unsuccessful-challenge (double challenge)
    "findings": "int64",  # findings the replay reported on this event
    # with a lexicon (lexicon=...): NA without one, or when the turn's rack is not fully known
    "equity": "Float64",  # the recorded move's equity (score + leave value; end-game rule)
    "best_move": STR_DTYPE,  # the best move as analysers write it: "8D QUITE", "-ABC", "-"
    "best_equity": "Float64",
    "equity_lost": "Float64",  # best_equity - equity
    "phony_words": STR_DTYPE,  # words of the play not in the lexicon, comma separated ("" none)
    "bingo_available": "boolean",  # some legal bingo existed for the rack
    # with an analysis at depth sim or full (tables/judged.py): NA otherwise
    **JUDGED_MOVE_DTYPES,
}
MOVE_COLUMNS: list[str] = list(MOVE_DTYPES)
_NO_JUDGEMENT = (None,) * len(JUDGED_MOVE_DTYPES)  # a move row's judgement, not judged
_BINGO = MOVE_COLUMNS.index("bingo")
# the kinds read for every event (a module constant is quicker to read than an Enum member)
_PLAY, _PASS, _EXCHANGE = EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE
_END_POINTS, _END_PENALTY = EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY
_WITHDRAWN_KIND = EventKind.WITHDRAWN
_WITHDRAWN = MOVE_COLUMNS.index("withdrawn")

GAME_DTYPES: dict[str, str] = {
    "file": STR_DTYPE,
    "game_id": STR_DTYPE,
    "title": STR_DTYPE,
    "date": STR_DTYPE,  # YYYY-MM-DD from #date, #title or #description (tables/header.py)
    "lexicon": STR_DTYPE,
    "tiles": STR_DTYPE,  # tile set name (english, german, ...)
    "board": STR_DTYPE,  # board layout name
    "n_players": "Int64",
    "players": STR_DTYPE,  # every nickname, comma separated
    "player1": STR_DTYPE,
    "player2": STR_DTYPE,
    "name1": STR_DTYPE,
    "name2": STR_DTYPE,
    "score1": "Int64",  # final recorded scores
    "score2": "Int64",
    "spread": "Int64",  # winner's margin: best final score minus the next best
    "winner": STR_DTYPE,  # nickname, "tie", or None when the game is not over
    "finished": "boolean",
    "end_reason": STR_DTYPE,  # out, scoreless, passes, time, or None
    "end_rule": STR_DTYPE,  # standard, international, home, or None (not detectable)
    "turns": "Int64",
    "bingos1": "Int64",
    "bingos2": "Int64",
    "best_score": "Int64",  # highest play that stood
    "best_word": STR_DTYPE,
    "best_player": STR_DTYPE,
    "exchanges": "Int64",
    "passes": "Int64",  # passes, lost double challenges included
    "phonies": "Int64",  # plays withdrawn after a successful challenge (--)
    "challenge_bonuses": "Int64",  # (challenge) +N lines: unsuccessful challenges, bonus rule
    "lost_challenges": "Int64",  # passes marked #unsuccessful-challenge: double challenge rule
    "challenges": "Int64",  # phonies + challenge_bonuses + lost_challenges
    "time_penalties": "Int64",  # (time) lines
    "status": STR_DTYPE,  # ok, errors, unreadable
    "errors": "Int64",
    "warnings": "Int64",
    # with a lexicon (lexicon=...): NA without one
    "analysis_lexicon": STR_DTYPE,  # the lexicon and leaves the analysis used, or why none
    "phonies_played1": "Int64",  # plays forming a word not in the lexicon
    "phonies_played2": "Int64",
    "phonies_stood1": "Int64",  # ... that were not withdrawn
    "phonies_stood2": "Int64",
    "missed_bingos1": "Int64",  # turns with a bingo available and not played
    "missed_bingos2": "Int64",
    "avg_equity_lost1": "Float64",  # per turn whose full rack is known
    "avg_equity_lost2": "Float64",
    **JUDGED_GAME_DTYPES,  # the Mistake Index of each seat (depth sim or full)
}
GAME_COLUMNS: list[str] = list(GAME_DTYPES)

PLAYER_DTYPES: dict[str, str] = {
    "file": STR_DTYPE,
    "game_id": STR_DTYPE,
    "player": STR_DTYPE,  # nickname
    "name": STR_DTYPE,  # full name
    "seat": "int64",  # 1 for #player1, ...
    "opponent": STR_DTYPE,  # the other nickname in a two-player game, else None
    "score": "int64",  # final recorded score
    "opponent_score": "int64",  # best final score among the others
    "spread": "int64",  # score - opponent_score
    "result": STR_DTYPE,  # win, loss, tie, or None when the game is not over
    "finished": "bool",
    "turns": "int64",  # plays, passes and exchanges
    "plays": "int64",  # plays that stood
    "play_points": "int64",  # points from plays that stood
    "bingos": "int64",
    "best_score": "Int64",  # the player's highest play that stood
    "best_word": STR_DTYPE,
    "exchanges": "int64",
    "passes": "int64",
    "phonies": "int64",  # own plays withdrawn
    "challenges_won": "int64",  # opponent's plays withdrawn (two-player games)
    "challenges_lost": "int64",  # bonuses given to the opponent + own marked passes
    "time_penalty": "int64",  # points lost to (time) lines
    "date": STR_DTYPE,  # the game's date, YYYY-MM-DD, when the record gives one
    "rating": "Int64",  # the player's rating, when the record gives it (#rating1, #rating2)
    # with a lexicon (lexicon=...): NA without one
    "phonies_played": "Int64",  # own plays forming a word not in the lexicon
    "phonies_stood": "Int64",  # ... that were not withdrawn
    "missed_bingos": "Int64",
    "analysed_turns": "Int64",  # turns whose full rack is known (compared with the best)
    "equity_lost": "Float64",  # total over the analysed turns
    **JUDGED_PLAYER_DTYPES,  # Mistake Index, mistakes by size, best moves (depth sim/full)
}
PLAYER_COLUMNS: list[str] = list(PLAYER_DTYPES)


@dataclass(slots=True)
class GameResult:
    """What the analysis of one game hands back: small and picklable."""

    file: str
    unreadable: bool
    reason: str | None = None
    game: tuple[Any, ...] | None = None
    players: list[tuple[Any, ...]] = field(default_factory=list)
    moves: list[tuple[Any, ...]] = field(default_factory=list)


# ---------------------------------------------------------------- one game
def decide_winner(
    nicks: list[str], final: list[int], before_adjustments: Sequence[int] | None, home: bool
) -> str:
    """The winner's nickname, or ``"tie"``.

    Under home rules (``home``) a tie on the final scores is broken by the scores before the
    end-of-game adjustments (``before_adjustments``); otherwise a tie stays a tie.

    >>> decide_winner(["A", "B"], [300, 300], [310, 305], home=True)
    'A'
    >>> decide_winner(["A", "B"], [300, 300], [310, 305], home=False)
    'tie'
    """
    top = max(final)
    leaders = [i for i, s in enumerate(final) if s == top]
    if len(leaders) > 1 and home and before_adjustments is not None:
        best = max(before_adjustments[i] for i in leaders)
        leaders = [i for i in leaders if before_adjustments[i] == best]
    return nicks[leaders[0]] if len(leaders) == 1 else "tie"


def _stem(path: str) -> str:
    """``Path(path).stem``, without building a Path for a plain file name."""
    name = path.rpartition("/")[2]
    if not name or name in (".", "..") or os.sep != "/" or os.altsep:
        return Path(path).stem
    i = name.rfind(".")
    return name[:i] if 0 < i < len(name) - 1 else name


def name_of(game: Game, fallback: str) -> str:
    return game.path if game.path is not None else fallback


class _Tally(ReplayVisitor[Replayer]):
    """The move rows of one record and its per-player tallies, event by event. Without
    move rows (``keep`` none) the walk scores no words: the words of a play are read off
    the live board (:meth:`Replayer.words_now`) only when it beats every earlier play of
    its player that stood, the only plays the best can be (a withdrawn play is always the
    last one)."""

    def __init__(self, file: str, game_id: str, nicks: list[str], keep: Keep) -> None:
        n = len(nicks)
        self.file, self.game_id, self.nicks, self.keep = file, game_id, nicks, keep
        self.detail = keep != "none"
        self.two = n == 2
        # the mover's nickname and the opponent's, by player index (None: not credited)
        self.movers = [(nicks[i], nicks[1 - i] if self.two else None) for i in range(n)]
        self.turns, self.plays, self.play_points = [0] * n, [0] * n, [0] * n
        self.bingos, self.exchanges, self.passes = [0] * n, [0] * n, [0] * n
        self.phonies, self.won, self.lost, self.time_pen = [0] * n, [0] * n, [0] * n, [0] * n
        self.best: list[tuple[int, str] | None] = [None] * n
        self.challenge_bonuses = self.lost_double = self.time_lines = 0
        self.rows: list[tuple[Any, ...]] = []
        # (player, index of its row in rows or -1, position, main word when already read)
        self.play_rows: list[tuple[int, int, Position, str | None]] = []
        self.turn = 0
        self.before_adjustments: Sequence[int] | None = None
        self.recorded_before: Sequence[int] = [0] * n
        self.previous: tuple[int, int, Position, str | None] | None = None
        # tops[p]: the best score so far after each of player p's plays that stood
        self.tops: list[list[int]] = [[] for _ in range(n)]

    def visit_event(self, pos: Position, replayer: Replayer) -> None:
        e = pos.event
        if e is None:
            return
        p = pos.player  # the player the replay credited (a mistyped nickname is resolved)
        kind = e.kind
        is_pass = kind is _PASS
        is_turn = kind is _PLAY or is_pass or kind is _EXCHANGE  # kind in TURN_KINDS
        # the final pass after the opponent went out is not a turn (O313)
        skipped = is_pass and any(f.code == IGNORED_PASS for f in pos.findings)
        if is_turn and not skipped:
            self.turn += 1
        if self.before_adjustments is None and (kind is _END_POINTS or kind is _END_PENALTY):
            self.before_adjustments = self.recorded_before
        self.recorded_before = pos.recorded
        lost_challenge = is_pass and any(UNSUCCESSFUL_CHALLENGE in note.text for note in e.notes)
        row = self._move_row(pos, p, lost_challenge) if self.detail else -1
        if p is None or skipped:
            self.previous = None
            return
        if is_turn:
            self.turns[p] += 1
        if kind is _PLAY:
            word: str | None = None
            if not self.detail:
                stack = self.tops[p]
                if not stack or e.score > stack[-1]:
                    formed = replayer.words_now(pos)
                    word = formed[0].text if formed else (e.word or "")
                    stack.append(e.score)
                else:
                    stack.append(stack[-1])
            self.previous = (p, row, pos, word)
            self.play_rows.append(self.previous)
            return
        self._count(kind, p, e.score, lost_challenge)
        self.previous = None

    def _move_row(self, pos: Position, p: int | None, lost_challenge: bool) -> int:
        """Add the move row of ``pos``; its index in the rows."""
        e = pos.event
        assert e is not None
        kind = e.kind
        main: str | None
        words: str | None
        if kind is _PLAY:
            played = pos.words
            if played:
                main = played[0].text
                words = main if len(played) == 1 else ",".join([w.text for w in played])
            else:
                main, words = e.word, None
            premiums = ",".join(pos.premiums) or None
            squares = pos.placed
            if self.keep == "bingos" and pos.bingo and squares:  # the bingo list: HAN(G)OVER
                main = play_notation(pos.board, squares, e.direction or "across")
                main = main.split(" ", 1)[1]
            placed = len(squares)
            # a blank is "?" or a lower-case tile name: no tile that is not upper case
            blanks = sum([is_blank_tile(t) for _, _, t in squares])
        else:
            main, words, premiums, placed, blanks = e.word, None, None, 0, 0
        mover, opponent = self.movers[p] if p is not None else (e.nick, None)
        rows = self.rows
        rows.append((
            self.file, self.game_id, pos.number, self.turn, e.line, mover, opponent,
            kind._value_, e.rack, e.position, e.direction, main, words, placed, blanks,
            e.score, pos.computed, e.cumulative, pos.bingo, premiums,
            pos.leave, False, lost_challenge, len(pos.findings),
            None, None, None, None, None, None, *_NO_JUDGEMENT,
        ))  # fmt: skip
        return len(rows) - 1

    def _count(self, kind: EventKind, p: int, score: int, lost_challenge: bool) -> None:
        """Tally an event of player ``p`` that is not a play."""
        two = self.two
        if kind is _WITHDRAWN_KIND:
            previous = self.previous
            if previous is not None:  # the replay takes back the play just before
                q, play_row, _, _ = previous
                if not self.detail:
                    self.tops[q].pop()
                play_rows = self.play_rows
                if play_rows[-1] is previous:
                    play_rows.pop()
                else:  # pragma: no cover - previous is always the last play
                    play_rows.remove(previous)
                if play_row >= 0:
                    self.rows[play_row] = _withdrawn(self.rows[play_row])
                self.phonies[q] += 1
                if two:
                    self.won[1 - q] += 1
        elif kind is _EXCHANGE:
            self.exchanges[p] += 1
        elif kind is _PASS:
            self.passes[p] += 1
            if lost_challenge:
                self.lost[p] += 1
                self.lost_double += 1
        elif kind is EventKind.CHALLENGE_BONUS:
            self.challenge_bonuses += 1
            if two:
                self.lost[1 - p] += 1
        elif kind is EventKind.TIME_PENALTY:
            self.time_pen[p] += score
            self.time_lines += 1

    def end(self, replayer: Replayer) -> Replayer:
        """Count the plays that stood, and each player's best; the replayer at the end."""
        best = self.best
        for p, _row, pos, known in self.play_rows:
            e = pos.event
            assert e is not None
            self.plays[p] += 1
            self.play_points[p] += e.score
            if pos.bingo:
                self.bingos[p] += 1
            if best[p] is None or e.score > best[p][0]:  # type: ignore[index]
                if known is None:
                    known = pos.words[0].text if pos.words else (e.word or "")
                best[p] = (e.score, known)
        return replayer


#: how the tables analyse a game unless told otherwise: the best move kept, cached, static
TABLE_SETTINGS = AnalysisSettings(top=1)
#: the loose analysis keywords :func:`analyse_game` took before ``settings=`` (deprecated)
SETTINGS_KEYWORDS = frozenset({"cache", "depth", "judge"})


def warn_loose(keywords: Iterable[str], instead: str, stacklevel: int) -> None:
    """The ``DeprecationWarning`` of the loose keywords of old: ``cache=, depth=: give
    ...`` with ``instead``, the one value to give, for the caller ``stacklevel`` frames up
    from the warning's caller."""
    names = ", ".join(f"{k}=" for k in sorted(keywords))
    warnings.warn(f"{names}: give {instead}", DeprecationWarning, stacklevel=stacklevel + 1)


def table_settings(settings: AnalysisSettings | None = None, **loose: Any) -> AnalysisSettings:
    """The analysis settings of the tables: ``settings``, else :data:`TABLE_SETTINGS` with
    the loose keywords ``cache``, ``depth`` and ``judge`` that are not None. Raises
    ``TypeError`` for ``settings`` and loose keywords both, or an unknown keyword."""
    unknown = sorted(set(loose) - SETTINGS_KEYWORDS)
    if unknown:
        raise TypeError(f"unknown analysis keyword {unknown[0]!r}")
    given = {k: v for k, v in loose.items() if v is not None}
    if settings is not None:
        if given:
            raise TypeError("give either settings= or cache=/depth=/judge=, not both")
        return settings
    if "cache" in given:
        given["cache"] = bool(given["cache"])
    return replace(TABLE_SETTINGS, **given) if given else TABLE_SETTINGS


def analyse_game(
    game: Game,
    *,
    name: str | None = None,
    keep: Keep = "all",
    options: RuleOptions = NO_OPTIONS,
    lexicon: LexiconChoice | str | os.PathLike[str] | Lexicon | None = None,
    lexica: str | os.PathLike[str] | None = None,
    leaves: str | os.PathLike[str] | Leaves | None = None,
    settings: AnalysisSettings | None = None,
    **deprecated: Any,
) -> GameResult:
    """Replay ``game`` once and return its game row, player rows and move rows.

    ``keep`` chooses the move rows returned: all of them, only bingos, or none. The
    ``word`` of a bingo row kept with ``keep="bingos"`` (the bingo list) has the letters
    it plays through in parentheses (``HaN(G)OVEr``), as every output writes moves.
    An unreadable game (or rule options that name no known rule) gives no rows.
    With ``lexicon`` (a :class:`~gcgtools.lexicon.choice.LexiconChoice`, a path or a
    loaded lexicon) or ``lexica`` (a lexicon folder), and ``leaves``, the game is also
    analysed (:mod:`gcgtools.analysis.analyse`) and the analysis columns are filled in,
    as ``settings`` say (:class:`~gcgtools.batch.settings.AnalysisSettings`; default
    :data:`TABLE_SETTINGS`: through the result cache, static; at depth sim or full the
    judgement columns too); the analysis is by the rule ``options`` the rows are replayed
    by, whatever ``settings.options`` says. The loose keywords of old, ``cache``,
    ``depth`` and ``judge``, still work, with a ``DeprecationWarning``.
    """
    if deprecated:
        warn_loose(
            deprecated,
            "the analysis settings as one value, settings=AnalysisSettings(...) "
            "(gcgtools.batch.settings.AnalysisSettings)",
            stacklevel=2,
        )
    settings = table_settings(settings, **deprecated)
    file = name if name is not None else name_of(game, "<gcg>")
    if game.unreadable:
        reason = unreadable_reason(game.findings)
        return GameResult(file, True, reason, _unreadable_row(game, file))
    try:
        rules, setup_findings = resolve_with_findings(game, options)
    except (KeyError, ValueError) as exc:
        return GameResult(
            file, True, f"cannot set up the rules: {exc}", _unreadable_row(game, file)
        )
    game_id = game.id or (_stem(game.path) if game.path else None) or game.title or file
    n = game.player_count()
    nicks = [f"player{i + 1}" for i in range(n)]
    names = list(nicks)
    for pl in game.players:
        nicks[pl.index], names[pl.index] = pl.nick, pl.name
    tally = _Tally(file, game_id, nicks, keep)
    replayer = walk(game, rules, tally, detect_end_rule=options.end_rule is None)
    findings = [*game.findings, *setup_findings, *replayer.findings]  # as validate() has them
    winner = _winner(tally, replayer)
    game_row = _game_row(tally, replayer, game, rules, names, findings, winner)
    player_rows = _player_rows(tally, replayer, names, winner, game)
    rows = tally.rows
    if lexicon is not None or lexica is not None:
        if settings.options != options:
            settings = replace(settings, options=options)
        analysis = analyse_game_with(game, LexiconChoice.of(lexicon, lexica, leaves), settings)
        rows, game_row, player_rows = _with_analysis(analysis, rows, game_row, player_rows)
    if keep == "bingos":
        rows = [r for r in rows if r[_BINGO]]
    return GameResult(file, False, None, game_row, player_rows, rows)


def _game_row(
    tally: _Tally,
    replayer: Replayer,
    game: Game,
    rules: RuleSet,
    names: list[str],
    findings: list[Finding],
    winner: str | None,
) -> tuple[Any, ...]:
    """The game row of a record replayed into ``tally`` (``winner``: :func:`_winner`)."""
    t = tally
    nicks, n, best = t.nicks, len(t.nicks), t.best
    final = replayer.recorded
    rule = replayer.end_rule
    ordered = sorted(final, reverse=True)
    errors = sum(1 for f in findings if f.severity == "error")
    warnings = sum(1 for f in findings if f.severity == "warning")
    top = max(
        (i for i in range(n) if best[i] is not None),
        key=lambda i: best[i][0],  # type: ignore[index]
        default=None,
    )
    return _GAME_ROW(
        file=t.file,
        game_id=t.game_id,
        title=game.title,
        date=record_date(game),
        lexicon=game.lexicon,
        tiles=rules.tiles.name,
        board=rules.board.name,
        n_players=n,
        players=",".join(nicks),
        player1=nicks[0],
        player2=nicks[1],
        name1=names[0],
        name2=names[1],
        score1=final[0],
        score2=final[1],
        spread=ordered[0] - ordered[1],
        winner=winner,
        finished=replayer.game_over,
        end_reason=replayer.end_reason,
        end_rule=rule.value if rule is not None else None,
        turns=t.turn,
        bingos1=t.bingos[0],
        bingos2=t.bingos[1],
        best_score=best[top][0] if top is not None else None,  # type: ignore[index]
        best_word=best[top][1] if top is not None else None,  # type: ignore[index]
        best_player=nicks[top] if top is not None else None,
        exchanges=sum(t.exchanges),
        passes=sum(t.passes),
        phonies=sum(t.phonies),
        challenge_bonuses=t.challenge_bonuses,
        lost_challenges=t.lost_double,
        challenges=sum(t.phonies) + t.challenge_bonuses + t.lost_double,
        time_penalties=t.time_lines,
        status="ok" if errors == 0 else "errors",
        errors=errors,
        warnings=warnings,
        **_NO_GAME_ANALYSIS,
    )


def _winner(tally: _Tally, replayer: Replayer) -> str | None:
    """The winner's nickname, ``"tie"``, or None for a game not over."""
    if not replayer.game_over:
        return None
    home = replayer.end_rule is EndRule.HOME
    return decide_winner(tally.nicks, replayer.recorded, tally.before_adjustments, home)


def _player_rows(
    tally: _Tally, replayer: Replayer, names: list[str], winner: str | None, game: Game
) -> list[tuple[Any, ...]]:
    """The player rows of ``game`` replayed into ``tally`` (``winner``: :func:`_winner`)."""
    t = tally
    date, ratings = record_date(game), record_ratings(game)
    nicks, n, best, two = t.nicks, len(t.nicks), t.best, t.two
    final = replayer.recorded
    finished = replayer.game_over
    ordered = sorted(final, reverse=True)
    player_rows = []
    for pl in range(n):
        others = [final[q] for q in range(n) if q != pl]
        opponent_score = max(others)
        if winner is None:
            result = None
        elif winner == nicks[pl]:
            result = "win"
        elif winner == "tie" and final[pl] == ordered[0]:
            result = "tie"
        else:
            result = "loss"
        b = best[pl]
        player_rows.append(
            _PLAYER_ROW(
                file=t.file,
                game_id=t.game_id,
                player=nicks[pl],
                name=names[pl],
                seat=pl + 1,
                opponent=nicks[1 - pl] if two else None,
                score=final[pl],
                opponent_score=opponent_score,
                spread=final[pl] - opponent_score,
                result=result,
                finished=finished,
                turns=t.turns[pl],
                plays=t.plays[pl],
                play_points=t.play_points[pl],
                bingos=t.bingos[pl],
                best_score=b[0] if b else None,
                best_word=b[1] if b else None,
                exchanges=t.exchanges[pl],
                passes=t.passes[pl],
                phonies=t.phonies[pl],
                challenges_won=t.won[pl],
                challenges_lost=t.lost[pl],
                time_penalty=t.time_pen[pl],
                date=date,
                rating=ratings.get(pl),
                **_NO_PLAYER_ANALYSIS,
            )
        )
    return player_rows


_EVENT = MOVE_COLUMNS.index("event")
_EQUITY = MOVE_COLUMNS.index("equity")
_GAME_ANALYSIS = GAME_COLUMNS.index("analysis_lexicon")
_PLAYER_ANALYSIS = PLAYER_COLUMNS.index("phonies_played")
_JUDGED_MOVE = MOVE_COLUMNS.index("phase")
_JUDGED_PLAYER = PLAYER_COLUMNS.index("mistake_index")


def _with_analysis(
    analysis: RecordAnalysis,
    rows: list[tuple[Any, ...]],
    game_row: tuple[Any, ...],
    player_rows: list[tuple[Any, ...]],
) -> tuple[list[tuple[Any, ...]], tuple[Any, ...], list[tuple[Any, ...]]]:
    """The rows with the analysis columns filled in from ``analysis``."""
    game_values = list(game_row)
    game_values[_GAME_ANALYSIS] = analysis.used
    if analysis.lexicon is None:
        return rows, tuple(game_values), player_rows
    turns = {t.event: t for t in analysis.turns}
    out = []
    for row in rows:
        t = turns.get(row[_EVENT])
        if t is None:
            out.append(row)
            continue
        values = list(row)
        values[_EQUITY : _EQUITY + 6] = [
            rounded(t.equity), t.best_move, rounded(t.best_equity), rounded(t.equity_lost),
            ",".join(t.phony_words) if t.phony_words is not None else None, t.bingo_available,
        ]  # fmt: skip
        values[_JUDGED_MOVE:] = judged_move_values(t)
        out.append(tuple(values))
    summary = analysis.player_summary()
    judged = judged_player_values(analysis)
    players = []
    for row in player_rows:
        s = summary.get(row[PLAYER_COLUMNS.index("player")])
        values = list(row)
        if s is not None:
            values[_PLAYER_ANALYSIS : _PLAYER_ANALYSIS + 5] = [
                s["phonies_played"], s["phonies_stood"], s["missed_bingos"],
                s["analysed_turns"], s["equity_lost"],
            ]  # fmt: skip
        nick = row[PLAYER_COLUMNS.index("player")]
        if nick in judged:
            values[_JUDGED_PLAYER:] = judged[nick]
        players.append(tuple(values))
    for seat in (1, 2):
        nick = game_values[GAME_COLUMNS.index(f"player{seat}")]
        s = summary.get(nick)
        if s is None:
            continue
        for key in ("phonies_played", "phonies_stood", "missed_bingos", "avg_equity_lost"):
            game_values[GAME_COLUMNS.index(f"{key}{seat}")] = s[key]
        if nick in judged:
            game_values[GAME_COLUMNS.index(f"mistake_index{seat}")] = judged[nick][0]
    return out, tuple(game_values), players


def _withdrawn(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """The move row of a play taken back: withdrawn, and no bingo."""
    values = list(row)
    values[_WITHDRAWN], values[_BINGO] = True, False
    return tuple(values)


class _Row:
    """Builds rows of ``columns``: values given by column name come back in column order;
    every column must be given, and nothing else."""

    def __init__(self, columns: list[str]) -> None:
        self.columns = columns
        self.get = itemgetter(*columns)

    def __call__(self, **values: Any) -> tuple[Any, ...]:
        if len(values) != len(self.columns):
            raise ValueError(f"columns {sorted(set(self.columns) ^ set(values))} mismatch")
        row: tuple[Any, ...] = self.get(values)
        return row


_GAME_ROW = _Row(GAME_COLUMNS)
_NO_GAME_ANALYSIS = dict.fromkeys(GAME_COLUMNS[GAME_COLUMNS.index("analysis_lexicon") :])
_NO_PLAYER_ANALYSIS = dict.fromkeys(PLAYER_COLUMNS[PLAYER_COLUMNS.index("phonies_played") :])
_PLAYER_ROW = _Row(PLAYER_COLUMNS)


def _unreadable_row(game: Game, file: str) -> tuple[Any, ...]:
    row: dict[str, Any] = dict.fromkeys(GAME_COLUMNS)
    nicks = [p.nick for p in game.players]
    row.update(
        file=file,
        game_id=game.id or (Path(game.path).stem if game.path else file),
        title=game.title,
        date=record_date(game),
        lexicon=game.lexicon,
        players=",".join(nicks) or None,
        player1=nicks[0] if nicks else None,
        player2=nicks[1] if len(nicks) > 1 else None,
        status="unreadable",
        errors=sum(1 for f in game.findings if f.severity == "error"),
        warnings=sum(1 for f in game.findings if f.severity == "warning"),
    )
    return tuple(row.values())


def _integer_columns(dtypes: dict[str, str]) -> list[tuple[int, str]]:
    return [(i, name) for i, (name, t) in enumerate(dtypes.items()) if t.lower().startswith("int")]


_INTEGER_COLUMNS = (
    _integer_columns(MOVE_DTYPES),
    _integer_columns(GAME_DTYPES),
    _integer_columns(PLAYER_DTYPES),
)
_LINE = MOVE_COLUMNS.index("line")
_INT64 = 1 << 63


def out_of_range(result: GameResult) -> str | None:
    """Why ``result``'s rows cannot go into the tables (a number beyond the 64-bit
    integers of their columns), or None."""
    moves, games, players = _INTEGER_COLUMNS
    for rows, columns in (
        (result.moves, moves),
        ([result.game] if result.game else [], games),
        (result.players, players),
    ):
        for row in rows:
            for i, name in columns:
                value = row[i]
                if value is not None and not -_INT64 <= value < _INT64:
                    where = f" (line {row[_LINE]})" if columns is moves else ""
                    return f"{name} too large for a table column{where}"
    return None


def analyse_path(
    path: str,
    keep: Keep = "all",
    options: RuleOptions = NO_OPTIONS,
    lexicon: LexiconChoice | None = None,
    settings: AnalysisSettings = TABLE_SETTINGS,
) -> GameResult:
    """Worker: read, replay and tabulate one file (its analysis as ``settings`` say: see
    :func:`analyse_game`). Never raises for a bad file: a failure on it (or a number no
    table can hold) becomes its reason for being left out, and the batch goes on."""
    name = display_name(path)
    try:
        game = load_game(path)
        result = analyse_game(
            game, name=name, keep=keep, options=options, lexicon=lexicon, settings=settings
        )
        problem = None if result.unreadable else out_of_range(result)
        if problem is not None:
            return GameResult(name, True, problem, _unreadable_row(game, name))
        return result
    except (LexiconError, LeavesError) as exc:  # a lexicon or leave file it cannot use
        return GameResult(name, True, display_name(exc.message[:300]))
    except Exception as exc:  # noqa: BLE001 - a batch must go on past any bad file
        text = f"{type(exc).__name__}: {exc}"
        return GameResult(name, True, display_name(text[:300]))


def make_frame(rows: list[tuple[Any, ...]], dtypes: dict[str, str]) -> pd.DataFrame:
    """Rows as a DataFrame with the columns and dtypes of ``dtypes`` (an empty one keeps
    its columns)."""
    import pandas as pd  # here, not at import: worker processes never need pandas

    frame = pd.DataFrame.from_records(rows, columns=list(dtypes)) if rows else None
    if frame is None:
        frame = pd.DataFrame({c: pd.Series(dtype=t) for c, t in dtypes.items()})
    return frame.astype(dtypes)
