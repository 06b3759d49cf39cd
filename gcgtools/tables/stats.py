"""Statistics over an archive, computed from the tables of :mod:`gcgtools.tables.frames`.

The functions taking frames are pure pandas: give them the frames of any selection of
games (a tournament, a year, one opponent) and they summarise it.

>>> frames = load_frames(["examples/"], moves=False)  # doctest: +SKIP
>>> player_stats(frames.players)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from gcgtools.rules.options import RuleOptions
from gcgtools.tables.frames import (
    MOVE_COLUMNS,
    STR_DTYPE,
    Source,
    checked_rules,
    iter_results,
    load_frames,
)
from gcgtools.tables.judged import JUDGED_STAT_MEANINGS, judged_player_stats

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "BINGO_COLUMNS",
    "GAME_SUMMARY_COLUMNS",
    "GAME_TABLE_COLUMNS",
    "PLAYER_STAT_COLUMNS",
    "PLAYER_STAT_MEANINGS",
    "PLAYER_TABLE_COLUMNS",
    "archive_stats",
    "bingo_counts",
    "bingo_rows",
    "bingos",
    "game_summary",
    "player_stats",
]

# Columns of player_stats, in order (the index is the player's nickname), with their
# meaning (the legend of `gcgtools stats --help`).
PLAYER_STAT_MEANINGS: dict[str, str] = {
    "games": "games played (finished or not)",
    "finished": "games that reached their end",
    "wins": "finished games won",
    "losses": "finished games lost",
    "ties": "finished games tied",
    "avg_score": "average final score (finished games)",
    "avg_spread": "average of own score minus the best other score (finished games)",
    "points_per_turn": "points of plays that stood / turns (plays, passes, exchanges)",
    "bingos": "bingos that stood",
    "bingos_per_game": "bingos / games",
    "highest_game": "highest final score of a finished game",
    "highest_play": "highest play that stood",
    "highest_play_word": "the word of that play",
    "exchanges": "exchanges",
    "passes": "passes",
    "phonies": "own plays withdrawn after a challenge",
    "challenges_won": "opponents' plays withdrawn after a challenge",
    "challenges_lost": "challenge bonuses given away, turns lost to a double challenge",
    # with a lexicon (lexicon=/lexica=, stats --lexicon/--lexica): NA without one
    "phonies_played": "own plays forming a word not in the lexicon (with --lexicon)",
    "phonies_stood": "... that were not withdrawn (with --lexicon)",
    "missed_bingos": "turns with a bingo available and not played (with --lexicon)",
    "avg_equity_lost": "average equity lost per turn whose full rack is known (with --lexicon)",
    # with a judged analysis (depth sim or full): NA without one
    **JUDGED_STAT_MEANINGS,
}
PLAYER_STAT_COLUMNS = list(PLAYER_STAT_MEANINGS)
# the columns a terminal table shows unless asked for others: they fit in 80 columns
PLAYER_TABLE_COLUMNS = [
    "games", "wins", "losses", "ties", "avg_score", "avg_spread", "points_per_turn", "bingos",
    "highest_play",
]  # fmt: skip

# "event": the event number (1-based index of the event line in the record), as everywhere
BINGO_COLUMNS = ["file", "game_id", "event", "player", "opponent", "word", "position", "score"]

GAME_SUMMARY_COLUMNS = [
    "file", "game_id", "player1", "player2", "score1", "score2", "spread", "winner", "turns",
    "bingos1", "bingos2", "best_score", "best_word", "best_player", "status",
]  # fmt: skip
GAME_TABLE_COLUMNS = ["game_id", "player1", "score1", "player2", "score2", "winner", "spread"]


ANALYSIS_STAT_COLUMNS = ["phonies_played", "phonies_stood", "missed_bingos", "avg_equity_lost"]
_ANALYSIS_STAT_DTYPES = {
    "phonies_played": "Int64",
    "phonies_stood": "Int64",
    "missed_bingos": "Int64",
    "avg_equity_lost": "Float64",
    "mistake_index": "Float64",
    "mistakes_small": "Int64",
    "mistakes_medium": "Int64",
    "mistakes_large": "Int64",
    "best_move_share": "Float64",
}


def player_stats(players: pd.DataFrame) -> pd.DataFrame:
    """Per-player statistics from a player-games frame (one row per player per game, as
    :func:`~gcgtools.tables.frames.player_games_frame` builds), indexed by nickname and
    sorted by games played, then name. Averages are rounded to two decimals."""
    import pandas as pd  # not at import: workers forked before it never load it

    if players.empty:
        frame = pd.DataFrame(columns=PLAYER_STAT_COLUMNS)
        frame.index.name = "player"
        return frame.astype(_ANALYSIS_STAT_DTYPES)
    needed = ["player", "game_id", "finished", "result", "score", "spread", "turns",
              "play_points", "bingos", "best_score", "best_word", "exchanges", "passes",
              "phonies", "challenges_won", "challenges_lost", "phonies_played",
              "phonies_stood", "missed_bingos", "analysed_turns", "equity_lost"]  # fmt: skip
    p = players[needed].copy()
    finished = p["finished"].astype(bool)
    p["_win"] = p["result"].eq("win")
    p["_loss"] = p["result"].eq("loss")
    p["_tie"] = p["result"].eq("tie")
    p["_fscore"] = p["score"].where(finished)
    p["_fspread"] = p["spread"].where(finished)
    g = p.groupby("player", sort=True)
    out = pd.DataFrame(
        {
            "games": g.size(),
            "finished": g["finished"].sum(),
            "wins": g["_win"].sum(),
            "losses": g["_loss"].sum(),
            "ties": g["_tie"].sum(),
            "avg_score": g["_fscore"].mean(),
            "avg_spread": g["_fspread"].mean(),
            "points_per_turn": g["play_points"].sum() / g["turns"].sum().replace(0, pd.NA),
            "bingos": g["bingos"].sum(),
            "highest_game": g["_fscore"].max(),
            "exchanges": g["exchanges"].sum(),
            "passes": g["passes"].sum(),
            "phonies": g["phonies"].sum(),
            "challenges_won": g["challenges_won"].sum(),
            "challenges_lost": g["challenges_lost"].sum(),
            # NA stays NA for players never analysed
            "phonies_played": g["phonies_played"].sum(min_count=1),
            "phonies_stood": g["phonies_stood"].sum(min_count=1),
            "missed_bingos": g["missed_bingos"].sum(min_count=1),
            "_lost": g["equity_lost"].sum(min_count=1),
            "_analysed": g["analysed_turns"].sum(min_count=1),
        }
    )
    out["avg_equity_lost"] = (out["_lost"] / out["_analysed"].replace(0, pd.NA)).astype("Float64")
    out["avg_equity_lost"] = out["avg_equity_lost"].round(2)
    for column in ("phonies_played", "phonies_stood", "missed_bingos"):
        out[column] = out[column].astype("Int64")
    out["bingos_per_game"] = out["bingos"] / out["games"]
    best = p.dropna(subset=["best_score"]).sort_values(
        ["best_score", "game_id"], ascending=[False, True], kind="stable"
    )
    best = best.drop_duplicates("player").set_index("player")
    out["highest_play"] = best["best_score"].reindex(out.index).astype("Int64")
    out["highest_play_word"] = best["best_word"].reindex(out.index)
    out["highest_game"] = out["highest_game"].astype("Int64")
    for column in ("avg_score", "avg_spread", "points_per_turn", "bingos_per_game"):
        out[column] = pd.to_numeric(out[column], errors="coerce").astype(float).round(2)
    for column in ("games", "finished", "wins", "losses", "ties", "bingos", "exchanges",
                   "passes", "phonies", "challenges_won", "challenges_lost"):  # fmt: skip
        out[column] = out[column].astype("int64")
    out = out.join(judged_player_stats(players))
    out = out[PLAYER_STAT_COLUMNS]
    out = out.sort_values("games", ascending=False, kind="stable")
    out.index.name = "player"
    return out


def game_summary(games: pd.DataFrame) -> pd.DataFrame:
    """The games frame cut down to the columns worth a glance, one row per game."""
    return games[GAME_SUMMARY_COLUMNS].reset_index(drop=True)


def bingo_rows(moves: pd.DataFrame) -> pd.DataFrame:
    """Every bingo of a moves frame: ``BINGO_COLUMNS``, one row per bingo, in game order."""
    rows = moves.loc[moves["bingo"].astype(bool), BINGO_COLUMNS]
    return rows.reset_index(drop=True)


def bingo_counts(bingo_table: pd.DataFrame) -> pd.DataFrame:
    """Bingos per player from :func:`bingos` or :func:`bingo_rows`: columns ``bingos`` and
    ``games`` (games with at least one bingo), most bingos first, indexed by nickname."""
    import pandas as pd  # not at import: workers forked before it never load it

    if bingo_table.empty:
        frame = pd.DataFrame({"bingos": pd.Series(dtype="int64"),
                              "games": pd.Series(dtype="int64")})  # fmt: skip
        frame.index.name = "player"
        return frame
    g = bingo_table.groupby("player", sort=True)
    out = pd.DataFrame({"bingos": g.size(), "games": g["game_id"].nunique()})
    out = out.astype("int64").sort_values("bingos", ascending=False, kind="stable")
    out.index.name = "player"
    return out


def bingos(
    sources: Source | Iterable[Source],
    *,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Any = None,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> pd.DataFrame:
    """Every bingo of an archive (``BINGO_COLUMNS``: player, word, position, score, game ...),
    streamed: only the bingo rows are kept. ``attrs["unreadable"]`` lists unreadable files
    and ``attrs["games"]`` counts the games read; :func:`bingo_counts` gives the tallies.
    ``rules`` and ``analysis`` as for :func:`~gcgtools.tables.frames.iter_results`."""
    checked, analysis = checked_rules(rules, analysis)
    import pandas as pd  # not at import: workers forked before it never load it

    index = [MOVE_COLUMNS.index(c) for c in BINGO_COLUMNS]
    rows: list[tuple[Any, ...]] = []
    unreadable: list[str] = []
    reasons: dict[str, str] = {}
    games = 0
    for result in iter_results(
        sources,
        jobs=jobs,
        progress=progress,
        keep="bingos",
        scheduler=scheduler,
        rules=checked,
        **analysis,
    ):
        if result.unreadable:
            unreadable.append(result.file)
            reasons[result.file] = result.reason or "unreadable"
            continue
        games += 1
        rows.extend(tuple(row[i] for i in index) for row in result.moves)
    frame = pd.DataFrame.from_records(rows, columns=BINGO_COLUMNS) if rows else None
    if frame is None:
        frame = pd.DataFrame({c: pd.Series(dtype=STR_DTYPE) for c in BINGO_COLUMNS})
        frame = frame.astype({"event": "int64", "score": "int64"})
    frame.attrs["unreadable"] = unreadable
    frame.attrs["reasons"] = reasons
    frame.attrs["games"] = games
    return frame


def archive_stats(
    sources: Source | Iterable[Source],
    *,
    by: str = "player",
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Any = None,
    rules: RuleOptions | None = None,
    **analysis: Any,
) -> pd.DataFrame:
    """Read an archive and summarise it ``by`` "player" (:func:`player_stats`) or "game"
    (:func:`game_summary`, readable games only). ``attrs["unreadable"]`` lists the files
    that could not be read, ``attrs["reasons"]`` says why. ``lexicon``, ``lexica`` and
    ``leaves`` (in ``analysis``, as for :func:`~gcgtools.tables.frames.games_frame`)
    analyse every game; ``attrs["analysis"]`` then lists the lexicons and leaves used
    (or why there was none), one line each. ``rules``: the
    :class:`~gcgtools.rules.options.RuleOptions` (default: each record's own)."""
    checked, analysis = checked_rules(rules, analysis)
    if by not in ("player", "game"):
        raise ValueError(f"by must be 'player' or 'game', not {by!r}")
    frames = load_frames(
        sources, moves=False, jobs=jobs, progress=progress, scheduler=scheduler, rules=checked,
        **analysis,
    )  # fmt: skip
    if by == "player":
        out = player_stats(frames.players)
    else:
        out = game_summary(frames.games[frames.games["status"] != "unreadable"])
    out.attrs.update(frames.summary_attrs())
    return out
