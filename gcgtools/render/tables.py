"""DataFrames as terminal tables (rich), CSV or JSON Lines, for the report commands.

Terminal tables use the column names with spaces for underscores as headers (``avg_score``
is ``avg score``); a table keeps to the terminal's width, and piped it is as wide as its
widest row, with no trailing spaces. CSV and JSON Lines keep every column and its name.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from io import StringIO
from typing import TYPE_CHECKING, Any

from gcgtools.console import is_terminal, safe_text

if TYPE_CHECKING:
    import pandas as pd
    from rich.table import Table

__all__ = [
    "check_columns", "header", "json_lines", "print_frame", "render_table", "select_columns"
]  # fmt: skip


def _cell(value: Any) -> str:
    import pandas as pd

    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    return safe_text(str(value))  # names, titles, words from records


def header(column: str) -> str:
    """The header of a column in a terminal table: its name, spaces for underscores."""
    return safe_text(column.replace("_", " "))


def select_columns(
    frame: pd.DataFrame,
    columns: Sequence[str] | None = None,
    *,
    sort: str | None = None,
    keep: Sequence[str] = (),
) -> pd.DataFrame:
    """``frame`` with only ``columns`` (in that order, after the ``keep`` columns, which
    always stay first), sorted by ``sort``: numbers highest first, text A to Z, the row
    order as it was between equal values. ValueError naming the known columns for an
    unknown one. Column names may be given with spaces for underscores."""
    known = [str(c) for c in frame.columns]
    check_columns(known, columns, sort=sort)

    def name(column: str) -> str:
        return column.strip().replace(" ", "_")

    if sort is not None:
        key = name(sort)
        numeric = frame[key].dtype.kind in "iufb" or str(frame[key].dtype) == "Int64"
        frame = frame.sort_values(key, ascending=not numeric, kind="stable", na_position="last")
    if columns:
        wanted = [name(c) for item in columns for c in item.split(",") if c.strip()]
        chosen = [c for c in keep if c in known] + [c for c in wanted if c not in keep]
        frame = frame[list(dict.fromkeys(chosen))]
    return frame


def check_columns(
    known: Sequence[str], columns: Sequence[str] | None = None, *, sort: str | None = None
) -> None:
    """ValueError naming the known columns when ``columns`` (comma-separated or not) or
    ``sort`` names another (before an archive is read, say)."""
    names = [c for item in columns or [] for c in item.split(",") if c.strip()]
    for column in [*names, *([sort] if sort is not None else [])]:
        if column.strip().replace(" ", "_") not in known:
            raise ValueError(
                f"unknown column {column.strip()!r}; the columns are: {', '.join(known)}"
            )


def json_lines(frame: pd.DataFrame) -> str:
    """JSON Lines: one object per row, on one line each (an empty frame: nothing)."""
    records = json.loads(frame.to_json(orient="records", force_ascii=False))
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def _widths(
    headers: list[str], cells: list[list[str]], numeric: list[bool], width: int | None
) -> list[int] | None:
    """Column widths that fit the table in ``width`` characters (None: every column as wide
    as its widest cell and header). A number and a header word are never split: the
    columns start at that width (text at most 12 wide), then text columns and then number
    headers get back room, left to right, up to their full width."""
    full = [max([len(h), *(len(row[i]) for row in cells)]) for i, h in enumerate(headers)]
    gaps = 2 * (len(headers) - 1)
    if width is None or sum(full) + gaps <= width:
        return None
    words = [max(len(w) for w in h.split()) if h.strip() else 0 for h in headers]
    least = [
        max(words[i], *(len(row[i]) for row in cells))
        if numeric[i]
        else min(full[i], max(words[i], 12))
        for i in range(len(headers))
    ]
    room = width - gaps - sum(least)
    while room < 0:  # too narrow even so: the widest text column gives up a character
        text = [i for i in range(len(headers)) if not numeric[i] and least[i] > words[i]]
        if not text:
            break  # rich squeezes what is left
        widest = max(text, key=lambda i: least[i])
        least[widest] -= 1
        room += 1
    for i in sorted(range(len(headers)), key=lambda i: numeric[i]):
        more = min(max(room, 0), full[i] - least[i])
        least[i] += more
        room -= more
    return least


def frame_table(frame: pd.DataFrame, *, width: int | None = None) -> Table:
    """A rich table of ``frame``: numbers right-aligned and never split, a rule under the
    column names and no other lines, two spaces between columns; within ``width``
    characters, headers wrap at spaces and long text wraps in its cell."""
    from rich import box
    from rich.table import Table

    table = Table(
        box=box.SIMPLE_HEAD,
        padding=(0, 1, 0, 0),  # with the box's blank column: two spaces between columns
        pad_edge=False,
        show_edge=False,
        header_style="bold",
    )
    numeric = [
        frame[c].dtype.kind in "iuf" or str(frame[c].dtype) == "Int64" for c in frame.columns
    ]
    headers = [header(str(c)) for c in frame.columns]
    cells = [[_cell(v) for v in row] for row in frame.itertuples(index=False)]
    widths = _widths(headers, cells, numeric, width)
    for i, (name, number) in enumerate(zip(headers, numeric, strict=True)):
        table.add_column(
            name,
            justify="right" if number else "left",
            width=widths[i] if widths else None,
            overflow="fold",
        )
    for row in cells:
        table.add_row(*row)
    return table


def render_table(frame: pd.DataFrame, *, title: str = "", width: int | None = None) -> str:
    """The terminal table as plain text, under its ``title`` line: ``width`` columns wide
    at most (None: as wide as the table needs, never cut), lines without trailing spaces."""
    from rich.console import Console

    table = frame_table(frame, width=width)
    if width is None:
        wide = Console(width=10_000, file=StringIO())
        width = wide.measure(table).maximum
    buffer = StringIO()
    console = Console(file=buffer, width=width, color_system=None, legacy_windows=False)
    console.print(table, crop=False)
    lines = ([safe_text(title)] if title else []) + buffer.getvalue().splitlines()
    return "".join(line.rstrip() + "\n" for line in lines)


def print_frame(
    frame: pd.DataFrame,
    fmt: str,
    *,
    title: str = "",
    index: bool = False,
    columns: Sequence[str] | None = None,
    sort: str | None = None,
) -> None:
    """Print a DataFrame to standard output as a terminal table (``table``), CSV (``csv``)
    or JSON Lines (``json``), with only ``columns`` (all when None) sorted by ``sort``
    (see :func:`select_columns`). On a terminal the table fits its width; piped it is as
    wide as it needs, never cut."""
    if index:
        frame = frame.reset_index()
    keep = [str(frame.columns[0])] if index else []
    frame = select_columns(frame, columns, sort=sort, keep=keep)
    if fmt == "csv":
        text = frame.to_csv(index=False)
        sys.stdout.write(safe_text(text) if is_terminal(sys.stdout) else text)
        return
    if fmt == "json":
        sys.stdout.write(safe_text(json_lines(frame), json=True))
        return
    if "game_id" in frame.columns and not columns:
        frame = frame.drop(columns=["file"], errors="ignore")
    from gcgtools.console import stream_console

    console = stream_console(sys.stdout)
    if console.is_terminal:
        if title:
            console.print(safe_text(title), markup=False, highlight=False, soft_wrap=True)
        console.print(frame_table(frame, width=console.width))
    else:
        sys.stdout.write(render_table(frame, title=title))
