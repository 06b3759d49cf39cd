"""The judgement of a record (``gcgtools analyse --depth sim|full``) as text: per turn the
phase, the best move and the move played with their win% (or endgame value), the win% or
spread lost and the mistake badge; then the Mistake Index per player."""

from __future__ import annotations

from gcgtools.analysis.analyse import RecordAnalysis, TurnAnalysis
from gcgtools.analysis.judge import JudgedMove, Judgement
from gcgtools.console import safe_text

__all__ = ["BADGES", "badge", "judgement_lines", "mistake_index_line"]

#: the badge of each mistake size (text output and the HTML report)
BADGES = {"none": "", "small": "?", "medium": "??", "large": "???"}

_HEAD = ("event", "player", "phase", "played", "best", "lost", "mistake")


def badge(mistake: str | None) -> str:
    """``?`` small, ``??`` medium, ``???`` large, empty for none or not graded."""
    return BADGES.get(mistake or "none", "")


def _judged(m: JudgedMove | None, endgame: bool) -> str:
    if m is None:
        return ""
    if endgame and m.value is not None:
        return f"{m.move} {m.value:+d}"
    return f"{m.move} {m.win_pct:.1f}%"


def _lost(j: Judgement) -> str:
    if j.spread_lost is not None:
        return f"{j.spread_lost:.0f} pts"
    if j.win_pct_lost is not None:
        return f"{j.win_pct_lost:.1f}%"
    return ""


def _cells(t: TurnAnalysis) -> tuple[str, ...] | None:
    j = t.judgement
    if j is None:
        return None
    endgame = j.method == "endgame"
    short = (j.note or "not graded").split(":")[0]  # "phony (KI)"
    played = _judged(j.played, endgame) if j.played is not None else f"{t.played} ({short})"
    mistake = f"{j.mistake} {badge(j.mistake)}".strip() if j.mistake else ""
    cells = (str(t.event), t.player, j.phase, played, _judged(j.best, endgame), _lost(j), mistake)
    return tuple(safe_text(c) for c in cells)


def judgement_lines(result: RecordAnalysis) -> list[str]:
    """The judged turns as a table, then the Mistake Index per player (nothing for a
    record analysed at the static depth)."""
    if result.depth == "static" or result.unreadable:
        return []
    rows = [r for r in (_cells(t) for t in result.turns) if r is not None]
    lines = [f"{safe_text(result.path)}: judged at depth {result.depth}"]
    table = [_HEAD, *rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(_HEAD))]
    for row in table:
        cells = [c.rjust(widths[i]) if i == 0 else c.ljust(widths[i]) for i, c in enumerate(row)]
        lines.append("  " + "  ".join(cells).rstrip())
    lines.append(mistake_index_line(result))
    return lines


def mistake_index_line(result: RecordAnalysis) -> str:
    """``  Mistake Index: alice 1.7, bob 0.2`` (0.2 small, 0.5 medium, 1.0 large)."""
    parts = [f"{safe_text(nick)} {value:.1f}" for nick, value in result.mistake_index.items()]
    return "  Mistake Index: " + (", ".join(parts) if parts else "-")
