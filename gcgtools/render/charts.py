"""Charts: the score progression of one game, and the shape of a whole archive.

Figures are built on matplotlib's Agg canvas, never through pyplot, so nothing opens a
window and no global state changes; in Jupyter a figure shows inline (``%matplotlib
inline``). The numbers plotted come from :func:`progression_data` and :func:`archive_data`,
which tests and other outputs can use without drawing anything.

>>> fig = progression_figure(gcgtools.read_game("examples/club-final.gcg"))  # doctest: +SKIP
>>> save_figure(fig, "club-final.png")  # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from gcgtools.model.game import Game, unreadable_reason
from gcgtools.render.markup import xml_text
from gcgtools.render.palette import player_colour
from gcgtools.replay.engine import replay
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.sources.atomic import atomic_output
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import expand_paths
from gcgtools.syntax.records import TURN_KINDS, EventKind
from gcgtools.tables.frames import IGNORED_PASS, Source, load_frames
from gcgtools.wording import plural

__all__ = [
    "FORMATS",
    "ChartResult",
    "archive_data",
    "archive_figure",
    "progression_data",
    "progression_figure",
    "save_figure",
    "write_chart",
]

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
# Players shown in the points-per-turn panel of an archive chart: those with most turns.
TOP_PLAYERS = 12


def _labels(game: Game, n: int) -> list[str]:
    """A distinct label per seat: the nickname, with the seat number if it is shared."""
    nicks = [f"player{i + 1}" for i in range(n)]
    for p in game.players:
        if p.index < n:
            nicks[p.index] = p.nick
    return [f"{nick} ({i + 1})" if nicks.count(nick) > 1 else nick for i, nick in enumerate(nicks)]


def progression_data(game: Game, options: RuleOptions = NO_OPTIONS) -> dict[str, dict[str, Any]]:
    """Per player (keyed by nickname, in seat order): ``points``, the ``(event,
    cumulative)`` after each of their events, starting from ``(0, 0)``; ``bingos``, an
    ``(event, cumulative, word)`` per bingo that stood; ``final``, the last recorded
    cumulative; ``seat`` (1-based) and ``name``.

    ``event`` is the event number (the 1-based index of the event line in the record, as
    in the moves frame, bingos and the HTML report). Cumulatives are the recorded ones, as
    the replay reads them under the rule ``options``.
    """
    positions = replay(game, options=options)
    start = next(positions)
    n = len(start.recorded)
    labels = _labels(game, n)
    data: dict[str, dict[str, Any]] = {}
    for i, label in enumerate(labels):
        player = game.player(i)
        data[label] = {
            "seat": i + 1,
            "name": player.name if player else label,
            "points": [(0, 0)],
            "bingos": [],
            "final": 0,
        }
    last_bingo: tuple[str, int] | None = None
    for pos in positions:
        e = pos.event
        assert e is not None
        p = pos.player
        turn = pos.number  # the event number
        if e.kind is EventKind.PASS and any(f.code == IGNORED_PASS for f in pos.findings):
            continue  # the final pass after the opponent went out: not a turn
        if p is None:
            last_bingo = None
            continue
        entry = data[labels[p]]
        cumulative = pos.recorded[p]
        entry["points"].append((turn, cumulative))
        entry["final"] = cumulative
        if e.kind is EventKind.WITHDRAWN and last_bingo is not None:
            label, count = last_bingo
            del data[label]["bingos"][count:]
        last_bingo = None
        if e.kind is EventKind.PLAY and pos.bingo:
            word = pos.words[0].text if pos.words else (e.word or "")
            last_bingo = (labels[p], len(entry["bingos"]))
            entry["bingos"].append((turn, cumulative, word))
    return data


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


def progression_figure(
    game: Game, *, title: str | None = None, options: RuleOptions = NO_OPTIONS
) -> Figure:
    """The cumulative score of each player by event number, bingos starred and labelled
    with their word, final scores labelled; labels never overlap, and each player has
    their colour of :mod:`gcgtools.render.palette` (as in board pictures and reports).

    Each player's line has the gid ``score:<nick>`` and their bingo markers
    ``bingos:<nick>``, so the series can be found in the figure (or the SVG) again.
    """
    data = progression_data(game, options)
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
    names = " vs ".join(data)
    ax.set_title(xml_text(title if title is not None else (game.title or names)))
    _declutter(fig, [ax.get_legend()], finals, stars_lines)
    _declutter(fig, [ax.get_legend(), *finals], labels, stars_lines)
    return fig


def archive_data(games: pd.DataFrame, moves: pd.DataFrame) -> dict[str, Any]:
    """The numbers behind :func:`archive_figure`:

    ``scores``: every player's final score in finished games (two-player columns
    ``score1``/``score2``); ``bingos_per_game``: number of readable games by the bingos
    played in them (all players, from ``moves``); ``points_per_turn``: per player, points
    from plays that stood divided by turns (plays, passes, exchanges), for the
    ``TOP_PLAYERS`` with most turns.
    """
    readable = games[games["status"] != "unreadable"]
    finished = readable[readable["finished"].fillna(False).astype(bool)]
    scores = [int(s) for s in pd.concat([finished["score1"], finished["score2"]]).dropna()]
    bingo_counts = moves.groupby("file")["bingo"].sum()
    totals = bingo_counts.reindex(readable["file"], fill_value=0).astype(int)
    per_game = {int(k): int(v) for k, v in totals.value_counts().sort_index().items()}
    turn_kinds = [str(k) for k in TURN_KINDS]
    turn_rows = moves[moves["kind"].isin(turn_kinds)]
    stood = moves[(moves["kind"] == str(EventKind.PLAY)) & ~moves["withdrawn"].astype(bool)]
    turns = turn_rows.groupby("player").size()
    points = stood.groupby("player")["score"].sum().reindex(turns.index, fill_value=0)
    order = turns.sort_values(ascending=False, kind="stable").index[:TOP_PLAYERS]
    ppt = {str(p): float(points[p] / turns[p]) for p in order}
    return {"scores": scores, "bingos_per_game": per_game, "points_per_turn": ppt}


def archive_figure(games: pd.DataFrame, moves: pd.DataFrame) -> Figure:
    """Three panels under a title with the number of games: the distribution of final
    scores, the number of games by bingos in the game, and points per turn of the most
    active players (highest first). Counts have integer axes."""
    data = archive_data(games, moves)
    readable = int((games["status"] != "unreadable").sum()) if len(games) else 0
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


@dataclass(slots=True)
class ChartResult:
    """What :func:`write_chart` did: the chart kind, the games drawn, the file written
    (None when nothing could be drawn) and the files that could not be read."""

    kind: str
    games: int
    path: Path | None
    unreadable: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)


def write_chart(
    sources: Source | Iterable[Source],
    out: str | os.PathLike[str],
    *,
    archive: bool = False,
    jobs: int | None = None,
    scheduler: Any = None,
    progress: bool = False,
    options: RuleOptions = NO_OPTIONS,
) -> ChartResult:
    """Draw and save a chart of ``sources``: the score progression when they name a single
    game (and ``archive`` is False), else the archive charts. Raises ValueError for an
    output suffix other than .png, .svg or .pdf, before reading anything."""
    if Path(out).suffix.lower() not in FORMATS:
        raise ValueError(f"{out}: the file name must end in .png, .svg or .pdf")
    items = [sources] if isinstance(sources, (str, os.PathLike, Game)) else list(sources)
    if not archive:
        single: list[Source] = []
        for item in items:
            if isinstance(item, Game):
                single.append(item)
            else:
                single.extend(expand_paths([os.fspath(item)]))
        if len(single) == 1:
            game = single[0] if isinstance(single[0], Game) else load_game(single[0])
            name = game.display_name
            if game.unreadable:
                reason = unreadable_reason(game.findings)
                return ChartResult("progression", 0, None, [name], {name: reason})
            try:
                fig = progression_figure(game, options=options)
            except (KeyError, ValueError) as exc:  # an unknown tile set, board or rule
                return ChartResult("progression", 0, None, [name], {name: f"rules: {exc}"})
            return ChartResult("progression", 1, save_figure(fig, out))
    frames = load_frames(items, jobs=jobs, progress=progress, scheduler=scheduler, options=options)
    assert frames.moves is not None
    games = len(frames.games) - len(frames.unreadable)
    written = save_figure(archive_figure(frames.games, frames.moves), out) if games else None
    return ChartResult("archive", games, written, frames.unreadable, frames.reasons)
