"""Running a command of the typer app in the test's process: its exit code, standard output
and standard error; an exception other than the exit is raised (a traceback is a bug)."""

from __future__ import annotations

from typer.testing import CliRunner

from gcgtools.cli import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr
