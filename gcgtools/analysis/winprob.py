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
spread: 1 for a positive one, 0.5 for 0, 0 for a negative one.
"""

from __future__ import annotations

import json
import math
import os
import stat
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Protocol, runtime_checkable

__all__ = [
    "MAX_TABLE_BYTES",
    "MAX_TABLE_LINES",
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

#: The largest table read (MAGPIE's English table is about 0.2 MB).
MAX_TABLE_BYTES = 32 * 1024 * 1024
#: At most this many lines (numbers of unseen tiles) in a table.
MAX_TABLE_LINES = 1000
#: At most this many spread columns in a table line (``2S + 1``).
MAX_TABLE_COLUMNS = 20001
BUILTIN_FILE = "winpct_model.json"


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


@dataclass(frozen=True)
class LogisticWinModel:
    """``P = 1 / (1 + exp(-(spread + m0 + m1 * u) / sqrt(s0**2 + s1**2 * u)))``; see the
    module docstring. ``made`` holds how the parameters were made (games, seed, fit)."""

    name: str
    m0: float
    m1: float
    s0: float
    s1: float
    made: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    def probability(self, spread: float, unseen: int) -> float:
        if unseen <= 0:
            return decided(spread)
        scale = math.sqrt(self.s0 * self.s0 + self.s1 * self.s1 * unseen)
        z = (spread + self.m0 + self.m1 * unseen) / scale
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)


@dataclass(frozen=True)
class TableWinModel:
    """A table of probabilities by unseen tiles (``rows[u - 1]``) and spread
    (``rows[u - 1][spread + max_spread]``), read from a ``winpct.csv``."""

    name: str
    max_spread: int
    rows: tuple[tuple[float, ...], ...]
    games: tuple[int, ...] = field(compare=False, repr=False, default=())

    def probability(self, spread: float, unseen: int) -> float:
        if unseen <= 0:
            return decided(spread)
        s = _round_half_away(spread)
        s = max(-self.max_spread, min(self.max_spread, s))
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
    text = resources.files("gcgtools.analysis").joinpath(BUILTIN_FILE).read_text("utf-8")
    return _model_from_json(json.loads(text), BUILTIN_FILE)


def _model_from_json(data: object, where: str | os.PathLike[str]) -> LogisticWinModel:
    if not isinstance(data, dict) or data.get("format") != "gcgtools-winmodel-1":
        raise WinModelError(f"{where}: not a gcgtools win model (format gcgtools-winmodel-1)")
    params = data.get("parameters")
    values: dict[str, float] = {}
    for key in ("m0", "m1", "s0", "s1"):
        v = params.get(key) if isinstance(params, dict) else None
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise WinModelError(f"{where}: parameter {key!r} is missing or not a number")
        values[key] = float(v)
    if values["s0"] < 0 or values["s1"] < 0 or values["s0"] + values["s1"] == 0:
        raise WinModelError(f"{where}: the scales s0 and s1 must be >= 0, not both 0")
    name = data.get("name")
    made = {k: v for k, v in data.items() if k not in ("parameters", "name")}
    return LogisticWinModel(
        str(name) if name else Path(where).name, values["m0"], values["m1"], values["s0"],
        values["s1"], made,
    )  # fmt: skip


def _read_limited(path: str | os.PathLike[str], what: str) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_TABLE_BYTES`."""
    p = Path(path)
    try:
        st = os.stat(p)
    except OSError as exc:
        raise WinModelError(f"{p}: cannot read {what}: {exc.strerror or exc}", p) from None
    if not stat.S_ISREG(st.st_mode):
        raise WinModelError(f"{p}: not a regular file", p)
    if st.st_size > MAX_TABLE_BYTES:
        raise WinModelError(
            f"{p}: {st.st_size} bytes, more than the {MAX_TABLE_BYTES} a {what} may have", p
        )
    try:
        with open(p, "rb") as fh:
            data = fh.read(MAX_TABLE_BYTES + 1)
    except OSError as exc:
        raise WinModelError(f"{p}: cannot read {what}: {exc.strerror or exc}", p) from None
    if len(data) > MAX_TABLE_BYTES:
        raise WinModelError(f"{p}: more than the {MAX_TABLE_BYTES} bytes a {what} may have", p)
    return data


