"""Replaying a game event by event: board, bag, racks, scores, and every finding.

:func:`replay` yields a :class:`Position` after each event. :func:`validate` runs the
replay to the end and gathers the findings. The replay never stops at a problem: it
reports it at its own line and carries on from what the record says, so a single
mistake is reported once and later lines are judged on their own:

* the cumulative of a line is checked against the player's previous *recorded* total (a
  wrong total is reported once; later lines that follow it, or that follow the computed
  total, are fine);
* a play whose recorded score is wrong still counts as recorded for the totals;
* a play that cannot be put on the board as written (off the board, through an empty
  square, an unknown letter) still takes its tiles from the rack and the bag, so the end
  of the game is still found; the letters that can be placed are placed;
* a move after the end of the game is reported and then ignored;
* a line whose nickname is wrong (out of turn, or a challenge bonus to the wrong player)
  but whose cumulative follows the other player's total is read as that player's line; a
  nickname that names no player is read as the player whose turn it is;
* an event line the parser rejected only for its rack is replayed with an unknown rack;
  any other unreadable event line leaves a gap: the turn order and the next cumulative of
  its player are not judged across it;
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from gcgtools.findings import Finding, make
from gcgtools.model.game import Game
from gcgtools.replay.board import Board, square_name
from gcgtools.replay.scoring import Word, play_score, score_play
from gcgtools.replay.setup import rules_for
from gcgtools.rules.detect import parse_end_rule
from gcgtools.rules.rulesets import EndRule, RuleSet, challenge_bonus_allowed
from gcgtools.rules.tiles import TileError, TileSet
from gcgtools.syntax.parser import parse_lines
from gcgtools.syntax.records import TURN_KINDS, Event, EventKind, Pragma, SourceLine

BLANK = "?"
_NICK = re.compile(r"\s*>([^\s:]+):")
_RACK = re.compile(r"rack[1-9]$")


@dataclass(slots=True)
class Position:
    """The state of the game after one event (``index`` -1 is the start).

    ``scores`` are the totals as recomputed by gcgtools; ``recorded`` the cumulatives
    the record gives. ``pool`` counts the tiles not on the board (bag plus racks, blanks
    as ``?``). ``racks`` holds each player's last recorded rack (before their move) and
    ``kept`` the tiles each player is known to hold after their last turn (the leave).
    ``placed`` are the squares the event put tiles on. ``player`` is the
    0-based player the replay credited the event to (usually ``event.player``; for an
    unknown or mistyped nickname, the player whose turn or play it was).
    """

    index: int
    event: Event | None
    board: Board
    scores: list[int]
    recorded: list[int]
    bag: int
    pool: Counter[str]
    racks: list[str | None]
    computed: int | None = None
    words: list[Word] = field(default_factory=list)
    placed: list[tuple[int, int, str]] = field(default_factory=list)
    bingo: bool = False
    premiums: list[str] = field(default_factory=list)
    leave: str | None = None
    findings: list[Finding] = field(default_factory=list)
    game_over: bool = False
    end_reason: str | None = None
    to_move: int | None = None
    player: int | None = None
    kept: list[str | None] = field(default_factory=list)

    @property
    def unseen(self) -> str:
        """Tiles not on the board, sorted (blanks last), as one string."""
        return "".join(t * n for t, n in sorted(self.pool.items(), key=_tile_order) if n > 0)

    def unseen_for(self, player: int) -> Counter[str]:
        """Tiles unseen by ``player`` (tile tracking): not on the board and not among the
        tiles the player kept after their last turn."""
        pool = self.pool.copy()
        kept = self.kept[player] if player < len(self.kept) else None
        if kept:
            pool.subtract(Counter(_rack_tokens(kept, self.board.tileset)))
        return +pool


def _tile_order(item: tuple[str, int]) -> tuple[int, str]:
    return (1 if item[0] == BLANK else 0, item[0])


def _rack_tokens(rack: str, tileset: TileSet | None = None) -> list[str]:
    """A rack's tiles, upper case (blank ``?``), split by the tile set when it is known."""
    try:
        tokens = tileset.split(rack) if tileset is not None else list(rack)
    except TileError:
        tokens = list(rack)
    return [t.upper() if t != BLANK else t for t in tokens]


def _tiles_text(tiles: list[str]) -> str:
    """Tiles as one string; a multi-letter tile is bracketed (``[CH]``) so it splits back."""
    return "".join(t if len(t) == 1 else f"[{t}]" for t in tiles)


def _sorted_tiles(counts: dict[str, int]) -> str:
    """The tiles of ``counts`` sorted, blanks last."""
    tiles = sorted(t for t, n in counts.items() for _ in range(n) if t != BLANK)
    return _tiles_text(tiles) + BLANK * counts.get(BLANK, 0)


def _take(used: list[str], rack: list[str]) -> tuple[list[str], dict[str, int]]:
    """Take ``used`` from ``rack``: the tiles missing from the rack, and what is left."""
    left: dict[str, int] = {}
    for t in rack:
        left[t] = left.get(t, 0) + 1
    missing = []
    for t in used:
        k = left.get(t, 0)
        if k:
            left[t] = k - 1
        else:
            missing.append(t)
    return missing, left


