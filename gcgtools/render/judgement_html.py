"""The judgement of a record in the HTML report (``report --depth sim|full``): a mistake
badge and the judged candidates (win% with error bars) per move, a win-probability chart
over the game and a per-player Mistake Index summary. Inline SVG and CSS only: the page
needs no network."""

from __future__ import annotations

from gcgtools.analysis.analyse import RecordAnalysis, TurnAnalysis
from gcgtools.analysis.judge import JudgedMove, Judgement
from gcgtools.render.markup import escape
from gcgtools.render.palette import player_colour

__all__ = ["JUDGEMENT_CSS", "judgement_extras", "judgement_sections", "win_chart_svg"]

JUDGEMENT_CSS = """
.badge { display: inline-block; padding: 0 5px; border-radius: 3px; font-size: 0.8em;
         font-weight: bold; color: #fff; margin-left: 4px; }
.badge.small { background: #c9a400; } .badge.medium { background: #e07000; }
.badge.large { background: #b00020; } .badge.none { background: #3a7d44; }
.judged { margin-top: 3px; font-size: 0.85em; color: #333; }
.judged table td { padding: 0 6px 0 0; }
.judged tr.played td { font-weight: bold; }
.mistakes td, .mistakes th { padding: 2px 10px; text-align: left; }
table.mistakes { display: block; max-width: 100%; overflow-x: auto; }
@media (max-width: 640px) {
  .mistakes td, .mistakes th { padding: 2px 5px; font-size: 0.9em; }
  .judged svg { width: 80px; }
}
"""

_BAR_WIDTH = 120


def _badge(mistake: str | None) -> str:
    if mistake is None:
        return ""
    return f'<span class="badge {mistake}" title="mistake: {mistake}">{mistake}</span>'


