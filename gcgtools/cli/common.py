"""The typer app and shared option types of the ``gcgtools`` command line.

Exit codes (defined once, in :mod:`gcgtools.findings`): 0 clean, 1 findings of severity
error (an unreadable line among them), 2 a file could not be opened or nothing in it could
be read.
"""

from __future__ import annotations

import functools
import importlib
import math
import os
import re
import sys
from collections.abc import Callable
from enum import Enum
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer.core import TyperCommand, TyperGroup

from gcgtools._version import __version__
from gcgtools.cli.registry import COMMANDS
from gcgtools.console import echo
from gcgtools.wording import plural

if TYPE_CHECKING:
    from gcgtools.model.game import Game
    from gcgtools.rules.options import RuleOptions

JSONL_HELP = "JSON Lines: one JSON object per line (per file for parse and validate)."


def read_stdin() -> Game:
    """The record on standard input, named ``<stdin>`` (at most 16 MiB, as files)."""
    import sys

    from gcgtools.sources.load import STDIN_NAME, load_stream

    return load_stream(sys.stdin.buffer, STDIN_NAME)


# The commands in --help, by what they are for, in the order a user meets them. A command
# not named here is listed under "Other commands".
SECTIONS: list[tuple[str, list[str]]] = [
    ("Read", ["parse", "board"]),
    ("Check", ["validate", "rules", "explain"]),
    ("Analyse", ["stats", "bingos", "chart", "export", "analyse", "moves"]),
    ("Report", ["report", "picture"]),
    ("Edit", ["write", "annotate", "fix"]),
]


class Group(TyperGroup):
    """The top-level group: commands listed in :data:`SECTIONS`, section by section, and
    loaded when they run. The names and summaries come from
    :data:`gcgtools.cli.registry.COMMANDS`, so ``--help`` imports no command's module."""

    def list_commands(self, ctx: typer.Context) -> list[str]:
        names = [*COMMANDS, *(n for n in self.commands if n not in COMMANDS)]
        known = [n for _, section in SECTIONS for n in section if n in names]
        return known + [n for n in names if n not in known]

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.add_command(load_command(cmd_name), cmd_name)
        return super().get_command(ctx, cmd_name)

    def summary_of(self, name: str, limit: int) -> str | None:
        """What ``--help`` shows for ``name`` in ``limit`` columns (None: a hidden command),
        read from the table for a command not loaded yet."""
        cmd = self.commands.get(name)
        if cmd is None:
            cmd = Command(name=name, help=COMMANDS[name].summary)
        return None if cmd.hidden else cmd.get_short_help_str(limit)

    def format_commands(self, ctx: typer.Context, formatter: Any) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        helps = {name: self.summary_of(name, limit) for name in names}
        commands = {name: text for name, text in helps.items() if text is not None}
        listed = {n for _, section in SECTIONS for n in section}
        sections = [*SECTIONS, ("Other commands", [n for n in commands if n not in listed])]
        for title, section in sections:
            rows = [(n, commands[n]) for n in section if n in commands]
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def load_command(name: str) -> Any:
    """The click command ``name``: its module imported (which registers it on :data:`app`),
    then built as typer builds every command."""
    importlib.import_module(COMMANDS[name].module)
    return typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]


# Bounds of the numeric options (a value outside is a usage error, exit 2, naming the
# option): every option states its own (typer's min= and max=); :class:`Command` bounds
# any that does not, and refuses nan and inf wherever a number with a point is taken.
MAX_JOBS = 4096  # more than the cores are capped at the cores (gcgtools.batch.cores)
MAX_EVENT = 100_000  # --move: far more events than any record holds
MAX_TOP = 10_000  # --top: moves listed per position
MAX_SEED = 2**63 - 1
MAX_ITERATIONS = 1_000_000  # simulation iterations per candidate
MAX_CANDIDATES = 1_000  # moves simulated per position
MAX_PLIES = 50  # moves played after a candidate
MAX_NODES = 10_000_000_000  # a solver's budget in positions searched
MAX_SECONDS = 31_536_000.0  # a solver's budget in seconds: a year
MAX_INFER_MARGIN = 1000.0  # --infer-margin: equity points (the library's bound)
MAX_INFER_CAP = 1_000_000  # --infer-cap: leaves weighed (the library's bound)
#: the bound of a whole-number option that names none (a backstop: see :class:`Command`)
INT_BOUND = 2**63 - 1


