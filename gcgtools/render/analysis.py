"""The analysis of a record as text (a per-turn table) or JSON (one object per line)."""

from __future__ import annotations

import json

from gcgtools.analysis.analyse import RecordAnalysis, TurnAnalysis

__all__ = ["analysis_json", "analysis_lines", "analysis_notes", "summary_lines"]

_HEAD = ("event", "player", "played", "equity", "best", "lost #rank", "phony", "missed bingo")


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def _cells(t: TurnAnalysis) -> tuple[str, ...]:
    played = t.played + (" (withdrawn)" if t.withdrawn else "")
    if t.analysed:
        best = f"{t.best_move} {_num(t.best_equity)}" if t.best else ""
        rank = f" #{t.rank}" if t.rank is not None else ""
        lost = _num(t.equity_lost) + rank if t.equity_lost is not None else ""
        missed = "yes" if t.missed_bingo else ""
    else:
        best = "" if t.status == "no lexicon" else f"({t.status})"
        lost = missed = ""
    phony = ",".join(t.phony_words) if t.phony_words else ""
    return (str(t.event), t.player, played, _num(t.equity), best, lost, phony, missed)


def analysis_lines(result: RecordAnalysis) -> list[str]:
    """The text report of one record: a header (path, lexicon and leaves used), the
    per-turn table, the W8xx findings and a per-player summary."""
    if result.unreadable:
        return [f"{result.path}: could not read: {result.reason}"]
    lines = [f"{result.path}: {result.used}"]
    rows = [_HEAD, *(_cells(t) for t in result.turns)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(_HEAD))]
    right = {0, 3, 5}
    for row in rows:
        cells = [
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        lines.append("  " + "  ".join(cells).rstrip())
    for f in result.findings:
        lines.append(f.format(result.path) + f" ({f.severity})")
    lines.extend(summary_lines(result))
    return lines


def summary_lines(result: RecordAnalysis) -> list[str]:
    """Per player: turns analysed, average equity lost, phonies, missed bingos."""
    if result.lexicon is None:
        return []
    out = []
    for nick, s in result.player_summary().items():
        avg = s["avg_equity_lost"]
        out.append(
            f"  {nick}: {s['analysed_turns']} turns analysed, average equity lost "
            f"{'-' if avg is None else f'{avg:.2f}'}; phonies played {s['phonies_played']}, "
            f"stood {s['phonies_stood']}; missed bingos {s['missed_bingos']}"
        )
    return out


def analysis_json(result: RecordAnalysis) -> str:
    """One JSON object (one line) for the record."""
    return json.dumps(result.to_dict(), ensure_ascii=False)


def analysis_notes(turn: TurnAnalysis) -> list[str]:
    """The texts of the generated notes of one turn (``annotate --only analysis``): the
    best move and the equity lost, the phony words, a missed bingo."""
    notes: list[str] = []
    if turn.analysed and turn.best:
        text = f"best {turn.best_move} {turn.best_equity:.1f}"
        if turn.equity is not None and turn.equity_lost is not None:
            text += f"; played {turn.equity:.1f}, lost {turn.equity_lost:.1f}"
            if turn.legal is False:
                text += f", not among the {turn.moves} legal moves"
            elif turn.rank is not None:
                text += f", rank {turn.rank} of {turn.moves}"
        notes.append(text)
    elif not turn.analysed and turn.status != "no lexicon":
        notes.append(turn.status)
    if turn.phony_words:
        s = "s" if len(turn.phony_words) > 1 else ""
        notes.append(f"phony{s} {', '.join(turn.phony_words)}")
    if turn.missed_bingo:
        text = "missed bingo"
        if turn.best_bingo is not None:
            text += f": {turn.best_bingo.notation} {turn.best_bingo.score}"
        notes.append(text)
    return notes
