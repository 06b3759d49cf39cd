"""Win probability: the built-in model (monotone in the spread, decided with no tile
unseen, its data file complete) and MAGPIE/Quackle winpct tables (read, converted,
clamped; damaged files refused with a message naming the file)."""

from __future__ import annotations

import json
import math
import os
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gcgtools.analysis.winprob import (
    MAX_MODEL_BYTES,
    MAX_TABLE_BYTES,
    MAX_TABLE_COLUMNS,
    MAX_TABLE_LINES,
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
from gcgtools.sources.limited import MIB

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
    with pytest.raises(WinModelError, match="cannot read win percentage table: Is a directory"):
        load_winpct(tmp_path)
    big = tmp_path / "big.csv"
    with open(big, "wb") as fh:
        fh.truncate(MAX_TABLE_BYTES + 1)  # sparse: no disk used
    with pytest.raises(WinModelError, match="too large"):
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
            "too small",
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


# ------------------------------------------------- malformed models: WinModelError only
def _model(parameters: object, **extra: object) -> str:
    return json.dumps({"format": "gcgtools-winmodel-1", "parameters": parameters, **extra})


GOOD = {"m0": 10, "m1": 0.1, "s0": 20, "s1": 5}


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ("[" * 20_000 + "]" * 20_000, "nested deeper than 32"),  # was a RecursionError
        ('{"a": ' * 40 + "1" + "}" * 40, "nested deeper than 32"),
        ('"' + '\\"' * 30_000, "not JSON"),  # an unclosed string: read in one pass
        ('["[[[[", "\\"[[[["]', "not a gcgtools win model"),  # brackets in strings
        (_model({**GOOD, "s0": 1e-300, "s1": 0}), "too small"),  # was a division by zero
        (_model({**GOOD, "s0": 0, "s1": 0.05}), "too small"),
        (_model({**GOOD, "m0": 1e300}), "'m0' is 1e+300: it must be a number from -10000 to 10000"),
        (_model({**GOOD, "s1": -1}), "'s1' is -1"),
        (_model({**GOOD, "m1": True}), "'m1' is missing or not a number"),
        (_model({**GOOD, "m1": "1"}), "'m1' is missing or not a number"),
        (_model({**GOOD, "S0": 1}), "unknown parameter 'S0'"),
        (_model([1, 2]), "no 'parameters' object"),
        (_model(GOOD).replace("10", "NaN", 1), "NaN is not a JSON number"),
        (_model(GOOD).replace("10", "Infinity", 1), "Infinity is not a JSON number"),
        (_model(GOOD).replace("10", "1e400", 1), "'m0' is inf"),
        (_model(GOOD).replace("10", "1" * 5000, 1), "not JSON"),  # too many digits for int
        (_model(GOOD).replace("10", "1" + "0" * 400, 1), "'m0' is 10000000000000000000...:"),
        (_model(GOOD, name=""), "'name' must be text"),
        (_model(GOOD, name="x" * 201), "'name' must be text"),
        (_model(GOOD, name="Ann\x1b[2J"), "'name' must be text"),
        (_model(GOOD, name=["a"]), "'name' must be text"),
        ('"\\ud800"', "not a gcgtools win model"),
    ],
)
def test_malformed_model_json_is_refused_with_its_reason(
    tmp_path: Path, data: str, where: str
) -> None:
    path = tmp_path / "m.json"
    path.write_text(data, encoding="utf-8")
    with pytest.raises(WinModelError) as info:
        load_model_json(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and where in message, message
    assert "\n" not in message and info.value.path == path


def test_a_model_file_is_read_through_the_size_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(MAX_MODEL_BYTES + 1)  # sparse: refused before a byte is read
    with pytest.raises(WinModelError, match="file too large for a win model"):
        load_model_json(big)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"name": "\xe9"}')
    with pytest.raises(WinModelError, match="byte 11 is not UTF-8"):
        load_model_json(latin)


def test_models_made_in_code_are_checked_too() -> None:
    with pytest.raises(WinModelError, match="too small"):
        LogisticWinModel("tiny", 0.0, 0.0, 1e-300, 0.0)
    with pytest.raises(WinModelError, match="'s0'"):
        LogisticWinModel("nan", 0.0, 0.0, math.nan, 1.0)
    with pytest.raises(WinModelError, match="row 1 has 2 values, not 3"):
        TableWinModel("t", 1, ((0.1, 0.5),))
    with pytest.raises(WinModelError, match="outside 0..1"):
        TableWinModel("t", 1, ((0.1, math.nan, 0.9),))
    with pytest.raises(WinModelError, match="outside 0..1"):
        TableWinModel("t", 1, ((0.1, 1.5, 0.9),))
    with pytest.raises(WinModelError, match="0 rows"):
        TableWinModel("t", 1, ())


