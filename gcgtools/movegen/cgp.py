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
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from gcgtools.replay.board import Board
from gcgtools.rules.boards import BOARDS, board_layout
from gcgtools.rules.detect import select_rules
from gcgtools.rules.rulesets import RuleSet
from gcgtools.rules.tiles import BLANK, TILE_SETS, TileError, TileSet, tile_set
from gcgtools.wording import plural_form

__all__ = [
    "CgpError",
    "CgpPosition",
    "check_rack_size",
    "check_tile_counts",
    "parse_cgp",
    "quoted",
    "write_cgp",
]


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


_TOKEN = re.compile(r"\[([^\]]*)\]|([0-9]+)|(.)", re.DOTALL)  # ASCII digits only

#: The opcodes of the CGP specification (Macondo's, which MAGPIE and cgpbot share):
#: lexicon, letter distribution, board name, bingo bonus, game id, max consecutive
#: zeros, timer, variant. Another opcode is refused: it is named in the message.
KNOWN_OPCODES = frozenset({"lex", "ld", "bdn", "bb", "gid", "mcnz", "tmr", "var"})

#: How much of the input a message quotes, at most.
QUOTE_LIMIT = 80


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)``, cut to about ``limit`` characters (``...`` where it was cut)."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"


def _number(text: str, what: str, *, signed: bool = False) -> int:
    """An ASCII number: ``str.isdigit`` would take fullwidth digits and ``²``."""
    body = text[1:] if signed and text.startswith("-") else text
    if not body or not body.isascii() or not body.isdigit() or len(body) > 9:
        raise CgpError(f"{what} {quoted(text)}: expected a number")
    return int(text)


def _tokens(text: str, tiles: TileSet, what: str, *, gaps: bool = False) -> Iterator[str | int]:
    """The tiles of a CGP rack or board row, each checked against ``tiles``: one
    character, or a multi-letter tile in brackets (``[CH]``); a rack's ``?`` is a blank.
    With ``gaps`` (a board row) a number is a run of empty squares, given as an int; a
    blank on the board is its letter in lower case (``?`` there is refused)."""
    for m in _TOKEN.finditer(text):
        bracketed, digits, char = m.groups()
        if gaps and digits is not None:
            yield _number(digits, f"{what}: run of empty squares")
            continue
        if char == "[":
            raise CgpError(f"{what}: '[' at character {m.start() + 1} is not closed")
        name = bracketed if bracketed is not None else m.group()
        if gaps and name == BLANK:
            raise CgpError(
                f"{what}: '?' at character {m.start() + 1}: a blank on the board is the "
                "letter it stands for, in lower case"
            )
        if gaps or name != BLANK:
            try:
                tiles.letter_of(name)
            except TileError:
                raise CgpError(f"{what}: {quoted(name)} is not a tile of {tiles.name}") from None
        yield name


def _by_size(rows: int) -> str | None:
    return "super" if rows == 21 else None


def _check_options(options: dict[str, str], tiles: str | None, board: str | None) -> None:
    """Unknown opcodes, and ``ld``/``bdn`` values that name no tile set or board."""
    unknown = sorted(k for k in options if k not in KNOWN_OPCODES)
    if unknown:
        names = ", ".join(quoted(k, 30) for k in unknown[:5])
        known = ", ".join(sorted(KNOWN_OPCODES))
        opcodes = plural_form("opcode", len(unknown))
        raise CgpError(f"unknown CGP {opcodes} {names} (known: {known})")
    checks = (
        ("ld", tiles, tile_set, "tile set", TILE_SETS),
        ("bdn", board, board_layout, "board", BOARDS),
    )
    for key, override, lookup, what, known_names in checks:
        if key in options and override is None:
            try:
                lookup(options[key])
            except KeyError:
                names = ", ".join(sorted(known_names))
                raise CgpError(f"{key} {quoted(options[key])}: no such {what} ({names})") from None


