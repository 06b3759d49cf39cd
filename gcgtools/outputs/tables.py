"""DataFrames as terminal tables (rich), CSV or JSON, for the report commands."""

from __future__ import annotations

import json
import sys
from typing import Any


def _cell(value: Any) -> str:
    import pandas as pd

    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


# Short headers for the terminal tables; CSV and JSON keep the full column names.
_SHORT = {
    "finished": "done", "wins": "W", "losses": "L", "ties": "T", "avg_score": "avg",
    "avg_spread": "spread", "points_per_turn": "pts/turn", "bingos_per_game": "b/game",
    "highest_game": "top game", "highest_play": "top play", "highest_play_word": "word",
    "exchanges": "exch", "passes": "pass", "phonies": "phony", "challenges_won": "ch+",
    "challenges_lost": "ch-", "player1": "player 1", "player2": "player 2",
    "score1": "score 1", "score2": "score 2", "bingos1": "b1", "bingos2": "b2",
    "best_score": "best", "best_word": "word", "best_player": "by",
    "phonies_played": "ph played", "phonies_stood": "ph stood", "missed_bingos": "missed b",
    "avg_equity_lost": "eq lost",
}  # fmt: skip


def print_frame(frame: Any, fmt: str, *, title: str, index: bool) -> None:
    """Print a DataFrame to standard output as a terminal table (``table``), CSV (``csv``)
    or a JSON list of objects (``json``). Piped tables are as wide as they need, never cut."""
    if index:
        frame = frame.reset_index()
    if fmt == "csv":
        sys.stdout.write(frame.to_csv(index=False))
        return
    if fmt == "json":
        records = json.loads(frame.to_json(orient="records", force_ascii=False))
        sys.stdout.write(json.dumps(records, indent=2, ensure_ascii=False) + "\n")
        return
    from rich.console import Console
    from rich.table import Table

    if "game_id" in frame.columns:
        frame = frame.drop(columns=["file"], errors="ignore")
    table = Table(title=title)
    for column in frame.columns:
        numeric = frame[column].dtype.kind in "iuf" or str(frame[column].dtype) == "Int64"
        table.add_column(
            _SHORT.get(str(column), str(column)),
            justify="right" if numeric else "left",
            no_wrap=numeric,
        )
    for row in frame.itertuples(index=False):
        table.add_row(*(_cell(v) for v in row))
    console = Console()
    if not console.is_terminal:  # piped: as wide as the table needs, never cut
        wide = console.options.update_width(10_000)
        console = Console(width=max(console.width, console.measure(table, options=wide).maximum))
    console.print(table)