@dataclass(slots=True)
class _Undo:
    """What a play changed, so that a withdrawn phony can be taken back."""

    event: Event
    player: int
    placed: list[tuple[int, int, str]]
    claimed: list[str]
    bag: int
    rack_counts: list[int]
    scoreless: int
    passes: int
    computed_before: int
    recorded_before: int
    computed_score: int | None
    game_over: bool
    end_reason: str | None
    out_player: int | None


@dataclass(slots=True)
class Validation:
    """The outcome of replaying a whole record."""

    game: Game
    rules: RuleSet
    findings: list[Finding]
    recorded: list[int]
    computed: list[int]
    end_reason: str | None
    end_rule: EndRule | None
    events: int

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.game.path,
            "ok": self.ok,
            "events": self.events,
            "findings": [f.to_dict() for f in self.findings],
            "final_scores": self.recorded,
            "computed_scores": self.computed,
            "end_reason": self.end_reason,
            "end_rule": self.end_rule.value if self.end_rule else None,
            "tiles": self.rules.tiles.name,
            "board": self.rules.board.name,
        }


class Replayer:
    """Walks the events of a game, keeping board, bag and scores, and checking each line."""

    def __init__(
        self, game: Game, rules: RuleSet, *, snapshots: bool = True, detect_end_rule: bool = True
    ) -> None:
        self.game = game
        self.rules = rules
        self.tiles = rules.tiles
        self.snapshots = snapshots
        n = max(len(game.players), max((p.index + 1 for p in game.players), default=0), 2)
        self.n = n
        self.board = Board(rules.board, rules.tiles)
        self.tiles_on_board = 0
        self.pool: Counter[str] = Counter(dict(rules.tiles.counts))
        self.bag = rules.tiles.total_tiles - rules.rack_size * n
        self.rack_counts = [rules.rack_size] * n
        self.racks: list[str | None] = [None] * n
        self.kept: list[str | None] = [None] * n
        self.recorded = [0] * n
        self.computed = [0] * n
        self.next_turn: int | None = None
        self.scoreless = 0
        self.passes = 0
        self.undo: _Undo | None = None
        self.last: Event | None = None
        self.game_over = False
        self.end_reason: str | None = None
        self.out_player: int | None = None
        self.end_rule: EndRule | None = None if detect_end_rule else rules.end_rule
        self.points_lines = 0
        self.penalty_players: set[int] = set()
        self.time_players: set[int] = set()
        self.time_line = 0
        self.overdrawn: set[str] = set()
        self.findings: list[Finding] = []
        # event lines the parser could not read: the replay does not judge across them
        self.lost_lines: list[int] = []
        bad = {f.line for f in game.findings if f.code[0] == "P" and f.severity == "error"}
        if bad:
            bad -= {e.line for e in game.events}
            self.lost_lines = sorted(
                line
                for line in bad
                if 0 < line <= len(game.lines) and game.lines[line - 1].text.lstrip()[:1] == ">"
            )
        self.detail = True  # words, premiums and leaves for the positions (not in check())
        self.scratch = Position(-1, None, self.board, [], [], 0, self.pool, [])
        self.unjudged: set[int] = set()  # players whose next cumulative is not checked
        self.lost_after_end = False
        self.shared = {
            pl.nick for pl in game.players if sum(q.nick == pl.nick for q in game.players) > 1
        }
        self.handlers = {
            EventKind.PLAY: self.play,
            EventKind.PASS: self.pass_,
            EventKind.EXCHANGE: self.exchange,
            EventKind.WITHDRAWN: self.withdrawn,
            EventKind.CHALLENGE_BONUS: self.challenge_bonus,
            EventKind.END_RACK_POINTS: self.end_rack_points,
            EventKind.END_RACK_PENALTY: self.end_rack_penalty,
            EventKind.TIME_PENALTY: self.time_penalty,
        }

    # ------------------------------------------------------------ helpers
    def _find(
        self,
        code: str,
        message: str,
        e: Event,
        *,
        recorded: int | None = None,
        computed: int | None = None,
    ) -> None:
        self.findings.append(
            make(code, message, e.line, e.column, recorded=recorded, computed=computed)
        )

    def nick(self, index: int | None) -> str:
        """The nickname of player ``index``, else ``player N``."""
        player = self.game.player(index)
        if player is not None:
            return player.nick
        return f"player {index + 1}" if index is not None else "?"

    def _split(self, text: str, e: Event, what: str) -> list[str] | None:
        try:
            return self.tiles.split(text)
        except TileError as exc:
            bad = text[exc.index : exc.index + 1] if exc.index is not None else text
            self._find(
                "T403", f"{bad!r} in {what} {text!r} is not a tile of the {self.tiles.name} set", e
            )
            return None

    def _split_lenient(self, text: str, e: Event, what: str) -> tuple[list[str], bool]:
        """Tiles of ``text``; characters that are no tile are reported (T403) and skipped,
        so that the rest of the play still reaches the board. True if any was skipped."""
        try:
            return self.tiles.split(text), False
        except TileError:
            pass
        bad: list[str] = []
        rest = text
        while True:
            try:
                tokens = self.tiles.split(rest)
                break
            except TileError as exc:
                i = exc.index if exc.index is not None else 0
                bad.append(rest[i : i + 1])
                rest = rest[:i] + rest[i + 1 :]
        shown = ", ".join(repr(b) for b in bad)
        self._find("T403", f"{shown} in {what} {text!r} not a tile of the {self.tiles.name} set", e)
        return tokens, True

    def _rack(self, e: Event) -> list[str] | None:
        """The event's rack as upper-case tiles, or None if absent or UNKNOWN."""
        text = e.rack
        if text is None or text.upper() == "UNKNOWN":
            return None
        tokens = self._split(text, e, "rack")
        if tokens is None:
            return None
        if "." in text or "(" in text or ")" in text:
            self._find("P102", f"malformed rack {text!r}", e)
            return None
        if text.isupper():
            return tokens
        return [t if t == BLANK else t.upper() for t in tokens]

    def _check_drawable(self, rack: list[str], e: Event | None, line: int = 0) -> None:
        """A rack must come from the tiles not on the board."""
        pool = self.pool
        for t in rack:
            if rack.count(t) > pool.get(t, 0):
                break
        else:
            return
        need: dict[str, int] = {}
        for t in rack:
            need[t] = need.get(t, 0) + 1
        short = [t for t, k in need.items() if k > pool.get(t, 0)]
        if short:
            detail = ", ".join(f"{k} {t}" for t, k in need.items() if t in short)
            left = ", ".join(f"{pool.get(t, 0)} {t}" for t in short)
            msg = f"rack {''.join(rack)} has {detail} but only {left} unseen"
            if e is not None:
                self._find("T402", msg, e)
            else:
                self.findings.append(make("T402", msg, line))

    def _check_totals(self, e: Event, p: int, computed: int | None, code: str) -> None:
        """Compare the event's score with the computed one and its cumulative with the total."""
        if computed is not None and e.score != computed:
            self._find(
                code,
                f"recorded {e.score:+d}, computed {computed:+d}",
                e,
                recorded=e.score,
                computed=computed,
            )
        self._check_cumulative(e, p, e.score, computed)
        self.computed[p] += computed if computed is not None else e.score
        self.recorded[p] = e.cumulative

    def _check_cumulative(self, e: Event, p: int, recorded: int, computed: int | None) -> None:
        if p in self.unjudged:
            self.unjudged.discard(p)
            return
        before = self.recorded[p]
        cumulative = e.cumulative
        if cumulative == before + recorded:
            return
        if computed is not None and (
            cumulative == before + computed or cumulative == self.computed[p] + computed
        ):
            return
        if cumulative == self.computed[p] + recorded:
            return
        expected = before + (computed if computed is not None else recorded)
        message = f"cumulative {cumulative}, expected {before} {recorded:+d} = {before + recorded}"
        if expected != before + recorded:
            message += f" ({before} {computed:+d} = {expected} with the computed score)"
        self._find(
            "S602",
            message,
            e,
            recorded=cumulative,
            computed=expected,
        )

    def _fits(self, e: Event, p: int) -> bool:
        """True if the event's cumulative follows player ``p``'s recorded total."""
        return e.cumulative == self.recorded[p] + e.score

    # --------------------------------------------------------------- gaps
    def _gap(self, line: int) -> None:
        """An event line the parser could not read: its player's next cumulative and the
        turn order are not judged across it (it may have been a turn, a bonus, ...)."""
        m = _NICK.match(self.game.lines[line - 1].text)
        p = None
        if m is not None:
            nick = m.group(1)
            p = self.game.nicks.get(nick)
        self.unjudged.update(range(self.n) if p is None else (p,))
        self.next_turn = None
        if self.game_over:
            self.lost_after_end = True

    # ------------------------------------------------------------- events
    def _turn(self, e: Event, p: int) -> tuple[bool, int]:
        """Turn order for plays, passes and exchanges: whether the event is to be replayed,
        and the player it is credited to."""
        if self.game_over:
            if (
                e.kind is EventKind.PASS
                and self.end_reason == "out"
                and p != self.out_player
                and self.points_lines == 0
                and e.score == 0
            ):
                self._find("O313", "final pass after the opponent went out is ignored", e)
            else:
                self._find(
                    "O302", f"{e.kind} after the game ended ({self.end_reason}) is ignored", e
                )
            self.recorded[p] = e.cumulative
            return False, p
        q = self.next_turn
        if q is not None and p != q:
            who = self.nick(q)
            if self._fits(e, q) and not self._fits(e, p):
                self._find(
                    "O301",
                    f"{e.nick} moves but it is {who}'s turn; the cumulative follows {who}'s "
                    f"total, so the line is read as {who}'s",
                    e,
                )
                p = q
            else:
                self._find("O301", f"{e.nick} moves but it is {who}'s turn", e)
        self.next_turn = (p + 1) % self.n
        return True, p

    def _scoreless_turn(self, e: Event, is_pass: bool) -> None:
        self.scoreless += 1
        self.passes = self.passes + 1 if is_pass else 0
        if self.game_over:
            return
        if self.scoreless >= self.rules.max_scoreless_turns:
            self.game_over, self.end_reason = True, "scoreless"
            self._find("R701", f"{self.scoreless} scoreless turns in a row end the game", e)
        elif self.rules.passes_to_end and self.passes >= self.rules.passes_to_end * self.n:
            self.game_over, self.end_reason = True, "passes"

    def play(self, e: Event, p: int, pos: Position) -> None:
        rack = self._rack(e)
        if rack is not None:
            self._check_drawable(rack, e)
        tokens, broken = self._split_lenient(e.word or "", e, "word")
        board = self.board
        cells = board.cells
        size = board.size
        direction = e.direction or "across"
        assert e.row is not None and e.col is not None
        dr, dc = (0, 1) if direction == "across" else (1, 0)
        r, c = e.row, e.col
        placed: list[tuple[int, int, str]] = []
        claimed: list[str] = []  # every tile the record puts down, on the board or not
        through = 0
        was_empty = self.tiles_on_board == 0
        in_parens = False
        if not (0 <= r < size and 0 <= c < size):
            self._find("B504", f"{e.position} is off the {size}x{size} board", e)
            broken, off = True, True
        else:
            off = False
            pr, pc = r - dr, c - dc
            if 0 <= pr and 0 <= pc and cells[pr * size + pc] is not None:
                self._find(
                    "B505",
                    f"{e.position} is not the first square of the word: "
                    f"{square_name(pr, pc, direction)} holds {cells[pr * size + pc]}",
                    e,
                )
        empty_through: list[str] = []
        conflicts: list[str] = []
        n = len(tokens)
        room = size - c if dc else size - r
        if not off and n <= room and "(" not in tokens and ")" not in tokens:
            # the common case, on the board and without parentheses: walk by flat index
            step = dc + dr * size
            i = r * size + c
            for k in range(n):
                tok = tokens[k]
                current = cells[i]
                if current is None:
                    if tok == ".":
                        empty_through.append(square_name(r + k * dr, c + k * dc, direction))
                        broken = True
                        through += 1
                    else:
                        if tok == BLANK:
                            where = square_name(r + k * dr, c + k * dc, direction)
                            self._find("T406", f"blank at {where} has no letter", e)
                        placed.append((r + k * dr, c + k * dc, tok))
                        claimed.append(tok)
                else:
                    if tok != "." and tok.upper() != current.upper():
                        where = square_name(r + k * dr, c + k * dc, direction)
                        conflicts.append(f"{where} holds {current}, not {tok}")
                        broken = True
                    through += 1
                i += step
            r, c = r + n * dr, c + n * dc
            tokens = []  # walked
        for tok in tokens:
            if tok == "(":
                in_parens = True
                continue
            if tok == ")":
                in_parens = False
                continue
            if off:
                if tok != "." and not in_parens:
                    claimed.append(tok)
                continue
            if r >= size or c >= size:
                self._find(
                    "B504", f"{e.word} runs off the board at {square_name(r, c, direction)}", e
                )
                broken = off = True
                if tok != "." and not in_parens:
                    claimed.append(tok)
                continue
            current = cells[r * size + c]
            if tok == "." or in_parens:
                if current is None:
                    empty_through.append(square_name(r, c, direction))
                    broken = True
                elif tok != "." and tok.upper() != current.upper():
                    conflicts.append(f"{square_name(r, c, direction)} holds {current}, not {tok}")
                    broken = True
                through += 1
            elif current is not None:
                if tok.upper() != current.upper():
                    conflicts.append(f"{square_name(r, c, direction)} holds {current}, not {tok}")
                    broken = True
                through += 1
            else:
                if tok == BLANK:
                    self._find("T406", f"blank at {square_name(r, c, direction)} has no letter", e)
                placed.append((r, c, tok))
                claimed.append(tok)
            r, c = r + dr, c + dc
        if conflicts:
            self._find("B506", "; ".join(conflicts), e)
        if empty_through:
            where = ", ".join(empty_through)
            self._find(
                "B508",
                f"{e.word} plays through {where}, but "
                f"{'it is' if len(empty_through) == 1 else 'they are'} empty",
                e,
            )
        if not broken and r < size and c < size and cells[r * size + c] is not None:
            self._find(
                "B510",
                f"the word continues past {e.word} onto {square_name(r, c, direction)}",
                e,
            )
        if not placed and not broken:
            self._find("B509", f"{e.word} places no new tile", e)
            broken = True
        if was_empty and placed:
            centre = self.rules.board.centre
            if all((pr, pc) != centre for pr, pc, _ in placed):
                name = square_name(*centre)
                self._find("B501", f"the first play must cover the centre square {name}", e)
            if len(placed) < 2:
                self._find("B502", "the first play must use at least two tiles", e)
        elif placed and not through:
            touching = False
            for pr, pc, _ in placed:
                if (
                    (pr > 0 and cells[(pr - 1) * size + pc] is not None)
                    or (pr + 1 < size and cells[(pr + 1) * size + pc] is not None)
                    or (pc > 0 and cells[pr * size + pc - 1] is not None)
                    or (pc + 1 < size and cells[pr * size + pc + 1] is not None)
                ):
                    touching = True
                    break
            if not touching:
                self._find("B503", f"{e.word} at {e.position} touches no tile on the board", e)

        # tiles used must be in the rack
        used = [t if t.isupper() else BLANK for t in claimed]  # as in the bag: blanks are ?
        if rack is not None:
            missing, left = _take(used, rack)
            if missing:
                self._find("T401", f"{''.join(sorted(missing))} not in rack {e.rack}", e)
            if self.detail:
                pos.leave = _sorted_tiles(left)

        # put the tiles down and score
        undo = _Undo(
            e, p, placed, used, self.bag, self.rack_counts.copy(), self.scoreless, self.passes,
            self.computed[p], self.recorded[p], None, self.game_over, self.end_reason,
            self.out_player,
        )  # fmt: skip
        for pr, pc, tok in placed:
            cells[pr * size + pc] = tok
        self.tiles_on_board += len(placed)
        pool = self.pool
        for key in used:
            pool[key] -= 1
            if pool[key] < 0 and key not in self.overdrawn:
                self.overdrawn.add(key)
                self._find("T408", f"more {key} played than the {self.tiles.name} set holds", e)
        squares = [(pr, pc) for pr, pc, _ in placed]
        board.last_play = tuple(squares)
        computed: int | None = None
        if placed:
            rules = self.rules
            if self.detail:
                result = score_play(
                    board, squares, direction, self.tiles,
                    bingo_size=rules.rack_size, bingo_bonus=rules.bingo_bonus,
                )  # fmt: skip
                pos.words, pos.bingo, pos.premiums = result.words, result.bingo, result.premiums
                score = result.score
            else:
                score = play_score(
                    board, squares, direction, self.tiles,
                    bingo_size=rules.rack_size, bingo_bonus=rules.bingo_bonus,
                )  # fmt: skip
            if not broken:
                computed = score
        pos.placed = placed
        pos.computed = computed
        undo.computed_score = computed
        self.undo = undo
        self._check_totals(e, p, computed, "S601")

        # draw
        k = len(used)
        self.rack_counts[p] = max(self.rack_counts[p] - k, 0)
        draw = min(k, self.bag)
        self.bag -= draw
        self.rack_counts[p] += draw
        if (e.score if computed is None else computed) == 0:
            self._scoreless_turn(e, False)
        else:
            self.scoreless = self.passes = 0
        if not self.game_over and self.bag == 0 and self.rack_counts[p] == 0:
            self.game_over, self.end_reason, self.out_player = True, "out", p

    def exchange(self, e: Event, p: int, pos: Position) -> None:
        rack = self._rack(e)
        if rack is not None:
            self._check_drawable(rack, e)
        count: int | None = e.count
        if e.count is not None:
            limit = len(rack) if rack is not None else self.rules.rack_size
            if not 0 < e.count <= limit:
                self._find("T405", f"exchange of {e.count} tiles from a rack of {limit}", e)
        elif e.tiles is not None:
            tokens = self._split(e.tiles, e, "exchange")
            if tokens is not None and any(t in ".()" for t in tokens):
                self._find("P104", f"malformed exchange -{e.tiles}", e)
            elif tokens is not None:
                count = len(tokens)
                if rack is not None:
                    swapped = [t if t == BLANK else t.upper() for t in tokens]
                    missing, left = _take(swapped, rack)
                    if missing:
                        self._find("T401", f"{''.join(sorted(missing))} not in rack {e.rack}", e)
                    pos.leave = _sorted_tiles(left)
        need = max(self.rules.exchange_minimum_bag, count or 0)
        if self.bag < need:
            what = f"{count} tiles" if count else "tiles"
            self._find(
                "T404",
                f"exchange of {what} with {self.bag} tiles in the bag (at least {need} needed)",
                e,
            )
        pos.computed = 0
        self.undo = None
        self._check_totals(e, p, 0, "S601")
        self._scoreless_turn(e, False)

    def pass_(self, e: Event, p: int, pos: Position) -> None:
        rack = self._rack(e)
        if rack is not None:
            self._check_drawable(rack, e)
            pos.leave = _tiles_text(rack)
        pos.computed = 0
        self.undo = None
        self._check_totals(e, p, 0, "S601")
        self._scoreless_turn(e, True)

    def withdrawn(self, e: Event, p: int, pos: Position) -> None:
        undo = self.undo
        self.undo = None
        if undo is None or self.last is not undo.event:
            self._find("O305", "phony withdrawn (--) but the previous line is not a play", e)
            self.recorded[p] = e.cumulative
            return
        if undo.player != p:
            self._find("O306", f"{e.nick} withdraws a play made by {undo.event.nick}", e)
        elif e.rack is not None and undo.event.rack is not None and e.rack != undo.event.rack:
            self._find(
                "O306", f"rack {e.rack} differs from the withdrawn play's {undo.event.rack}", e
            )
        pos.player = q = undo.player
        board = self.board
        size = board.size
        for pr, pc, _ in undo.placed:
            board.cells[pr * size + pc] = None
        self.tiles_on_board -= len(undo.placed)
        for key in undo.claimed:
            self.pool[key] += 1
        board.last_play = ()
        self.bag = undo.bag
        self.rack_counts = undo.rack_counts
        self.scoreless, self.passes = undo.scoreless, undo.passes
        self.game_over, self.end_reason = undo.game_over, undo.end_reason
        self.out_player = undo.out_player
        expected = -undo.event.score
        if e.score not in (expected, 0):
            self._find(
                "S605",
                f"recorded {e.score:+d} but the withdrawn play scored {undo.event.score:+d}",
                e,
                recorded=e.score,
                computed=expected,
            )
        if e.cumulative != undo.recorded_before and q not in self.unjudged:
            self._find(
                "S602",
                f"cumulative {e.cumulative}, expected {undo.recorded_before} (the total before "
                f"the withdrawn play)",
                e,
                recorded=e.cumulative,
                computed=undo.recorded_before,
            )
        self.unjudged.discard(q)
        pos.computed = -(
            undo.computed_score if undo.computed_score is not None else undo.event.score
        )
        self.computed[q] = undo.computed_before
        self.recorded[q] = e.cumulative
        self._scoreless_turn(e, False)

    def challenge_bonus(self, e: Event, p: int, pos: Position) -> None:
        undo = self.undo
        if undo is None or self.last is not undo.event:
            self._find("O303", "challenge bonus but the previous line is not a play", e)
        elif undo.player != p:
            q = undo.player
            msg = f"challenge bonus to {e.nick} but the challenged play was {undo.event.nick}'s"
            if self._fits(e, q) and not self._fits(e, p):
                msg += f"; the cumulative follows {undo.event.nick}'s total: credited to them"
                p = q
            self._find("O304", msg, e)
        pos.player = p
        if not challenge_bonus_allowed(self.rules, e.score):
            fixed = self.rules.challenge_bonus
            if fixed is None:
                self._find("S606", f"challenge bonus {e.score:+d} is not 0, 5 per word or 10", e)
            else:
                self._find(
                    "S606", f"challenge bonus {e.score:+d}, the rules give {fixed:+d} per word", e,
                    recorded=e.score, computed=fixed,
                )  # fmt: skip
        pos.computed = e.score
        self._check_totals(e, p, None, "S606")

    def end_rack_points(self, e: Event, p: int, pos: Position) -> None:
        if not self.game_over:
            self._find("O307", "end-rack points but nobody has gone out yet", e)
        elif self.end_reason != "out":
            self._find("O314", f"end-rack points but the game ended by {self.end_reason}", e)
        elif p != self.out_player:
            who = self.nick(self.out_player)
            self._find("O314", f"end-rack points to {e.nick}, but {who} went out", e)
        self.points_lines += 1
        if self.points_lines > self.n - 1:
            self._find("O308", "end-rack points given again", e)
        if self.time_line:
            self.findings.append(
                make("O309", "time penalty before the end-rack lines", self.time_line)
            )
            self.time_line = 0
        tokens = self._split(e.tiles or "", e, "end rack")
        tiles = [t if t == BLANK else t.upper() for t in tokens] if tokens is not None else None
        remaining = +self.pool
        if tiles is not None and self.game_over and self.end_reason == "out":
            if self.n == 2 and Counter(tiles) != remaining:
                left = "".join(sorted(remaining.elements()))
                self._find("T407", f"({e.tiles}) but the tiles left are ({left})", e)
            elif self.n > 2 and Counter(tiles) - remaining:
                self._find("T407", f"({e.tiles}) are not among the tiles left", e)
        computed: int | None = None
        if tiles is not None:
            value = sum(self.tiles.value(t) for t in tiles)
            if self.end_rule is None:
                if e.score == value and value != 2 * value:
                    self.end_rule = EndRule.INTERNATIONAL
                elif e.score == 2 * value:
                    self.end_rule = EndRule.STANDARD
            rule = self.end_rule or EndRule.STANDARD
            computed = value * rule.out_multiplier
        pos.computed = computed
        self._check_totals(e, p, computed, "S603")

    def end_rack_penalty(self, e: Event, p: int, pos: Position) -> None:
        standard_out = False
        if not self.game_over:
            self._find("O307", "own-rack penalty before the game is over", e)
        elif self.end_reason == "out" and p == self.out_player:
            self._find("O314", f"{e.nick} went out and has no tiles to lose", e)
        elif self.end_reason == "out":
            if self.end_rule is None:
                self.end_rule = EndRule.INTERNATIONAL
            standard_out = not self.end_rule.deducts_own_rack
        if p in self.penalty_players:
            self._find("O308", f"own-rack penalty for {e.nick} given again", e)
        self.penalty_players.add(p)
        if self.time_line:
            self.findings.append(
                make("O309", "time penalty before the end-rack lines", self.time_line)
            )
            self.time_line = 0
        computed: int | None = None
        rack = self._rack(e)
        tokens = self._split(e.tiles or "", e, "end rack")
        if tokens is not None:
            tiles = [t if t == BLANK else t.upper() for t in tokens]
            if rack is not None and Counter(tiles) != Counter(rack):
                self._find("T407", f"{e.rack} ({e.tiles}): the two racks differ", e)
            missing = Counter(tiles) - +self.pool
            if missing:
                self._find(
                    "T402",
                    f"({e.tiles}) holds {''.join(sorted(missing.elements()))} that are not "
                    "left unplayed",
                    e,
                )
            computed = -sum(self.tiles.value(t) for t in tiles)
        if standard_out:
            self._find(
                "S604",
                f"{e.nick} loses {-e.score} for the tiles left, but under standard rules only "
                "the player who went out scores for them",
                e,
                recorded=e.score,
                computed=0,
            )
            pos.computed = 0
            self._check_cumulative(e, p, e.score, 0)
            self.recorded[p] = e.cumulative
            return
        pos.computed = computed
        self._check_totals(e, p, computed, "S604")

    def time_penalty(self, e: Event, p: int, pos: Position) -> None:
        if p in self.time_players:
            self._find("O310", f"time penalty for {e.nick} given again", e)
        self.time_players.add(p)
        if not self.game_over:
            later = (x for x in self.game.events if x.line > e.line)
            if any(x.kind is not EventKind.TIME_PENALTY for x in later):
                self._find("O307", "time penalty before the game is over", e)
            else:
                self.game_over, self.end_reason = True, "time"
        else:
            self.time_line = self.time_line or e.line
        if e.score > 0:
            self._find("S608", f"time penalty {e.score:+d} should be negative", e)
        elif e.score % self.rules.time_penalty_per_minute:
            self._find(
                "S607",
                f"time penalty {e.score:+d} is not a multiple of "
                f"{self.rules.time_penalty_per_minute}",
                e,
            )
        pos.computed = e.score
        self._check_totals(e, p, None, "S607")

    # --------------------------------------------------------------- walk
    def position(self, index: int, event: Event | None) -> Position:
        return Position(
            index=index,
            event=event,
            board=self.board.copy() if self.snapshots else self.board,
            scores=self.computed.copy(),
            recorded=self.recorded.copy(),
            bag=self.bag,
            pool=self.pool.copy() if self.snapshots else self.pool,
            racks=self.racks.copy(),
            kept=self.kept.copy(),
        )

    def _player_of(self, e: Event) -> int | None:
        """The player an event is credited to. A nickname that names no player is read as
        the player whose turn it is (a turn), whose play it follows (``--``, a challenge
        bonus), or who went out (end-rack points)."""
        if e.player is not None:
            return e.player
        kind = e.kind
        if kind in TURN_KINDS:
            return self.next_turn if self.next_turn is not None else 0
        if kind in (EventKind.WITHDRAWN, EventKind.CHALLENGE_BONUS) and self.undo is not None:
            return self.undo.player
        if kind is EventKind.END_RACK_POINTS:
            return self.out_player
        return None

    def _step(self, i: int, e: Event) -> Position:
        """Replay one event; the returned position shares the live board and pool."""
        game = self.game
        if e.nick in self.shared and e.kind in TURN_KINDS:
            # two players share the nickname (H201): the one whose turn it is moved
            owners = [pl.index for pl in game.players if pl.nick == e.nick]
            e.player = self.next_turn if self.next_turn in owners else owners[0]
        p = self._player_of(e)
        if self.detail:
            pos = Position(i, e, self.board, [], [], 0, self.pool, [], player=p)
        else:  # check(): nobody reads the position
            pos = self.scratch
        if p is not None:
            replayed = True
            if e.kind in TURN_KINDS:
                replayed, p = self._turn(e, p)
                pos.player = p
                if replayed and e.rack is not None:
                    self.racks[p] = e.rack
            if replayed:
                self.handlers[e.kind](e, p, pos)
                if e.kind in TURN_KINDS and pos.leave is not None:
                    self.kept[p] = pos.leave
        self.last = e
        return pos

    def _between(self, line: int, pragma: Pragma | None) -> None:
        if pragma is None:
            self._lost(line)
            return
        # a final #rackN: the rack must come from the tiles not on the board at that point
        number = pragma.keyword.removeprefix("rack")
        rack = pragma.value.split()[0] if pragma.value.split() else ""
        try:
            tokens = self.tiles.split(rack)
        except TileError:
            self.findings.append(make("T403", f"#rack{number} {rack} has unknown tiles", line))
            return
        self._check_drawable([t if t == BLANK else t.upper() for t in tokens], None, line)

    def _lost(self, line: int) -> None:
        """An event line the parser could not read. If only its rack is malformed, the rest
        of the line is replayed with an unknown rack (its fault is reported once, by the
        parser); otherwise the replay leaves a gap there (see :meth:`_gap`)."""
        e = self._salvage(line)
        if e is None:
            self._gap(line)
        else:
            self._step(-1, e)

    def _salvage(self, line: int) -> Event | None:
        text = self.game.lines[line - 1].text
        m = _NICK.match(text)
        if m is None:
            return None
        for f in self.game.findings:
            if f.line == line and f.code == "P102" and f.column - 1 >= m.end():
                col = f.column - 1
                if text[m.end() : col].strip():
                    return None  # the bad token is not the rack
                token = text[col:].split(None, 1)[0]
                fixed = text[:col] + "UNKNOWN" + text[col + len(token) :]
                records, problems = parse_lines([SourceLine(line, fixed, "")])
                if len(records) == 1 and isinstance(records[0], Event) and not problems:
                    e = records[0]
                    e.player = self.game.nicks.get(e.nick)
                    return e
                return None
        return None

    def _walk(self) -> Iterator[tuple[int, Event, Position, int]]:
        """Replay every event in order, and the lines between them (unreadable event lines,
        final ``#rackN``); yield ``(index, event, scratch position, findings mark)``."""
        game = self.game
        first = game.events[0] if game.events else None
        between = sorted(
            [(line, None) for line in self.lost_lines]
            + [(pr.line, pr) for pr in game.pragmas if _RACK.match(pr.keyword) and first
               and pr.line > first.line],
            key=lambda item: item[0],
        )  # fmt: skip
        gap = 0  # index into between
        for i, e in enumerate(game.events):
            while gap < len(between) and between[gap][0] < e.line:
                self._between(*between[gap])
                gap += 1
            mark = len(self.findings)
            yield i, e, self._step(i, e), mark
        while gap < len(between):
            self._between(*between[gap])
            gap += 1
        self.finish()

    def run(self) -> Iterator[Position]:
        """The start position, then the position after each event."""
        game = self.game
        start = self.position(-1, None)
        start.to_move = self._player_of(game.events[0]) if game.events else None
        yield start
        for i, e, pos, mark in self._walk():
            snap = self.position(i, e)
            snap.computed, snap.words, snap.placed = pos.computed, pos.words, pos.placed
            snap.bingo, snap.premiums, snap.leave = pos.bingo, pos.premiums, pos.leave
            snap.findings = self.findings[mark:]
            snap.game_over, snap.end_reason = self.game_over, self.end_reason
            snap.to_move = self.next_turn
            snap.player = pos.player
            yield snap

    def check(self) -> list[Finding]:
        """Replay the whole record for its findings only, without building positions."""
        self.detail = False
        for _ in self._walk():
            pass
        return self.findings

    def finish(self) -> None:
        """Checks on the record as a whole, once every event is replayed."""
        game = self.game
        last_line = max([game.events[-1].line, *self.lost_lines]) if game.events else 0
        if not game.events:
            return
        if not self.game_over:
            if not game.incomplete and not game.final_racks:
                self.findings.append(
                    make("O312", f"the game is not over: {self.bag} tiles in the bag", last_line)
                )
        elif self.lost_after_end:
            pass  # an end-of-game line could not be read: it was reported where it is
        elif self.end_reason == "out" and not self.points_lines and not self.penalty_players:
            self.findings.append(
                make("R702", "a player went out but no end-rack points follow", last_line)
            )
        elif self.end_reason in ("scoreless", "passes") and not self.penalty_players:
            why = "six scoreless turns" if self.end_reason == "scoreless" else "passes"
            self.findings.append(
                make("R702", f"{why} ended the game but no rack penalties follow", last_line)
            )