@pytest.mark.parametrize(
    "model",
    [
        LogisticWinModel("l", 16.6, 0.04, 6.1, 7.0),
        TableWinModel("t", 2, ((0.0, 0.2, 0.5, 0.8, 1.0),)),
    ],
    ids=["logistic", "table"],
)
def test_infinite_and_huge_spreads_are_decided_and_nan_is_refused(model: WinModel) -> None:
    # the table's rounding of an infinite spread was an OverflowError
    for unseen in (0, 1, 7, 10**400):
        assert model.probability(math.inf, unseen) == 1.0
        assert model.probability(-math.inf, unseen) == 0.0
        assert model.probability(10**400, unseen) == 1.0
        assert model.probability(-(10**400), unseen) == 0.0
        with pytest.raises(ValueError, match="NaN"):
            model.probability(math.nan, unseen)


def test_table_lines_and_columns_are_bounded(tmp_path: Path) -> None:
    wide = "1" + " 0" * (MAX_TABLE_COLUMNS + 2) + "\n"
    with pytest.raises(WinModelError, match=f":1:{2 * MAX_TABLE_COLUMNS + 3}: more than 2001"):
        load_winpct(_table(tmp_path, wide, "wide.csv"))
    long = "1 0 1 2\n" * (MAX_TABLE_LINES + 1)
    with pytest.raises(WinModelError, match="1001 lines, more than 1000"):
        load_winpct(_table(tmp_path, long, "long.csv"))
    with pytest.raises(WinModelError, match=":1: no counts after the number of games"):
        load_winpct(_table(tmp_path, "5\n", "bare.csv"))


def test_a_wide_table_is_kept_in_8_bytes_a_value(tmp_path: Path) -> None:
    """200 lines of 2001 counts (400,000 values, 1 MB): 3.2 MB of values and about 8 MiB
    at the peak of reading (a tuple of floats took 12 MB and 32 MiB at the peak; the
    largest table the limits allow, 1000 lines, peaks at about 26 MiB)."""
    line = "9 " + " ".join("18" if i % 2 else "7" for i in range(MAX_TABLE_COLUMNS)) + "\n"
    path = tmp_path / "wide.csv"
    path.write_bytes(line.encode() * 200)
    tracemalloc.start()
    try:
        model = load_winpct(path)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert model.max_spread == 1000 and len(model.rows) == 200
    assert model.probability(-1000, 5) == 7 / 18 and model.probability(-999, 5) == 1.0
    assert kept < 6 * MIB and peak < 16 * MIB, (kept, peak)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)
_number = st.integers(-(10**400), 10**400) | st.floats() | st.text(max_size=3) | st.none()


@st.composite
def _model_texts(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:  # anything JSON writes (NaN and Infinity included)
        return json.dumps(draw(_json))
    if kind == 1:  # nearly a model
        keys = draw(st.lists(st.sampled_from(["m0", "m1", "s0", "s1", "x"]), max_size=5))
        params = {k: draw(_number) for k in keys}
        extra = draw(st.dictionaries(st.sampled_from(["name", "fit", "format"]), _json, max_size=2))
        return json.dumps({"format": "gcgtools-winmodel-1", "parameters": params, **extra})
    if kind == 2:  # text in JSON's alphabet
        return draw(st.text(alphabet='[]{}",:0123456789.eE-+ truefalsnNaIiy\\u', max_size=200))
    return draw(st.text(max_size=100))


def _usable(model: WinModel) -> None:
    for spread in (-math.inf, -500, -0.5, 0, 0.5, 37, 10**400, math.inf):
        for unseen in (0, 1, 7, 93, 1000, 10**6):
            assert 0.0 <= model.probability(spread, unseen) <= 1.0


def _loads_usable_or_refused(path: Path) -> None:
    """``path`` loads as a usable model, or is refused with one line naming it."""
    try:
        model = load_win_model(path)
    except WinModelError as exc:
        assert str(exc).startswith(str(path)) and "\n" not in str(exc)
        return
    _usable(model)


@settings(
    max_examples=300, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)  # fmt: skip
@given(_model_texts())
def test_any_model_file_loads_usable_or_raises_win_model_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "fuzz.json"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    _loads_usable_or_refused(path)


@settings(
    max_examples=300, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)  # fmt: skip
@given(st.binary(max_size=60) | st.text(alphabet="0123456789 ,\t\r\n-.x", max_size=80))
def test_any_table_file_loads_usable_or_raises_win_model_error(
    tmp_path: Path, data: bytes | str
) -> None:
    path = tmp_path / "fuzz.csv"
    path.write_bytes(data if isinstance(data, bytes) else data.encode("ascii"))
    _loads_usable_or_refused(path)
