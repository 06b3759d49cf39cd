"""Printing validation reports like a linter: text, JSON lines or GitHub annotations."""

from __future__ import annotations

import json
from collections.abc import Iterable

from gcgtools.analysis.checks import FileReport
from gcgtools.findings import Finding
from gcgtools.model.game import Game


def _values(f: Finding) -> str:
    if f.recorded is None and f.computed is None:
        return ""
    return f" [recorded {f.recorded}, computed {f.computed}]"


def text_lines(report: FileReport, *, show_info: bool = False) -> list[str]:
    """``path:line:col: CODE message`` for each finding (info findings only on request)."""
    return [f.format(report.path) for f in report.findings if show_info or f.severity != "info"]


def json_line(report: FileReport) -> str:
    """One JSON object for one file, on one line."""
    return json.dumps(report.to_dict(), ensure_ascii=False)


def github_lines(report: FileReport) -> list[str]:
    """GitHub Actions workflow commands, one annotation per finding."""
    level = {"error": "error", "warning": "warning", "info": "notice"}
    out = []
    for f in report.findings:
        msg = (f.message + _values(f)).replace("%", "%25").replace("\n", "%0A")
        out.append(
            f"::{level[f.severity]} file={report.path},line={max(f.line, 1)},col={f.column},"
            f"title={f.code}::{f.code} {msg}"
        )
    return out


def summary_line(reports: Iterable[FileReport]) -> str:
    """``N files, N clean, N with errors, N unreadable; N errors, N warnings``."""
    files = clean = bad = unreadable = errors = warnings = 0
    for r in reports:
        files += 1
        errors += r.errors
        warnings += r.warnings
        if r.unreadable:
            unreadable += 1
        elif r.ok:
            clean += 1
        else:
            bad += 1
    return (
        f"{files} file{'s' * (files != 1)}: {clean} clean, {bad} with errors, "
        f"{unreadable} unreadable; {errors} error{'s' * (errors != 1)}, "
        f"{warnings} warning{'s' * (warnings != 1)}"
    )


def parse_summary(game: Game) -> list[str]:
    """A readable summary of a parsed record: players, header, events by kind."""
    lines = [f"{game.display_name}"]
    for p in game.players:
        lines.append(f"  player{p.number}: {p.nick} ({p.name})")
    for label, value in (
        ("title", game.title),
        ("lexicon", game.lexicon),
        ("tiles", game.tile_distribution),
        ("board", game.board_layout),
    ):
        if value:
            lines.append(f"  {label}: {value}")
    lines.append(f"  encoding: {game.encoding}" + (" (declared)" if game.declared_encoding else ""))
    counts = game.event_counts()
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1]))
    lines.append(f"  events: {len(game.events)}" + (f" ({kinds})" if kinds else ""))
    notes = sum(len(e.notes) for e in game.events) + len(game.notes)
    if notes:
        lines.append(f"  notes: {notes}")
    for f in game.findings:
        if f.severity != "info":
            lines.append(f"  {f.format(game.display_name)}")
    return lines
