"""Player profiles over an archive judged at depth sim or full (``gcgtools stats --by
profile``): per player the Mistake Index per game, split by phase and by kind
(:mod:`gcgtools.analysis.kinds`), the share of best moves, and a rating estimate from a
least-squares fit of the ratings the records give on the Mistake Index.

Everything comes from the player-games table (:func:`~gcgtools.tables.frames.load_frames`:
the batch layer, its result cache and Dask), whose judgement columns hold each player's
judged turns of each game: a run with the same settings and seed gives the same profiles,
and a second run reads the judgements from the cache.

* :func:`profile_games`: one row per player per judged game (:data:`GAME_PROFILE_COLUMNS`),
  in archive order, with the game's date and the player's rating when the record gives them;
* :func:`fit_rating`: the rating fit (:class:`RatingFit`), or why it cannot be made;
* :func:`player_profiles`: a :class:`PlayerProfile` per player and the fit, as one value
  (:class:`Profiles`); :func:`profile_frame` the same as a DataFrame, one row per player;
* :func:`archive_profiles`: read and judge an archive, then all of the above.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gcgtools.analysis.grading import Phase
from gcgtools.analysis.kinds import MistakeKind
from gcgtools.rules.options import RuleOptions
from gcgtools.sources.atomic import atomic_output
from gcgtools.tables.frames import Source, checked_rules, load_frames
from gcgtools.wording import plural

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "GAME_PROFILE_COLUMNS",
    "KIND_COLUMNS",
    "MIN_RATED_GAMES",
    "PHASE_COLUMNS",
    "PROFILE_COLUMNS",
    "PROFILE_MEANINGS",
    "PlayerProfile",
    "Profiles",
    "RatingFit",
    "archive_profiles",
    "fit_rating",
    "player_profiles",
    "profile_frame",
    "profile_games",
    "save_frame",
]

#: the fewest judged games with a known rating (player-games) a rating fit is made from
MIN_RATED_GAMES = 10
PHASE_COLUMNS = [f"phase_{p.value}" for p in Phase]
KIND_COLUMNS = [f"kind_{k.value}" for k in MistakeKind]
#: the per-game table of the profiles (:func:`profile_games`)
GAME_PROFILE_COLUMNS = [
    "order", "file", "game_id", "date", "player", "opponent", "rating", "mistake_index",
    *PHASE_COLUMNS, *KIND_COLUMNS, "judged_turns", "best_moves",
]  # fmt: skip
#: the per-player table of the profiles (:func:`profile_frame`; the index is the player)
PROFILE_COLUMNS = [
    "games", "judged_turns", "mistake_index", *PHASE_COLUMNS, *KIND_COLUMNS,
    "best_move_share", "rating", "rating_estimate",
]  # fmt: skip

#: what each column of the per-player table means (``stats --help``)
PROFILE_MEANINGS: dict[str, str] = {
    "games": "judged games",
    "judged_turns": "turns graded (a judged move played among the legal ones)",
    "mistake_index": "Mistake Index per game (0.2 small, 0.5 medium, 1.0 large mistake)",
    **{f"phase_{p.value}": f"... of it in the {p.value} (per game)" for p in Phase},
    "kind_missed_bingo": "... from a bingo best and not played (per game)",
    "kind_exchange": "... from an exchange best and a play made, or the reverse",
    "kind_leave": "... from moves scoring at least the best's score (lost on the leave)",
    "kind_endgame": "... from pre-endgame and endgame mistakes",
    "kind_other": "... from the rest: plays scoring less than the best",
    "best_move_share": "share of graded turns where the best move was played",
    "rating": "mean rating the records give (#rating1, #rating2)",
    "rating_estimate": "rating from the archive's fit of rating on Mistake Index",
}


@dataclass(frozen=True, slots=True)
class RatingFit:
    """The least-squares line ``rating = intercept + slope * mistake_index`` over the
    ``games`` judged player-games whose record gives the player's rating (``players``
    distinct players), with ``r2`` its coefficient of determination; or, when it cannot
    be fitted, ``reason`` (and no line)."""

    games: int
    players: int
    slope: float | None = None
    intercept: float | None = None
    r2: float | None = None
    reason: str | None = None

    @property
    def fitted(self) -> bool:
        return self.reason is None

    def estimate(self, mistake_index: float | None) -> float | None:
        """The rating the line gives for a Mistake Index per game (None without a fit)."""
        if self.slope is None or self.intercept is None or mistake_index is None:
            return None
        return round(self.intercept + self.slope * mistake_index, 1)

    def describe(self) -> str:
        """One line: the line and its figures, or why there is none."""
        if self.reason is not None:
            return f"rating estimate: cannot be fitted: {self.reason}"
        return (
            f"rating estimate: rating = {self.intercept:.0f} {self.slope:+.0f} x Mistake "
            f"Index, least squares over {plural(self.games, 'rated game')} of "
            f"{plural(self.players, 'player')} (r2 {self.r2:.2f})"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "games": self.games,
            "players": self.players,
            "slope": _round(self.slope, 3),
            "intercept": _round(self.intercept, 3),
            "r2": _round(self.r2, 4),
            "reason": self.reason,
        }


def fit_rating(
    pairs: Sequence[tuple[float, float]], players: int = 0, *, minimum: int = MIN_RATED_GAMES
) -> RatingFit:
    """The least-squares fit of rating on Mistake Index over ``pairs`` (``(mistake_index,
    rating)`` per rated player-game, of ``players`` players); a plain reason instead when
    there are no pairs, fewer than ``minimum``, or one Mistake Index only."""
    n = len(pairs)
    if n == 0:
        why = "no judged game's record gives its player's rating (#rating1, #rating2)"
        return RatingFit(0, 0, reason=why)
    if n < minimum:
        why = f"only {plural(n, 'judged game')} with a rating; the fit needs {minimum}"
        return RatingFit(n, players, reason=why)
    mx = math.fsum(x for x, _ in pairs) / n
    my = math.fsum(y for _, y in pairs) / n
    sxx = math.fsum((x - mx) ** 2 for x, _ in pairs)
    if sxx <= 1e-12:
        why = f"the Mistake Index is {mx:g} in every rated game: no line can be fitted"
        return RatingFit(n, players, reason=why)
    sxy = math.fsum((x - mx) * (y - my) for x, y in pairs)
    syy = math.fsum((y - my) ** 2 for _, y in pairs)
    slope = sxy / sxx
    r2 = sxy * sxy / (sxx * syy) if syy > 0 else 0.0
    return RatingFit(n, players, slope, my - slope * mx, r2)


@dataclass(frozen=True, slots=True)
class PlayerProfile:
    """One player over the judged games of an archive: ``games`` judged, ``judged_turns``
    graded, the ``mistake_index`` per game (mean over the games) and its parts per game
    ``by_phase`` and ``by_kind`` (each adds up to it, up to rounding), the
    ``best_move_share`` of the graded turns, the mean ``rating`` the records give (None:
    none) and the ``rating_estimate`` of the archive's :class:`RatingFit` (None: no fit)."""

    player: str
    games: int
    judged_turns: int
    mistake_index: float
    by_phase: dict[str, float] = field(default_factory=dict)
    by_kind: dict[str, float] = field(default_factory=dict)
    best_move_share: float | None = None
    rating: float | None = None
    rating_estimate: float | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            "games": self.games,
            "judged_turns": self.judged_turns,
            "mistake_index": self.mistake_index,
            "by_phase": dict(self.by_phase),
            "by_kind": dict(self.by_kind),
            "best_move_share": self.best_move_share,
            "rating": self.rating,
            "rating_estimate": self.rating_estimate,
        }


