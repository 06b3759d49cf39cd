"""Every numeric option of every command is bounded: a huge value, a negative one where
none is allowed, nan and inf are a usage error (exit 2) naming the option, never a
traceback nor a value that overflows later (``moves --sim --candidates
9223372036854775808`` once ended in an OverflowError; ``analyse --sim-candidates`` of the
same made every record "unreadable").

The options are found in the typer app itself, so a new option is covered as soon as it
exists."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from gcgtools.cli import app
from gcgtools.cli.common import click_part, load_command
from gcgtools.cli.registry import COMMANDS

TYPES = click_part("types")


def _numeric_options() -> list[tuple[list[str], Any]]:
    """(the command's words, the option) for every option that takes a number."""
    found = []
    for name in COMMANDS:
        command = load_command(name)
        subs = command.commands.items() if hasattr(command, "commands") else [("", command)]
        for sub, cmd in subs:
            words = [name, sub] if sub else [name]
            for param in cmd.params:
                numeric = (TYPES.IntParamType, TYPES.FloatParamType)
                if param.param_type_name == "option" and isinstance(param.type, numeric):
                    found.append((words, param))
    return found


OPTIONS = _numeric_options()
HUGE = ["9223372036854775808", str(10**30), "-" + str(10**30)]
NOT_FINITE = ["nan", "inf", "-inf"]


def _cases() -> list[object]:
    cases = []
    for words, option in OPTIONS:
        values = HUGE + NOT_FINITE
        low = getattr(option.type, "min", None)
        if low is not None and low > -1:
            values.append("-1")
        for value in values:
            ident = f"{' '.join(words)} {option.opts[0]}={value}"
            cases.append(pytest.param(words, option, value, id=ident))
    return cases


def test_the_numeric_options_are_found() -> None:
    names = {(words[0], option.opts[0]) for words, option in OPTIONS}
    assert ("moves", "--candidates") in names and ("analyse", "--sim-candidates") in names
    assert ("validate", "--jobs") in names and ("picture", "--size") in names


@pytest.mark.parametrize(("words", "option", "value"), _cases())
def test_an_out_of_range_number_is_a_usage_error(words: list[str], option: Any, value: str) -> None:
    long = max(option.opts, key=len)
    args = [*words, f"{long}={value}", "game.gcg"]
    result = CliRunner().invoke(app, args)
    output = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exit_code == 2, output
    assert any(name in output for name in option.opts), output
    assert "Traceback" not in output
    assert not isinstance(result.exception, (OverflowError, ValueError)), result.exception


def test_a_bounded_number_within_range_is_taken() -> None:
    """The bounds refuse only what is out of range: the largest ``--jobs`` allowed is
    taken, capped at the cores with a note (here by a command that then finds no file)."""
    result = CliRunner().invoke(app, ["validate", "--jobs=4096", "-q", "no-such-file.gcg"])
    assert result.exit_code == 2  # the missing file
    assert "Invalid value" not in result.output
    assert "--jobs 4096 is more than the" in result.output
