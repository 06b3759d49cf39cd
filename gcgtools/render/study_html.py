"""A study set as one self-contained HTML page: a quiz of a player's mistakes.

Each puzzle shows the position as the player saw it (the board, the scores, the rack, the
tiles in the bag) and asks for the best move; the answer (the move, the move played, what
it lost, the moves judged beside it and the coach's facts) opens under "Show the answer"
(an HTML ``<details>``: no script, so it works offline, in any browser, on a phone). The
page holds its style and pictures: one file to keep, mail or open anywhere. Every text
from a record is escaped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from gcgtools.analysis.puzzles import Puzzle, Tag
from gcgtools.movegen.cgp import CgpError, parse_cgp
from gcgtools.render.html import BASE_STYLE
from gcgtools.render.judgement_html import UNPROVED_CELL
from gcgtools.render.markup import escape
from gcgtools.render.svg import board_svg, rack_tiles
from gcgtools.wording import plural

__all__ = ["study_html"]

_STYLE = (
    BASE_STYLE
    + """
main { max-width: 760px; margin: 0 auto; padding: 12px 16px 40px; }
nav.tags { margin: 8px 0 16px; line-height: 2; }
.tag { display: inline-block; padding: 0 8px; margin-right: 4px; border-radius: 10px;
       background: #e3e9f1; color: #20364f; font-size: 0.85em; white-space: nowrap; }
article { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 12px;
          margin: 0 0 18px; }
article h2 { font-size: 1.1em; margin: 0 0 6px; overflow-wrap: anywhere; }
article .where { color: #555; font-size: 0.9em; margin: 0 0 8px; overflow-wrap: anywhere; }
article svg.gcg-board { width: 100%; max-width: 560px; height: auto; display: block; }
.rack { margin: 10px 0; display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
.rack span { display: inline-block; width: 30px; height: 30px; line-height: 30px;
             text-align: center; background: #f4d58d; border: 1px solid #b08d3c;
             border-radius: 4px; font-weight: bold; position: relative; }
.rack span small { position: absolute; right: 2px; bottom: -9px; font-size: 9px; }
.rack span.blank { background: #fbecc5; }
details { margin-top: 8px; }
summary { cursor: pointer; font-weight: bold; color: #20364f; padding: 6px 0; }
.answer { font-size: 1.1em; margin: 6px 0; overflow-wrap: anywhere; }
table.judged { border-collapse: collapse; font-size: 0.9em; width: 100%; }
table.judged th, table.judged td { text-align: left; padding: 2px 6px;
                                   border-bottom: 1px solid #eee; }
table.judged td.n { text-align: right; white-space: nowrap; }
table.judged tr.best td { font-weight: bold; }
table.judged tr.played td { color: #b00020; }
ul.facts { margin: 6px 0; padding-left: 20px; }
.grade-small { color: #8a7300; } .grade-medium { color: #b05800; } .grade-large { color: #b00020; }
"""
)


def study_html(puzzles: Sequence[Puzzle], *, title: str = "Study set") -> str:
    """The page of ``puzzles`` (a document of its own; ``title`` is its heading)."""
    counts = Counter(t for p in puzzles for t in p.tags)
    nav = " ".join(
        f'<span class="tag">{escape(str(t))} {counts[t]}</span>' for t in Tag if counts[t]
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<header><h1>{escape(title)}</h1>",
        f"<p>{plural(len(puzzles), 'puzzle')}: find the best move, then open the answer.</p>",
        "</header><main>",
        f'<nav class="tags">{nav}</nav>' if nav else "",
    ]
    if not puzzles:
        parts.append("<p>No mistake of that size was found in these records.</p>")
    parts.extend(_puzzle_html(i, p) for i, p in enumerate(puzzles, 1))
    parts.append("</main></body></html>")
    return "\n".join(parts) + "\n"


#: the tags a puzzle shows before its answer (the phase); the others would give it away
_SHOWN_BEFORE = (Tag.PREENDGAME, Tag.ENDGAME)


def _tag_spans(tags: Sequence[Tag]) -> str:
    return " ".join(f'<span class="tag">{escape(str(t))}</span>' for t in tags)


def _puzzle_html(number: int, p: Puzzle) -> str:
    tags = _tag_spans([t for t in p.tags if t in _SHOWN_BEFORE])
    return "\n".join(
        [
            f'<article id="puzzle-{number}">',
            f"<h2>{number}. {escape(p.player)} to play {tags}</h2>",
            f'<p class="where">{escape(p.path)}, event {p.event} (line {p.line}); '
            f"{escape(p.player)} {p.scores[0]}, {escape(p.opponent)} {p.scores[1]}; "
            f"{plural(p.bag, 'tile')} in the bag</p>",
            _board(p),
            f'<div class="rack" aria-label="rack">{_rack(p)}</div>',
            "<details><summary>Show the answer</summary>",
            _answer(p),
            "</details>",
            "</article>",
        ]
    )


def _board(p: Puzzle) -> str:
    try:
        position = parse_cgp(p.cgp)
    except CgpError:
        return f"<p>(the position: <code>{escape(p.cgp)}</code>)</p>"
    return board_svg(
        position.board,
        last_play=False,
        size=560,
        tiles=position.rules.tiles,
        players=[p.player, p.opponent],
        scores=list(p.scores),
    )


def _rack(p: Puzzle) -> str:
    try:
        tiles = parse_cgp(p.cgp).rules.tiles
    except CgpError:
        tiles = None
    return "".join(
        f'<span class="blank">{escape(tile)}</span>'
        if value is None
        else f"<span>{escape(tile)}<small>{value}</small></span>"
        for tile, value in rack_tiles(p.rack, tiles)
    )


def _answer(p: Puzzle) -> str:
    if p.win_pct_lost is not None:
        lost = f"{p.win_pct_lost:.1f} win% lost"
    elif p.spread_lost is not None:
        lost = f"{p.spread_lost:.0f} points of spread lost"
    else:
        lost = "graded"
    grade = f'<span class="grade-{p.mistake.value}">{escape(p.mistake.value)} mistake</span>'
    parts = [
        f'<p class="answer">Best: <strong>{escape(p.answer)}</strong> '
        f"{_tag_spans([t for t in p.tags if t not in _SHOWN_BEFORE])}</p>",
        f"<p>Played: {escape(p.played)}: {grade}, {escape(lost)} ({escape(p.phase.value)}).</p>",
    ]
    if p.facts:
        items = "".join(
            f'<li class="{escape(f.favours)}">{escape(f.sentence)}</li>' for f in p.facts
        )
        parts.append(f'<p>Why:</p><ul class="facts">{items}</ul>')
    if p.moves:
        parts.append(_moves_table(p))
    return "\n".join(parts)


def _moves_table(p: Puzzle) -> str:
    endgame = any(m.value is not None for m in p.moves)
    head = "value" if endgame else "win%"
    rows = []
    for m in p.moves:
        cls = "best" if m.move == p.answer else "played" if m.move == p.played else ""
        if endgame and m.value is not None:
            number = f"{m.value:+d}" + (UNPROVED_CELL if m.proved is False else "")
        else:
            number = f"{m.win_pct:.1f}"
        rows.append(
            f'<tr class="{cls}"><td>{escape(m.move)}</td><td class="n">{m.score}</td>'
            f'<td class="n">{number}</td></tr>'
        )
    return (
        f'<table class="judged"><thead><tr><th>move</th><th>score</th><th>{head}</th></tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table>"
    )
