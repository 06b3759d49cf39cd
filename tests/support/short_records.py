"""Short real records for tests of deep analysis: the first turns of the example club
final (seconds a record at tiny simulation settings, even in pure Python)."""

from __future__ import annotations

from pathlib import Path

from gcgtools.analysis.judge import settings_for
from gcgtools.batch.settings import AnalysisSettings
from support.reference_data import DATA

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TURNS = 4  # a record's first turns: the opening and mid-game


def short_record(folder: Path, name: str = "g.gcg", turns: int = TURNS, note: str = "") -> str:
    """The first ``turns`` turns of the example club final (its own content per ``note``)."""
    lines = (EXAMPLES / "club-final.gcg").read_text().splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith(">")]
    path = folder / name
    path.write_text("".join(lines[: starts[turns]]) + (f"#note {note}\n" if note else ""))
    return str(path)


def sim(*, cache: bool = False, progress: bool = False) -> AnalysisSettings:
    """A deep analysis at sim depth with a tiny simulation (4 iterations, 2 candidates)."""
    judge = settings_for("sim", sim_iterations=4, sim_candidates=2)
    return AnalysisSettings(depth="sim", judge=judge, cache=cache, progress=progress)


def enable() -> str:
    """The ENABLE lexicon's file (the reference data must be there: ``needs_data``)."""
    assert DATA is not None
    return str(DATA / "lexica" / "ENABLE.kwg")
