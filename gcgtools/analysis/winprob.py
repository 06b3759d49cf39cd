"""Win probability: the chance that the player to move wins, from the spread (their score
minus the opponent's) and the tiles they cannot see (the bag plus the opponent's rack).

Two kinds of model, both :class:`WinModel` (a ``name`` every output shows, and
``probability(spread, unseen)``):

* :class:`LogisticWinModel`, the built-in one (:func:`builtin_model`): a logistic in the
  spread made by gcgtools itself from self-play of its static player
  (``tools/selfplay_winpct.py``; parameters, games, seed and held-out error in
  ``winpct_model.json`` next to this module)::

      P = 1 / (1 + exp(-(spread + m0 + m1 * u) / sqrt(s0**2 + s1**2 * u)))

  ``m0 + m1 * u`` is what being on turn is worth in points, so P at spread 0 is above
  one half for the player to move; the scale grows with the unseen tiles ``u`` (more
  tiles still to come, more the spread can still move).
* :class:`TableWinModel`, read by :func:`load_winpct` from a table in the format MAGPIE
  writes and reads (``winpct.csv``, the ``--winpct FILE`` of the analysing commands):
  one line per number of unseen tiles, from 1; the first field the number of positions
  recorded ("games"), then ``2S + 1`` counts for the spreads ``-S`` .. ``+S``. A count is
  in *win points*: 2 for each recorded position whose player would have won had the
  spread been that one, 1 for a draw. The probability is ``count / (2 * games)``.
  Spreads beyond ``±S`` use the ``±S`` column; a spread that is not a whole number is
  rounded to the nearest (halves away from zero, as MAGPIE does); more unseen tiles than
  the table has lines use its last line; a line of 0 games uses the nearest line above it
  with games (the first line must have games).

For both, with no tile unseen (``u`` <= 0: the game is over) the result is decided by the
spread: 1 for a positive one, 0.5 for 0, 0 for a negative one. A spread that is not a
number (NaN) raises ValueError; an infinite one counts as 1e9 points (a table: its
``±S`` column; the logistic: 1 or 0).

Every file is read through :func:`gcgtools.sources.limited.read_limited` (a regular file,
its size checked before a byte is read) and checked field by field: anything that cannot
be used raises :class:`WinModelError`, one line naming the file, and never another
exception. The limits bound the memory: the largest table the limits allow keeps 16 MB
and peaks at about 26 MiB while it is read; a model file keeps at most about 1.5 MiB.
"""

from __future__ import annotations

import json
import math
import os
import re
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Protocol, runtime_checkable

from gcgtools.sources.limited import MIB, read_limited

__all__ = [
    "MAX_MODEL_BYTES",
    "MAX_TABLE_BYTES",
    "MAX_TABLE_COLUMNS",
    "MAX_TABLE_LINES",
    "PARAMETER_RANGES",
    "LogisticWinModel",
    "TableWinModel",
    "WinModel",
    "WinModelError",
    "builtin_model",
    "load_model_json",
    "load_win_model",
    "load_winpct",
    "win_probability",
]

#: The largest table read (MAGPIE's English table, 93 lines of 1001 counts, is under 1 MB).
MAX_TABLE_BYTES = 8 * MIB
#: At most this many lines (numbers of unseen tiles) in a table.
MAX_TABLE_LINES = 1000
#: At most this many spread columns in a table line (``2S + 1``, ``S`` <= 1000).
MAX_TABLE_COLUMNS = 2001
#: The largest logistic model file read (the built-in one is under 4 KB).
MAX_MODEL_BYTES = 64 * 1024
#: Arrays and objects nested at most this deep in a model file (the built-in one: 5).
MAX_JSON_DEPTH = 32
#: A model's name (shown in every output) has at most this many characters.
MAX_NAME_CHARS = 200
#: The range (inclusive) of each logistic parameter, in points: what being on turn is
#: worth stays within a few hundred points; a scale of 1e9 is a coin toss (P = 0.5).
PARAMETER_RANGES: dict[str, tuple[float, float]] = {
    "m0": (-10_000.0, 10_000.0),
    "m1": (-1000.0, 1000.0),
    "s0": (0.0, 1e9),
    "s1": (0.0, 1e9),
}
#: The smallest scale ``sqrt(s0**2 + s1**2)`` (points): a smaller one is a step, not a model.
MIN_SCALE = 0.1
#: Unseen tiles beyond this count as this many (no tile set has so many tiles).
MAX_UNSEEN = 10_000
#: Spreads beyond this many points count as this many: every model is decided there.
MAX_SPREAD = 1e9
BUILTIN_FILE = "winpct_model.json"
FORMAT = "gcgtools-winmodel-1"


