"""Option groups: options declared once (cli/common.py), the command getting the one
value they build, and --help showing them where the command names the group."""

from __future__ import annotations

import typer
from typer.testing import CliRunner

from gcgtools.cli.common import (
    BATCH_GROUP,
    NO_BATCH,
    RULE_GROUP,
    BatchOptions,
    option_groups,
)
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
