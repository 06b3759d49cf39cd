"""Every notebook in notebooks/ runs from top to bottom, so none of them can rot.

They run in a fresh ``python3`` kernel with notebooks/ as the working directory, with or
without ``GCGTOOLS_CORPUS`` (the notebooks use the shared corpus only when it is set).
The committed notebooks keep their outputs cleared.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from gcgtools import Board
from gcgtools.rules.boards import board_layout

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


def test_there_are_notebooks() -> None:
    assert PATHS, f"no notebook in {NOTEBOOKS}"


@cache
def executed(path: Path) -> nbformat.NotebookNode:
    """The notebook after a run (once per test session)."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, kernel_name="python3", timeout=600, resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()  # raises CellExecutionError, with the cell and traceback, on an error
    return nb


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_notebook_runs(path: Path) -> None:
    nb = executed(path)
    errors = [
        out for cell in nb.cells if cell.cell_type == "code" for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]  # fmt: skip
    assert errors == []


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_committed_notebook_has_no_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert all(not cell.outputs and cell.execution_count is None for cell in code)


def test_archive_tour_shows_its_tables_and_charts() -> None:
    nb = executed(NOTEBOOKS / "archive_tour.ipynb")
    kinds = [
        set(out.get("data", {})) for cell in nb.cells if cell.cell_type == "code"
        for out in cell.outputs if out.get("output_type") in ("execute_result", "display_data")
    ]  # fmt: skip
    assert sum("image/png" in k for k in kinds) >= 2  # progression and archive charts
    assert sum("text/html" in k for k in kinds) >= 3  # DataFrames: games, moves, stats
    last = [c for c in nb.cells if c.cell_type == "code"][-1]
    board = [o for o in last.outputs if o.get("output_type") == "execute_result"]
    assert board and "text/plain" in board[0]["data"]  # the Board, as SVG or as text
    if Board(board_layout("CrosswordGame"))._repr_svg_() is not None:
        assert "image/svg+xml" in board[0]["data"]


def test_archive_tour_counts_each_game_once() -> None:
    """The tour reads examples/*.gcg, not the copy of club-final in examples/with-errors/,
    and any record (the same bytes) once."""
    import hashlib
    import os
    import re

    from gcgtools.sources import expand_paths

    nb = executed(NOTEBOOKS / "archive_tour.ipynb")
    text = "".join(
        out.get("text", "") for cell in nb.cells if cell.cell_type == "code"
        for out in cell.outputs if out.get("output_type") == "stream"
    )  # fmt: skip
    match = re.search(r"^(\d+) records$", text, re.MULTILINE)
    assert match, text
    examples = sorted((NOTEBOOKS.parent / "examples").glob("*.gcg"))
    names = [str(p) for p in examples]
    if os.environ.get("GCGTOOLS_CORPUS"):
        from conftest import corpus_dir

        names += list(expand_paths([str(corpus_dir() / "valid")]))
    distinct = {hashlib.sha256(open(n, "rb").read()).hexdigest() for n in names}
    # with-errors/wrong-scores.gcg has other bytes than club-final.gcg: read, it would
    # make one record more
    assert int(match.group(1)) == len(distinct)


def test_archive_tour_judges_a_small_archive() -> None:
    """The judging section shows the judged moves and the Mistake Index per player (with
    the shared data), or says why it cannot (without it)."""
    from support.reference_data import DATA

    nb = executed(NOTEBOOKS / "archive_tour.ipynb")
    cell = next(c for c in nb.cells if c.cell_type == "code" and 'depth="sim"' in c.source)
    tables = [o["data"]["text/html"] for o in cell.outputs if "text/html" in o.get("data", {})]
    if DATA is None:
        assert any("no lexicon" in o.get("text", "") for o in cell.outputs)
        return
    assert len(tables) == 2
    assert "win_pct_lost" in tables[0] and "mistake" in tables[0]
    assert "mistake_index" in tables[1] and "best_move_share" in tables[1]


def test_archive_tour_says_how_to_give_a_lexicon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a lexicon the judging cell says what to type: the LEXICON line with a path,
    or GCGTOOLS_DATA (the tour run up to that cell, with GCGTOOLS_DATA an empty folder)."""
    monkeypatch.setenv("GCGTOOLS_DATA", str(tmp_path))
    nb = nbformat.read(NOTEBOOKS / "archive_tour.ipynb", as_version=4)
    judging = next(
        i for i, c in enumerate(nb.cells) if c.cell_type == "code" and 'depth="sim"' in c.source
    )
    nb.cells = nb.cells[: judging + 1]
    NotebookClient(
        nb, kernel_name="python3", timeout=600, resources={"metadata": {"path": str(NOTEBOOKS)}}
    ).execute()
    said = "".join(o.get("text", "") for o in nb.cells[judging].outputs)
    assert f"no lexicon at {tmp_path / 'lexica' / 'ENABLE.kwg'}" in said
    assert '    LEXICON = "/path/to/ENABLE.kwg"' in said.splitlines()
    assert "    GCGTOOLS_DATA=/path/to/data jupyter lab" in said.splitlines()
    assert "LEXICON = None" in nb.cells[judging].source  # the line the message names
