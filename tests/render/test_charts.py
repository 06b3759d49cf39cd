"""Charts: the numbers handed to matplotlib, and the files written (not the pixels)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from matplotlib.figure import Figure
from support.report_records import BROKEN, GAME_A, GAME_TIE, PHONY_BINGO, write

from gcgtools import load_game, parse_string
from gcgtools.jobs.charts import (
    archive_data,
    archive_figure,
    progression_data,
    progression_figure,
    write_chart,
)
from gcgtools.render.charts import save_figure
from gcgtools.tables.frames import load_frames

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SVG = "{http://www.w3.org/2000/svg}"

# (event number, cumulative) after each of the player's events in GAME_A (see
# report_records.py): every event line counts, as in the moves frame and the HTML report
ALICE = [(0, 0), (1, 66), (4, 70), (7, 81), (9, 81), (11, 81), (13, 81), (15, 74)]
BOB = [(0, 0), (2, 16), (3, 0), (5, 8), (6, 13), (8, 13), (10, 13), (12, 13), (14, -5),
       (16, -15)]  # fmt: skip


def _lines(fig: Figure) -> dict[str, tuple[list[float], list[float]]]:
    return {
        line.get_gid(): (list(line.get_xdata()), list(line.get_ydata()))
        for ax in fig.axes
        for line in ax.get_lines()
        if line.get_gid()
    }


def test_progression_data_of_a_hand_made_game() -> None:
    data = progression_data(parse_string(GAME_A))
    assert list(data) == ["Alice", "Bob"]
    assert data["Alice"]["points"] == ALICE
    assert data["Bob"]["points"] == BOB
    assert data["Alice"]["bingos"] == [(1, 66, "RETAINS")]
    assert data["Bob"]["bingos"] == []
    assert (data["Alice"]["final"], data["Bob"]["final"]) == (74, -15)
    assert (data["Alice"]["seat"], data["Bob"]["name"]) == (1, "Bob Brown")


def test_progression_points_are_the_recorded_cumulatives() -> None:
    game = parse_string(GAME_A)
    data = progression_data(game)
    for index, label in enumerate(data):
        cumulatives = [e.cumulative for e in game.events if e.player == index]
        assert [s for _, s in data[label]["points"]] == [0, *cumulatives]


def test_a_withdrawn_bingo_is_not_marked() -> None:
    data = progression_data(parse_string(PHONY_BINGO))
    assert data["Alice"]["points"] == [(0, 0), (1, 66), (2, 0)]
    assert data["Alice"]["bingos"] == []
    assert data["Bob"]["bingos"] == [(3, 70, "TIRADES")]


def test_progression_figure_plots_the_data() -> None:
    fig = progression_figure(parse_string(GAME_A))
    lines = _lines(fig)
    assert lines["score:Alice"] == ([t for t, _ in ALICE], [s for _, s in ALICE])
    assert lines["score:Bob"] == ([t for t, _ in BOB], [s for _, s in BOB])
    assert lines["bingos:Alice"] == ([1], [66])
    assert "bingos:Bob" not in lines
    ax = fig.axes[0]
    assert ax.get_title() == "Club night, round 1"
    texts = [t.get_text() for t in ax.texts]
    assert "74" in texts and "-15" in texts and "RETAINS" in texts
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["Alice 74", "Bob -15"]


def test_save_png(tmp_path: Path) -> None:
    out = save_figure(progression_figure(parse_string(GAME_A)), tmp_path / "a.png")
    assert out == tmp_path / "a.png"
    assert out.read_bytes()[:8] == PNG_SIGNATURE
    assert [p.name for p in tmp_path.iterdir()] == ["a.png"]  # no temporary file left


def test_save_svg_is_xml_with_the_series(tmp_path: Path) -> None:
    out = save_figure(progression_figure(parse_string(GAME_A)), tmp_path / "a.SVG")
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG}svg"
    ids = {el.get("id") for el in root.iter(f"{SVG}g")}
    assert {"score:Alice", "score:Bob", "bingos:Alice"} <= ids


@pytest.mark.parametrize("suffix", [".svg", ".pdf", ".png"])
def test_the_same_chart_gives_the_same_file(tmp_path: Path, suffix: str) -> None:
    game = parse_string(GAME_A)
    one = save_figure(progression_figure(game), tmp_path / f"one{suffix}").read_bytes()
    two = save_figure(progression_figure(game), tmp_path / f"two{suffix}").read_bytes()
    assert one == two  # no random SVG ids, no creation date


def test_save_rejects_other_formats(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.png, \.svg or \.pdf"):
        save_figure(progression_figure(parse_string(GAME_TIE)), tmp_path / "a.jpg")
    assert list(tmp_path.iterdir()) == []


def test_archive_data_and_figure(tmp_path: Path) -> None:
    paths = [write(tmp_path, "a.gcg", GAME_A), write(tmp_path, "tie.gcg", GAME_TIE)]
    frames = load_frames(paths, jobs=1)
    assert frames.moves is not None
    data = archive_data(frames.games, frames.moves)
    assert sorted(data["scores"]) == [-15, 11, 11, 74]
    assert data["bingos_per_game"] == {0: 1, 1: 1}
    assert data["points_per_turn"] == pytest.approx({"Alice": 99 / 10, "Bob": 25 / 9})
    fig = archive_figure(frames.games, frames.moves)
    assert len(fig.axes) == 3
    bars = fig.axes[1].patches
    assert [(b.get_x() + b.get_width() / 2, b.get_height()) for b in bars] == [(0, 1), (1, 1)]
    widths = {label.get_text(): bar.get_width()
              for label, bar in zip(fig.axes[2].get_yticklabels(), fig.axes[2].patches,
                                    strict=True)}  # fmt: skip
    assert widths == pytest.approx({"Alice": 9.9, "Bob": 25 / 9})
    assert sum(p.get_height() for p in fig.axes[0].patches) == 4  # every final score


def test_write_chart_one_file_or_an_archive(tmp_path: Path) -> None:
    a = write(tmp_path, "a.gcg", GAME_A)
    tie = write(tmp_path, "tie.gcg", GAME_TIE)
    one = write_chart([a], tmp_path / "a.svg")
    assert (one.kind, one.games, one.unreadable) == ("progression", 1, [])
    assert ET.parse(tmp_path / "a.svg").getroot().tag == f"{SVG}svg"
    both = write_chart([a, tie], tmp_path / "both.png", jobs=1)
    assert (both.kind, both.games) == ("archive", 2)
    assert (tmp_path / "both.png").read_bytes()[:8] == PNG_SIGNATURE
    forced = write_chart([a], tmp_path / "forced.png", archive=True, jobs=1)
    assert forced.kind == "archive"
    game = write_chart(load_game(a), tmp_path / "game.png")
    assert game.kind == "progression"


def test_write_chart_unreadable(tmp_path: Path) -> None:
    broken = write(tmp_path, "broken.gcg", BROKEN)
    a = write(tmp_path, "a.gcg", GAME_A)
    alone = write_chart([broken], tmp_path / "x.png")
    assert (alone.path, alone.unreadable) == (None, [broken])
    assert not (tmp_path / "x.png").exists()
    mixed = write_chart([broken, a], tmp_path / "y.png", jobs=1)
    assert (mixed.kind, mixed.games, mixed.unreadable) == ("archive", 1, [broken])
    assert (tmp_path / "y.png").is_file()
    with pytest.raises(ValueError):
        write_chart([a], tmp_path / "z.gif")


def _overlaps(fig: Figure) -> list[tuple[str, str]]:
    """Pairs of text labels of the axes whose drawn boxes overlap."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    texts = [t for ax in fig.axes for t in ax.texts]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    return [
        (a, b)
        for i, (a, box_a) in enumerate(boxes)
        for b, box_b in boxes[i + 1 :]
        if box_a.overlaps(box_b)
    ]