def click_part(name: str) -> ModuleType:
    """The module ``name`` (``types``, ``core``) of the click that typer is built on:
    typer 0.2x carries a copy of its own, whose classes are not click's."""
    base = TyperCommand.__mro__[1].__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{base}.{name}")


_types = click_part("types")


class _FiniteFloat(_types.FloatRange):  # type: ignore[misc, name-defined]
    """A number with a point, finite (nan and inf are refused) and within the range."""

    name = "float"

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        number = super().convert(value, param, ctx)
        if number is not None and not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


def _bounded(param: Any) -> None:
    """Give ``param`` bounds when it is a number without any, and refuse non-finite
    floats: no option takes a value that overflows or poisons the library (a huge
    ``--candidates`` once ended in an OverflowError)."""
    kind = param.type
    if isinstance(kind, _types.FloatParamType):
        low = getattr(kind, "min", None)
        high = getattr(kind, "max", None)
        param.type = _FiniteFloat(
            -sys.float_info.max if low is None else low,
            sys.float_info.max if high is None else high,
            min_open=getattr(kind, "min_open", False),
            max_open=getattr(kind, "max_open", False),
        )
    elif isinstance(kind, _types.IntRange):
        if kind.min is None or kind.max is None:
            param.type = _types.IntRange(
                -INT_BOUND if kind.min is None else kind.min,
                INT_BOUND if kind.max is None else kind.max,
                clamp=kind.clamp,
            )
    elif isinstance(kind, _types.IntParamType):
        param.type = _types.IntRange(-INT_BOUND, INT_BOUND)


class Command(TyperCommand):
    """A command whose usage line reads ``PATH...``, not ``{PATH}...``, and whose
    numeric options are all bounded (:func:`_bounded`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            _bounded(param)

    def collect_usage_pieces(self, ctx: typer.Context) -> list[str]:
        pieces = [re.sub(r"^\{(.*)\}", r"\1", piece) for piece in super().collect_usage_pieces(ctx)]
        # typer before 0.2x writes a variadic argument's metavar without the "..."
        many = {
            param.metavar
            for param in self.params
            if param.param_type_name == "argument" and param.nargs == -1 and param.metavar
        }
        return [f"{piece}..." if piece.strip("[]") in many else piece for piece in pieces]

    def format_help(self, ctx: typer.Context, formatter: Any) -> None:
        super().format_help(ctx, formatter)
        # the arguments read as in the usage line: "PATH...", not "PATH <list[str]>"
        formatter.buffer[:] = [
            re.sub(r"\b([A-Z]+) <list\[str\]>", r"\1...", part) for part in formatter.buffer
        ]


class App(typer.Typer):
    """The typer app whose commands are :class:`Command` s, however their modules are
    imported (through :func:`load_command` or directly)."""

    def command(self, *args: Any, cls: Any = None, **kwargs: Any) -> Any:
        return super().command(*args, cls=cls or Command, **kwargs)


app = App(
    name="gcgtools",
    help="Parse, validate, analyse and annotate Scrabble game records (.gcg).",
    no_args_is_help=True,
    rich_markup_mode=None,
    cls=Group,
)


class ParseFormat(str, Enum):
    text = "text"
    json = "json"


class LintFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"


Paths = Annotated[
    list[str],
    typer.Argument(metavar="PATH", help="Files, folders (searched for *.gcg) or globs."),
]
Jobs = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        max=MAX_JOBS,
        help="Worker processes (default, and at most: the cores this process may use).",
    ),
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
Move = Annotated[
    int | None,
    typer.Option(
        "--move",
        "-m",
        min=0,
        max=MAX_EVENT,
        metavar="N",
        help="The board after event N, the event number bingos, stats and the HTML report "
        "show (every event line counts); 0: the empty board; default: the last event.",
    ),
]


def _check_scheduler(value: str | None) -> str | None:
    """``--scheduler``: empty means none; without Dask installed, say how to get it."""
    if not value:
        return None
    from gcgtools.batch.dask_backend import INSTALL_HINT, dask_available
    from gcgtools.findings import EXIT_UNREADABLE

    if not dask_available():
        echo(f"gcgtools: {INSTALL_HINT}", err=True)
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


#: the exit code of a command ended by Ctrl-C or SIGTERM (128 + SIGINT, as shells say)
EXIT_INTERRUPTED = 130


def interruptible(
    finished: str = "files done",
    kept: str = "results printed for those {done}",
    unit: str | None = None,
) -> Callable[[F], F]:
    """A command that Ctrl-C (SIGINT) or SIGTERM ends cleanly: the worker processes are
    killed, what was finished stays printed (and in the result cache, where the workers
    put it), and one line on standard error says how far it came, ``interrupted: 3 of 8
    records analysed; results kept for those 3`` (``finished``, ``kept`` and the
    progress ``unit`` counted: see :func:`gcgtools.console.interrupted_line`); exit code
    :data:`EXIT_INTERRUPTED`, no traceback."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            from gcgtools.console import interrupt_on_sigterm, interrupted_line

            try:
                with interrupt_on_sigterm():
                    return func(*args, **kwargs)
            except KeyboardInterrupt:
                pool = sys.modules.get("gcgtools.batch.pool")
                if pool is not None:
                    pool.abort_pools()
                _flush_stdout()
                echo(interrupted_line(finished, kept, unit), err=True)
                raise typer.Exit(EXIT_INTERRUPTED) from None

        return wrapper  # type: ignore[return-value]

    return decorate


