"""The typer app, shared option types and exit codes of the ``gcgtools`` command line.

Exit codes: 0 clean, 1 findings of severity error (an unreadable line among them), 2 a file
could not be opened or nothing in it could be read.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from enum import Enum
from typing import Annotated, Any, TypeVar

import typer

from gcgtools import __version__

app = typer.Typer(
    name="gcgtools",
    help="Parse, validate, analyse and annotate Scrabble game records (.gcg).",
    no_args_is_help=True,
    rich_markup_mode=None,
)

EXIT_CLEAN, EXIT_FINDINGS, EXIT_UNREADABLE = 0, 1, 2


class ParseFormat(str, Enum):
    text = "text"
    json = "json"


class LintFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"


Paths = Annotated[list[str], typer.Argument(help="Files, folders (searched for *.gcg) or globs.")]
Jobs = Annotated[
    int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]


def _check_scheduler(value: str | None) -> str | None:
    """``--scheduler``: empty means none; without Dask installed, say how to get it."""
    if not value:
        return None
    from gcgtools.analysis.dask_backend import INSTALL_HINT, dask_available

    if not dask_available():
        typer.echo(f"gcgtools: {INSTALL_HINT}", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    return value


SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        envvar=SCHEDULER_ENV,
        callback=_check_scheduler,
        help="Run on Dask: a scheduler's address (tcp://host:8786), or 'local' for a "
        "LocalCluster of --jobs workers. Default: the local process pool.",
    ),
]
NoCache = Annotated[
    bool, typer.Option("--no-cache", help="Neither use nor store cached per-record results.")
]

F = TypeVar("F", bound=Callable[..., Any])


def batch_command(func: F) -> F:
    """A command that runs batches: a Dask scheduler that cannot be reached (or Dask
    missing) is a clear message and exit code 2, not a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from gcgtools.analysis.dask_backend import SchedulerError

        try:
            return func(*args, **kwargs)
        except SchedulerError as exc:
            typer.echo(f"gcgtools: {exc}", err=True)
            raise typer.Exit(EXIT_UNREADABLE) from None

    return wrapper  # type: ignore[return-value]


Tiles = Annotated[
    str | None,
    typer.Option(
        help="Tile set (english, german, polish, ...) or a tile file of 'letter count value' "
        "lines; default: from the record."
    ),
]
BoardOpt = Annotated[
    str | None,
    typer.Option(
        "--board",
        help="Board layout (standard, super, wwf) or a board file: a 15x15 or 21x21 grid of "
        "premium symbols.",
    ),
]
RulesOpt = Annotated[
    str | None,
    typer.Option("--rules", help="End-of-game rule: standard, international or home."),
]
Bonus = Annotated[
    int | None, typer.Option(help="Challenge bonus the rules give (0, 5 or 10); default: any.")
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gcgtools {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Parse, validate, analyse and annotate Scrabble game records (.gcg)."""
