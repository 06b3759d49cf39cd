"""Compact Game Positions (CGP), the one-line positions of MAGPIE, Macondo and cgpbot.

``BOARD RACKS SCORES ZEROS [options]``:

* BOARD: the rows top first, separated by ``/``; a run of empty squares is a number, a
  tile its letter (lower case: a blank), a multi-letter tile in brackets (``[CH]``);
* RACKS: the rack of the player to move ``/`` the opponent's (either may be empty; ``?``
  a blank);
* SCORES: ``mine/theirs``; ZEROS: consecutive scoreless turns so far;
* options: ``key value;`` pairs such as ``lex NWL20;``, ``ld english;`` (tile set),
  ``bdn CrosswordGame;`` (board layout).

The tile set comes from ``ld``, else from the lexicon's name (as for a GCG record's
``#lexicon``); the board from ``bdn``, else from the number of rows (15: standard, 21:
Super).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from gcgtools.replay.board import Board
from gcgtools.rules.boards import board_layout
from gcgtools.rules.detect import select_rules
from gcgtools.rules.rulesets import RuleSet
from gcgtools.rules.tiles import BLANK, TileError, TileSet

__all__ = ["CgpError", "CgpPosition", "parse_cgp", "write_cgp"]


class CgpError(ValueError):
    """A CGP string that cannot be read; the message says where."""


@dataclass
class CgpPosition:
    """A position read from CGP: the board, both racks (tile texts, ``?`` blanks; the
    player to move first), the scores (the player to move first), the consecutive
    scoreless turns and the options (``lex`` is the lexicon's name)."""

    board: Board
    rules: RuleSet
    racks: tuple[list[str], list[str]]
    scores: tuple[int, int] = (0, 0)
    zeros: int = 0
    options: dict[str, str] = field(default_factory=dict)

    @property
    def lexicon(self) -> str | None:
        return self.options.get("lex")

    def cgp(self) -> str:
        return write_cgp(self.board, self.racks, self.scores, self.zeros, self.options)


def _tile_text(tile: str) -> str:
    return tile if len(tile) == 1 else f"[{tile}]"


def write_cgp(
    board: Board,
    racks: tuple[list[str] | str, list[str] | str] | list[list[str] | str],
    scores: tuple[int, int] | list[int] = (0, 0),
    zeros: int = 0,
    options: dict[str, str] | None = None,
) -> str:
    """The CGP of a position: ``racks`` and ``scores`` with the player to move first."""
    rows = []
    size = board.size
    for r in range(size):
        out = []
        gap = 0
        for c in range(size):
            tile = board.cells[r * size + c]
            if tile is None:
                gap += 1
                continue
            if gap:
                out.append(str(gap))
                gap = 0
            out.append(_tile_text(tile))
        if gap:
            out.append(str(gap))
        rows.append("".join(out))
    rack_texts = [r if isinstance(r, str) else "".join(_tile_text(t) for t in r) for r in racks]
    parts = ["/".join(rows), "/".join(rack_texts), f"{scores[0]}/{scores[1]}", str(zeros)]
    if options:
        parts.append(" ".join(f"{k} {v};" for k, v in options.items()))
    return " ".join(parts)


_OPTION = re.compile(r"\s*([^\s;]+)(?:\s+([^;]*?))?\s*;")


def _options(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _OPTION.match(text, pos)
        if m is None:
            rest = text[pos:].strip()
            if not rest:
                break
            # a last option without its ';'
            key, _, value = rest.partition(" ")
            out[key] = value.strip()
            break
        out[m.group(1)] = (m.group(2) or "").strip()
        pos = m.end()
    return out


_TOKEN = re.compile(r"\[([^\]]*)\]|(\d+)|(.)", re.DOTALL)


def _tokens(text: str, tiles: TileSet, what: str, *, gaps: bool = False) -> Iterator[str | int]:
    """The tiles of a CGP rack or board row, each checked against ``tiles``: one
    character, or a multi-letter tile in brackets (``[CH]``); a rack's ``?`` is a blank.
    With ``gaps`` (a board row) a number is a run of empty squares, given as an int."""
    for m in _TOKEN.finditer(text):
        bracketed, digits, char = m.groups()
        if gaps and digits is not None:
            yield int(digits)
            continue
        if char == "[":
            raise CgpError(f"{what}: '[' at character {m.start() + 1} is not closed")
        name = bracketed if bracketed is not None else m.group()
        if gaps or name != BLANK:
            try:
                tiles.letter_of(name)
            except TileError:
                raise CgpError(f"{what}: {name!r} is not a tile of {tiles.name}") from None
        yield name


def _by_size(rows: int) -> str | None:
    return "super" if rows == 21 else None


def parse_cgp(text: str, *, tiles: str | None = None, board: str | None = None) -> CgpPosition:
    """Read a CGP string. ``tiles`` and ``board`` override the tile set and layout.
    Raises :class:`CgpError` for a malformed string."""
    fields = text.strip().split(None, 4)
    if len(fields) < 4:
        raise CgpError("a CGP needs four fields: board, racks, scores, consecutive zeros")
    board_text, racks_text, scores_text, zeros_text = fields[:4]
    options = _options(fields[4]) if len(fields) > 4 else {}
    rows = board_text.split("/")
    try:
        rules, _ = select_rules(
            lexicon=options.get("lex"),
            tile_distribution=options.get("ld"),
            board_layout=options.get("bdn"),
            tiles=tiles,
            board=board if board is not None or "bdn" in options else _by_size(len(rows)),
        )
    except KeyError as exc:
        raise CgpError(str(exc.args[0] if exc.args else exc)) from None
    layout = rules.board
    if len(rows) != layout.size:
        try:
            layout = board_layout("super" if len(rows) == 21 else "standard")
        except KeyError:  # pragma: no cover - both names exist
            pass
        if len(rows) != layout.size:
            raise CgpError(f"the board has {len(rows)} rows; a {layout.size}x{layout.size} "
                           f"board has {layout.size}")  # fmt: skip
    ts = rules.tiles
    out = Board(layout, ts)
    size = layout.size
    for r, row in enumerate(rows):
        c = 0
        for token in _tokens(row, ts, f"row {r + 1}", gaps=True):
            if isinstance(token, int):
                c += token
                continue
            if c >= size:
                raise CgpError(f"row {r + 1} is longer than {size} squares")
            out.cells[r * size + c] = token
            c += 1
        if c != size:
            raise CgpError(f"row {r + 1} has {c} squares, not {size}")
    if racks_text.count("/") != 1:
        raise CgpError(f"racks {racks_text!r}: expected MINE/THEIRS")
    mine, theirs = racks_text.split("/")
    racks = (
        [str(t).upper() for t in _tokens(mine, ts, "rack")],
        [str(t).upper() for t in _tokens(theirs, ts, "opponent's rack")],
    )
    m = re.fullmatch(r"(-?\d+)/(-?\d+)", scores_text)
    if m is None:
        raise CgpError(f"scores {scores_text!r}: expected MINE/THEIRS")
    if not zeros_text.isdigit():
        raise CgpError(f"consecutive zeros {zeros_text!r}: expected a number")
    return CgpPosition(
        out, rules, racks, (int(m.group(1)), int(m.group(2))), int(zeros_text), options
    )