def _flush_stdout() -> None:
    """What was printed so far, out before the interrupt's line (a closed pipe is no
    error here)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass


def batch_command(
    func: F | None = None,
    *,
    finished: str = "files done",
    kept: str = "results printed for those {done}",
    unit: str | None = None,
) -> Any:
    """A command that runs batches: a Dask scheduler that cannot be reached (or Dask
    missing), or worker processes that keep dying, is a clear message and exit code 2,
    not a traceback; the files a folder's listing left out are said on standard error;
    Ctrl-C and SIGTERM end it as :func:`interruptible` says (``finished``, ``kept``,
    ``unit``: its words). Used bare (``@batch_command``) or with those words."""
    if func is None:
        return functools.partial(batch_command, finished=finished, kept=kept, unit=unit)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from gcgtools.batch.errors import BatchError
        from gcgtools.sources.paths import reporting_skipped

        try:
            with reporting_skipped(lambda message: echo(message, err=True)):
                return func(*args, **kwargs)
        except BatchError as exc:
            from gcgtools.findings import EXIT_UNREADABLE

            echo(f"gcgtools: {exc}", err=True)
            raise typer.Exit(EXIT_UNREADABLE) from None

    return interruptible(finished, kept, unit)(wrapper)


# Option values are checked before any file is read: a bad one is a usage error (exit 2)
# that names the valid values, never a per-file "could not read".
CHALLENGE_BONUSES = (0, 5, 10)


def _checked(**value: Any) -> None:
    """A usage error (exit 2) when :meth:`RuleOptions.parse` refuses ``value``."""
    from gcgtools.rules.options import RuleOptionError, RuleOptions  # not for --help

    try:
        RuleOptions.parse(**value)
    except RuleOptionError as exc:
        raise typer.BadParameter(str(exc)) from None


def check_tiles(value: str | None) -> str | None:
    """``--tiles``: a known tile set name (any spelling ``tile_set`` reads) or a tile file."""
    _checked(tiles=value)
    return value


def check_board(value: str | None) -> str | None:
    """``--board``: a known board layout name (standard, super, wwf, ...) or a board file."""
    _checked(board=value)
    return value


def check_rules(value: str | None) -> str | None:
    """``--rules``: standard, international or home (or an alias ``parse_end_rule`` reads)."""
    _checked(rules=value)
    return value


def check_bonus(value: int | None) -> int | None:
    """``--challenge-bonus``: 0, 5 or 10."""
    if value is not None and value not in CHALLENGE_BONUSES:
        valid = ", ".join(map(str, CHALLENGE_BONUSES))
        raise typer.BadParameter(f"{value} is not a challenge bonus; valid: {valid}")
    return value


def rule_options_or_exit(
    tiles: str | None = None,
    board: str | None = None,
    rules: str | None = None,
    challenge_bonus: int | None = None,
) -> RuleOptions:
    """The one :class:`RuleOptions` of the rule option group (``--tiles``, ``--board``,
    ``--rules``, ``--challenge-bonus``: :data:`Tiles`, :data:`BoardOpt`, :data:`RulesOpt`,
    :data:`Bonus`), built by :func:`gcgtools.rules.options.rule_options`; each value was
    already checked by its option's callback, so a file that went bad since is one line
    on stderr and exit 2 (where the library raises)."""
    from gcgtools.rules.options import RuleOptionError, rule_options  # not for --help

    try:
        return rule_options(tiles=tiles, board=board, rules=rules, challenge_bonus=challenge_bonus)
    except RuleOptionError as exc:
        from gcgtools.findings import EXIT_UNREADABLE

        echo(f"gcgtools: {exc}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None


Tiles = Annotated[
    str | None,
    typer.Option(
        callback=check_tiles,
        help="Tile set (english, german, polish, ...) or a tile file of 'letter count value' "
        "lines; default: from the record.",
    ),
]
BoardOpt = Annotated[
    str | None,
    typer.Option(
        "--board",
        callback=check_board,
        help="Board layout (standard, super, wwf) or a board file: a 15x15 or 21x21 grid of "
        "premium symbols.",
    ),
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
        min=0,
        max=max(CHALLENGE_BONUSES),
        callback=check_bonus,
        help="Challenge bonus the rules give (0, 5 or 10); default: any.",
    ),
]


def cannot_write(exc: OSError, target: object) -> str:
    """``PATH: cannot write: reason``, the one message of every writer."""
    from gcgtools.sources.paths import display_name

    name = display_name(os.fspath(exc.filename or target))  # type: ignore[arg-type]
    return f"{name}: cannot write: {exc.strerror or exc}"


def output_is_input(output: str | os.PathLike[str] | None, inputs: list[str]) -> str | None:
    """The input that ``output`` would overwrite (the same file: a link or another
    spelling of its name counts), or None. Standard output (``-``) is never an input."""
    from gcgtools.sources.atomic import same_file

    if output is None or str(output) == "-":
        return None
    for name in inputs:
        if same_file(name, output):
            return name
    return None


def report_unreadable(reasons: dict[str, str], verb: str = "read") -> None:
    """On standard error: how many files could not be read (or done: ``verb``), then one
    per line with its reason (the same in every command)."""

    if not reasons:
        return
    n = len(reasons)
    echo(f"could not {verb} {plural(n, 'file')}:", err=True)
    from gcgtools.sources.paths import display_name

    for name, reason in reasons.items():
        echo(f"  {display_name(name)}: {reason}", err=True)


def _version(value: bool) -> None:
    if value:
        from gcgtools.movegen.core import generator_name

        echo(f"gcgtools {__version__} (move generator: {generator_name()})")
        raise typer.Exit()


@functools.cache
def hint_pure_python() -> None:
    """Once per run of a command, on standard error: the move generator runs in pure
    Python because its C helper was not built, and how to get it (:func:`main_options`
    starts each run afresh, so that commands run one after another in one process, as
    the tests run them, each say it, whatever ran before)."""
    from gcgtools.movegen.core import NATIVE_HINT, native_built

    if not native_built():
        echo(
            f"gcgtools: the move generator runs in pure Python (its C helper was not built); "
            f"{NATIVE_HINT}",
            err=True,
        )


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Parse, validate, analyse and annotate Scrabble game records (.gcg)."""
    from gcgtools.batch.cores import forget_notes

    hint_pure_python.cache_clear()  # once per run of a command
    forget_notes()
