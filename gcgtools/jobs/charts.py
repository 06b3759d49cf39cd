"""The charts' numbers, computed before anything is drawn: the score progression of one
game (a replay) and the shape of an archive (from its frames); the figures are drawn by
:mod:`gcgtools.render.charts` (:func:`~gcgtools.render.charts.draw_progression`,
:func:`~gcgtools.render.charts.draw_archive`), which computes nothing.

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
from matplotlib.figure import Figure

from gcgtools.model.game import Game, unreadable_reason
from gcgtools.render.charts import (
    FORMATS,
    draw_archive,
    draw_mistake_index,
    draw_progression,
    save_figure,
)
from gcgtools.replay.walk import replay
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import expand_paths
from gcgtools.syntax.records import TURN_KINDS, EventKind
from gcgtools.tables.frames import IGNORED_PASS, Source, load_frames

#: players shown in the points-per-turn panel of an archive chart: those with most turns
TOP_PLAYERS = 12

__all__ = [
    "ChartResult",
    "archive_data",
    "archive_figure",
    "mistake_index_data",
    "progression_data",
    "progression_figure",
    "save_figure",
    "write_chart",
    "write_profile_chart",
]


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


def progression_figure(
    game: Game, *, title: str | None = None, options: RuleOptions = NO_OPTIONS
) -> Figure:
    """The score progression of ``game`` under the rule ``options``
    (:func:`progression_data`, drawn by :func:`~gcgtools.render.charts.draw_progression`),
    titled ``title`` (default: the record's title, else the players)."""
    data = progression_data(game, options)
    return draw_progression(data, title if title is not None else (game.title or " vs ".join(data)))


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
    """The archive charts of the frames ``games`` and ``moves`` (:func:`archive_data`,
    drawn by :func:`~gcgtools.render.charts.draw_archive`)."""
    readable = int((games["status"] != "unreadable").sum()) if len(games) else 0
    return draw_archive(archive_data(games, moves), readable)


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
    frames = load_frames(items, jobs=jobs, progress=progress, scheduler=scheduler, rules=options)
    assert frames.moves is not None
    games = len(frames.games) - len(frames.unreadable)
    written = save_figure(archive_figure(frames.games, frames.moves), out) if games else None
    return ChartResult("archive", games, written, frames.unreadable, frames.reasons)


def mistake_index_data(games: pd.DataFrame, *, top: int = TOP_PLAYERS) -> dict[str, Any]:
    """The numbers behind the profile chart, from a per-game profile frame
    (:func:`gcgtools.tables.profiles.profile_games`): ``players``, per player (the ``top``
    with most judged games, most first) their ``(x, Mistake Index)`` per game in order of
    x; x is the game's date when every judged game has one (``dated``), else its place in
    the archive (1 for the first file read); ``axis`` says which, ``title`` how many
    players and games are drawn."""
    dated = bool(len(games)) and bool(games["date"].notna().all())
    counts = games.groupby("player").size().sort_values(ascending=False, kind="stable")
    shown = [str(p) for p in counts.index[:top]]
    key = "date" if dated else "order"
    players: dict[str, list[tuple[Any, float]]] = {}
    for name in shown:
        rows = games[games["player"] == name].sort_values([key, "order"], kind="stable")
        xs = pd.to_datetime(rows["date"]) if dated else rows["order"].astype(int)
        players[name] = [(x, float(y)) for x, y in zip(xs, rows["mistake_index"], strict=True)]
    if dated:
        axis = "game date"
    elif len(games) and games["date"].notna().any():
        axis = "game in archive order (not every record gives a date)"
    else:
        axis = "game in archive order (the records give no date)"
    title = (
        f"Mistake Index per game: {len(shown)} of {len(counts)} players, {len(games)} player-games"
    )
    return {"players": players, "dated": dated, "axis": axis, "title": title}


def write_profile_chart(
    games: pd.DataFrame, out: str | os.PathLike[str], *, top: int = TOP_PLAYERS
) -> Path:
    """Draw each player's Mistake Index over time (:func:`mistake_index_data`, drawn by
    :func:`~gcgtools.render.charts.draw_mistake_index`) and save it as ``out`` (.png,
    .svg or .pdf; ValueError for another suffix)."""
    if Path(out).suffix.lower() not in FORMATS:
        raise ValueError(f"{out}: the file name must end in .png, .svg or .pdf")
    return save_figure(draw_mistake_index(mistake_index_data(games, top=top)), out)