class WinModelError(ValueError):
    """A win model file that cannot be used: the one-line message names the file (and
    the line and column where it applies)."""

    def __init__(self, message: str, path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(message)
        self.path = Path(path) if path is not None else None

    def __reduce__(self) -> tuple[type[WinModelError], tuple[str, Path | None]]:
        return (type(self), (str(self), self.path))


@runtime_checkable
class WinModel(Protocol):
    """What the simulation and the judgement need of a win model."""

    @property
    def name(self) -> str: ...

    def probability(self, spread: float, unseen: int) -> float:
        """The chance (0..1) that the player to move wins with ``spread`` and ``unseen``
        tiles they cannot see."""
        ...


def decided(spread: float) -> float:
    """The result of a finished game for a player with ``spread``: 1, 0.5 or 0."""
    return 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0


def _checked_spread(spread: float) -> float:
    """``spread`` within ``±MAX_SPREAD`` (an infinite one at the bound); ValueError for NaN."""
    if spread != spread:  # NaN (a float, or a numpy value)
        raise ValueError("the spread is not a number (NaN)")
    return float(max(-MAX_SPREAD, min(MAX_SPREAD, spread)))


def _parameter_problem(values: dict[str, object]) -> str | None:
    """Why ``m0 m1 s0 s1`` cannot make a model, or None: each a finite number in its
    :data:`PARAMETER_RANGES`, the scale at least :data:`MIN_SCALE`."""
    for key, (low, high) in PARAMETER_RANGES.items():
        v = values.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return f"parameter {key!r} is missing or not a number"
        if not low <= v <= high:  # False for NaN and the infinities too (and a huge int)
            shown = repr(v) if len(repr(v)) <= 24 else f"{repr(v)[:20]}..."
            return f"parameter {key!r} is {shown}: it must be a number from {low:g} to {high:g}"
    s0, s1 = float(values["s0"]), float(values["s1"])  # type: ignore[arg-type]
    if math.hypot(s0, s1) < MIN_SCALE:
        return f"the scales s0 and s1 are too small (sqrt(s0^2 + s1^2) < {MIN_SCALE:g} points)"
    return None


@dataclass(frozen=True)
class LogisticWinModel:
    """``P = 1 / (1 + exp(-(spread + m0 + m1 * u) / sqrt(s0**2 + s1**2 * u)))``; see the
    module docstring. ``made`` holds how the parameters were made (games, seed, fit).
    Parameters out of :data:`PARAMETER_RANGES` (or a scale under :data:`MIN_SCALE`)
    raise :class:`WinModelError`."""

    name: str
    m0: float
    m1: float
    s0: float
    s1: float
    made: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        values: dict[str, object] = {"m0": self.m0, "m1": self.m1, "s0": self.s0, "s1": self.s1}
        problem = _parameter_problem(values)
        if problem is not None:
            raise WinModelError(f"win model {self.name!r}: {problem}")

    def probability(self, spread: float, unseen: int) -> float:
        spread = _checked_spread(spread)
        if unseen <= 0:
            return decided(spread)
        u = min(unseen, MAX_UNSEEN)
        scale = math.sqrt(self.s0 * self.s0 + self.s1 * self.s1 * u)
        z = (spread + self.m0 + self.m1 * u) / scale
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)


@dataclass(frozen=True)
class TableWinModel:
    """A table of probabilities by unseen tiles (``rows[u - 1]``) and spread
    (``rows[u - 1][spread + max_spread]``), read from a ``winpct.csv``. Each row is kept
    as an ``array('d')`` (8 bytes a value; rows given as tuples are converted) and must
    not be changed. Rows of the wrong length or values outside 0..1 raise
    :class:`WinModelError`."""

    name: str
    max_spread: int
    rows: tuple[Sequence[float], ...] = field(hash=False)
    games: tuple[int, ...] = field(compare=False, repr=False, default=())

    def __post_init__(self) -> None:
        s = self.max_spread
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < MAX_TABLE_COLUMNS // 2 + 1:
            raise WinModelError(f"{self.name}: max_spread {s!r} is not a whole number 0..1000")
        if not self.rows or len(self.rows) > MAX_TABLE_LINES:
            raise WinModelError(f"{self.name}: {len(self.rows)} rows, not 1..{MAX_TABLE_LINES}")
        rows = tuple(r if isinstance(r, array) and r.typecode == "d" else array("d", r)
                     for r in self.rows)  # fmt: skip
        for n, row in enumerate(rows, 1):
            if len(row) != 2 * s + 1:
                raise WinModelError(f"{self.name}: row {n} has {len(row)} values, not {2 * s + 1}")
            if not math.isfinite(sum(row)) or min(row) < 0.0 or max(row) > 1.0:
                raise WinModelError(f"{self.name}: row {n} has a value outside 0..1")
        object.__setattr__(self, "rows", rows)

    def probability(self, spread: float, unseen: int) -> float:
        spread = _checked_spread(spread)
        if unseen <= 0:
            return decided(spread)
        s = max(-self.max_spread, min(self.max_spread, _round_half_away(spread)))
        row = self.rows[min(unseen, len(self.rows)) - 1]
        return row[s + self.max_spread]