def load_model_json(path: str | os.PathLike[str]) -> LogisticWinModel:
    """A logistic model written by ``tools/selfplay_winpct.py``."""
    data = _read_limited(path, "win model")
    try:
        parsed = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WinModelError(f"{path}: not JSON: {exc}", path) from None
    return _model_from_json(parsed, path)


def load_winpct(path: str | os.PathLike[str]) -> TableWinModel:
    """A MAGPIE/Quackle-style ``winpct.csv`` table (format in the module docstring;
    fields separated by spaces, tabs or commas). Raises :class:`WinModelError`, naming
    the file, line and column, for anything else."""
    p = Path(path)
    data = _read_limited(p, "win percentage table")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        msg = f"{p}: byte {exc.start + 1} is not ASCII: not a winpct table"
        raise WinModelError(msg, p) from None
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise WinModelError(f"{p}: empty: no line of counts", p)
    first = lines[0].replace(",", " ").split()
    if first and first[0].lower() == "winpct":
        raise WinModelError(
            f"{p}:1:1: a MAGPIE table with a 'winpct' header line (by bag and rack sizes) "
            "is not supported: give a table of one line per number of unseen tiles", p,
        )  # fmt: skip
    if lines[0].lstrip().startswith(","):
        raise WinModelError(
            f"{p}:1:1: a Macondo table (a header row of unseen counts, one row of "
            "probabilities per spread) is not supported: give a MAGPIE/Quackle table", p,
        )  # fmt: skip
    if len(lines) > MAX_TABLE_LINES:
        raise WinModelError(f"{p}: {len(lines)} lines, more than {MAX_TABLE_LINES}", p)
    rows: list[tuple[float, ...]] = []
    games: list[int] = []
    width = 0
    for n, line in enumerate(lines, 1):
        fields = _fields(line, p, n)
        if n == 1:
            width = len(fields) - 1
            if width < 1 or width % 2 == 0 or width > MAX_TABLE_COLUMNS:
                raise WinModelError(
                    f"{p}:1: {width} counts after the number of games: expected an odd "
                    f"number (2S + 1 spreads, -S .. +S), at most {MAX_TABLE_COLUMNS}", p,
                )  # fmt: skip
        elif len(fields) - 1 != width:
            raise WinModelError(f"{p}:{n}: {len(fields) - 1} counts, the first line has {width}", p)
        total = fields[0][1]
        counts = [v for _, v in fields[1:]]
        for col, v in fields[1:]:
            if v > 2 * total:
                raise WinModelError(
                    f"{p}:{n}:{col}: count {v} is more than twice the {total} games of the "
                    "line (a count is 2 per win, 1 per draw)", p,
                )  # fmt: skip
        if total == 0:
            if not rows:
                raise WinModelError(f"{p}:{n}:1: 0 games, and no line above with games", p)
            rows.append(rows[-1])
        else:
            rows.append(tuple(c / (2 * total) for c in counts))
        games.append(total)
    return TableWinModel(f"winpct table {p.name}", width // 2, tuple(rows), tuple(games))


def _fields(line: str, p: Path, n: int) -> list[tuple[int, int]]:
    """The whole numbers of a line as ``(column, value)`` (column 1-based, in characters)."""
    out: list[tuple[int, int]] = []
    col = 0
    for raw in line.replace("\t", " ").replace(",", " ").split(" "):
        if raw:
            if not raw.isdigit() or len(raw) > 19:
                raise WinModelError(
                    f"{p}:{n}:{col + 1}: {raw[:20]!r} is not a count (a whole number >= 0)", p
                )
            out.append((col + 1, int(raw)))
        col += len(raw) + 1
    if not out:
        raise WinModelError(f"{p}:{n}: empty line", p)
    return out


def load_win_model(path: str | os.PathLike[str]) -> WinModel:
    """A win model from a file: a ``.json`` made by ``tools/selfplay_winpct.py``, else a
    ``winpct.csv`` table."""
    if Path(path).suffix.lower() == ".json":
        return load_model_json(path)
    return load_winpct(path)