def _rules(options: dict[str, str], rows: int, tiles: str | None, board: str | None) -> RuleSet:
    _check_options(options, tiles, board)
    try:
        rules, _ = select_rules(
            lexicon=options.get("lex"),
            tile_distribution=options.get("ld"),
            board_layout=options.get("bdn"),
            tiles=tiles,
            board=board if board is not None or "bdn" in options else _by_size(rows),
        )
    except KeyError as exc:
        raise CgpError(str(exc.args[0] if exc.args else exc)) from None
    if rows != rules.board.size:
        named = "--board" if board is not None else "bdn" if "bdn" in options else ""
        size = rules.board.size
        said = f" ({named} {rules.board.name})" if named else ""
        raise CgpError(f"the board has {rows} rows; a {size}x{size} board{said} has {size}")
    return rules


def _board(rows: list[str], rules: RuleSet) -> Board:
    out = Board(rules.board, rules.tiles)
    size = rules.board.size
    for r, row in enumerate(rows):
        c = 0
        for token in _tokens(row, rules.tiles, f"row {r + 1}", gaps=True):
            if isinstance(token, int):
                c += token
            elif c < size:
                out.cells[r * size + c] = token
                c += 1
            else:
                c += 1
            if c > size:
                raise CgpError(f"row {r + 1} is longer than {size} squares")
        if c != size:
            raise CgpError(f"row {r + 1} has {c} squares, not {size}")
    return out


def _racks(text: str, rules: RuleSet) -> tuple[list[str], list[str]]:
    if text.count("/") != 1:
        raise CgpError(f"racks {quoted(text)}: expected MINE/THEIRS")
    mine, theirs = text.split("/")
    racks = (
        [str(t).upper() for t in _tokens(mine, rules.tiles, "rack")],
        [str(t).upper() for t in _tokens(theirs, rules.tiles, "opponent's rack")],
    )
    for rack, whose in zip(racks, ("rack", "opponent's rack"), strict=True):
        check_rack_size(rack, rules, f"the {whose}")
    return racks


def check_rack_size(rack: list[str], rules: RuleSet, what: str) -> None:
    """A rack holds at most ``rules.rack_size`` tiles (CgpError, a ValueError, if not)."""
    if len(rack) > rules.rack_size:
        shown = quoted("".join(t if len(t) == 1 else f"[{t}]" for t in rack))
        raise CgpError(
            f"{what} {shown} has {len(rack)} tiles; a rack holds at most {rules.rack_size}"
        )


def check_tile_counts(board: Board, racks: Iterable[list[str]], tiles: TileSet) -> None:
    """The board and the racks together hold no more of a tile than the set has (a blank
    on the board, a lower-case letter, counts as a ``?``)."""
    seen = Counter(t if not t.islower() else BLANK for t in board.cells if t is not None)
    for rack in racks:
        seen.update(rack)
    over = [(t, n) for t, n in sorted(seen.items()) if n > tiles.counts.get(t, 0)]
    if over:
        detail = ", ".join(f"{n} {t} (the set has {tiles.counts.get(t, 0)})" for t, n in over[:6])
        more = f" and {len(over) - 6} more" if len(over) > 6 else ""
        raise CgpError(f"more tiles than the {tiles.name} set holds: {detail}{more}")


def parse_cgp(text: str, *, tiles: str | None = None, board: str | None = None) -> CgpPosition:
    """Read a CGP string. ``tiles`` and ``board`` override the tile set and layout.
    Raises :class:`CgpError` for a malformed string, or a position that cannot exist: a
    rack of more tiles than the rules' rack size, more of a tile than the set holds, an
    undesignated blank on the board, an unknown opcode, tile set or board, a board of
    another size. Messages quote at most 80 characters of the input."""
    fields = text.strip().split(None, 4)
    if len(fields) < 4:
        raise CgpError("a CGP needs four fields: board, racks, scores, consecutive zeros")
    board_text, racks_text, scores_text, zeros_text = fields[:4]
    options = _options(fields[4]) if len(fields) > 4 else {}
    rows = board_text.split("/")
    rules = _rules(options, len(rows), tiles, board)
    out = _board(rows, rules)
    racks = _racks(racks_text, rules)
    check_tile_counts(out, racks, rules.tiles)
    mine_text, _, theirs_text = scores_text.partition("/")
    if scores_text.count("/") != 1:
        raise CgpError(f"scores {quoted(scores_text)}: expected MINE/THEIRS")
    scores = (_number(mine_text, "score", signed=True), _number(theirs_text, "score", signed=True))
    zeros = _number(zeros_text, "consecutive zeros")
    return CgpPosition(out, rules, racks, scores, zeros, options)
