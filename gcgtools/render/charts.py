"""Charts: the score progression of one game, and the shape of a whole archive.

Figures are built on matplotlib's Agg canvas, never through pyplot, so nothing opens a
window and no global state changes; in Jupyter a figure shows inline (``%matplotlib
inline``). The figures are drawn from numbers computed before (by
:mod:`gcgtools.jobs.charts`: ``progression_data``, a replay, and ``archive_data``, from an
archive's frames): :func:`draw_progression` and :func:`draw_archive` compute nothing. The
functions that compute and draw at once (``progression_figure``, ``archive_figure``,
``write_chart`` ...) are :mod:`gcgtools.jobs.charts`'.

>>> fig = draw_progression(progression_data(game), "club final")  # doctest: +SKIP
>>> save_figure(fig, "club-final.png")  # doctest: +SKIP
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from gcgtools.render.markup import xml_text
from gcgtools.render.palette import player_colour
from gcgtools.sources.atomic import atomic_output
from gcgtools.wording import plural

__all__ = [
    "FORMATS",
    "NO_DATE",
    "REPRODUCIBLE",
    "draw_archive",
    "draw_mistake_index",
    "draw_progression",
    "save_figure",
]

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}


def _figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _declutter(
    fig: Figure, fixed: list[Any], movable: list[Any], marks: list[Any] = (), step: float = 11
) -> None:
    """Move the ``movable`` annotations (text offset in points) up or down, a line at a
    time, until none overlaps another label, a ``fixed`` one or a marker of ``marks``
    (lines whose markers labels must not cover)."""
    from matplotlib.transforms import Bbox

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    taken = [t.get_window_extent(renderer) for t in fixed]
    for line in marks:
        half = line.get_markersize() * fig.dpi / 72 / 2
        points = line.get_transform().transform(line.get_xydata())
        taken += [Bbox.from_extents(x - half, y - half, x + half, y + half) for x, y in points]
    for text in movable:
        x, y = text.xyann
        for k in range(40):
            shift = step * ((k + 1) // 2) * (1 if k % 2 else -1) if k else 0.0
            text.xyann = (x, y + shift)
            box = text.get_window_extent(renderer).expanded(1.04, 1.15)
            if not any(box.overlaps(other) for other in taken):
                break
        taken.append(text.get_window_extent(renderer))


def draw_progression(data: dict[str, dict[str, Any]], title: str) -> Figure:
    """The cumulative score of each player by event number (``data``: what
    :func:`gcgtools.jobs.charts.progression_data` gives), bingos starred and labelled with
    their word, final scores labelled, under ``title``; labels never overlap, and each
    player has their colour of :mod:`gcgtools.render.palette` (as in board pictures and
    reports).

    Each player's line has the gid ``score:<nick>`` and their bingo markers
    ``bingos:<nick>``, so the series can be found in the figure (or the SVG) again.
    """
    fig = _figure(8, 4.5)
    ax = fig.add_subplot()
    finals, labels, stars_lines = [], [], []
    box = {"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.8}
    for name, entry in data.items():
        label = xml_text(name)  # the SVG must stay well-formed XML whatever a name holds
        colour = player_colour(entry["seat"] - 1)
        turns = [t for t, _ in entry["points"]]
        scores = [s for _, s in entry["points"]]
        (line,) = ax.plot(
            turns, scores, marker=".", color=colour, label=f"{label} {entry['final']}"
        )
        line.set_gid(f"score:{label}")
        if entry["bingos"]:
            (stars,) = ax.plot(
                [b[0] for b in entry["bingos"]],
                [b[1] for b in entry["bingos"]],
                linestyle="none",
                marker="*",
                markersize=12,
                color=colour,
            )
            stars.set_gid(f"bingos:{label}")
            stars_lines.append(stars)
            for t, s, word in entry["bingos"]:
                labels.append(
                    ax.annotate(xml_text(word), (t, s), textcoords="offset points", xytext=(-6, 9),
                                ha="right", fontsize=7.5, color=colour, bbox=box)
                )  # fmt: skip
        last_turn, last_score = entry["points"][-1]
        finals.append(
            ax.annotate(
                str(entry["final"]),
                (last_turn, last_score),
                textcoords="offset points",
                xytext=(7, 0),
                va="center",
                fontweight="bold",
                color=colour,
            )
        )
    ax.set_xlabel("event")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    low, high = ax.get_xlim()
    ax.set_xlim(low, high + (high - low) * 0.06)  # room for the final scores
    ax.set_ylabel("score")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left")
    ax.set_title(xml_text(title))
    _declutter(fig, [ax.get_legend()], finals, stars_lines)
    _declutter(fig, [ax.get_legend(), *finals], labels, stars_lines)
    return fig


def draw_archive(data: dict[str, Any], readable: int) -> Figure:
    """Three panels under a title with the number of ``readable`` games: the distribution
    of final scores, the number of games by bingos in the game, and points per turn of the
    most active players (highest first), from ``data`` (what
    :func:`gcgtools.jobs.charts.archive_data` gives). Counts have integer axes."""
    fig = _figure(13, 4.4)
    fig.suptitle(plural(readable, "game"), fontweight="bold")
    ax_scores, ax_bingos, ax_ppt = fig.subplots(1, 3)
    scores = data["scores"]
    if scores:
        ax_scores.hist(scores, bins=min(30, max(5, len(scores) // 4)),
                       color=player_colour(0), edgecolor="white")  # fmt: skip
    ax_scores.set_title(f"final scores ({len(scores)} in finished games)")
    ax_scores.set_xlabel("score")
    ax_scores.set_ylabel("players' games")
    ax_scores.yaxis.set_major_locator(MaxNLocator(integer=True))
    counts = data["bingos_per_game"]
    ax_bingos.bar(list(counts), list(counts.values()), color=player_colour(2),
                  gid="bingos_per_game")  # fmt: skip
    ax_bingos.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax_bingos.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax_bingos.set_title("bingos per game")
    ax_bingos.set_xlabel("bingos in the game (all players)")
    ax_bingos.set_ylabel("games")
    ppt = data["points_per_turn"]
    names = sorted(ppt, key=lambda n: (ppt[n], n))  # barh draws bottom up: highest on top
    ax_ppt.barh(
        [xml_text(n) for n in names],
        [ppt[n] for n in names],
        color=player_colour(3),
        gid="points_per_turn",
    )
    ax_ppt.set_title("points per turn, highest first")
    ax_ppt.set_xlabel("points from plays / turns")
    for ax in (ax_scores, ax_bingos, ax_ppt):
        ax.grid(True, alpha=0.3)
    return fig


def draw_mistake_index(data: dict[str, Any]) -> Figure:
    """Each player's Mistake Index per judged game over time, one line a player (gid
    ``mistake_index:<nick>``), from ``data`` (what
    :func:`gcgtools.jobs.charts.mistake_index_data` gives): by date when ``data["dated"]``,
    else by the game's place in the archive, as the x axis says (``data["axis"]``)."""
    fig = _figure(9, 4.8)
    ax = fig.add_subplot()
    for k, (name, points) in enumerate(data["players"].items()):
        label = xml_text(name)
        (line,) = ax.plot([x for x, _ in points], [y for _, y in points], marker="o",
                          markersize=4, color=player_colour(k), label=label)  # fmt: skip
        line.set_gid(f"mistake_index:{label}")
    if not data["dated"]:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:
        fig.autofmt_xdate()
    ax.set_xlabel(data["axis"])
    ax.set_ylabel("Mistake Index of the game")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    if data["players"]:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)  # covers no point
    ax.set_title(xml_text(data["title"]))
    return fig


# The same chart gives the same file: SVG element ids from a fixed salt (not a random
# one per process), and no creation date in SVG and PDF files.
REPRODUCIBLE = {"svg.hashsalt": "gcgtools"}
NO_DATE: dict[str, dict[str, Any]] = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}


def save_figure(fig: Figure, path: str | os.PathLike[str]) -> Path:
    """Write ``fig`` as PNG, SVG or PDF (chosen by the suffix) atomically: to a temporary
    file in the same folder, then moved into place (the rules of :mod:`gcgtools.sources.atomic`).
    Raises ValueError for another suffix, OSError naming ``path`` when it cannot be
    written (a missing folder is not created)."""
    target = Path(path)
    fmt = FORMATS.get(target.suffix.lower())
    if fmt is None:
        raise ValueError(f"{target}: the file name must end in .png, .svg or .pdf")
    with atomic_output(target) as name, open(name, "wb") as fh, rc_context(REPRODUCIBLE):
        fig.savefig(fh, format=fmt, dpi=120, metadata=NO_DATE.get(fmt))
    return target
