"""Player profiles on judged records built by hand (no lexicon, no simulation): the date
and ratings a record gives, the per-game rows, the rating fit, the per-player values,
the text, the files and the chart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from gcgtools import parse_string
from gcgtools.analysis.grading import Mistake, Phase
from gcgtools.analysis.results import JudgedMove, Judgement, RecordAnalysis, TurnAnalysis
from gcgtools.jobs.charts import mistake_index_data, write_profile_chart
from gcgtools.render.profiles import PROFILE_WIDTH, profile_text
from gcgtools.tables.frames import load_frames
from gcgtools.tables.header import record_date, record_ratings
from gcgtools.tables.judged import judged_player_values
from gcgtools.tables.profiles import (
    GAME_PROFILE_COLUMNS,
    KIND_COLUMNS,
    MIN_RATED_GAMES,
    PHASE_COLUMNS,
    PROFILE_COLUMNS,
    fit_rating,
    player_profiles,
    profile_frame,
    profile_games,
    save_frame,
)
from gcgtools.tables.rows import PLAYER_COLUMNS, PLAYER_DTYPES, make_frame

HEAD = "#player1 ann Ann Smith\n#player2 bob Bob Jones\n"
MOVES = ">ann: AEINRST 8H RETAINS +66 66\n>bob: DEIMOQU J5 QU(O)TE +16 16\n"


# ------------------------------------------------------------- what a record gives
@pytest.mark.parametrize(
    ("header", "date"),
    [
        ("#date 2024-03-05\n", "2024-03-05"),
        ("#title Club night 2023-11-30, round 2\n", "2023-11-30"),
        ("#description Played 2022-01-09 at the club\n", "2022-01-09"),
        ("#date 2024-03-05\n#title Final 2020-01-01\n", "2024-03-05"),  # #date first
        ("#title 2019 NSC Round 7\n", None),  # a year alone is no date
        ("#date 2024-02-30\n", None),  # no such day
        ("#date 12024-03-05\n", None),  # not an ISO date
        ("", None),
    ],
)
def test_record_date(header: str, date: str | None) -> None:
    assert record_date(parse_string(header + HEAD + MOVES)) == date


def test_record_ratings() -> None:
    game = parse_string("#rating1 1850\n#rating2 abc\n#rating1 1900\n" + HEAD + MOVES)
    assert record_ratings(game) == {0: 1850}  # the first of a seat; "abc" is no rating
    game = parse_string("#rating2 2001\n#rating3 99999\n#rating0 1500\n" + HEAD + MOVES)
    assert record_ratings(game) == {1: 2001}  # beyond the highest rating, or no seat
    assert record_ratings(parse_string(HEAD + MOVES)) == {}


def test_the_tables_carry_the_date_and_the_ratings(tmp_path: Path) -> None:
    (tmp_path / "a.gcg").write_text("#date 2024-03-05\n#rating2 1720\n" + HEAD + MOVES)
    (tmp_path / "b.gcg").write_text(HEAD + MOVES)
    frames = load_frames([str(tmp_path)], moves=False, jobs=1)
    games = frames.games.set_index("game_id")
    assert games.loc["a", "date"] == "2024-03-05"
    assert pd.isna(games.loc["b", "date"])
    players = frames.players.set_index(["game_id", "player"])
    assert players.loc[("a", "bob"), "rating"] == 1720
    assert pd.isna(players.loc[("a", "ann"), "rating"])
    assert players.loc[("a", "ann"), "date"] == "2024-03-05"
    # not judged: the profile columns are there, and NA
    assert players[PHASE_COLUMNS + KIND_COLUMNS].isna().all().all()
    assert profile_games(frames.players).empty


# ------------------------------------------------------------- hand-made judged games
def _turn(event: int, player: str, phase: Phase, best: str, played: str, mistake: Mistake,
          scores: tuple[int, int] = (30, 20)) -> TurnAnalysis:  # fmt: skip
    j = Judgement(phase, "simulation", JudgedMove(best, scores[0], 50.0),
                  JudgedMove(played, scores[1], 40.0), mistake=mistake)  # fmt: skip
    return TurnAnalysis(event, event, player, "play", played, "AEINRST", scores[1],
                        scores[1], "analysed", judgement=j)  # fmt: skip


def _analysis() -> RecordAnalysis:
    """ann: a missed bingo in the opening (1.0), a leave mistake (0.2), a best move;
    bob: a missed exchange (0.5), an endgame mistake (0.2)."""
    turns = [
        _turn(1, "ann", Phase.OPENING, "8H RETAINS", "8H RET", Mistake.LARGE),
        _turn(2, "bob", Phase.MIDGAME, "-QV", "8D QI", Mistake.MEDIUM),
        _turn(3, "ann", Phase.MIDGAME, "8D QI", "8D QIS", Mistake.SMALL, (20, 25)),
        _turn(4, "bob", Phase.ENDGAME, "8D ZO", "8D ZA", Mistake.SMALL),
        _turn(5, "ann", Phase.MIDGAME, "8D ZO", "8D ZO", Mistake.NONE),
    ]
    return RecordAnalysis("g.gcg", turns=turns, players=["ann", "bob"], depth="sim",
                          mistake_index={"ann": 1.2, "bob": 0.7})  # fmt: skip


def player_games(n: int, *, ratings: bool = True, dates: bool = True) -> pd.DataFrame:
    """A player-games frame of ``n`` games of ann and bob, each judged as :func:`_analysis`;
    ann's Mistake Index grows by 0.1 a game, and her rating falls 10 points a game."""
    judged = judged_player_values(_analysis())
    index = PLAYER_COLUMNS.index("mistake_index")
    rows = []
    for g in range(n):
        for seat, nick in enumerate(("ann", "bob")):
            values: dict[str, Any] = dict.fromkeys(PLAYER_COLUMNS, 0)
            values.update(
                file=f"g{g}.gcg", game_id=f"g{g}", player=nick, name=nick, seat=seat + 1,
                opponent="bob" if nick == "ann" else "ann", result=None, finished=True,
                best_score=None, best_word=None, phonies_played=None, phonies_stood=None,
                missed_bingos=None, analysed_turns=None, equity_lost=None,
                date=f"2024-01-{n - g:02d}" if dates else None,  # the latest file first
                rating=(1900 - 10 * g if nick == "ann" else 1600) if ratings else None,
            )  # fmt: skip
            row = list(values.values())
            row[index:] = judged[nick]
            if nick == "ann":
                row[index] = round(1.2 + 0.1 * g, 6)
            rows.append(tuple(row))
    return make_frame(rows, PLAYER_DTYPES)