@dataclass(frozen=True, slots=True)
class Profiles:
    """The profiles of an archive: a :class:`PlayerProfile` per player (most games first,
    then by name), the :class:`RatingFit`, and whether every judged game has a date
    (``dated``; else the games are in archive order)."""

    players: tuple[PlayerProfile, ...]
    fit: RatingFit
    dated: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "players": [p.to_dict() for p in self.players],
            "rating_fit": self.fit.to_dict(),
            "dated": self.dated,
        }


def profile_games(players: pd.DataFrame) -> pd.DataFrame:
    """One row per player per judged game of a player-games frame
    (:data:`GAME_PROFILE_COLUMNS`): ``order`` is the game's place in the archive (1 for
    the first file read), then its file, id, date, the player, the opponent, their rating,
    the Mistake Index of the game and its parts, the graded turns and best moves. A game
    counts for a player when at least one of their turns was graded (none is in a game of
    three or more players, or when every rack is unknown)."""
    order = {file: i + 1 for i, file in enumerate(dict.fromkeys(players["file"]))}
    judged = players[players["judged_turns"].fillna(0) > 0].copy()
    judged.insert(0, "order", judged["file"].map(order).astype("int64"))
    return judged[GAME_PROFILE_COLUMNS].reset_index(drop=True)


def player_profiles(games: pd.DataFrame, *, minimum: int = MIN_RATED_GAMES) -> Profiles:
    """The :class:`Profiles` of a :func:`profile_games` frame; the rating fit needs
    ``minimum`` rated player-games."""
    rated = games[games["rating"].notna()]
    pairs = [
        (float(x), float(y)) for x, y in zip(rated["mistake_index"], rated["rating"], strict=True)
    ]
    fit = fit_rating(pairs, int(rated["player"].nunique()), minimum=minimum)
    out = []
    for player, rows in games.groupby("player", sort=True):
        out.append(_profile(str(player), rows, fit))
    out.sort(key=lambda p: (-p.games, p.player))
    dated = bool(len(games)) and bool(games["date"].notna().all())
    return Profiles(tuple(out), fit, dated)


