"""Player profiles (:class:`~gcgtools.tables.profiles.Profiles`) as text for a terminal:
two tables that fit 80 columns, the Mistake Index per game by phase and by kind, then one
line on the rating fit (its line, or why it cannot be fitted)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from gcgtools.render.tables import render_table
from gcgtools.tables.profiles import KIND_COLUMNS, PHASE_COLUMNS, Profiles, profile_frame

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["LEGEND", "PROFILE_WIDTH", "profile_text"]

#: the width of the text tables
PROFILE_WIDTH = 80
_PHASES = {"phase_opening": "open", "phase_midgame": "mid",
           "phase_preendgame": "pre", "phase_endgame": "end"}  # fmt: skip
_KINDS = {"kind_missed_bingo": "missed bingo", "kind_exchange": "exchange or not",
          "kind_leave": "leave", "kind_endgame": "endgame", "kind_other": "other"}  # fmt: skip
#: what the short headers of the by-phase table stand for
LEGEND = (
    "MI: Mistake Index per game (0.2 a small mistake, 0.5 medium, 1.0 large), split "
    "by phase (open, mid, pre: pre-endgame, end) and by kind; best: share of graded turns "
    "where the best move was played; rtg: the rating the records give; est.: the rating "
    "estimate from the fit below."
)


def _tables(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The by-phase and the by-kind table of a :func:`profile_frame`."""
    phases = frame[["games", "judged_turns", "mistake_index", *PHASE_COLUMNS,
                    "best_move_share", "rating", "rating_estimate"]].copy()  # fmt: skip
    for column in ("rating", "rating_estimate"):  # whole points read better than 1850.00
        phases[column] = phases[column].round(0).astype("Int64")
    phases = phases.rename(columns={
        "judged_turns": "turns", "mistake_index": "MI", "best_move_share": "best", "rating": "rtg",
        "rating_estimate": "est.", **_PHASES,
    })  # fmt: skip
    kinds = frame[["mistake_index", *KIND_COLUMNS]].rename(
        columns={"mistake_index": "MI", **_KINDS}
    )
    return phases.reset_index(), kinds.reset_index()


def profile_text(profiles: Profiles, *, title: str = "") -> str:
    """The profiles as text: ``title``, the Mistake Index per game by phase (with the
    games, turns graded, share of best moves, rating given and rating estimate), by
    kind, and the rating fit's line; within :data:`PROFILE_WIDTH` columns."""
    if not profiles.players:
        return (f"{title}\n" if title else "") + "no judged games\n"
    phases, kinds = _tables(profile_frame(profiles))
    head = f"{title}: " if title else ""
    text = render_table(
        phases, title=f"{head}Mistake Index per game, by phase", width=PROFILE_WIDTH
    )
    text += "\n" + render_table(
        kinds, title="Mistake Index per game, by kind of mistake", width=PROFILE_WIDTH
    )
    notes = [LEGEND, profiles.fit.describe()]
    return text + "\n" + "".join(textwrap.fill(n, PROFILE_WIDTH) + "\n" for n in notes)
