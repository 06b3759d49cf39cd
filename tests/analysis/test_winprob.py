"""Win probability: the built-in model (monotone in the spread, decided with no tile
unseen, its data file complete) and MAGPIE/Quackle winpct tables (read, converted,
clamped; damaged files refused with a message naming the file)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gcgtools.analysis.winprob import (
    MAX_TABLE_BYTES,
    LogisticWinModel,
    TableWinModel,
    WinModel,
    WinModelError,
    builtin_model,
    load_model_json,
    load_win_model,
    load_winpct,
    win_probability,
)

SPREADS = range(-400, 401, 5)
UNSEEN = [1, 2, 5, 7, 8, 14, 20, 40, 60, 93, 150]


def test_builtin_model_is_monotone_in_spread_for_every_unseen_count() -> None:
    model = builtin_model()
    for u in UNSEEN:
        values = [model.probability(s, u) for s in SPREADS]
        assert all(a <= b for a, b in zip(values, values[1:], strict=False)), u
        assert all(0.0 <= v <= 1.0 for v in values)
        if u <= 60:  # 400 points decide a game past its first few turns
            assert values[0] < 0.01 and values[-1] > 0.99


def test_builtin_model_grows_strictly_where_the_game_is_open() -> None:
    model = builtin_model()
    for u in (7, 30, 90):
        assert model.probability(-10, u) < model.probability(0, u) < model.probability(10, u)


def test_a_lead_means_more_when_fewer_tiles_are_left() -> None:
    model = builtin_model()
    assert model.probability(30, 7) > model.probability(30, 80)
    assert model.probability(-30, 7) < model.probability(-30, 80)


def test_no_tile_unseen_means_the_spread_decides() -> None:
    model = builtin_model()
    assert win_probability(1, 0) == 1.0
    assert win_probability(0, 0) == 0.5
    assert win_probability(-1, 0) == 0.0
    assert model.probability(-0.5, 0) == 0.0
    table = TableWinModel("t", 1, ((0.1, 0.5, 0.9),))
    assert [table.probability(s, 0) for s in (-3, 0, 3)] == [0.0, 0.5, 1.0]


def test_being_on_turn_is_worth_something_at_spread_zero() -> None:
    """The choice stated in the docs: the player to move is ahead at spread 0."""
    model = builtin_model()
    assert model.m0 + model.m1 * 50 > 0
    assert model.probability(0, 50) > 0.5


def test_builtin_data_file_says_how_it_was_made() -> None:
    model = builtin_model()
    assert isinstance(model, WinModel)
    assert "self-play" in model.name
    made = model.made["made_by"]
    assert isinstance(made, dict)
    assert made["games"] >= 100 and "seed" in made and made["lexicon"] == "ENABLE.kwg"
    fit = model.made["fit"]
    assert isinstance(fit, dict)
    # held out positions predicted better than a coin (log-loss ln 2)
    assert 0 < fit["heldout_log_loss"] < fit["heldout_log_loss_coin"]
    assert 0 < fit["heldout_brier"] < 0.25


def test_default_model_is_the_builtin_one() -> None:
    assert win_probability(25, 30) == builtin_model().probability(25, 30)
    other = LogisticWinModel("flat", 0.0, 0.0, 50.0, 0.0)
    assert win_probability(0, 30, other) == 0.5


# ------------------------------------------------------------------ winpct tables
def _table(tmp_path: Path, text: str, name: str = "winpct.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="ascii")
    return path


def test_counts_become_win_points_over_twice_the_games(tmp_path: Path) -> None:
    # S = 2: spreads -2 -1 0 +1 +2; 1 unseen tile: 10 games; 2 unseen: 4 games
    path = _table(tmp_path, "10 0 4 10 16 20\n4 1 2 4 6 8\n")
    model = load_winpct(path)
    assert model.max_spread == 2
    assert "winpct.csv" in model.name
    assert [model.probability(s, 1) for s in (-2, -1, 0, 1, 2)] == [0.0, 0.2, 0.5, 0.8, 1.0]
    assert [model.probability(s, 2) for s in (-2, -1, 0, 1, 2)] == [
        0.125, 0.25, 0.5, 0.75, 1.0,
    ]  # fmt: skip


def test_spreads_beyond_the_table_are_clamped_and_rounded(tmp_path: Path) -> None:
    model = load_winpct(_table(tmp_path, "10 0 4 10 16 20\n"))
    assert model.probability(-300, 1) == model.probability(-2, 1) == 0.0
    assert model.probability(300, 1) == model.probability(2, 1) == 1.0
    assert model.probability(0.5, 1) == model.probability(1, 1)  # halves away from zero
    assert model.probability(-0.5, 1) == model.probability(-1, 1)
    assert model.probability(0.4, 1) == model.probability(0, 1)


def test_more_unseen_tiles_than_lines_use_the_last_line(tmp_path: Path) -> None:
    model = load_winpct(_table(tmp_path, "10 0 4 10 16 20\n4 1 2 4 6 8\n"))
    assert model.probability(-1, 90) == model.probability(-1, 2) == 0.25


def test_a_line_without_games_uses_the_one_above(tmp_path: Path) -> None:
    model = load_winpct(_table(tmp_path, "10 0 4 10 16 20\n0 0 0 0 0 0\n"))
    assert model.probability(-1, 2) == 0.2


def test_commas_and_tabs_separate_fields_too(tmp_path: Path) -> None:
    a = load_winpct(_table(tmp_path, "10,0,4,10,16,20\r\n", "a.csv"))
    b = load_winpct(_table(tmp_path, "10\t0 4\t10 16 20 \n\n", "b.csv"))
    assert a.rows == b.rows


def test_load_win_model_chooses_by_suffix(tmp_path: Path) -> None:
    table = load_win_model(_table(tmp_path, "10 0 4 10 16 20\n"))
    assert isinstance(table, TableWinModel)
    data = {"format": "gcgtools-winmodel-1", "name": "mine",
            "parameters": {"m0": 0, "m1": 0, "s0": 20, "s1": 1}}  # fmt: skip
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    model = load_win_model(path)
    assert isinstance(model, LogisticWinModel) and model.name == "mine"
    assert model.probability(0, 10) == 0.5


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("", "empty"),
        ("10 0 4 10 16\n", ":1: 4 counts"),  # even number of spreads
        ("10 0 4 10 16 20\n4 1 2 4\n", ":2: 3 counts"),
        ("10 0 4 x 16 20\n", ":1:8: 'x' is not a count"),
        ("10 0 4 -3 16 20\n", ":1:8: '-3' is not a count"),
        ("10 0 4 1.5 16 20\n", ":1:8: '1.5'"),
        ("10 0 4 21 16 20\n", ":1:8: count 21 is more than twice"),
        ("0 0 0 0 0 0\n", ":1:1: 0 games"),
        ("10 0 4 10 16 20\n\n4 1 2 4 6 8\n", ":2: empty line"),
        ("winpct 2 7 86 500\n0 0 1 1 5 0 0 0\n", ":1:1: a MAGPIE table with a 'winpct' header"),
        ("10 0 4 \xe9 16 20\n", "not ASCII"),
        (",0,1,2\n300,0.99,0.99,0.99\n", ":1:1: a Macondo table"),
        ("1" * 30 + " 0 0 0\n", "is not a count"),
    ],
)
def test_damaged_tables_are_refused_naming_the_file(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(WinModelError) as info:
        load_winpct(path)
    message = str(info.value)
    assert message.startswith(str(path)), message
    assert where in message, message
    assert "\n" not in message
    assert info.value.path == path


def test_missing_file_directory_and_oversized_file(tmp_path: Path) -> None:
    with pytest.raises(WinModelError, match="cannot read"):
        load_winpct(tmp_path / "nope.csv")
    with pytest.raises(WinModelError, match="not a regular file"):
        load_winpct(tmp_path)
    big = tmp_path / "big.csv"
    with open(big, "wb") as fh:
        fh.truncate(MAX_TABLE_BYTES + 1)  # sparse: no disk used
    with pytest.raises(WinModelError, match="more than"):
        load_winpct(big)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes (POSIX)")
def test_a_named_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(WinModelError, match="not a regular file"):
        load_winpct(fifo)


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ("[1, 2]", "not a gcgtools win model"),
        ('{"format": "gcgtools-winmodel-1", "parameters": {"m0": 1}}', "'m1' is missing"),
        (
            '{"format": "gcgtools-winmodel-1", "parameters": {"m0": 0, "m1": 0, "s0": 0, "s1": 0}}',
            "not both 0",
        ),  # fmt: skip
        ("{oops", "not JSON"),
    ],
)
def test_damaged_model_json_is_refused(tmp_path: Path, data: str, where: str) -> None:
    path = tmp_path / "m.json"
    path.write_text(data, encoding="utf-8")
    with pytest.raises(WinModelError, match=where) as info:
        load_model_json(path)
    assert str(info.value).startswith(str(path))


def test_the_error_survives_pickling(tmp_path: Path) -> None:
    import pickle

    err = WinModelError("x: broken", tmp_path / "x")
    back = pickle.loads(pickle.dumps(err))
    assert str(back) == "x: broken" and back.path == tmp_path / "x"
