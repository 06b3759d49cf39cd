"""The renderers format data computed before them: the report page from a
GameReportData, the charts from their numbers, a board picture from a PictureOptions;
the jobs that compute and draw at once give the same output."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from support.samples_annotator import BINGO, GAME

from gcgtools import parse_string, replay
from gcgtools.jobs.charts import progression_data, progression_figure
from gcgtools.jobs.picture import picture, position_after
from gcgtools.jobs.report import game_report, game_report_html, report_data
from gcgtools.render import charts, html
from gcgtools.render.svg import Note, PictureOptions, board_png, board_svg, position_picture

RENDER = Path(html.__file__).parent


def _calls(path: Path) -> set[str]:
    """Every name called in the module (``f(...)``, ``x.f(...)``: ``f``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            names.add(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
    return names


@pytest.mark.parametrize("module", ["html.py", "charts.py"])
def test_the_report_and_chart_renderers_replay_and_analyse_nothing(module: str) -> None:
    called = _calls(RENDER / module)
    assert not called & {"replay", "of", "analyse_with", "load_game", "load_frames", "resolve"}


def test_the_report_is_drawn_from_its_data() -> None:
    game = parse_string(BINGO, "bingo.gcg")
    data = report_data(game)
    assert data.analysis is None and data.back is None
    assert len(data.info.ordered) == len(game.events) + 1  # the start and every event
    page = html.render_report(data)
    assert page == game_report(game)
    assert game_report_html(game) == page.html
    linked = html.render_report(report_data(game, back="../index.html"))
    assert 'href="../index.html"' in linked.html and 'href="../index.html"' not in page.html


def test_the_progression_chart_is_drawn_from_its_numbers() -> None:
    game = parse_string(GAME, "game.gcg")
    data = progression_data(game)
    drawn = charts.draw_progression(data, "a title")
    made = progression_figure(game, title="a title")
    lines = {
        fig: [(ln.get_gid(), list(ln.get_ydata())) for ln in fig.axes[0].get_lines()]
        for fig in (drawn, made)
    }
    assert lines[drawn] == lines[made] and lines[drawn]


def test_picture_options_draw_what_the_keywords_draw() -> None:
    board = list(replay(parse_string(GAME)))[-1].board
    notes = (Note("move", "event 2: Bob 9F O.IDES +16"),)
    keywords = {"players": ["Ann", "Bob"], "scores": [73, 16], "size": 300, "notes": notes}
    options = PictureOptions(["Ann", "Bob"], [73, 16], size=300, notes=notes)
    assert board_svg(board, options) == board_svg(board, **keywords)  # type: ignore[arg-type]
    assert board_svg(board, options) != board_svg(board)
    assert board_png(board, options) == board_png(board, **keywords)  # type: ignore[arg-type]
    plain = PictureOptions(last_play=False, coordinates=False)
    assert board_svg(board, plain) == board_svg(board, last_play=False, coordinates=False)


def test_the_picture_of_an_event_is_drawn_from_its_position() -> None:
    game = parse_string(GAME)
    pos, rules = position_after(game, 1)
    assert pos.number == 1
    drawn = position_picture(game, pos, tiles=rules.tiles)
    assert drawn == picture(game, 1)
    with pytest.raises(ValueError, match="move must be between 0 and"):
        position_after(game, len(game.events) + 1)