def _round_half_away(x: float) -> int:
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def win_probability(spread: float, unseen_tiles: int, model: WinModel | None = None) -> float:
    """The chance (0..1) that the player to move wins with ``spread`` (their score minus
    the opponent's) when ``unseen_tiles`` tiles are unseen by them (bag plus opponent's
    rack), by ``model`` (default: the built-in one, :func:`builtin_model`)."""
    return (model or builtin_model()).probability(spread, unseen_tiles)


@lru_cache(maxsize=1)
def builtin_model() -> LogisticWinModel:
    """The model gcgtools ships (package data ``winpct_model.json``)."""
    data = resources.files("gcgtools.analysis").joinpath(BUILTIN_FILE).read_bytes()
    return _model_from_bytes(data, BUILTIN_FILE)


def _read(path: str | os.PathLike[str], limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``), else WinModelError."""
    try:
        return read_limited(path, limit, f"a {what}")
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise WinModelError(f"{path}: cannot read {what}: {reason}", path) from None


def _json_depth(text: str) -> int:
    """How deep the arrays and objects of ``text`` nest (brackets in strings not counted),
    in one pass (a regular expression for strings takes quadratic time on ``"\\"\\"...``)."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "[" or c == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif c == "]" or c == "}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _model_from_bytes(data: bytes, where: str | os.PathLike[str]) -> LogisticWinModel:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WinModelError(
            f"{where}: byte {exc.start + 1} is not UTF-8: not JSON", where
        ) from None
    if _json_depth(text) > MAX_JSON_DEPTH:
        msg = f"{where}: arrays or objects nested deeper than {MAX_JSON_DEPTH}: not a win model"
        raise WinModelError(msg, where)
    try:  # ValueError: bad JSON, NaN or Infinity, an integer of more than 4300 digits
        parsed = json.loads(text, parse_constant=_no_constant)
    except ValueError as exc:
        raise WinModelError(f"{where}: not JSON: {exc}", where) from None
    return _model_from_json(parsed, where)


def _model_from_json(data: object, where: str | os.PathLike[str]) -> LogisticWinModel:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise WinModelError(f"{where}: not a gcgtools win model (format {FORMAT})", where)
    params = data.get("parameters")
    if not isinstance(params, dict):
        raise WinModelError(f"{where}: no 'parameters' object (m0, m1, s0, s1)", where)
    unknown = sorted(set(params) - set(PARAMETER_RANGES))
    if unknown:
        raise WinModelError(
            f"{where}: unknown parameter {unknown[0][:40]!r} (m0, m1, s0, s1)", where
        )
    problem = _parameter_problem(params)
    if problem is not None:
        raise WinModelError(f"{where}: {problem}", where)
    name = data.get("name", Path(where).name)
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME_CHARS or not name.isprintable():
        raise WinModelError(
            f"{where}: 'name' must be text of 1 to {MAX_NAME_CHARS} printable characters", where
        )
    made = {k: v for k, v in data.items() if k not in ("parameters", "name")}
    values = [float(params[k]) for k in ("m0", "m1", "s0", "s1")]
    return LogisticWinModel(name, *values, made)


def load_model_json(path: str | os.PathLike[str]) -> LogisticWinModel:
    """A logistic model written by ``tools/selfplay_winpct.py`` (at most
    :data:`MAX_MODEL_BYTES`). Raises :class:`WinModelError` naming the file for anything
    else."""
    return _model_from_bytes(_read(path, MAX_MODEL_BYTES, "win model"), path)