def test_profile_games_one_row_per_player_per_judged_game() -> None:
    games = profile_games(player_games(3))
    assert list(games.columns) == GAME_PROFILE_COLUMNS
    assert list(games["order"]) == [1, 1, 2, 2, 3, 3]
    ann = games[games["player"] == "ann"].iloc[0]
    assert ann["mistake_index"] == 1.2
    assert [ann[c] for c in PHASE_COLUMNS] == [1.0, 0.2, 0.0, 0.0]
    assert [ann[c] for c in KIND_COLUMNS] == [1.0, 0.0, 0.2, 0.0, 0.0]
    assert (ann["judged_turns"], ann["best_moves"]) == (3, 1)
    bob = games[games["player"] == "bob"].iloc[0]
    assert [bob[c] for c in KIND_COLUMNS] == [0.0, 0.5, 0.0, 0.2, 0.0]
    assert [bob[c] for c in PHASE_COLUMNS] == [0.0, 0.5, 0.0, 0.2]


def test_player_profiles_by_hand() -> None:
    profiles = player_profiles(profile_games(player_games(12)))
    ann, bob = profiles.players
    assert (ann.player, ann.games, ann.judged_turns) == ("ann", 12, 36)
    assert ann.mistake_index == pytest.approx(1.2 + 0.1 * 5.5)  # the mean of 1.2 .. 2.3
    assert ann.by_phase["opening"] == 1.0 and ann.by_kind["missed_bingo"] == 1.0
    assert ann.best_move_share == pytest.approx(1 / 3, abs=1e-3)
    assert ann.rating == pytest.approx(1900 - 55)
    assert bob.mistake_index == 0.7 and bob.best_move_share == 0.0
    assert bob.by_kind == {"missed_bingo": 0.0, "exchange": 0.5, "leave": 0.0,
                           "endgame": 0.2, "other": 0.0}  # fmt: skip
    assert profiles.fit.fitted and profiles.fit.games == 24 and profiles.fit.players == 2
    assert ann.rating_estimate == profiles.fit.estimate(ann.mistake_index)
    assert profiles.dated


