"""Option groups: the options several commands share, declared once, each group building
the one value a command gets from them (as pip's ``cmdoptions``).

A command names the parameter that gets a group's value (``@option_groups(rule_set=
RULE_GROUP)``) and typer shows the group's options in that parameter's place:

- :data:`RULE_GROUP` (``--tiles``, ``--board``, ``--rules``, ``--challenge-bonus``) and
  :data:`TILE_BOARD_GROUP` (the first two): a :class:`~gcgtools.rules.options.RuleOptions`;
- :data:`BATCH_GROUP` (``--jobs``, ``--scheduler``, ``--quiet``): a :class:`BatchOptions`;
- :data:`LEXICON_GROUP` (``--lexicon``, ``--lexica``, ``--leaves``): a
  :class:`~gcgtools.lexicon.choice.LexiconChoice`, checked by :func:`checked_lexicon`;
- :data:`JUDGE_GROUP` (``--depth``, ``--seed``, ``--sim-iterations``, ``--sim-candidates``,
  ``--endgame-nodes``, ``--preendgame-nodes``): an
  :class:`~gcgtools.batch.settings.AnalysisSettings` of that depth and judge settings.

:meth:`OptionGroup.only` is a group of some of the options, in the order a command lists
them (``parse`` has no ``--quiet``, ``report`` no solver budgets).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from gcgtools.cli.common import (
    BoardOpt,
    Bonus,
    Jobs,
    Quiet,
    RulesOpt,
    SchedulerOpt,
    Tiles,
    hint_pure_python,
    rule_options,
)
from gcgtools.console import echo, show_progress
from gcgtools.findings import EXIT_UNREADABLE

if TYPE_CHECKING:
    from gcgtools.batch.settings import AnalysisSettings
    from gcgtools.lexicon.choice import LexiconChoice

__all__ = [
    "BATCH_GROUP",
    "JOBS_GROUP",
    "JUDGE_GROUP",
    "LEXICON_GROUP",
    "NO_BATCH",
    "RULE_GROUP",
    "TILE_BOARD_GROUP",
    "BatchOptions",
    "DepthChoice",
    "OptionGroup",
    "checked_lexicon",
    "option_groups",
]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class OptionGroup:
    """Options declared once: the ``params`` typer shows, and ``build``, which makes the
    one value the command gets from theirs (called with them as keywords)."""

    params: tuple[inspect.Parameter, ...]
    build: Callable[..., Any]

    def only(self, *names: str) -> OptionGroup:
        """The group of the options ``names`` (parameter names), in that order; ``build``
        gets the others' defaults."""
        by_name = {param.name: param for param in self.params}
        return OptionGroup(tuple(by_name[name] for name in names), self.build)


