"""Archives as tables: one row per event, per game, or per player in a game.

Every game is replayed once; the replay's positions become plain rows (tuples in the
column order below), so a worker process hands back a few kilobytes per game. The frame
builders and :func:`write_moves` consume those rows in chunks of files, so an archive of
100,000 games never has to be in memory at once.

>>> moves = moves_frame(["examples/"])  # doctest: +SKIP
>>> moves.groupby("player").score.mean()  # doctest: +SKIP

Sources are files, folders (searched recursively for ``*.gcg``), glob patterns, or
:class:`~gcgtools.model.game.Game` objects already in memory (handy in a notebook).
A file that cannot be read or parsed gives no move and no player rows (its game row says
``status`` "unreadable"); its name is listed in the frames' ``attrs["unreadable"]`` and the
batch goes on.
"""

from __future__ import annotations

import glob
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pandas as pd

from gcgtools.analysis.batch import map_window
from gcgtools.atomic import publish, temporary_beside
from gcgtools.model.game import Game
from gcgtools.model.load import load_game
from gcgtools.model.paths import expand_paths
from gcgtools.replay.engine import Position, Replayer
from gcgtools.replay.setup import rules_for
from gcgtools.rules.rulesets import EndRule
from gcgtools.syntax.records import EventKind

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "GAME_COLUMNS",
    "MOVE_COLUMNS",
    "PLAYER_COLUMNS",
    "Frames",
    "ExportSummary",
    "GameResult",
    "analyse_game",
    "decide_winner",
    "games_frame",
    "iter_game_rows",
    "iter_move_rows",
    "iter_player_rows",
    "iter_results",
    "load_frames",
    "moves_frame",
    "player_games_frame",
    "write_moves",
]

Source = str | os.PathLike[str] | Game
Keep = Literal["all", "bingos", "none"]

UNSUCCESSFUL_CHALLENGE = "#unsuccessful-challenge"
IGNORED_PASS = "O313"  # the finding on a final pass after the opponent went out
# Files handed to the worker processes and not yet consumed: bounds the results waiting
# in memory.
CHUNK_FILES = 2048
# Rows per DataFrame piece, and per chunk written to a CSV or Parquet file.
CHUNK_ROWS = 10_000

# Column name -> pandas dtype. "Int64" is pandas' nullable integer; text columns use the
# string dtype of pandas 3 ("str", what read_parquet and read_csv give back), object before.
_STR = "str" if int(pd.__version__.split(".")[0]) >= 3 else "object"
MOVE_DTYPES: dict[str, str] = {
    "file": _STR,  # the path, or the game's display name for a Game object
    "game_id": _STR,  # the #id identifier, else the file stem
    "event": "int64",  # 1-based index of the event in the record
    "turn": "int64",  # 1-based counter of turns (plays, passes, exchanges) so far
    "line": "int64",  # source line
    "player": _STR,  # nickname
    "opponent": _STR,  # the other nickname in a two-player game, else None
    "kind": _STR,  # play, pass, exchange, withdrawn, challenge_bonus, end_rack_points, ...
    "rack": _STR,  # as recorded (None, UNKNOWN, partial racks as they are)
    "position": _STR,  # coordinate as written, e.g. 8D or H8
    "direction": _STR,  # across / down
    "word": _STR,  # main word with played-through letters filled in, blanks lower case
    "words": _STR,  # every word formed, main word first, comma separated: "QI,UN"
    "tiles_played": "int64",
    "blanks_played": "int64",
    "score": "int64",  # as recorded
    "computed": "Int64",  # as computed by the replay (None when it could not be)
    "cumulative": "int64",  # as recorded
    "bingo": "bool",  # a full rack played, and the play stood (not withdrawn)
    "premiums": _STR,  # premium squares under the new tiles, comma separated: "DW,TL"
    "leave": _STR,  # tiles kept after a play or exchange, when the rack is known
    "withdrawn": "bool",  # a play taken back by the next line (--)
    "lost_challenge": "bool",  # a pass marked #unsuccessful-challenge (double challenge)
    "findings": "int64",  # findings the replay reported on this event
}
MOVE_COLUMNS: list[str] = list(MOVE_DTYPES)
_BINGO = MOVE_COLUMNS.index("bingo")
_WITHDRAWN = MOVE_COLUMNS.index("withdrawn")