def test_fit_rating_recovers_a_line() -> None:
    pairs = [(x / 10, 2000 - 300 * x / 10) for x in range(12)]
    fit = fit_rating(pairs, 3)
    assert fit.fitted
    assert fit.slope == pytest.approx(-300) and fit.intercept == pytest.approx(2000)
    assert fit.r2 == pytest.approx(1.0)
    assert fit.estimate(1.0) == pytest.approx(1700)
    assert "least squares over 12 rated games of 3 players" in fit.describe()


@pytest.mark.parametrize(
    ("pairs", "reason"),
    [
        ([], "no judged game's record gives its player's rating"),
        ([(0.5, 1800.0)] * (MIN_RATED_GAMES - 1), f"the fit needs {MIN_RATED_GAMES}"),
        ([(0.5, 1800.0 + k) for k in range(MIN_RATED_GAMES)], "the Mistake Index is 0.5 in every"),
    ],
)
def test_fit_rating_says_plainly_why_not(pairs: list[tuple[float, float]], reason: str) -> None:
    fit = fit_rating(pairs, 1)
    assert not fit.fitted and reason in (fit.reason or "")
    assert fit.estimate(1.0) is None
    assert fit.describe().startswith("rating estimate: cannot be fitted: ")


def test_without_ratings_there_is_no_estimate() -> None:
    profiles = player_profiles(profile_games(player_games(12, ratings=False)))
    assert not profiles.fit.fitted
    assert all(p.rating is None and p.rating_estimate is None for p in profiles.players)
    text = profile_text(profiles, title="12 games")
    said = " ".join(text.split())  # the line is wrapped at 80 columns
    assert "cannot be fitted: no judged game's record gives its player's rating" in said


def test_profile_frame_and_files(tmp_path: Path) -> None:
    profiles = player_profiles(profile_games(player_games(12)))
    frame = profile_frame(profiles)
    assert list(frame.columns) == PROFILE_COLUMNS and list(frame.index) == ["ann", "bob"]
    assert frame.loc["bob", "kind_exchange"] == 0.5
    for name in ("p.csv", "p.parquet"):
        save_frame(frame, tmp_path / name, index=True)
    back = pd.read_parquet(tmp_path / "p.parquet")
    assert back.loc["ann", "games"] == 12
    assert pd.read_csv(tmp_path / "p.csv", index_col="player").loc["bob", "mistake_index"] == 0.7
    with pytest.raises(ValueError, match="must end in .csv or .parquet"):
        save_frame(frame, tmp_path / "p.txt", index=True)


def test_profile_text_fits_80_columns() -> None:
    profiles = player_profiles(profile_games(player_games(12)))
    text = profile_text(profiles, title="12 games")
    assert max(len(line) for line in text.splitlines()) <= PROFILE_WIDTH
    assert "Mistake Index per game, by phase" in text and "by kind of mistake" in text
    assert "rating estimate: rating = " in text
    ann = next(line for line in text.splitlines() if line.startswith("ann "))
    assert ann.split()[:4] == ["ann", "12", "36", "1.75"]


def test_chart_by_date_else_by_archive_order(tmp_path: Path) -> None:
    games = profile_games(player_games(4))
    data = mistake_index_data(games)
    assert data["dated"] and data["axis"] == "game date"
    ann = data["players"]["ann"]
    assert [y for _, y in ann] == [1.5, 1.4, 1.3, 1.2]  # by date: the last file is oldest
    undated = mistake_index_data(profile_games(player_games(4, dates=False)))
    assert undated["axis"] == "game in archive order (the records give no date)"
    assert [x for x, _ in undated["players"]["ann"]] == [1, 2, 3, 4]
    out = write_profile_chart(games, tmp_path / "mi.svg")
    assert 'id="mistake_index:ann"' in out.read_text()
    with pytest.raises(ValueError, match=r"\.png, \.svg or \.pdf"):
        write_profile_chart(games, tmp_path / "mi.txt")