def _bar(m: JudgedMove) -> str:
    """An inline bar of the move's win% with its error (mean +- one standard error)."""
    w = _BAR_WIDTH
    x = w * max(0.0, min(m.win_pct, 100.0)) / 100
    parts = [
        f'<svg width="{w}" height="10" viewBox="0 0 {w} 10" role="img" '
        f'aria-label="win {m.win_pct:.1f}%">',
        f'<rect x="0" y="2" width="{w}" height="6" fill="#e5e1d6"/>',
        f'<rect x="0" y="2" width="{x:.1f}" height="6" fill="#4a78a8"/>',
    ]
    if m.stderr:
        lo = w * max(0.0, m.win_pct - m.stderr) / 100
        hi = w * min(100.0, m.win_pct + m.stderr) / 100
        parts.append(
            f'<line x1="{lo:.1f}" y1="5" x2="{hi:.1f}" y2="5" stroke="#111" stroke-width="1"/>'
            f'<line x1="{lo:.1f}" y1="1" x2="{lo:.1f}" y2="9" stroke="#111"/>'
            f'<line x1="{hi:.1f}" y1="1" x2="{hi:.1f}" y2="9" stroke="#111"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _number(j: Judgement, m: JudgedMove) -> str:
    if j.method == "endgame" and m.value is not None:
        return f"{m.value:+d}" + ("" if m.proved else " ~")
    err = f" &#xb1; {m.stderr:.1f}" if m.stderr else ""
    return f"{m.win_pct:.1f}%{err}"


def _judged_html(t: TurnAnalysis, j: Judgement) -> str:
    lost = ""
    if j.spread_lost is not None:
        lost = f"; spread lost {j.spread_lost:.0f}"
    elif j.win_pct_lost is not None:
        lost = f"; win% lost {j.win_pct_lost:.1f}"
    head = f"<div>{escape(j.phase)} ({escape(j.method)}): best {escape(j.best.move)}{lost}"
    head += _badge(j.mistake) + "</div>"
    if j.note:
        head += f"<div>{escape(j.note)}</div>"
    rows = []
    played = j.played.move if j.played is not None else None
    for m in j.moves:
        mark = ' class="played"' if m.move == played else ""
        rows.append(
            f"<tr{mark}><td>{escape(m.move)}</td><td>{m.score}</td>"
            f"<td>{_number(j, m)}</td><td>{_bar(m)}</td></tr>"
        )
    return f'<div class="judged">{head}<table>{"".join(rows)}</table></div>'


def judgement_extras(analysis: RecordAnalysis | None, line: int) -> list[str]:
    """The judgement of the turn at ``line`` (nothing when not judged)."""
    if analysis is None:
        return []
    return [
        _judged_html(t, t.judgement)
        for t in analysis.turns
        if t.line == line and t.judgement is not None and t.judgement.best.move
    ]


def _mover_win(t: TurnAnalysis) -> float | None:
    j = t.judgement
    if j is None or not j.best.move:
        return None
    return (j.played or j.best).win_pct


def win_chart_svg(analysis: RecordAnalysis, names: list[str], width: int = 860) -> str:
    """The first player's win% after each judged turn (from the move played, or the best
    one when the move played was not legal), as an inline SVG line chart."""
    points: list[tuple[int, float]] = []
    first = names[0] if names else None
    for t in analysis.turns:
        win = _mover_win(t)
        if win is not None:
            points.append((t.event, win if t.player == first else 100.0 - win))
    if not points:
        return ""
    height, left, right, top, bottom = 220, 40, 12, 10, 24
    last = max(e for e, _ in points)

    def x(e: int) -> float:
        return left + (width - left - right) * (e / max(last, 1))

    def y(v: float) -> float:
        return top + (height - top - bottom) * (1 - v / 100)

    line = " ".join(f"{x(e):.1f},{y(v):.1f}" for e, v in points)
    grid = "".join(
        f'<line x1="{left}" y1="{y(v):.1f}" x2="{width - right}" y2="{y(v):.1f}" '
        f'stroke="#ccc"/><text x="{left - 4}" y="{y(v) + 4:.1f}" font-size="11" '
        f'text-anchor="end">{v}%</text>'
        for v in (0, 25, 50, 75, 100)
    )
    colour = player_colour(0)
    dots = "".join(
        f'<circle cx="{x(e):.1f}" cy="{y(v):.1f}" r="2.5" fill="{colour}">'
        f"<title>event {e}: {escape(first or '')} {v:.1f}%</title></circle>"
        for e, v in points
    )
    return (
        f'<svg class="win-chart" width="100%" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="win probability of {escape(first or "player 1")} over the game">'
        f"{grid}"
        f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>{dots}'
        f'<text x="{width - right}" y="{height - 6}" font-size="11" text-anchor="end">event</text>'
        "</svg>"
    )


def _summary_html(analysis: RecordAnalysis) -> str:
    sizes = ("small", "medium", "large")
    counts: dict[str, dict[str, int]] = {n: dict.fromkeys(sizes, 0) for n in analysis.players}
    for t in analysis.turns:
        j = t.judgement
        if j is not None and j.mistake in sizes:
            counts.setdefault(t.player, dict.fromkeys(sizes, 0))[j.mistake] += 1
    rows = "".join(
        f"<tr><td>{escape(nick)}</td><td>{analysis.mistake_index.get(nick, 0.0):.1f}</td>"
        + "".join(f"<td>{c[s]}</td>" for s in sizes)
        + "</tr>"
        for nick, c in counts.items()
    )
    return (
        '<table class="mistakes"><thead><tr><th>player</th><th>Mistake Index</th>'
        "<th>small</th><th>medium</th><th>large</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def judgement_sections(analysis: RecordAnalysis | None, names: list[str]) -> list[str]:
    """The win-probability chart and the Mistake Index summary (nothing when the
    analysis was not judged)."""
    if analysis is None or analysis.depth == "static":
        return []
    return [
        f'<section class="chart-pane"><h2>Win probability ({escape(analysis.depth)})</h2>',
        win_chart_svg(analysis, names),
        "<h2>Mistakes</h2>",
        _summary_html(analysis),
        "<p>Mistake Index: 0.2 per small, 0.5 per medium, 1.0 per large mistake.</p>",
        "</section>",
    ]