def _param(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return inspect.Parameter(name, kind, default=default, annotation=annotation)


def option_groups(**groups: OptionGroup) -> Callable[[F], F]:
    """Give the command's parameter ``name`` the value of the option group ``groups[name]``
    (``@option_groups(rule_set=RULE_GROUP)``): typer sees the group's options in the
    parameter's place; the command gets the value they build."""

    def decorate(func: F) -> F:
        signature = inspect.signature(func, eval_str=True)  # typer reads these as given
        params: list[inspect.Parameter] = []
        for param in signature.parameters.values():
            params.extend(groups[param.name].params if param.name in groups else [param])

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for name, group in groups.items():
                values = {p.name: kwargs.pop(p.name, p.default) for p in group.params}
                kwargs[name] = group.build(**values)
            return func(*args, **kwargs)

        hints = {p.name: p.annotation for p in params}
        wrapper.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {**hints, "return": signature.return_annotation}
        return wrapper  # type: ignore[return-value]

    return decorate


# ------------------------------------------------------------------------------ the rules
RULE_GROUP = OptionGroup(
    (
        _param("tiles", Tiles, None),
        _param("board", BoardOpt, None),
        _param("rules", RulesOpt, None),
        _param("challenge_bonus", Bonus, None),
    ),
    rule_options,
)
"""``--tiles``, ``--board``, ``--rules``, ``--challenge-bonus``: a :class:`RuleOptions`."""
TILE_BOARD_GROUP = RULE_GROUP.only("tiles", "board")
"""``--tiles``, ``--board``: a :class:`RuleOptions`."""


# ------------------------------------------------------------------------------ the batch
@dataclass(frozen=True, slots=True)
class BatchOptions:
    """The batch options: ``--jobs``, ``--scheduler``, ``--quiet``."""

    jobs: int | None = None
    scheduler: str | None = None
    quiet: bool = False

    @property
    def progress(self) -> bool:
        """Whether to show a progress bar: on a terminal, unless ``--quiet``."""
        return show_progress(self.quiet)


NO_BATCH = BatchOptions()
BATCH_GROUP = OptionGroup(
    (
        _param("jobs", Jobs, None),
        _param("scheduler", SchedulerOpt, None),
        _param("quiet", Quiet, False),
    ),
    BatchOptions,
)
"""``--jobs``, ``--scheduler``, ``--quiet``: a :class:`BatchOptions`."""
JOBS_GROUP = BATCH_GROUP.only("jobs", "scheduler")
"""``--jobs``, ``--scheduler`` (a command with no progress bar): a :class:`BatchOptions`."""
QUIET_FIRST_GROUP = BATCH_GROUP.only("jobs", "quiet", "scheduler")
"""The batch options with ``--quiet`` listed before ``--scheduler`` (validate, stats,
bingos, export)."""


# ---------------------------------------------------------------------------- the lexicon
def lexicon_given(value: str | None) -> str | None:
    """The callback of the lexicon options: analysing with a lexicon generates moves, so
    say once how to get the fast generator when it is missing."""
    if value:
        hint_pure_python()
    return value


LexiconOpt = Annotated[
    str | None,
    typer.Option(
        "--lexicon",
        callback=lexicon_given,
        help="Lexicon file (.kwg, .txt, .txt.gz); default: the record's #lexicon looked up "
        "in --lexica.",
    ),
]
LexicaOpt = Annotated[
    str | None,
    typer.Option(
        "--lexica",
        callback=lexicon_given,
        help="Folder of lexicons (NAME.kwg, NAME.txt, NAME.txt.gz, leaves .klv2); default: "
        "$GCGTOOLS_LEXICA.",
    ),
]
LeavesOpt = Annotated[
    str | None,
    typer.Option(
        "--leaves",
        help="Leave values (.klv2, .klv, .csv); default: LEAVES.klv2 or NAME.klv2 in the "
        "lexicon folder, else the built-in heuristic.",
    ),
]


def _lexicon_choice(
    lexicon: str | None = None, lexica: str | None = None, leaves: str | None = None
) -> LexiconChoice:
    from gcgtools.lexicon.choice import LexiconChoice

    return LexiconChoice(lexicon, lexica, leaves)


LEXICON_GROUP = OptionGroup(
    (
        _param("lexicon", LexiconOpt, None),
        _param("lexica", LexicaOpt, None),
        _param("leaves", LeavesOpt, None),
    ),
    _lexicon_choice,
)
"""``--lexicon``, ``--lexica``, ``--leaves``: a :class:`LexiconChoice` (not checked yet:
the command checks it with the tiles it reads by, :func:`checked_lexicon`)."""


def checked_lexicon(
    choice: LexiconChoice, tiles: str | None = None, *, required: bool = False
) -> LexiconChoice:
    """``choice``, checked before any record is read: a lexicon or leave file that is
    missing, unreadable or damaged, or a lexicon folder that is none, is one line naming it
    on standard error and exit 2 (and so is no lexicon at all when ``required``).
    ``tiles``: the ``--tiles`` value the lexicon's tile numbers are checked against."""
    from gcgtools.lexicon import LeavesError, LexiconError
    from gcgtools.rules.tiles import resolve_tiles
    from gcgtools.wording import no_lexicon

    if required and not choice.wanted:
        echo(f"gcgtools: {no_lexicon()}", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    try:
        choice.check(resolve_tiles(tiles) if tiles is not None else None)
    except (LexiconError, LeavesError) as exc:
        echo(f"gcgtools: {exc.message}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    return choice


# ------------------------------------------------------------------------------ the judge
class DepthChoice(str, Enum):
    static = "static"
    sim = "sim"
    full = "full"


DepthOpt = Annotated[
    DepthChoice,
    typer.Option(
        "--depth",
        help="static: equity only (fast, the default); sim: judge every turn by simulation, "
        "pre-endgame and endgame solvers with small budgets; full: the same, larger budgets.",
    ),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the simulations (--depth sim/full).")]
SimIterations = Annotated[
    int | None,
    typer.Option("--sim-iterations", min=1, help="Simulation iterations per candidate."),
]
SimCandidates = Annotated[
    int | None, typer.Option("--sim-candidates", min=1, help="Moves simulated per turn.")
]
EndgameNodes = Annotated[
    int | None, typer.Option("--endgame-nodes", min=1, help="Endgame solver budget (nodes).")
]
PreendgameNodes = Annotated[
    int | None,
    typer.Option("--preendgame-nodes", min=1, help="Pre-endgame budget (nodes, in all)."),
]


def _judging(
    depth: DepthChoice = DepthChoice.static, seed: int = 0, **budgets: int | None
) -> AnalysisSettings:
    """The settings of ``depth``: static, or judged with the ``seed`` and the ``budgets``
    given (the others those of the depth)."""
    from gcgtools.analysis.judge import Depth, settings_for
    from gcgtools.batch.settings import AnalysisSettings

    if depth is DepthChoice.static:
        return AnalysisSettings()
    return AnalysisSettings(
        depth=Depth(depth.value), judge=settings_for(depth.value, seed=seed, **budgets)
    )


JUDGE_GROUP = OptionGroup(
    (
        _param("depth", DepthOpt, DepthChoice.static),
        _param("seed", SeedOpt, 0),
        _param("sim_iterations", SimIterations, None),
        _param("sim_candidates", SimCandidates, None),
        _param("endgame_nodes", EndgameNodes, None),
        _param("preendgame_nodes", PreendgameNodes, None),
    ),
    _judging,
)
"""``--depth``, ``--seed``, ``--sim-iterations``, ``--sim-candidates``, ``--endgame-nodes``,
``--preendgame-nodes``: an :class:`AnalysisSettings` of that depth and judge settings (the
command sets the rest with :func:`dataclasses.replace`)."""
