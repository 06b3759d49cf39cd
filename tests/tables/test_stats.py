"""Per-player statistics and bingo lists, checked against numbers worked out by hand
(see ``report_records.py`` for the records and their arithmetic)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import valid_files
from support.report_records import BROKEN, GAME_A, GAME_HOME, GAME_TIE, PHONY_BINGO, write

from gcgtools.rules.options import RuleOptions
from gcgtools.tables.frames import load_frames
from gcgtools.tables.stats import (
    BINGO_COLUMNS,
    GAME_SUMMARY_COLUMNS,
    PLAYER_STAT_COLUMNS,
    archive_stats,
    bingo_counts,
    bingo_rows,
    bingos,
    game_summary,
    player_stats,
)


@pytest.fixture
def archive(tmp_path: Path) -> list[str]:
    return [write(tmp_path, "a.gcg", GAME_A), write(tmp_path, "tie.gcg", GAME_TIE)]


def test_player_stats_over_two_games(archive: list[str]) -> None:
    stats = player_stats(load_frames(archive, moves=False, jobs=1).players)
    assert list(stats.columns) == PLAYER_STAT_COLUMNS
    assert list(stats.index) == ["Alice", "Bob"]
    alice = stats.loc["Alice"].to_dict()
    bob = stats.loc["Bob"].to_dict()
    # no lexicon: the analysis columns are there, and NA
    for row in (alice, bob):
        for column in ("phonies_played", "phonies_stood", "missed_bingos", "avg_equity_lost"):
            assert pd.isna(row.pop(column))
        # nor judged (no --depth sim/full): the judgement columns are NA too
        for column in ("mistake_index", "mistakes_small", "mistakes_medium", "mistakes_large",
                       "best_move_share"):  # fmt: skip
            assert pd.isna(row.pop(column))
    # GAME_A: 74 - (-15), a win; GAME_TIE: 11 - 11, a tie.
    # points per turn: plays that stood (66 + 4 + 11) + 18 over turns 6 + 4 = 99 / 10
    assert alice == {
        "games": 2, "finished": 2, "wins": 1, "losses": 0, "ties": 1,
        "avg_score": 42.5, "avg_spread": 44.5, "points_per_turn": 9.9, "bingos": 1,
        "bingos_per_game": 0.5, "highest_game": 74, "highest_play": 66,
        "highest_play_word": "RETAINS", "exchanges": 1, "passes": 5, "phonies": 0,
        "challenges_won": 1, "challenges_lost": 1,
    }  # fmt: skip
    # points per turn: UNDO 8 + JO 17 over turns 5 + 4 = 25 / 9 = 2.78
    assert bob == {
        "games": 2, "finished": 2, "wins": 0, "losses": 1, "ties": 1,
        "avg_score": -2.0, "avg_spread": -44.5, "points_per_turn": 2.78, "bingos": 0,
        "bingos_per_game": 0.0, "highest_game": 11, "highest_play": 17,
        "highest_play_word": "JO", "exchanges": 0, "passes": 6, "phonies": 1,
        "challenges_won": 0, "challenges_lost": 1,
    }  # fmt: skip


def test_home_rules_turn_the_tie_into_a_win(tmp_path: Path) -> None:
    path = write(tmp_path, "home.gcg", GAME_HOME)
    stats = player_stats(
        load_frames([path], moves=False, jobs=1, rules=RuleOptions.parse(rules="home")).players
    )
    assert stats.loc["Alice", ["wins", "losses", "ties"]].tolist() == [1, 0, 0]
    assert stats.loc["Bob", ["wins", "losses", "ties"]].tolist() == [0, 1, 0]
    assert stats.loc["Alice", "avg_spread"] == 0.0  # 11 - 11: won on the tie-break


def test_unfinished_games_count_as_played_but_not_in_results(tmp_path: Path) -> None:
    path = write(tmp_path, "home.gcg", GAME_HOME)  # not over under standard rules
    stats = player_stats(load_frames([path], moves=False, jobs=1).players)
    alice = stats.loc["Alice"]
    assert (alice["games"], alice["finished"], alice["wins"], alice["ties"]) == (1, 0, 0, 0)
    assert pd.isna(alice["avg_score"]) and pd.isna(alice["highest_game"])
    assert alice["highest_play"] == 18 and alice["points_per_turn"] == 6.0  # 18 / 3 turns


def test_player_stats_of_nothing() -> None:
    empty = load_frames([], moves=False).players
    stats = player_stats(empty)
    assert stats.empty and list(stats.columns) == PLAYER_STAT_COLUMNS


def test_bingos_lists_every_bingo_that_stood(tmp_path: Path, archive: list[str]) -> None:
    phony = write(tmp_path, "phony.gcg", PHONY_BINGO)
    table = bingos([*archive, phony], jobs=1)
    assert list(table.columns) == BINGO_COLUMNS
    assert table.to_dict(orient="records") == [
        {"file": archive[0], "game_id": "game-a", "event": 1, "player": "Alice",
         "opponent": "Bob", "word": "RETAINS", "position": "8H", "score": 66},
        {"file": phony, "game_id": "phony", "event": 3, "player": "Bob",
         "opponent": "Alice", "word": "TIRADES", "position": "8H", "score": 70},
    ]  # fmt: skip
    assert table.attrs["games"] == 3 and table.attrs["unreadable"] == []
    counts = bingo_counts(table)
    assert counts.to_dict(orient="index") == {
        "Alice": {"bingos": 1, "games": 1},
        "Bob": {"bingos": 1, "games": 1},
    }


def test_bingo_rows_from_a_moves_frame_agree_with_bingos(archive: list[str]) -> None:
    moves = load_frames(archive, jobs=1).moves
    assert moves is not None
    pd.testing.assert_frame_equal(bingo_rows(moves), bingos(archive, jobs=1))


def test_bingo_counts_sorted_by_count() -> None:
    table = pd.DataFrame(
        {
            "player": ["Ann", "Ben", "Ben", "Ben", "Ann"],
            "game_id": ["g1", "g1", "g2", "g2", "g3"],
        }
    )
    counts = bingo_counts(table)
    assert list(counts.index) == ["Ben", "Ann"]
    assert counts["bingos"].tolist() == [3, 2]
    assert counts["games"].tolist() == [2, 2]
    assert bingo_counts(table.iloc[:0]).empty


def test_bingos_reports_unreadable_files(tmp_path: Path, archive: list[str]) -> None:
    broken = write(tmp_path, "broken.gcg", BROKEN)
    table = bingos([broken, *archive], jobs=1)
    assert table.attrs["unreadable"] == [broken]
    assert list(table["word"]) == ["RETAINS"]


def test_archive_stats_by_player_and_by_game(tmp_path: Path, archive: list[str]) -> None:
    broken = write(tmp_path, "broken.gcg", BROKEN)
    by_player = archive_stats([*archive, broken], jobs=1)
    assert list(by_player.index) == ["Alice", "Bob"]
    assert by_player.attrs["unreadable"] == [broken]
    assert by_player.attrs["games"] == 2
    by_game = archive_stats([*archive, broken], by="game", jobs=1)
    assert list(by_game.columns) == GAME_SUMMARY_COLUMNS
    assert by_game["winner"].tolist() == ["Alice", "tie"]
    assert by_game["spread"].tolist() == [89, 0]
    with pytest.raises(ValueError, match="player"):
        archive_stats(archive, by="lexicon")


def test_game_summary_keeps_one_row_per_game(archive: list[str]) -> None:
    games = load_frames(archive, moves=False, jobs=1).games
    summary = game_summary(games)
    assert summary[["player1", "player2", "score1", "score2"]].values.tolist() == [
        ["Alice", "Bob", 74, -15],
        ["Alice", "Bob", 11, 11],
    ]
    assert summary["best_word"].tolist() == ["RETAINS", "BOTH"]  # BOTH 18 beats JO 17


def test_corpus_stats_add_up() -> None:
    files = [str(p) for p in valid_files()]
    frames = load_frames(files)
    assert frames.moves is not None
    stats = player_stats(frames.players)
    assert stats["games"].sum() == len(frames.players)
    finished = frames.players[frames.players["finished"]]
    assert (stats["wins"] + stats["losses"] + stats["ties"]).sum() == len(finished)
    assert stats["bingos"].sum() == frames.moves["bingo"].sum() == len(bingos(files))
    assert (stats["highest_play"].dropna() <= frames.moves["score"].max()).all()