def load_winpct(path: str | os.PathLike[str]) -> TableWinModel:
    """A MAGPIE/Quackle-style ``winpct.csv`` table (format in the module docstring;
    fields separated by spaces, tabs or commas). Raises :class:`WinModelError`, naming
    the file, line and column, for anything else."""
    p = Path(path)
    data = _read(p, MAX_TABLE_BYTES, "win percentage table")
    if not data.isascii():
        first = next(i for i, b in enumerate(data) if b > 0x7F)
        raise WinModelError(f"{p}: byte {first + 1} is not ASCII: not a winpct table", p)
    data = data.rstrip()  # blank lines at the end
    if not data:
        raise WinModelError(f"{p}: empty: no line of counts", p)
    count = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n") + 1
    if count > MAX_TABLE_LINES:
        raise WinModelError(f"{p}: {count} lines, more than {MAX_TABLE_LINES}", p)
    lines = data.splitlines()
    _refuse_other_formats(lines[0], p)
    rows: list[array[float]] = []
    games: list[int] = []
    width = 0
    for n, line in enumerate(lines, 1):
        total, counts = _line(line, p, n, width or MAX_TABLE_COLUMNS)
        if n == 1:
            width = len(counts)
            if width % 2 == 0:
                raise WinModelError(
                    f"{p}:1: {width} counts after the number of games: expected an odd "
                    f"number (2S + 1 spreads, -S .. +S), at most {MAX_TABLE_COLUMNS}", p,
                )  # fmt: skip
        elif len(counts) != width:
            raise WinModelError(f"{p}:{n}: {len(counts)} counts, the first line has {width}", p)
        if total == 0:
            if not rows:
                raise WinModelError(f"{p}:{n}:1: 0 games, and no line above with games", p)
            rows.append(rows[-1])
        else:
            rows.append(array("d", (c / (2 * total) for c in counts)))
        games.append(total)
    return TableWinModel(f"winpct table {p.name}", width // 2, tuple(rows), tuple(games))


def _refuse_other_formats(first: bytes, p: Path) -> None:
    """MAGPIE's newer tables and Macondo's, refused with their reason."""
    head = first.replace(b",", b" ").split(maxsplit=1)
    if head and head[0].lower() == b"winpct":
        raise WinModelError(
            f"{p}:1:1: a MAGPIE table with a 'winpct' header line (by bag and rack sizes) "
            "is not supported: give a table of one line per number of unseen tiles", p,
        )  # fmt: skip
    if first.lstrip().startswith(b","):
        raise WinModelError(
            f"{p}:1:1: a Macondo table (a header row of unseen counts, one row of "
            "probabilities per spread) is not supported: give a MAGPIE/Quackle table", p,
        )  # fmt: skip


_FIELD = re.compile(rb"[^ \t,]+")


def _fields(line: bytes) -> Iterator[tuple[int, bytes]]:
    """The fields of a line as ``(column, text)``, column 1-based, one at a time."""
    for m in _FIELD.finditer(line):
        yield m.start() + 1, m.group()


def _line(line: bytes, p: Path, n: int, most: int) -> tuple[int, list[int]]:
    """The number of games and the counts of line ``n`` (at most ``most`` counts, each a
    whole number of at most 19 digits and at most twice the games)."""
    total = -1
    counts: list[int] = []
    for col, raw in _fields(line):
        if not raw.isdigit() or len(raw) > 19:
            text = raw[:20].decode("ascii")
            raise WinModelError(f"{p}:{n}:{col}: {text!r} is not a count (a whole number >= 0)", p)
        value = int(raw)
        if total < 0:
            total = value
            continue
        if value > 2 * total:
            raise WinModelError(
                f"{p}:{n}:{col}: count {value} is more than twice the {total} games of the "
                "line (a count is 2 per win, 1 per draw)", p,
            )  # fmt: skip
        if len(counts) == most:
            raise WinModelError(f"{p}:{n}:{col}: more than {most} counts on a line", p)
        counts.append(value)
    if total < 0:
        raise WinModelError(f"{p}:{n}: empty line", p)
    if not counts:
        raise WinModelError(f"{p}:{n}: no counts after the number of games", p)
    return total, counts


def load_win_model(path: str | os.PathLike[str]) -> WinModel:
    """A win model from a file: a ``.json`` made by ``tools/selfplay_winpct.py``, else a
    ``winpct.csv`` table."""
    if Path(path).suffix.lower() == ".json":
        return load_model_json(path)
    return load_winpct(path)
