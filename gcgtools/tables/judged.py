"""The judgement columns of the tables (filled when an analysis at ``depth`` sim or full
ran, NA otherwise): per move the phase, win%, win% lost, spread lost and mistake; per
player and game the Mistake Index, the mistakes by size, the judged turns and how many
of them were the best move; per game the Mistake Index of each seat; and the player
statistics made of them (:func:`judged_player_stats`)."""

from __future__ import annotations

from importlib.metadata import version
from typing import TYPE_CHECKING, Any

from gcgtools.analysis.grading import Mistake, Phase
from gcgtools.analysis.kinds import MistakeKind, game_mistakes
from gcgtools.analysis.results import RecordAnalysis, TurnAnalysis, rounded

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "JUDGED_GAME_DTYPES",
    "JUDGED_MOVE_DTYPES",
    "JUDGED_PLAYER_DTYPES",
    "JUDGED_STAT_MEANINGS",
    "judged_move_values",
    "judged_player_stats",
    "judged_player_values",
]

#: the text columns' dtype, as in :mod:`gcgtools.tables.rows`
STR = "str" if int(version("pandas").split(".")[0]) >= 3 else "object"

JUDGED_MOVE_DTYPES: dict[str, str] = {
    "phase": STR,  # opening, midgame, preendgame, endgame
    "win_pct": "Float64",  # the move played's win% (0..100; endgame: 100 won, 50 tie, 0 lost)
    "win_pct_lost": "Float64",  # best move's win% minus the move played's (not endgame)
    "spread_lost": "Float64",  # endgame: best move's value minus the move played's
    "mistake": STR,  # none, small, medium, large; NA when not graded (phony, not judged)
}
JUDGED_PLAYER_DTYPES: dict[str, str] = {
    "mistake_index": "Float64",  # 0.2 small + 0.5 medium + 1.0 large, this game
    "mistakes_small": "Int64",
    "mistakes_medium": "Int64",
    "mistakes_large": "Int64",
    "judged_turns": "Int64",  # turns graded
    "best_moves": "Int64",  # graded turns whose move played was the best judged
    # the Mistake Index of this game split by phase, then by kind (each set adds up to it;
    # gcgtools.analysis.kinds says which kind a mistake is)
    **{f"phase_{p.value}": "Float64" for p in Phase},
    **{f"kind_{k.value}": "Float64" for k in MistakeKind},
}
JUDGED_GAME_DTYPES: dict[str, str] = {"mistake_index1": "Float64", "mistake_index2": "Float64"}

JUDGED_STAT_MEANINGS: dict[str, str] = {
    "mistake_index": "average Mistake Index per judged game (with --depth sim/full)",
    "mistakes_small": "small mistakes (win% lost 0.5 to 3; endgame 1 to 7 points)",
    "mistakes_medium": "medium mistakes (win% lost 3 to 7; endgame 7 to 15 points)",
    "mistakes_large": "large mistakes (win% lost 7 or more; endgame 15 or more, or a win lost)",
    "best_move_share": "share of graded turns where the best move was played",
}


def judged_move_values(turn: TurnAnalysis | None) -> list[Any]:
    """The move row's judgement columns, in the order of :data:`JUDGED_MOVE_DTYPES`."""
    j = turn.judgement if turn is not None else None
    if j is None:
        return [None] * len(JUDGED_MOVE_DTYPES)
    win = j.played.win_pct if j.played is not None else None
    mistake = j.mistake.value if j.mistake is not None else None
    lost = (rounded(j.win_pct_lost, 3), rounded(j.spread_lost, 3))
    return [j.phase.value, rounded(win, 3), *lost, mistake]


def judged_player_values(analysis: RecordAnalysis) -> dict[str, list[Any]]:
    """Per player, the judgement columns of :data:`JUDGED_PLAYER_DTYPES` (empty when the
    analysis was not judged)."""
    sizes = {nick: [0, 0, 0] for nick in analysis.players}
    order = (Mistake.SMALL, Mistake.MEDIUM, Mistake.LARGE)
    for t in analysis.turns:
        j = t.judgement
        if j is not None and j.mistake in order:
            sizes.setdefault(t.player, [0, 0, 0])[order.index(j.mistake)] += 1  # type: ignore[arg-type]
    out: dict[str, list[Any]] = {}
    for nick, g in game_mistakes(analysis).items():
        index = analysis.mistake_index.get(nick, g.mistake_index)
        out[nick] = [
            index, *sizes.get(nick, [0, 0, 0]), g.judged_turns, g.best_moves,
            *(g.by_phase[p] for p in Phase), *(g.by_kind[k] for k in MistakeKind),
        ]  # fmt: skip
    return out


def judged_player_stats(players: pd.DataFrame) -> pd.DataFrame:
    """Per player (index): the columns of :data:`JUDGED_STAT_MEANINGS` from a
    player-games frame; NA for players never judged."""
    import pandas as pd

    p = players[["player", *JUDGED_PLAYER_DTYPES]].copy()
    g = p.groupby("player", sort=True)
    out = pd.DataFrame(
        {
            "mistake_index": g["mistake_index"].mean(),
            "mistakes_small": g["mistakes_small"].sum(min_count=1),
            "mistakes_medium": g["mistakes_medium"].sum(min_count=1),
            "mistakes_large": g["mistakes_large"].sum(min_count=1),
            "_best": g["best_moves"].sum(min_count=1),
            "_judged": g["judged_turns"].sum(min_count=1),
        }
    )
    out["best_move_share"] = (out["_best"] / out["_judged"].replace(0, pd.NA)).astype("Float64")
    out["mistake_index"] = out["mistake_index"].astype("Float64").round(2)
    out["best_move_share"] = out["best_move_share"].round(3)
    for column in ("mistakes_small", "mistakes_medium", "mistakes_large"):
        out[column] = out[column].astype("Int64")
    return out[list(JUDGED_STAT_MEANINGS)]