def _with_overrides(
    rules: RuleSet, end_rule: str | EndRule | None, challenge_bonus: int | None
) -> RuleSet:
    """``rules`` with the end rule and challenge bonus the caller gave explicitly."""
    if end_rule is not None:
        rule = parse_end_rule(end_rule)
        if rule is not rules.end_rule:
            rules = replace(rules, end_rule=rule, name="")
            if rule is EndRule.HOME:
                rules = replace(rules, passes_to_end=2, exchange_minimum_bag=1)
    if challenge_bonus is not None and challenge_bonus != rules.challenge_bonus:
        rules = replace(rules, challenge_bonus=challenge_bonus)
    return rules


def replay(
    game: Game,
    rules: RuleSet | None = None,
    *,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> Iterator[Position]:
    """Yield the :class:`Position` after each event of ``game`` (first the empty start).

    ``rules`` defaults to what the record's pragmas imply, with the overrides given; given
    ``rules`` still take ``end_rule`` and ``challenge_bonus`` when those are passed.
    Without ``end_rule`` the end-of-game rule is read from the record itself.
    """
    if rules is None:
        rules, _ = rules_for(
            game, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
        )
    else:
        rules = _with_overrides(rules, end_rule, challenge_bonus)
    yield from Replayer(game, rules, detect_end_rule=end_rule is None).run()


def validate(
    game: Game,
    rules: RuleSet | None = None,
    *,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> Validation:
    """Replay the whole record and return every finding, parse-level ones included."""
    setup_findings: list[Finding] = []
    if rules is None:
        rules, setup_findings = rules_for(
            game, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
        )
    else:
        rules = _with_overrides(rules, end_rule, challenge_bonus)
    replayer = Replayer(game, rules, snapshots=False, detect_end_rule=end_rule is None)
    replayer.check()
    parsed = game.findings
    findings = sorted(
        [*parsed, *setup_findings, *replayer.findings], key=lambda f: (f.line, f.code)
    )
    for f in findings:
        f.path = game.path
    return Validation(
        game=game,
        rules=rules,
        findings=findings,
        recorded=replayer.recorded,
        computed=replayer.computed,
        end_reason=replayer.end_reason,
        end_rule=replayer.end_rule,
        events=len(game.events),
    )
