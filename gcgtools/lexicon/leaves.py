"""Leave values: what the tiles kept after a play are worth, in points.

Three sources, one interface (:class:`Leaves`): a KLV/KLV2 file (:mod:`~gcgtools.lexicon.klv`),
a leave CSV (``LEAVE,value`` per line, letters in any order, ``?`` for a blank; Macondo and
wolges' ``buildlex`` write them), or the small built-in heuristic (:func:`builtin_leaves`).

Built-in heuristic (used when no leave file is given or found), for a leave of tiles t1..tn:

    value = sum of per-tile values
            - 4 for each extra copy of a letter (EE: -4, EEE: -8; blanks are not penalised)
            - 2 * max(0, |vowels - consonants| - 1)   (blanks count as neither)

Per-tile values for the English tile sets (english, english_super, wwf_english):
? +25, S +8, Z +3, X +3, E +3, R +1.5, H +1, A/C/D/L/M/N/T +0.5, P 0, K/Y -0.5, I -1,
O -1.5, B/F -2, G/J -2.5, U/W -3.5, V -5.5, Q -7. Other tile sets: ? +25, any other tile
``2 - points`` kept within -6..+1.5 (a 1-point tile +1, 2 points 0, 3 points -1, ...).
The empty leave is worth 0. It is a rough guide for ranking moves, not a trained leave file.

Leaves longer than a file lists (a pass keeps the whole rack, 7 tiles, while a KLV2 made for
7-tile racks lists leaves of 1 to 6 tiles) are estimated from the leaves it does list: the
mean, over the leave's tiles, of the value of the leave without that tile plus the value of
that tile alone (for ``AEINRST``: the mean of ``AEINRS + T``, ``AEINRT + S``, ...); longer
ones the same way, tile by tile (:func:`split_estimate`). Other leaves a file does not list
are worth 0. The built-in heuristic values every leave by its formula.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Iterator
from functools import cache
from os import PathLike
from pathlib import Path

from gcgtools.lexicon.alphabet import Alphabet, alphabet_of
from gcgtools.lexicon.klv import MAX_LEAVE_VALUE, MAX_LEAVES_BYTES, parse_klv
from gcgtools.lexicon.kwg import ARC_MASK, IS_END, Kwg, KwgError
from gcgtools.rules import TileError, TileSet
from gcgtools.sources.limited import read_limited

__all__ = [
    "BUILTIN_NAME",
    "Leaves",
    "LeavesError",
    "builtin_leaves",
    "check_leaves_file",
    "leaves_csv",
    "load_leaves",
    "parse_leaves_csv",
    "split_estimate",
]

BUILTIN_NAME = "builtin"

ENGLISH_TILE_VALUES: dict[str, float] = {
    "?": 25.0, "S": 8.0, "Z": 3.0, "X": 3.0, "E": 3.0, "R": 1.5, "H": 1.0,
    "A": 0.5, "C": 0.5, "D": 0.5, "L": 0.5, "M": 0.5, "N": 0.5, "T": 0.5,
    "P": 0.0, "K": -0.5, "Y": -0.5, "I": -1.0, "O": -1.5, "B": -2.0, "F": -2.0,
    "G": -2.5, "J": -2.5, "U": -3.5, "W": -3.5, "V": -5.5, "Q": -7.0,
}  # fmt: skip
_ENGLISH_FAMILY = frozenset({"english", "english_super", "wwf_english"})
DUPLICATE_PENALTY = 4.0
BALANCE_PENALTY = 2.0


class LeavesError(ValueError):
    """A leave file that cannot be read; the message is one line naming the file."""

    def __init__(self, message: str, path: str | PathLike[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = None if path is None else Path(path)

    def __reduce__(self) -> tuple[type[LeavesError], tuple[str, Path | None]]:
        return (type(self), (self.message, self.path))


class Leaves:
    """Leave values. ``value(["E", "R", "S"])`` (tile texts, ``?`` for a blank, any order)
    or ``value_of(numbers)`` (tile numbers of the alphabet, blank 0) give points.

    ``name``: the file's name without extension, or ``"builtin"``; ``source``: which file
    (or ``"built-in heuristic"``) and in what format; ``kind``: ``"klv2"``, ``"klv"``,
    ``"csv"`` or ``"builtin"``."""

    def __init__(self, alphabet: Alphabet, *, name: str, source: str, kind: str) -> None:
        self.alphabet = alphabet
        self.name = name
        self.source = source
        self.kind = kind
        self._memo: dict[bytes, float] = {b"": 0.0}

    def __repr__(self) -> str:
        return f"Leaves({self.name!r}, {self.kind})"

    def describe(self) -> str:
        return f"leaves {self.name}: {self.source}"

    @property
    def tiles(self) -> TileSet:
        return self.alphabet.tiles

    def value(self, tiles: Iterable[str]) -> float:
        """Points of a leave given as tile texts (``"?"`` or a lower-case name = blank).
        Raises :class:`TileError` for a text that is not a tile of the set."""
        return self.value_of(self.alphabet.encode_tiles(tiles))

    def value_of(self, numbers: Iterable[int]) -> float:
        """Points of a leave given as tile numbers (blank 0), in any order."""
        key = bytes(sorted(numbers))
        memo = self._memo
        value = memo.get(key)
        if value is None:
            value = memo[key] = self._compute(key)
        return value

    def _compute(self, key: bytes) -> float:  # pragma: no cover - overridden
        raise NotImplementedError

    def items(self) -> Iterator[tuple[bytes, float]]:
        """Every leave the source lists with its value (none for the heuristic)."""
        return iter(())


class KlvLeaves(Leaves):
    """Leaves of a KLV/KLV2 file."""

    def __init__(self, kwg: Kwg, values: array, **kwargs: str) -> None:
        super().__init__(kwg.alphabet, **kwargs)
        self.kwg = kwg
        self.values = values
        self._longest: int | None = None

    def __len__(self) -> int:
        return len(self.values)

    def _compute(self, key: bytes) -> float:
        index = self.kwg.word_index(key)
        if index >= 0:
            return float(self.values[index])
        if len(key) > self.longest:
            return split_estimate(self, key)
        return 0.0

    @property
    def longest(self) -> int:
        """The most tiles a leave of the file has (6 in a KLV2 for 7-tile racks)."""
        if self._longest is None:
            self._longest = _longest_path(self.kwg)
        return self._longest

    def items(self) -> Iterator[tuple[bytes, float]]:
        values = self.values
        for i, word in enumerate(self.kwg.words()):
            yield word, float(values[i])


class TableLeaves(Leaves):
    """Leaves of a table (a leave CSV); leaves not listed are worth 0."""

    def __init__(self, table: dict[bytes, float], alphabet: Alphabet, **kwargs: str) -> None:
        super().__init__(alphabet, **kwargs)
        self.table = table
        self.longest = max(map(len, table), default=0)

    def __len__(self) -> int:
        return len(self.table)

    def _compute(self, key: bytes) -> float:
        value = self.table.get(key)
        if value is not None:
            return value
        if self.longest and len(key) > self.longest:
            return split_estimate(self, key)
        return 0.0

    def items(self) -> Iterator[tuple[bytes, float]]:
        return iter(sorted(self.table.items()))


def split_estimate(leaves: Leaves, key: bytes) -> float:
    """The value of a leave longer than ``leaves`` lists (tile numbers, sorted): the mean,
    over its tiles, of the leave without the tile plus the tile alone (module docstring)."""
    total = 0.0
    for i in range(len(key)):
        total += leaves.value_of(key[:i] + key[i + 1 :]) + leaves.value_of(key[i : i + 1])
    return total / len(key)


def _longest_path(kwg: Kwg) -> int:
    """The length of the longest word of a KWG's DAWG (a graph with a cycle counts each
    node once)."""
    nodes = kwg.nodes
    memo: dict[int, int] = {}

    def depth(p: int) -> int:
        known = memo.get(p)
        if known is not None:
            return known
        memo[p] = 0  # a cycle ends here
        best = 0
        q = p
        while q < len(nodes):
            node = nodes[q]
            arc = node & ARC_MASK
            best = max(best, 1 + (depth(arc) if arc else 0))
            if node & IS_END:
                break
            q += 1
        memo[p] = best
        return best

    return depth(kwg.dawg_root) if kwg.dawg_root else 0


class HeuristicLeaves(Leaves):
    """The built-in heuristic (module docstring)."""

    def __init__(self, alphabet: Alphabet) -> None:
        super().__init__(
            alphabet, name=BUILTIN_NAME, source="built-in heuristic", kind=BUILTIN_NAME
        )
        tiles = alphabet.tiles
        per_tile = [0.0] * len(alphabet.letters)
        vowel = [False] * len(alphabet.letters)
        english = tiles.name in _ENGLISH_FAMILY
        for number, letter in enumerate(alphabet.letters):
            if number == 0:
                per_tile[0] = 25.0
                continue
            if english and letter in ENGLISH_TILE_VALUES:
                per_tile[number] = ENGLISH_TILE_VALUES[letter]
            else:
                per_tile[number] = max(-6.0, min(1.5, 2.0 - tiles.values[letter]))
            vowel[number] = letter in tiles.vowels
        self.per_tile = per_tile
        self._vowel = vowel

    def _compute(self, key: bytes) -> float:
        per_tile = self.per_tile
        value = sum(per_tile[n] for n in key)
        vowels = consonants = 0
        previous = -1
        for n in key:  # sorted: copies of a letter are adjacent
            if n == 0:
                continue
            if n == previous:
                value -= DUPLICATE_PENALTY
            previous = n
            if self._vowel[n]:
                vowels += 1
            else:
                consonants += 1
        value -= BALANCE_PENALTY * max(0, abs(vowels - consonants) - 1)
        return value


def builtin_leaves(tiles: TileSet | str | None = None) -> Leaves:
    """The built-in leave heuristic for a tile set (default English); one shared object
    per tile set, so its remembered values serve every caller."""
    return _builtin(alphabet_of(tiles if tiles is not None else "english"))


@cache
def _builtin(alphabet: Alphabet) -> Leaves:
    return HeuristicLeaves(alphabet)


def parse_leaves_csv(text: str, alphabet: Alphabet, *, where: str = "<csv>") -> dict[bytes, float]:
    """``LEAVE,value`` lines -> {sorted tile numbers: value}. A first line whose value is
    not a number is a header; blank lines are skipped. Raises :class:`LeavesError` naming
    ``where:line``."""
    table: dict[bytes, float] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        leave, sep, raw = line.partition(",")
        try:
            value = float(raw.split(",")[0])
        except ValueError:
            if number == 1:
                continue  # a header
            raise LeavesError(f"{where}:{number}: {raw[:40]!r} is not a number", None) from None
        if not math.isfinite(value) or abs(value) > MAX_LEAVE_VALUE:
            raise LeavesError(
                f"{where}:{number}: {raw[:40]!r} is not a leave value (a finite number "
                f"within ±{MAX_LEAVE_VALUE:g} points)",
                None,
            )
        if not sep:
            raise LeavesError(f"{where}:{number}: expected LEAVE,value", None)
        try:
            # letters in any case ("ers" is E, R, S: a CSV has no designated blanks)
            tiles = alphabet.encode_tiles(alphabet.tiles.split(leave.strip().upper()))
        except TileError as exc:
            raise LeavesError(f"{where}:{number}: {exc.message}", None) from None
        table[bytes(sorted(tiles))] = value
    return table


def leaves_csv(leaves: Leaves) -> str:
    """The leaves a source lists as CSV text (``LEAVE,value``, ``?`` for a blank, tiles in
    tile order, values as Python writes floats so that reading back gives the same)."""
    decode = leaves.alphabet.decode
    return "".join(f"{decode(key)},{value!r}\n" for key, value in leaves.items())


def load_leaves(path: str | PathLike[str], tiles: TileSet | str | None = None) -> Leaves:
    """Load a leave file: KLV2/KLV (``.klv2``/``.klv``, or any file that parses as one) or
    a leave CSV. ``tiles``: the tile set (default English). Raises :class:`LeavesError`."""
    p = Path(path)
    alphabet = alphabet_of(tiles if tiles is not None else "english")
    try:
        data = read_limited(p, MAX_LEAVES_BYTES, "a leave file")
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise LeavesError(f"{p}: cannot read leave file: {reason}", p) from None
    name = p.name.rsplit(".", 1)[0] if "." in p.name else p.name
    suffix = p.suffix.lower()
    if suffix != ".csv":
        try:
            kwg, values = parse_klv(data, alphabet)
            kwg.check_alphabet()
        except KwgError as exc:
            if suffix in (".klv", ".klv2"):
                raise LeavesError(f"{p}: not a KLV file: {exc}", p) from None
        else:
            kind = "klv2" if len(data) == 8 + 4 * len(kwg) + 4 * len(values) else "klv"
            return KlvLeaves(
                kwg, values, name=name, source=f"{p.name} ({kind.upper()} file {p})", kind=kind
            )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LeavesError(f"{p}: neither a KLV file nor a UTF-8 leave CSV", p) from None
    try:
        table = parse_leaves_csv(text, alphabet, where=str(p))
    except LeavesError as exc:
        raise LeavesError(exc.message, p) from None
    return TableLeaves(table, alphabet, name=name, source=f"{p.name} (leave CSV {p})", kind="csv")


def check_leaves_file(path: str | PathLike[str], tiles: TileSet | str | None = None) -> None:
    """Check a leave file before a batch starts: with a tile set, load it
    (:func:`load_leaves`); without one, its structure only (a KLV/KLV2's sizes, graph and
    values; a CSV's values), since the records' tile sets are not known yet. Raises
    :class:`LeavesError` naming the file."""
    if tiles is not None:
        load_leaves(path, tiles)
        return
    p = Path(path)
    try:
        data = read_limited(p, MAX_LEAVES_BYTES, "a leave file")
    except OSError as exc:
        raise LeavesError(f"{p}: cannot read leave file: {exc.strerror or exc}", p) from None
    suffix = p.suffix.lower()
    if suffix != ".csv":
        try:
            parse_klv(data, alphabet_of("english"))  # structure: any tile numbers
            return
        except KwgError as exc:
            if suffix in (".klv", ".klv2"):
                raise LeavesError(f"{p}: not a KLV file: {exc}", p) from None
    _check_csv(p, data)


def _check_csv(p: Path, data: bytes) -> None:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LeavesError(f"{p}: not a UTF-8 leave CSV", p) from None
    for number, line in enumerate(text.splitlines(), 1):
        leave, sep, raw = line.strip().partition(",")
        if not line.strip() or (number == 1 and not _is_number(raw)):
            continue
        if not sep:
            raise LeavesError(f"{p}:{number}: expected LEAVE,value", p)
        try:
            value = float(raw.split(",")[0])
        except ValueError:
            raise LeavesError(f"{p}:{number}: {raw[:40]!r} is not a number", p) from None
        if not math.isfinite(value) or abs(value) > MAX_LEAVE_VALUE:
            raise LeavesError(f"{p}:{number}: {raw[:40]!r} is not a leave value", p)


def _is_number(text: str) -> bool:
    try:
        float(text.split(",")[0])
    except ValueError:
        return False
    return True
