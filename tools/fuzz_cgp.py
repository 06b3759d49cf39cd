"""Fuzzing CGP positions (``moves --cgp``): mutated CGP strings through the real reader.

Seeds are real positions: the CGP of the examples' records after random events (English,
German, Super...), the empty board, and hand-made Spanish and Super positions. Each input
is a seed changed by one to three mutations (characters replaced, inserted or deleted,
fullwidth and superscript digits, control characters, rows duplicated or deleted, fields
swapped, long racks, huge numbers, options added). On each:

* :func:`gcgtools.movegen.cgp.parse_cgp` returns a position or raises ``CgpError`` with a
  one-line message of bounded length (the input quoted at most ~80 characters); any other
  exception is a failure;
* a position it accepts can exist: racks within the rack size, no more of a tile than the
  set holds (board and racks), no undesignated blank on the board; and it writes back to
  a CGP that reads the same;
* one accepted position in ten gets its moves generated with a small lexicon over its
  tile set, within a few seconds.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gcgtools.lexicon import Lexicon  # noqa: E402
from gcgtools.movegen import generate_moves  # noqa: E402
from gcgtools.movegen.cgp import CgpError, CgpPosition, parse_cgp, write_cgp  # noqa: E402
from gcgtools.movegen.record import record_cgp  # noqa: E402
from gcgtools.replay import Board  # noqa: E402
from gcgtools.rules import board_layout, tile_set  # noqa: E402
from gcgtools.rules.tiles import BLANK, TileSet  # noqa: E402
from gcgtools.sources.load import load_game  # noqa: E402

ODD = ["\uff12", "\u00b2", "\u0663", "\u096b", "\U0001d7d8", "\u2466", "\u00bd"]
CONTROL = ["\x00", "\x1b", "\x1b[2J", "\x7f", "\x9b", "\t", "\n", "\ud800"]
PIECES = list("0123456789/ ?[];-") + list("ABCQXZabcqz") + ["\u00d1", "[CH]", "[ch]", "[LL]"]
OPTIONS = [
    "lex NWL20;", "lex FILE2017;", "ld spanish;", "ld nosuch;", "ld english_super;",
    "bdn SuperCrosswordGame;", "bdn CrosswordGame;", "bdn nosuch;", "bb 35;", "foo bar;",
    "gid x;", "mcnz 6;", "var classic;", "ld ;", ";;", "lex",
]  # fmt: skip
MAX_MESSAGE = 300  # characters of a CgpError: the input is quoted, never whole
MOVES_SECONDS = 10.0


# ------------------------------------------------------------------ seeds
@cache
def seeds() -> tuple[str, ...]:
    """Real positions: the examples' records after a few events, and hand-made ones."""
    found: list[str] = ["/".join(["15"] * 15) + " AEINRST/ 0/0 0 lex NWL20;"]
    for path in sorted((ROOT / "examples").rglob("*.gcg")):
        game = load_game(path)
        if game.unreadable or not game.events:
            continue
        for event in sorted({0, len(game.events) // 2, len(game.events)}):
            try:
                found.append(record_cgp(game, event))
            except ValueError:  # an example written with errors on purpose
                continue
    spanish = Board(board_layout("standard"), tile_set("spanish"))
    spanish[7, 7], spanish[7, 8], spanish[7, 9] = "CH", "ll", "\u00d1"
    found.append(write_cgp(spanish, (["RR", "?", "A"], ["E"]), (5, 0), 0, {"ld": "spanish"}))
    big = Board(board_layout("super"), tile_set("english_super"))
    big[10, 10], big[10, 11] = "Q", "i"
    found.append(write_cgp(big, (list("AEIOU?"), []), (20, 3), 1, {"bdn": "SuperCrosswordGame"}))
    return tuple(found)


# ------------------------------------------------------------------ mutations
def _replace(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) or 1)
    return text[:i] + rng.choice(PIECES + ODD) + text[i + 1 :]


def _insert(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(PIECES + ODD + CONTROL) + text[i:]


def _delete(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) or 1)
    return text[:i] + text[i + rng.randint(1, 3) :]


def _fields(text: str, rng: random.Random) -> str:
    parts = text.split(" ")
    i, j = rng.randrange(len(parts)), rng.randrange(len(parts))
    parts[i], parts[j] = parts[j], parts[i]
    return " ".join(parts)


def _rows(text: str, rng: random.Random) -> str:
    board, _, rest = text.partition(" ")
    rows = board.split("/")
    i = rng.randrange(len(rows))
    if rng.random() < 0.5:
        rows.insert(i, rows[i])
    elif len(rows) > 1:
        del rows[i]
    return "/".join(rows) + " " + rest


def _long_rack(text: str, rng: random.Random) -> str:
    parts = text.split(" ")
    if len(parts) < 2:
        return text
    letters = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ?") for _ in range(rng.randint(8, 40)))
    mine, _, theirs = parts[1].partition("/")
    parts[1] = f"{letters}/{theirs}" if rng.random() < 0.7 else f"{mine}/{letters}"
    return " ".join(parts)


def _huge(text: str, rng: random.Random) -> str:
    digits = [i for i, c in enumerate(text) if c.isascii() and c.isdigit()]
    if not digits:
        return text
    i = rng.choice(digits)
    return text[:i] + "9" * rng.choice((3, 10, 40, 400)) + text[i + 1 :]


def _option(text: str, rng: random.Random) -> str:
    return f"{text} {rng.choice(OPTIONS)}"


def _blank_on_board(text: str, rng: random.Random) -> str:
    board, _, rest = text.partition(" ")
    return board.replace("1", "?", 1) + " " + rest if "1" in board else text


MUTATIONS: dict[str, Callable[[str, random.Random], str]] = {
    "replace": _replace, "insert": _insert, "delete": _delete, "fields": _fields,
    "rows": _rows, "long rack": _long_rack, "huge number": _huge, "option": _option,
    "blank on board": _blank_on_board,
}  # fmt: skip


def mutate(text: str, rng: random.Random) -> tuple[str, list[str]]:
    names = [rng.choice(list(MUTATIONS)) for _ in range(rng.choice((1, 1, 2, 3)))]
    for name in names:
        text = MUTATIONS[name](text, rng)
    return text, names


# ------------------------------------------------------------------ checks
def _shown(text: str) -> str:
    return repr(text if len(text) <= 200 else text[:200] + "...")


def _check_possible(pos: CgpPosition, text: str) -> None:
    rules = pos.rules
    for rack in pos.racks:
        assert len(rack) <= rules.rack_size, f"a rack of {len(rack)} accepted: {_shown(text)}"
    assert BLANK not in pos.board.cells, f"'?' on the board accepted: {_shown(text)}"
    seen = Counter(t if not t.islower() else BLANK for t in pos.board.cells if t is not None)
    for rack in pos.racks:
        seen.update(rack)
    for tile, n in seen.items():
        have = rules.tiles.counts.get(tile, 0)
        assert n <= have, f"{n} {tile} accepted, the set has {have}: {_shown(text)}"
    again = parse_cgp(pos.cgp())
    assert again.board.cells == pos.board.cells and again.racks == pos.racks, _shown(text)


@cache
def small_lexicon(tiles: TileSet) -> Lexicon:
    """A few words over ``tiles``'s letters, for move generation on any tile set."""
    letters = [t for t in tiles.letters if t != BLANK][:8]
    words = {a + b for a in letters[:5] for b in letters[:5]} | {"".join(letters[:4])}
    return Lexicon.from_words(sorted(words), tiles)


def _check_moves(pos: CgpPosition, text: str) -> None:
    if not pos.racks[0]:
        return
    start = time.monotonic()
    lexicon = small_lexicon(pos.rules.tiles)
    generate_moves(
        pos.board, pos.racks[0], lexicon, leaves=None, bag_count=50, rules=pos.rules
    )  # fmt: skip
    took = time.monotonic() - start
    assert took < MOVES_SECONDS, f"moves took {took:.0f} s: {_shown(text)}"


def check_cgp(text: str, *, moves: bool = False) -> bool:
    """Check one CGP string; True when it was accepted. AssertionError on a failure."""
    try:
        pos = parse_cgp(text)
    except CgpError as exc:
        message = str(exc)
        assert len(message) <= MAX_MESSAGE, f"a message of {len(message)}: {_shown(text)}"
        assert "\n" not in message.strip(), f"a message of several lines: {_shown(text)}"
        return False
    except Exception as exc:  # noqa: BLE001 - the failure this fuzzer looks for
        raise AssertionError(f"{type(exc).__name__}: {exc} on {_shown(text)}") from exc
    _check_possible(pos, text)
    if moves:
        _check_moves(pos, text)
    return True


def cgp_surface(rng: random.Random, n: int) -> int:
    """``n`` mutated CGP strings through parse_cgp (and some through move generation)."""
    pool = seeds()
    for i in range(n):
        text, _ = mutate(rng.choice(pool), rng)
        check_cgp(text, moves=i % 10 == 0)
    return n


SURFACES = {"cgp": cgp_surface}