def _profile(player: str, rows: pd.DataFrame, fit: RatingFit) -> PlayerProfile:
    turns = int(rows["judged_turns"].sum())
    index = _round(float(rows["mistake_index"].mean()), 3)
    ratings = rows["rating"].dropna()
    return PlayerProfile(
        player=player,
        games=len(rows),
        judged_turns=turns,
        mistake_index=index if index is not None else 0.0,
        by_phase={c[6:]: _round(float(rows[c].mean()), 3) or 0.0 for c in PHASE_COLUMNS},
        by_kind={c[5:]: _round(float(rows[c].mean()), 3) or 0.0 for c in KIND_COLUMNS},
        best_move_share=round(int(rows["best_moves"].sum()) / turns, 3) if turns else None,
        rating=_round(float(ratings.mean()), 1) if len(ratings) else None,
        rating_estimate=fit.estimate(index),
    )


def profile_frame(profiles: Profiles) -> pd.DataFrame:
    """The profiles as a DataFrame: one row per player (the index), :data:`PROFILE_COLUMNS`."""
    import pandas as pd

    rows = [
        [p.games, p.judged_turns, p.mistake_index,
         *(p.by_phase[c[6:]] for c in PHASE_COLUMNS), *(p.by_kind[c[5:]] for c in KIND_COLUMNS),
         p.best_move_share, p.rating, p.rating_estimate]
        for p in profiles.players
    ]  # fmt: skip
    frame = pd.DataFrame(rows, columns=PROFILE_COLUMNS, index=[p.player for p in profiles.players])
    floats = [c for c in PROFILE_COLUMNS if c not in ("games", "judged_turns")]
    dtypes = {"games": "int64", "judged_turns": "int64", **dict.fromkeys(floats, "Float64")}
    frame = frame.astype(dtypes)
    frame.index.name = "player"
    frame.attrs["rating_fit"] = profiles.fit.to_dict()
    return frame


def archive_profiles(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Any = None,
    rules: RuleOptions | None = None,
    minimum: int = MIN_RATED_GAMES,
    **analysis: Any,
) -> tuple[Profiles, pd.DataFrame]:
    """Read and judge an archive (``analysis``: a lexicon and ``settings`` at depth sim or
    full, as for :func:`~gcgtools.tables.frames.load_frames`), then its :class:`Profiles`
    and :func:`profile_games` frame. The frame's ``attrs`` hold ``unreadable``, ``reasons``,
    ``games`` (readable games) and ``analysis`` (the lexicons used), as
    :func:`~gcgtools.tables.stats.archive_stats` gives them."""
    checked, analysis = checked_rules(rules, analysis)
    frames = load_frames(
        sources, moves=False, jobs=jobs, progress=progress, scheduler=scheduler, rules=checked,
        **analysis,
    )  # fmt: skip
    games = profile_games(frames.players)
    games.attrs.update(frames.summary_attrs())
    return player_profiles(games, minimum=minimum), games


def save_frame(frame: pd.DataFrame, path: str | os.PathLike[str], *, index: bool) -> Path:
    """Write ``frame`` as CSV or Parquet (by the suffix, ``.csv`` or ``.parquet``),
    atomically. Raises ValueError for another suffix, OSError when it cannot be written."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise ValueError(f"{target}: the file name must end in .csv or .parquet")
    plain = frame.copy()
    plain.attrs = {}
    with atomic_output(target) as name:
        if suffix == ".csv":
            plain.to_csv(name, index=index)
        else:
            plain.to_parquet(name, index=index)
    return target


def _round(value: float | None, places: int) -> float | None:
    if value is None or math.isnan(value):
        return None
    return round(value, places)
