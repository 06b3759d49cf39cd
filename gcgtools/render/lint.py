"""Printing validation reports like a linter: text, JSON Lines or GitHub annotations.

Text lines are rich ``Text`` objects: ``path:line:col: CODE severity: message``, with the
severity word coloured (error red, warning yellow, info blue) when printed on a terminal
and plain elsewhere (``Text.plain``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from gcgtools.batch.checks import FileReport
from gcgtools.findings import RULES, Finding
from gcgtools.model.game import Game
from gcgtools.wording import plural

if TYPE_CHECKING:
    from rich.text import Text

SEVERITY_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold blue"}


def _values(f: Finding) -> str:
    if f.recorded is None and f.computed is None:
        return ""
    return f" [recorded {f.recorded}, computed {f.computed}]"


def finding_text(f: Finding, path: str) -> Text:
    """``path:line:col: CODE severity: message``, styled for a terminal."""
    from rich.text import Text

    return Text.assemble(
        (path, "bold"), f":{f.line}:{f.column}: ", (f.code, "bold"), " ",
        (f.severity, SEVERITY_STYLE.get(f.severity, "")), f": {f.message}",
    )  # fmt: skip


def text_lines(report: FileReport, *, show_info: bool = False) -> list[Text]:
    """A :func:`finding_text` line for each finding (info findings only on request)."""
    return [
        finding_text(f, report.path) for f in report.findings if show_info or f.severity != "info"
    ]


def statistics(
    reports: Iterable[FileReport], *, show_info: bool = False
) -> list[dict[str, object]]:
    """Findings counted by code, most frequent first: ``count``, ``code``, ``severity``,
    ``title`` (info findings only on request)."""
    counts: Counter[tuple[str, str]] = Counter(
        (f.code, f.severity)
        for r in reports
        for f in r.findings
        if show_info or f.severity != "info"
    )
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [
        {"count": n, "code": code, "severity": severity,
         "title": RULES[code].title if code in RULES else ""}
        for (code, severity), n in rows
    ]  # fmt: skip


def statistics_lines(reports: Iterable[FileReport], *, show_info: bool = False) -> list[Text]:
    """:func:`statistics` as text: ``count  CODE  severity  title``, one line per code."""
    from rich.text import Text

    rows = statistics(reports, show_info=show_info)
    width = max((len(str(r["count"])) for r in rows), default=1)
    return [
        Text.assemble(
            f"{r['count']:>{width}}  ",
            (str(r["code"]), "bold"),
            "  ",
            (f"{r['severity']:<7}", SEVERITY_STYLE.get(str(r["severity"]), "")),
            f"  {r['title']}",
        )  # fmt: skip
        for r in rows
    ]


def json_line(report: FileReport) -> str:
    """One JSON object for one file, on one line."""
    import json  # only for JSON output (start-up time of a plain validate)

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
        f"{plural(files, 'file')}: {clean} clean, {bad} with errors, "
        f"{unreadable} unreadable; {plural(errors, 'error')}, {plural(warnings, 'warning')}"
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
