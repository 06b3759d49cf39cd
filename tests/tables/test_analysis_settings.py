"""How the tables analyse a game, as one value: ``settings=AnalysisSettings(...)`` for
``analyse_game`` and the frames, the loose ``cache=``/``depth=``/``judge=`` of old."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.reference_data import DATA, needs_data

from gcgtools import load_game
from gcgtools.analysis.judge import Depth, settings_for
from gcgtools.batch.settings import AnalysisSettings
from gcgtools.tables.frames import GAME_COLUMNS, lexicon_options, moves_frame
from gcgtools.tables.rows import TABLE_SETTINGS, analyse_game, table_settings

RECORD = Path(__file__).resolve().parents[1] / "support" / "data" / "analysis_records"
PHONY = RECORD / "w801-phony-stood.gcg"
ENABLE = str(DATA / "lexica" / "ENABLE.kwg") if DATA is not None else ""


def test_loose_keywords_become_one_settings_value() -> None:
    judge = settings_for("sim", seed=3)
    settings = table_settings(cache=False, depth="sim", judge=judge)
    assert settings == AnalysisSettings(top=1, cache=False, depth=Depth.SIM, judge=judge)
    assert table_settings() is TABLE_SETTINGS and TABLE_SETTINGS.top == 1
    given = AnalysisSettings(cache=False)
    assert table_settings(given) is given
    with pytest.raises(TypeError, match="not both"):
        table_settings(given, depth="sim")
    with pytest.raises(TypeError, match="unknown analysis keyword 'dept'"):
        table_settings(dept="sim")


def test_the_frames_hand_one_settings_value_down() -> None:
    out = lexicon_options({"lexicon": "a.kwg", "cache": False, "depth": "sim"})
    assert out["lexicon"].lexicon == "a.kwg"
    assert out["settings"] == AnalysisSettings(top=1, cache=False, depth=Depth.SIM)
    assert set(out) == {"lexicon", "settings"}
    # no lexicon: no analysis, so no settings either
    assert lexicon_options({"cache": False, "depth": "sim"}) == {}
    # converting twice gives the same (the Dask frames and the pool both convert)
    assert lexicon_options(out) == out


@needs_data
@pytest.mark.usefixtures("private_cache")
def test_analyse_game_takes_settings_and_the_old_keywords_warn() -> None:
    game = load_game(PHONY)
    new = analyse_game(game, lexicon=ENABLE, settings=AnalysisSettings(top=1, cache=False))
    with pytest.warns(DeprecationWarning, match="cache=: give the analysis settings"):
        old = analyse_game(game, lexicon=ENABLE, cache=False)
    assert new == old
    assert new.game[GAME_COLUMNS.index("analysis_lexicon")] is not None  # analysed
    with pytest.raises(TypeError, match="not both"), pytest.warns(DeprecationWarning):
        analyse_game(game, lexicon=ENABLE, settings=TABLE_SETTINGS, cache=False)


@needs_data
@pytest.mark.usefixtures("private_cache")
def test_the_frames_take_settings_as_the_loose_keywords() -> None:
    loose = moves_frame([PHONY], lexicon=ENABLE, cache=False, jobs=1)
    one = moves_frame([PHONY], lexicon=ENABLE, settings=AnalysisSettings(cache=False), jobs=1)
    assert loose.equals(one)
    assert loose["phony_words"].notna().any()
