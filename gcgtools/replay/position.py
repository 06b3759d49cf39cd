"""What a replay hands out: the :class:`Position` after each event and the
:class:`Validation` of a whole record, plus the small helpers that turn tiles into text
(racks, leaves) and take played tiles from a rack."""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from gcgtools.findings import Finding
from gcgtools.model.game import Game
from gcgtools.replay.board import Board
from gcgtools.replay.scoring import Word
from gcgtools.rules.rulesets import EndRule, RuleSet
from gcgtools.rules.tiles import BLANK, TileError, TileSet
from gcgtools.syntax.records import Event
from gcgtools.wording import plural


@dataclass(slots=True, repr=False)
class Position:
    """The state of the game after one event: ``number`` is the event's number, 1-based
    as every command counts them (``board --move N``), 0 the start before any event.

    ``scores`` are the totals as recomputed by gcgtools; ``recorded`` the cumulatives
    the record gives. ``pool`` counts the tiles not on the board (bag plus racks, blanks
    as ``?``). ``racks`` holds each player's last recorded rack (before their move) and
    ``kept`` the tiles each player is known to hold after their last turn (the leave).
    ``placed`` are the squares the event put tiles on. ``player`` is the
    0-based player the replay credited the event to (usually ``event.player``; for an
    unknown or mistyped nickname, the player whose turn or play it was). The sequences
    are read-only (an empty one may be a shared tuple).
    """

    number: int
    event: Event | None
    board: Board
    scores: Sequence[int]
    recorded: Sequence[int]
    bag: int
    pool: Counter[str]
    racks: Sequence[str | None]
    computed: int | None = None
    words: Sequence[Word] = ()
    placed: Sequence[tuple[int, int, str]] = ()
    bingo: bool = False
    premiums: Sequence[str] = ()
    leave: str | None = None
    findings: Sequence[Finding] = ()
    game_over: bool = False
    end_reason: str | None = None
    to_move: int | None = None
    player: int | None = None
    kept: Sequence[str | None] = ()

    @property
    def index(self) -> int:
        """Deprecated: the event's 0-based index (-1 for the start); use :attr:`number`."""
        warnings.warn(
            "Position.index is deprecated: use Position.number (1-based, 0 the start)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.number - 1

    def __repr__(self) -> str:
        """``<Position 12: >Ann 8D QUITE +48 | 48-30>`` (the start: ``<Position 0: start |
        0-0>``): the event number, the event, the totals after it."""
        scores = "-".join(str(s) for s in self.scores) or "-"
        e = self.event
        what = "start" if e is None else f">{e.nick} {_event_text(e)}"
        return f"<Position {self.number}: {what} | {scores}>"

    def _repr_svg_(self) -> str:
        """The position as an SVG picture, for Jupyter: the board with the squares the
        event put tiles on marked, and the totals. As for :meth:`Board._repr_svg_`, the
        renderer is imported only when a picture is asked for."""
        from gcgtools.render.svg import board_svg

        return board_svg(
            self.board, size=450, tiles=self.board.tileset, scores=list(self.scores),
            last_play=[(row, col) for row, col, _ in self.placed],
        )  # fmt: skip

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
            pool.subtract(Counter(rack_tokens(kept, self.board.tileset)))
        return +pool


def _event_text(e: Event) -> str:
    """The move of an event as the record writes it, briefly: ``8D QUITE +48``, ``- +0``,
    ``-ABC +0``, ``-- -48``, ``(challenge) +5``, ``(AEI) +6``, ``(time) -10``."""
    kind = e.kind.value
    if kind == "play":
        move = f"{e.position} {e.word}"
    elif kind == "exchange":
        move = f"-{e.tiles}" if e.tiles is not None else f"-{e.count}"
    elif kind == "pass":
        move = "-"
    elif kind == "withdrawn":
        move = "--"
    elif kind == "challenge_bonus":
        move = "(challenge)"
    elif kind == "time_penalty":
        move = "(time)"
    else:  # end-rack points or penalty
        move = f"({e.tiles or ''})"
    return f"{move} {e.score:+d}"


@dataclass(slots=True)
class Validation:
    """The outcome of replaying a whole record."""

    game: Game
    rules: RuleSet
    findings: list[Finding]
    recorded: Sequence[int]
    computed: list[int]
    end_reason: str | None
    end_rule: EndRule | None
    events: int

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    # shown in Jupyter at most this many findings (the rest are counted)
    HTML_ROWS = 50

    def _counts(self) -> str:
        n = {s: sum(1 for f in self.findings if f.severity == s) for s in ("error", "warning")}
        return f"{plural(n['error'], 'error')}, {plural(n['warning'], 'warning')}"

    def __repr__(self) -> str:
        name = self.game.path or self.game.title or "<gcg>"
        scores = "-".join(str(s) for s in self.recorded)
        state = "ok" if self.ok else "errors"
        return (
            f"<Validation {name!r}: {state}, {plural(self.events, 'event')}, {self._counts()}, "
            f"final {scores}>"
        )

    def _repr_html_(self) -> str:
        """For Jupyter: a line of counts, then a table of findings (line, column, code,
        severity, message)."""
        from html import escape

        name = self.game.path or self.game.title or "<gcg>"
        head = (
            f"<p><b>{escape(name)}</b>: {'ok' if self.ok else 'errors'}, "
            f"{plural(self.events, 'event')}, "
            f"{self._counts()}; final {escape(' - '.join(str(s) for s in self.recorded))}</p>"
        )
        if not self.findings:
            return head
        cells = "".join(f"<th style='text-align:left'>{h}</th>"
                        for h in ("line", "col", "code", "severity", "message"))  # fmt: skip
        rows = [
            f"<tr><td>{f.line}</td><td>{f.column}</td><td>{escape(f.code)}</td>"
            f"<td>{escape(f.severity)}</td><td style='text-align:left'>{escape(f.message)}</td>"
            "</tr>"
            for f in self.findings[: self.HTML_ROWS]
        ]
        more = len(self.findings) - self.HTML_ROWS
        tail = f"<p>... and {more} more findings</p>" if more > 0 else ""
        return (
            f"{head}<table class='gcgtools-findings'><tr>{cells}</tr>{''.join(rows)}</table>{tail}"
        )

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


def _tile_order(item: tuple[str, int]) -> tuple[int, str]:
    return (1 if item[0] == BLANK else 0, item[0])


def upper_tiles(tokens: list[str]) -> list[str]:
    """Tiles as they are in the bag: upper case, a blank ``?``."""
    return [t if t == BLANK else t.upper() for t in tokens]


def rack_tokens(rack: str, tileset: TileSet | None = None) -> list[str]:
    """A rack's tiles, upper case (blank ``?``), split by the tile set when it is known."""
    try:
        tokens = tileset.split(rack) if tileset is not None else list(rack)
    except TileError:
        tokens = list(rack)
    return upper_tiles(tokens)


def known_rack(rack: str | None, tileset: TileSet | None = None) -> list[str] | None:
    """A recorded rack's tiles (see :func:`rack_tokens`), or None when the record does
    not say: no rack, or ``UNKNOWN``."""
    if not rack or rack.upper() == "UNKNOWN":
        return None
    return rack_tokens(rack, tileset)


def tiles_text(tiles: Sequence[str]) -> str:
    """Tiles as one string; a multi-letter tile is bracketed (``[CH]``) so it splits back."""
    return "".join(t if len(t) == 1 else f"[{t}]" for t in tiles)


def sorted_tiles(tiles: list[str]) -> str:
    """``tiles`` (upper case, blanks ``?``) sorted, blanks last, as one string (see
    :func:`tiles_text`)."""
    ordered = sorted(tiles)
    text = "".join(ordered)
    if len(text) == len(ordered):  # one-character tiles: "?" sorts before every letter
        body = text.lstrip(BLANK)
        return body + BLANK * (len(text) - len(body))
    body_tiles = [t for t in ordered if t != BLANK]
    return tiles_text(body_tiles) + BLANK * (len(ordered) - len(body_tiles))


def take(used: list[str], rack: list[str]) -> tuple[list[str], list[str]]:
    """Take ``used`` from ``rack``: the tiles missing from the rack, and the tiles left."""
    left = rack.copy()
    missing = []
    for t in used:
        try:
            left.remove(t)
        except ValueError:
            missing.append(t)
    return missing, left