GAME_DTYPES: dict[str, str] = {
    "file": _STR,
    "game_id": _STR,
    "title": _STR,
    "lexicon": _STR,
    "tiles": _STR,  # tile set name (english, german, ...)
    "board": _STR,  # board layout name
    "n_players": "Int64",
    "players": _STR,  # every nickname, comma separated
    "player1": _STR,
    "player2": _STR,
    "name1": _STR,
    "name2": _STR,
    "score1": "Int64",  # final recorded scores
    "score2": "Int64",
    "spread": "Int64",  # winner's margin: best final score minus the next best
    "winner": _STR,  # nickname, "tie", or None when the game is not over
    "finished": "boolean",
    "end_reason": _STR,  # out, scoreless, passes, time, or None
    "end_rule": _STR,  # standard, international, home, or None (not detectable)
    "turns": "Int64",
    "bingos1": "Int64",
    "bingos2": "Int64",
    "best_score": "Int64",  # highest play that stood
    "best_word": _STR,
    "best_player": _STR,
    "exchanges": "Int64",
    "passes": "Int64",  # passes, lost double challenges included
    "phonies": "Int64",  # plays withdrawn after a successful challenge (--)
    "challenge_bonuses": "Int64",  # (challenge) +N lines: unsuccessful challenges, bonus rule
    "lost_challenges": "Int64",  # passes marked #unsuccessful-challenge: double challenge rule
    "challenges": "Int64",  # phonies + challenge_bonuses + lost_challenges
    "time_penalties": "Int64",  # (time) lines
    "status": _STR,  # ok, errors, unreadable
    "errors": "Int64",
    "warnings": "Int64",
}
GAME_COLUMNS: list[str] = list(GAME_DTYPES)

