"""AnalysisSettings: one value for how records are analysed, and the result cache key it
names (the static entries keep the keys they had before the value existed)."""

from __future__ import annotations

import pickle

import pytest

from gcgtools.analysis.analyse import ANALYSIS_VERSION, DEFAULT_TOP
from gcgtools.analysis.judge import Depth, settings_for
from gcgtools.batch.analyses import analyse_paths
from gcgtools.batch.settings import DEFAULT_SETTINGS, AnalysisSettings
from gcgtools.lexicon.choice import LexiconChoice, fingerprint
from gcgtools.rules.options import RuleOptions


def test_the_depth_is_read_from_its_name_and_the_value_pickles() -> None:
    settings = AnalysisSettings(depth="sim", top=3)  # type: ignore[arg-type]
    assert settings.depth is Depth.SIM
    assert pickle.loads(pickle.dumps(settings)) == settings
    with pytest.raises(ValueError):
        AnalysisSettings(depth="deep")  # type: ignore[arg-type]


def test_static_cache_params_name_files_top_rules_and_version_only() -> None:
    choice = LexiconChoice.of(None, None, None)
    home = RuleOptions.parse(rules="home")
    params = AnalysisSettings(top=1, options=home).cache_params(choice)
    assert params == {
        "files": fingerprint(choice),
        "top": DEFAULT_TOP,  # one entry serves every top up to DEFAULT_TOP
        "rules": home.identity(),
        "analysis": ANALYSIS_VERSION,
    }
    assert list(params) == ["files", "top", "rules", "analysis"]
    assert AnalysisSettings(top=DEFAULT_TOP + 2).cache_params(choice)["top"] == DEFAULT_TOP + 2
    assert DEFAULT_SETTINGS.deep() is None


def test_a_judged_analysis_adds_the_depth_and_every_judge_setting() -> None:
    choice = LexiconChoice.of(None, None, None)
    judge = settings_for("sim", seed=4)
    params = AnalysisSettings(depth=Depth.SIM, judge=judge).cache_params(choice)
    assert params["depth"] == "sim" and params["judge"] == judge.to_dict()
    default = AnalysisSettings(depth=Depth.FULL).cache_params(choice)
    assert default["judge"] == settings_for(Depth.FULL).to_dict()


def test_settings_and_loose_keywords_are_not_given_both() -> None:
    with pytest.raises(TypeError, match="not both"):
        next(analyse_paths(["nothing.gcg"], top=3, settings=AnalysisSettings()))