def test_labels_do_not_overlap_three_players() -> None:
    # issue 10: in three-players.gcg the bingo labels were drawn over the final scores
    game = load_game(Path(__file__).resolve().parents[2] / "examples" / "three-players.gcg")
    fig = progression_figure(game)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert {"219", "221", "291", "NOISIER", "RETILED", "ORBITERs", "RAVINES"} <= set(texts)
    assert _overlaps(fig) == []
    # nor do they cover a bingo star
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    stars = [line for line in fig.axes[0].get_lines() if str(line.get_gid()).startswith("bingos")]
    for text in fig.axes[0].texts:
        box = text.get_window_extent(renderer)
        for line in stars:
            for x, y in line.get_transform().transform(line.get_xydata()):
                assert not box.contains(x, y), (text.get_text(), line.get_gid())


def test_player_colours_are_the_palette() -> None:
    from matplotlib.colors import to_hex

    from gcgtools.render.palette import player_colour

    fig = progression_figure(parse_string(GAME_A))
    lines = {line.get_gid(): line for line in fig.axes[0].get_lines()}
    assert to_hex(lines["score:Alice"].get_color()) == player_colour(0)
    assert to_hex(lines["score:Bob"].get_color()) == player_colour(1)
    assert fig.axes[0].get_xlabel() == "event"


def test_archive_title_integer_axes_sorted_bars(tmp_path: Path) -> None:
    paths = [write(tmp_path, "a.gcg", GAME_A), write(tmp_path, "tie.gcg", GAME_TIE)]
    frames = load_frames(paths, jobs=1)
    assert frames.moves is not None
    fig = archive_figure(frames.games, frames.moves)
    assert fig.get_suptitle() == "2 games"
    for ax in fig.axes[:2]:  # counts: whole numbers only
        ticks = [t for t in ax.get_yticks() if ax.get_ylim()[0] <= t <= ax.get_ylim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks)
    widths = [bar.get_width() for bar in fig.axes[2].patches]
    assert widths == sorted(widths)  # drawn bottom up: the highest on top


def test_pdf_beside_png_and_svg(tmp_path: Path) -> None:
    out = save_figure(progression_figure(parse_string(GAME_A)), tmp_path / "a.pdf")
    assert out.read_bytes().startswith(b"%PDF")
    a = write(tmp_path, "a.gcg", GAME_A)
    tie = write(tmp_path, "tie.gcg", GAME_TIE)
    result = write_chart([a, tie], tmp_path / "archive.pdf", jobs=1)
    assert result.kind == "archive" and (tmp_path / "archive.pdf").read_bytes()[:4] == b"%PDF"


def test_control_characters_in_the_record_keep_the_svg_well_formed(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from gcgtools.cli import app

    hostile = GAME_A.replace("#title Club night", "#title Final\x01\x1b[2J\x0c\ufffe", 1)
    record = write(tmp_path, "hostile.gcg", hostile.replace("Ann", "Ann\x08\x0b", 1))
    runner = CliRunner()
    for command in (["chart", str(record)], ["picture", str(record)]):
        out = tmp_path / f"{command[0]}.svg"
        result = runner.invoke(app, [*command, "-o", str(out)])
        assert result.exit_code == 0, result.output
        root = ET.fromstring(out.read_bytes())  # well-formed XML, or this raises
        assert root.tag.endswith("svg")
        data = out.read_bytes()
        assert b"\x1b" not in data and b"\x01" not in data
        if command[0] == "chart":  # the title, shown escaped (in the text's comment)
            assert b"Final\\x01\\x1b[2J\\x0c\\ufffe" in data
