"""The typer app, shared option types and exit codes of the ``gcgtools`` command line.

Exit codes: 0 clean, 1 findings of severity error, 2 a file could not be read or parsed.
"""

from __future__ import annotations

import os
from enum import Enum
from typing import Annotated

import typer

from gcgtools import __version__
from gcgtools.rules import BOARDS, TILE_SETS, board_layout, parse_end_rule, tile_set

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
    int | None,
    typer.Option("--jobs", "-j", min=1, help="Worker processes (default: all cores)."),
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
# Option values are checked before any file is read: a bad one is a usage error (exit 2)
# that names the valid values, never a per-file "could not read".
CHALLENGE_BONUSES = (0, 5, 10)
END_RULES = ("standard", "international", "home")


def _known_or_file(value: str | None, lookup: object, what: str, known: str) -> str | None:
    """``value`` if ``lookup`` knows it or it names an existing file, else a usage error."""
    if value is None:
        return None
    try:
        lookup(value)  # type: ignore[operator]
        return value
    except KeyError:
        pass
    if os.path.isfile(value):
        return value  # a file describing the tiles or board
    raise typer.BadParameter(f"unknown {what} {value!r}; valid: {known}, or an existing FILE")


def check_tiles(value: str | None) -> str | None:
    """``--tiles``: a known tile set name (any spelling ``tile_set`` reads) or a file."""
    return _known_or_file(value, tile_set, "tile set", ", ".join(sorted(TILE_SETS)))


def check_board(value: str | None) -> str | None:
    """``--board``: a known board layout name (standard, super, wwf, ...) or a file."""
    known = "standard, super, wwf (" + ", ".join(sorted(BOARDS)) + ")"
    return _known_or_file(value, board_layout, "board layout", known)


def check_rules(value: str | None) -> str | None:
    """``--rules``: standard, international or home (or an alias ``parse_end_rule`` reads)."""
    if value is not None:
        try:
            parse_end_rule(value)
        except ValueError:
            raise typer.BadParameter(
                f"unknown end rule {value!r}; valid: {', '.join(END_RULES)}"
            ) from None
    return value


def check_bonus(value: int | None) -> int | None:
    """``--challenge-bonus``: 0, 5 or 10."""
    if value is not None and value not in CHALLENGE_BONUSES:
        valid = ", ".join(map(str, CHALLENGE_BONUSES))
        raise typer.BadParameter(f"{value} is not a challenge bonus; valid: {valid}")
    return value


Tiles = Annotated[
    str | None,
    typer.Option(
        callback=check_tiles,
        help="Tile set (english, german, polish, ...); default: from record.",
    ),
]
BoardOpt = Annotated[
    str | None,
    typer.Option("--board", callback=check_board, help="Board layout (standard, super, wwf)."),
]
RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        callback=check_rules,
        help="End-of-game rule: standard, international or home.",
    ),
]
Bonus = Annotated[
    int | None,
    typer.Option(
        callback=check_bonus,
        help="Challenge bonus the rules give (0, 5 or 10); default: any.",
    ),
]


def cannot_write(exc: OSError, target: object) -> str:
    """``PATH: cannot write: reason``, the one message of every writer."""
    from gcgtools.model.paths import display_name

    name = display_name(os.fspath(exc.filename or target))  # type: ignore[arg-type]
    return f"{name}: cannot write: {exc.strerror or exc}"


def output_is_input(output: str | os.PathLike[str] | None, inputs: list[str]) -> str | None:
    """The input that ``output`` would overwrite (the same file: a link or another
    spelling of its name counts), or None. Standard output (``-``) is never an input."""
    from gcgtools.atomic import same_file

    if output is None or str(output) == "-":
        return None
    for name in inputs:
        if same_file(name, output):
            return name
    return None


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