PLAYER_DTYPES: dict[str, str] = {
    "file": _STR,
    "game_id": _STR,
    "player": _STR,  # nickname
    "name": _STR,  # full name
    "seat": "int64",  # 1 for #player1, ...
    "opponent": _STR,  # the other nickname in a two-player game, else None
    "score": "int64",  # final recorded score
    "opponent_score": "int64",  # best final score among the others
    "spread": "int64",  # score - opponent_score
    "result": _STR,  # win, loss, tie, or None when the game is not over
    "finished": "bool",
    "turns": "int64",  # plays, passes and exchanges
    "plays": "int64",  # plays that stood
    "play_points": "int64",  # points from plays that stood
    "bingos": "int64",
    "best_score": "Int64",  # the player's highest play that stood
    "best_word": _STR,
    "exchanges": "int64",
    "passes": "int64",
    "phonies": "int64",  # own plays withdrawn
    "challenges_won": "int64",  # opponent's plays withdrawn (two-player games)
    "challenges_lost": "int64",  # bonuses given to the opponent + own marked passes
    "time_penalty": "int64",  # points lost to (time) lines
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


@dataclass(slots=True)
class Frames:
    """The three tables of an archive and the files that could not be read."""

    games: pd.DataFrame
    players: pd.DataFrame
    moves: pd.DataFrame | None
    unreadable: list[str]
    reasons: dict[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------- one game
def decide_winner(
    nicks: list[str], final: list[int], before_adjustments: list[int] | None, home: bool
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


def _name_of(game: Game, fallback: str) -> str:
    return game.path if game.path is not None else fallback


def analyse_game(
    game: Game,
    *,
    name: str | None = None,
    keep: Keep = "all",
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> GameResult:
    """Replay ``game`` once and return its game row, player rows and move rows.

    ``keep`` chooses the move rows returned: all of them, only bingos, or none.
    An unreadable game (or rule options that name no known rule) gives no rows.
    """
    file = name if name is not None else _name_of(game, "<gcg>")
    if game.unreadable:
        fatal = [f for f in game.findings if f.severity == "error" and f.code[0] in "FP"]
        reason = f"{fatal[0].code} line {fatal[0].line}: {fatal[0].message}" if fatal else ""
        return GameResult(file, True, reason or "unreadable", _unreadable_row(game, file))
    try:
        rules, setup_findings = rules_for(
            game, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
        )
    except (KeyError, ValueError) as exc:
        return GameResult(
            file, True, f"cannot set up the rules: {exc}", _unreadable_row(game, file)
        )
    replayer = Replayer(game, rules, snapshots=False, detect_end_rule=end_rule is None)
    game_id = game.id or (_stem(game.path) if game.path else None) or game.title or file
    n = replayer.n
    nicks = [f"player{i + 1}" for i in range(n)]
    names = list(nicks)
    for pl in game.players:
        nicks[pl.index], names[pl.index] = pl.nick, pl.name
    two = n == 2

    # per-player tallies
    turns, plays, play_points = [0] * n, [0] * n, [0] * n
    bingos, exchanges, passes, phonies = [0] * n, [0] * n, [0] * n, [0] * n
    won, lost, time_pen = [0] * n, [0] * n, [0] * n
    best: list[tuple[int, str] | None] = [None] * n
    challenge_bonuses = lost_double = time_lines = 0

    rows: list[list[Any]] = []
    # (player, row, position, main word when already read)
    play_rows: list[tuple[int, list[Any] | None, Position, str | None]] = []
    turn = 0
    before_adjustments: list[int] | None = None
    recorded_before: list[int] = [0] * n
    previous: tuple[int, list[Any] | None, Position, str | None] | None = None
    keep_rows = keep != "none"
    # the mover's nickname and the opponent's, by player index (None: not credited)
    movers = [(nicks[i], nicks[1 - i] if two else None) for i in range(n)]
    play, pass_ = EventKind.PLAY, EventKind.PASS
    # Without move rows only the best play's word is read: steps() then scores no
    # words, and the words of a play are read off the board (words_now) only when it beats
    # every earlier play of its player that stood, the only plays the best can be (a
    # withdrawn play is always the last one). tops[p]: the best score so far after each
    # of player p's plays that stood.
    tops: list[list[int]] = [[] for _ in range(n)]
    for pos in replayer.steps(detail=keep_rows):
        e = pos.event
        if e is None:
            continue
        p = pos.player  # the player the replay credited (a mistyped nickname is resolved)
        kind = e.kind
        is_pass = kind is pass_
        is_turn = is_pass or kind is play or kind is EventKind.EXCHANGE  # kind in TURN_KINDS
        # the final pass after the opponent went out is not a turn (O313)
        skipped = is_pass and any(f.code == IGNORED_PASS for f in pos.findings)
        if is_turn and not skipped:
            turn += 1
        if before_adjustments is None and (
            kind is EventKind.END_RACK_POINTS or kind is EventKind.END_RACK_PENALTY
        ):
            before_adjustments = recorded_before
        recorded_before = pos.recorded
        lost_challenge = is_pass and any(UNSUCCESSFUL_CHALLENGE in note.text for note in e.notes)
        row: list[Any] | None = None
        if keep_rows:
            main: str | None
            words: str | None
            if kind is play:
                played = pos.words
                if played:
                    main = played[0].text
                    words = main if len(played) == 1 else ",".join([w.text for w in played])
                else:
                    main, words = e.word, None
                premiums = ",".join(pos.premiums) or None
                squares = pos.placed
                placed = len(squares)
                blanks = len([t for _, _, t in squares if t == "?" or t != t.upper()])
            else:
                main, words, premiums, placed, blanks = e.word, None, None, 0, 0
            mover, opponent = movers[p] if p is not None else (e.nick, None)
            row = [
                file, game_id, pos.index + 1, turn, e.line, mover, opponent,
                kind._value_, e.rack, e.position, e.direction, main, words, placed, blanks,
                e.score, pos.computed, e.cumulative, pos.bingo, premiums,
                pos.leave, False, lost_challenge, len(pos.findings),
            ]  # fmt: skip
            rows.append(row)
        if p is None or skipped:
            previous = None
            continue
        if is_turn:
            turns[p] += 1
        if kind is play:
            word: str | None = None
            if not keep_rows:
                stack = tops[p]
                if not stack or e.score > stack[-1]:
                    formed = replayer.words_now(pos)
                    word = formed[0].text if formed else (e.word or "")
                    stack.append(e.score)
                else:
                    stack.append(stack[-1])
            previous = (p, row, pos, word)
            play_rows.append(previous)
            continue
        if kind is EventKind.WITHDRAWN:
            if previous is not None:  # the replay takes back the play just before
                q, play_row, _, _ = previous
                if not keep_rows:
                    tops[q].pop()
                if play_rows[-1] is previous:
                    play_rows.pop()
                else:  # pragma: no cover - previous is always the last play
                    play_rows.remove(previous)
                if play_row is not None:
                    play_row[_WITHDRAWN], play_row[_BINGO] = True, False
                phonies[q] += 1
                if two:
                    won[1 - q] += 1
        elif kind is EventKind.EXCHANGE:
            exchanges[p] += 1
        elif kind is EventKind.PASS:
            passes[p] += 1
            if lost_challenge:
                lost[p] += 1
                lost_double += 1
        elif kind is EventKind.CHALLENGE_BONUS:
            challenge_bonuses += 1
            if two:
                lost[1 - p] += 1
        elif kind is EventKind.TIME_PENALTY:
            time_pen[p] += e.score
            time_lines += 1
        previous = None

    for p, _row, pos, known in play_rows:
        e = pos.event
        assert e is not None
        plays[p] += 1
        play_points[p] += e.score
        if pos.bingo:
            bingos[p] += 1
        if best[p] is None or e.score > best[p][0]:  # type: ignore[index]
            if known is None:
                known = pos.words[0].text if pos.words else (e.word or "")
            best[p] = (e.score, known)

    final = replayer.recorded
    finished = replayer.game_over
    rule = replayer.end_rule
    winner = (
        decide_winner(nicks, final, before_adjustments, rule is EndRule.HOME) if finished else None
    )
    ordered = sorted(final, reverse=True)
    findings = [*game.findings, *setup_findings, *replayer.findings]  # as validate() has them
    errors = sum(1 for f in findings if f.severity == "error")
    warnings = sum(1 for f in findings if f.severity == "warning")
    top = max(
        (i for i in range(n) if best[i] is not None),
        key=lambda i: best[i][0],  # type: ignore[index]
        default=None,
    )
    game_row = _ordered(
        GAME_COLUMNS,
        file=file,
        game_id=game_id,
        title=game.title,
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
        finished=finished,
        end_reason=replayer.end_reason,
        end_rule=rule.value if rule is not None else None,
        turns=turn,
        bingos1=bingos[0],
        bingos2=bingos[1],
        best_score=best[top][0] if top is not None else None,  # type: ignore[index]
        best_word=best[top][1] if top is not None else None,  # type: ignore[index]
        best_player=nicks[top] if top is not None else None,
        exchanges=sum(exchanges),
        passes=sum(passes),
        phonies=sum(phonies),
        challenge_bonuses=challenge_bonuses,
        lost_challenges=lost_double,
        challenges=sum(phonies) + challenge_bonuses + lost_double,
        time_penalties=time_lines,
        status="ok" if errors == 0 else "errors",
        errors=errors,
        warnings=warnings,
    )
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
            _ordered(
                PLAYER_COLUMNS,
                file=file,
                game_id=game_id,
                player=nicks[pl],
                name=names[pl],
                seat=pl + 1,
                opponent=nicks[1 - pl] if two else None,
                score=final[pl],
                opponent_score=opponent_score,
                spread=final[pl] - opponent_score,
                result=result,
                finished=finished,
                turns=turns[pl],
                plays=plays[pl],
                play_points=play_points[pl],
                bingos=bingos[pl],
                best_score=b[0] if b else None,
                best_word=b[1] if b else None,
                exchanges=exchanges[pl],
                passes=passes[pl],
                phonies=phonies[pl],
                challenges_won=won[pl],
                challenges_lost=lost[pl],
                time_penalty=time_pen[pl],
            )
        )
    if keep == "bingos":
        rows = [r for r in rows if r[_BINGO]]
    return GameResult(file, False, None, game_row, player_rows, [tuple(r) for r in rows])


def _ordered(columns: list[str], **values: Any) -> tuple[Any, ...]:
    """The values in column order; every column must be given, and nothing else."""
    if len(values) != len(columns):
        raise ValueError(f"columns {sorted(set(columns) ^ set(values))} mismatch")
    return tuple(values[c] for c in columns)


def _unreadable_row(game: Game, file: str) -> tuple[Any, ...]:
    row: dict[str, Any] = dict.fromkeys(GAME_COLUMNS)
    nicks = [p.nick for p in game.players]
    row.update(
        file=file,
        game_id=game.id or (Path(game.path).stem if game.path else file),
        title=game.title,
        lexicon=game.lexicon,
        players=",".join(nicks) or None,
        player1=nicks[0] if nicks else None,
        player2=nicks[1] if len(nicks) > 1 else None,
        status="unreadable",
        errors=sum(1 for f in game.findings if f.severity == "error"),
        warnings=sum(1 for f in game.findings if f.severity == "warning"),
    )
    return tuple(row.values())


def _analyse_path(path: str, keep: Keep = "all", **options: Any) -> GameResult:
    """Worker: read, replay and tabulate one file. Never raises for a bad file."""
    try:
        game = load_game(path)
        return analyse_game(game, name=path, keep=keep, **options)
    except Exception as exc:  # noqa: BLE001 - a batch must go on past any bad file
        return GameResult(path, True, f"{type(exc).__name__}: {exc}")


# ------------------------------------------------------------- many games
def _runs(sources: Source | Iterable[Source]) -> Iterator[list[str] | Game]:
    """Consecutive path arguments grouped into lists; Game objects one by one."""
    if isinstance(sources, (str, os.PathLike, Game)):
        sources = [sources]
    pending: list[str] = []
    for item in sources:
        if isinstance(item, Game):
            if pending:
                yield pending
                pending = []
            yield item
        else:
            pending.append(os.fspath(item))
    if pending:
        yield pending


def _plain_file(name: str) -> bool:
    """True when :func:`expand_paths` gives ``name`` back as it is: not a folder, and not
    a glob pattern that names no file."""
    try:
        return not stat.S_ISDIR(os.stat(name).st_mode)
    except OSError:
        return not glob.has_magic(name)
    except ValueError:
        return False  # let expand_paths decide


def _as_batch(names: list[str]) -> list[str]:
    """The files a batch of ``names`` stands for, ``CHUNK_FILES`` at a time, as
    :func:`~gcgtools.analysis.batch.map_files` expands them (a folder that a glob matched
    is looked into). Names that are plain files, almost all of them, are kept as they are
    without building paths."""
    out: list[str] = []
    for start in range(0, len(names), CHUNK_FILES):
        chunk = names[start : start + CHUNK_FILES]
        out.extend(chunk if all(map(_plain_file, chunk)) else expand_paths(chunk))
    return out


def iter_results(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    progress: bool = False,
    keep: Keep = "all",
    **rule_options: Any,
) -> Iterator[GameResult]:
    """A :class:`GameResult` per game, in order; files are analysed in one pool of worker
    processes, at most ``CHUNK_FILES`` of them handed out and not yet yielded, Game objects
    in this process. ``rule_options`` are
    ``tiles``, ``board``, ``end_rule`` and ``challenge_bonus``."""
    worker = partial(_analyse_path, keep=keep, **rule_options)
    runs = list(_runs(sources))
    files: dict[int, list[str]] = {
        i: list(expand_paths(run)) for i, run in enumerate(runs) if isinstance(run, list)
    }
    total = sum(len(f) for f in files.values()) + sum(isinstance(r, Game) for r in runs)
    bar = None
    task: Any = None
    if progress and total:
        from rich.console import Console
        from rich.progress import Progress

        bar = Progress(transient=True, console=Console(stderr=True))
        bar.start()
        task = bar.add_task("games", total=total)
    try:
        for i, run in enumerate(runs):
            if isinstance(run, Game):
                yield analyse_game(run, name=_name_of(run, f"<game {i + 1}>"), keep=keep,
                                   **rule_options)  # fmt: skip
                if bar is not None:
                    bar.advance(task)
                continue
            # one pool for the whole run, at most CHUNK_FILES files in flight
            for result in map_window(worker, _as_batch(files[i]), jobs=jobs, window=CHUNK_FILES):
                if bar is not None:
                    bar.advance(task)
                yield result
    finally:
        if bar is not None:
            bar.stop()


def iter_move_rows(
    sources: Source | Iterable[Source], *, jobs: int | None = None, **rule_options: Any
) -> Iterator[dict[str, Any]]:
    """One plain dict per event of every readable game (keys: ``MOVE_COLUMNS``)."""
    for result in iter_results(sources, jobs=jobs, **rule_options):
        for row in result.moves:
            yield dict(zip(MOVE_COLUMNS, row, strict=True))


def iter_game_rows(
    sources: Source | Iterable[Source], *, jobs: int | None = None, **rule_options: Any
) -> Iterator[dict[str, Any]]:
    """One plain dict per game, unreadable files included (keys: ``GAME_COLUMNS``)."""
    for result in iter_results(sources, jobs=jobs, keep="none", **rule_options):
        if result.game is not None:
            yield dict(zip(GAME_COLUMNS, result.game, strict=True))
        else:
            row = dict.fromkeys(GAME_COLUMNS)
            row.update(file=result.file, status="unreadable")
            yield row


def iter_player_rows(
    sources: Source | Iterable[Source], *, jobs: int | None = None, **rule_options: Any
) -> Iterator[dict[str, Any]]:
    """One plain dict per player of every readable game (keys: ``PLAYER_COLUMNS``)."""
    for result in iter_results(sources, jobs=jobs, keep="none", **rule_options):
        for row in result.players:
            yield dict(zip(PLAYER_COLUMNS, row, strict=True))


def _frame(rows: list[tuple[Any, ...]], dtypes: dict[str, str]) -> pd.DataFrame:
    frame = pd.DataFrame.from_records(rows, columns=list(dtypes)) if rows else None
    if frame is None:
        frame = pd.DataFrame({c: pd.Series(dtype=t) for c, t in dtypes.items()})
    return frame.astype(dtypes)


class _Collector:
    """Rows gathered into DataFrame pieces of ``CHUNK_ROWS`` rows, joined at the end."""

    def __init__(self, dtypes: dict[str, str]) -> None:
        self.dtypes = dtypes
        self.rows: list[tuple[Any, ...]] = []
        self.parts: list[pd.DataFrame] = []

    def add(self, rows: list[tuple[Any, ...]]) -> None:
        self.rows.extend(rows)
        if len(self.rows) >= CHUNK_ROWS:
            self.parts.append(_frame(self.rows, self.dtypes))
            self.rows = []

    def frame(self) -> pd.DataFrame:
        if self.rows or not self.parts:
            self.parts.append(_frame(self.rows, self.dtypes))
            self.rows = []
        if len(self.parts) == 1:
            return self.parts[0]
        return pd.concat(self.parts, ignore_index=True).astype(self.dtypes)


def _game_tuple(result: GameResult) -> tuple[Any, ...]:
    if result.game is not None:
        return result.game
    row: dict[str, Any] = dict.fromkeys(GAME_COLUMNS)
    row.update(file=result.file, game_id=Path(result.file).stem, status="unreadable")
    return tuple(row.values())


def load_frames(
    sources: Source | Iterable[Source],
    *,
    moves: bool = True,
    jobs: int | None = None,
    progress: bool = False,
    **rule_options: Any,
) -> Frames:
    """The games, player-games and (unless ``moves`` is False) moves tables in one pass.

    Rows are turned into DataFrame pieces ``CHUNK_ROWS`` at a time, so that only the
    compact columns of the tables grow with the archive, not millions of row tuples."""
    games, players = _Collector(GAME_DTYPES), _Collector(PLAYER_DTYPES)
    move_rows = _Collector(MOVE_DTYPES)
    unreadable: list[str] = []
    reasons: dict[str, str] = {}
    keep: Keep = "all" if moves else "none"
    for result in iter_results(sources, jobs=jobs, progress=progress, keep=keep, **rule_options):
        games.add([_game_tuple(result)])
        if result.unreadable:
            unreadable.append(result.file)
            reasons[result.file] = result.reason or "unreadable"
            continue
        players.add(result.players)
        move_rows.add(result.moves)
    frames = Frames(
        games.frame(),
        players.frame(),
        move_rows.frame() if moves else None,
        unreadable,
        reasons,
    )
    for frame in (frames.games, frames.players, frames.moves):
        if frame is not None:
            frame.attrs["unreadable"] = list(unreadable)
            frame.attrs["reasons"] = dict(reasons)
    return frames


def moves_frame(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    progress: bool = False,
    **rule_options: Any,
) -> pd.DataFrame:
    """One row per event of every readable game (columns: ``MOVE_COLUMNS``).

    ``attrs["unreadable"]`` lists the files that could not be read or parsed.
    """
    frames = load_frames(sources, moves=True, jobs=jobs, progress=progress, **rule_options)
    assert frames.moves is not None
    return frames.moves


def games_frame(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    progress: bool = False,
    **rule_options: Any,
) -> pd.DataFrame:
    """One row per game (columns: ``GAME_COLUMNS``); an unreadable file is a row with
    ``status`` "unreadable" and is listed in ``attrs["unreadable"]``."""
    return load_frames(sources, moves=False, jobs=jobs, progress=progress, **rule_options).games


def player_games_frame(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    progress: bool = False,
    **rule_options: Any,
) -> pd.DataFrame:
    """One row per player per readable game (columns: ``PLAYER_COLUMNS``): the input of
    :func:`gcgtools.analysis.stats.player_stats`."""
    return load_frames(sources, moves=False, jobs=jobs, progress=progress, **rule_options).players


# ------------------------------------------------------------------ export
def _arrow_schema(dtypes: dict[str, str]) -> pa.Schema:
    import pyarrow as pa

    kinds = {
        _STR: pa.string(),
        "int64": pa.int64(),
        "Int64": pa.int64(),
        "bool": pa.bool_(),
        "boolean": pa.bool_(),
    }
    return pa.schema([(name, kinds[t]) for name, t in dtypes.items()])


class _Sink:
    """A CSV or Parquet file written chunk by chunk into a temporary file, then moved
    into place, so a reader never sees half a file."""

    def __init__(self, path: str | os.PathLike[str], dtypes: dict[str, str]) -> None:
        self.path = Path(path)
        suffix = self.path.suffix.lower()
        if suffix not in (".csv", ".parquet", ".pq"):
            raise ValueError(f"{self.path}: the file name must end in .parquet or .csv")
        self.parquet = suffix != ".csv"
        self.dtypes = dtypes
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = temporary_beside(self.path)
        self.writer: Any = None
        self.started = False
        self.rows = 0
        self.schema: pa.Schema | None = None
        if self.parquet:
            import pyarrow as pa

            # pandas metadata, so that read_parquet gives back the frame's dtypes (Int64 ...)
            pandas_meta = pa.Schema.from_pandas(_frame([], dtypes), preserve_index=False)
            self.schema = _arrow_schema(dtypes).with_metadata(pandas_meta.metadata)

    def write(self, rows: list[tuple[Any, ...]]) -> None:
        if not rows and self.started:
            return
        if self.schema is not None:
            import pyarrow as pa
            import pyarrow.parquet as pq

            # column by column straight from the rows: no DataFrame in between
            columns = list(zip(*rows, strict=True)) if rows else [()] * len(self.schema)
            table = pa.Table.from_arrays(
                [pa.array(c, type=f.type) for c, f in zip(columns, self.schema, strict=True)],
                schema=self.schema,
            )
            if self.writer is None:
                self.writer = pq.ParquetWriter(self.tmp, self.schema)
            self.writer.write_table(table)
        else:
            mode = "a" if self.started else "w"
            frame = _frame(rows, self.dtypes)
            frame.to_csv(self.tmp, mode=mode, header=not self.started, index=False)
        self.started = True
        self.rows += len(rows)

    def close(self) -> None:
        if not self.started:
            self.write([])  # an empty table still has its columns
        if self.writer is not None:
            self.writer.close()
        publish(self.tmp, self.path)

    def abort(self) -> None:
        if self.writer is not None:
            self.writer.close()
        Path(self.tmp).unlink(missing_ok=True)


@dataclass(slots=True)
class ExportSummary:
    """What :func:`write_moves` wrote."""

    games: int
    moves: int
    unreadable: list[str]
    reasons: dict[str, str] = field(default_factory=dict)


def write_moves(
    sources: Source | Iterable[Source],
    out: str | os.PathLike[str],
    *,
    games_out: str | os.PathLike[str] | None = None,
    jobs: int | None = None,
    progress: bool = False,
    **rule_options: Any,
) -> ExportSummary:
    """Stream the moves table (and the games table, with ``games_out``) to ``.parquet`` or
    ``.csv`` files, a chunk at a time: memory stays bounded however large the archive.

    Parquet files are written with ``pyarrow.parquet.ParquetWriter``, one row group per
    chunk; CSV chunks are appended. Raises ValueError for another suffix.
    """
    moves_sink = _Sink(out, MOVE_DTYPES)
    try:
        games_sink = _Sink(games_out, GAME_DTYPES) if games_out is not None else None
    except ValueError:
        moves_sink.abort()
        raise
    sinks = [s for s in (moves_sink, games_sink) if s is not None]
    pending_moves: list[tuple[Any, ...]] = []
    pending_games: list[tuple[Any, ...]] = []
    unreadable: list[str] = []
    reasons: dict[str, str] = {}
    games = moves = 0
    try:
        for result in iter_results(sources, jobs=jobs, progress=progress, **rule_options):
            pending_games.append(_game_tuple(result))
            if result.unreadable:
                unreadable.append(result.file)
                reasons[result.file] = result.reason or "unreadable"
            else:
                games += 1
                moves += len(result.moves)
                pending_moves.extend(result.moves)
            if len(pending_moves) >= CHUNK_ROWS:
                moves_sink.write(pending_moves)
                pending_moves = []
            if len(pending_games) >= CHUNK_ROWS // 10:
                if games_sink is not None:
                    games_sink.write(pending_games)
                pending_games = []
        moves_sink.write(pending_moves)
        if games_sink is not None:
            games_sink.write(pending_games)
        for sink in sinks:
            sink.close()
    except BaseException:
        for sink in sinks:
            sink.abort()
        raise
    return ExportSummary(games, moves, unreadable, reasons)
