"""Option groups: options declared once (cli/groups.py), the command getting the one
value they build, and --help showing them where the command names the group."""

from __future__ import annotations

import typer
from typer.testing import CliRunner

from gcgtools.analysis.judge import Depth, settings_for
from gcgtools.batch.settings import DEFAULT_SETTINGS, AnalysisSettings
from gcgtools.cli.groups import (
    BATCH_GROUP,
    JUDGE_GROUP,
    LEXICON_GROUP,
    NO_BATCH,
    RULE_GROUP,
    BatchOptions,
    option_groups,
)
from gcgtools.lexicon.choice import NO_CHOICE, LexiconChoice
from gcgtools.rules.options import NO_OPTIONS, EndRule, RuleOptions

got: list[tuple[str, RuleOptions, BatchOptions]] = []


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.command()
    @option_groups(rule_set=RULE_GROUP, batch=BATCH_GROUP)
    def run(
        name: str,
        rule_set: RuleOptions = NO_OPTIONS,
        batch: BatchOptions = NO_BATCH,
        last: bool = False,
    ) -> None:
        got.append((name, rule_set, batch))

    return app


def test_the_command_gets_the_values_the_groups_build() -> None:
    got.clear()
    result = CliRunner().invoke(_app(), ["x", "--tiles", "german", "--rules", "home", "-j", "2"])
    assert result.exit_code == 0, result.output
    name, rules, batch = got[0]
    assert name == "x"
    assert rules == RuleOptions.parse(tiles="german", rules="home")
    assert rules.end_rule is not None and rules.end_rule is not EndRule.STANDARD
    assert batch == BatchOptions(jobs=2)
    CliRunner().invoke(_app(), ["y"])
    assert got[1] == ("y", NO_OPTIONS, NO_BATCH)


def test_help_lists_the_group_options_in_place() -> None:
    text = CliRunner().invoke(_app(), ["--help"], env={"COLUMNS": "120"}).output
    order = ["--tiles", "--board", "--rules", "--challenge-bonus", "--jobs", "--scheduler",
             "--quiet", "--last"]  # fmt: skip
    positions = [text.index(option) for option in order]
    assert positions == sorted(positions)


def test_a_bad_value_is_a_usage_error() -> None:
    result = CliRunner().invoke(_app(), ["x", "--challenge-bonus", "7"])
    assert result.exit_code == 2 and "7 is not a challenge bonus" in result.output


def test_the_lexicon_group_builds_a_lexicon_choice() -> None:
    seen: list[LexiconChoice] = []
    app = typer.Typer()

    @app.command()
    @option_groups(choice=LEXICON_GROUP)
    def run(choice: LexiconChoice = NO_CHOICE) -> None:
        seen.append(choice)

    result = CliRunner().invoke(app, ["--lexicon", "a.kwg", "--leaves", "b.klv2"])
    assert result.exit_code == 0, result.output
    assert seen == [LexiconChoice("a.kwg", None, "b.klv2")]


def test_the_judge_group_builds_the_settings_of_its_depth() -> None:
    seen: list[AnalysisSettings] = []
    app = typer.Typer()

    @app.command()
    @option_groups(judging=JUDGE_GROUP.only("depth", "seed", "sim_iterations"))
    def run(judging: AnalysisSettings = DEFAULT_SETTINGS) -> None:
        seen.append(judging)

    assert CliRunner().invoke(app, []).exit_code == 0
    assert seen[0] == DEFAULT_SETTINGS and seen[0].deep() is None
    result = CliRunner().invoke(app, ["--depth", "sim", "--seed", "7", "--sim-iterations", "9"])
    assert result.exit_code == 0, result.output
    assert seen[1].depth is Depth.SIM
    assert seen[1].judge == settings_for("sim", seed=7, sim_iterations=9)
    # the options left out of the group are not options of the command
    result = CliRunner().invoke(app, ["--endgame-nodes", "5"])
    assert result.exit_code == 2 and "No such option" in result.output


def test_only_lists_the_options_in_the_order_given() -> None:
    group = BATCH_GROUP.only("jobs", "quiet", "scheduler")
    assert [p.name for p in group.params] == ["jobs", "quiet", "scheduler"]
    assert group.build is BATCH_GROUP.build
