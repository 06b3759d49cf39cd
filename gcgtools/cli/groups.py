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
  ``--endgame-nodes``, ``--preendgame-nodes``, ``--winpct``, ``--no-early-stop``, ``--infer``,
  ``--infer-margin``, ``--infer-cap``): an
  :class:`~gcgtools.batch.settings.AnalysisSettings` of that depth and judge settings.

:meth:`OptionGroup.only` is a group of some of the options, in the order a command lists
them (``parse`` has no ``--quiet``, ``report`` no solver budgets).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from gcgtools.cli.common import (
    MAX_CANDIDATES,
    MAX_INFER_CAP,
    MAX_INFER_MARGIN,
    MAX_ITERATIONS,
    MAX_NODES,
    MAX_SEED,
    BoardOpt,
    Bonus,
    Jobs,
    Quiet,
    RulesOpt,
    SchedulerOpt,
    Tiles,
    hint_pure_python,
    rule_options_or_exit,
)
from gcgtools.console import echo, show_progress
from gcgtools.findings import EXIT_UNREADABLE

if TYPE_CHECKING:
    from gcgtools.analysis.winprob import WinModel
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
    "DEEP_JUDGE_GROUP",
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
    rule_options_or_exit,
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
LexiconOpt = Annotated[
    str | None,
    typer.Option(
        "--lexicon",
        help="Lexicon file (.kwg, .txt, .txt.gz); default: the record's #lexicon looked up "
        "in --lexica.",
    ),
]
LexicaOpt = Annotated[
    str | None,
    typer.Option(
        "--lexica",
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
    choice: LexiconChoice, tiles: str | None = None, *, required: bool = False, hint: bool = True
) -> LexiconChoice:
    """``choice``, checked before any record is read: a lexicon or leave file that is
    missing, unreadable or damaged, or a lexicon folder that is none, is one line naming it
    on standard error and exit 2 (and so is no lexicon at all when ``required``).
    ``tiles``: the ``--tiles`` value the lexicon's tile numbers are checked against.
    When a lexicon is given and its files are good, moves will be generated: where the
    move generator runs in pure Python, that is said once (after the checks, so that a bad
    file is still one line; ``hint`` False: the caller says it when it knows more)."""
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
    if hint and choice.wanted:
        hint_pure_python()
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
        "pre-endgame and endgame solvers with small budgets; full: the same, larger budgets. "
        "Judged turn by turn over the --jobs workers (one record too); the bar counts turns.",
    ),
]
SeedOpt = Annotated[
    int,
    typer.Option(
        "--seed", min=-MAX_SEED, max=MAX_SEED, help="Seed of the simulations (--depth sim/full)."
    ),
]
NoEarlyStop = Annotated[
    bool,
    typer.Option(
        "--no-early-stop",
        help="Drop no simulated candidate early: each runs all its iterations (a fixed budget).",
    ),
]
SimIterations = Annotated[
    int | None,
    typer.Option(
        "--sim-iterations",
        min=1,
        max=MAX_ITERATIONS,
        help="Simulation iterations per candidate.",
    ),
]
SimCandidates = Annotated[
    int | None,
    typer.Option("--sim-candidates", min=1, max=MAX_CANDIDATES, help="Moves simulated per turn."),
]
EndgameNodes = Annotated[
    int | None,
    typer.Option("--endgame-nodes", min=1, max=MAX_NODES, help="Endgame solver budget (nodes)."),
]
PreendgameNodes = Annotated[
    int | None,
    typer.Option(
        "--preendgame-nodes",
        min=1,
        max=MAX_NODES,
        help="Pre-endgame solver budget (nodes, over all the tiles that may be in the bag).",
    ),
]
WinpctOpt = Annotated[
    str | None,
    typer.Option(
        "--winpct",
        metavar="FILE",
        help="Win model of the simulations: a winpct.csv table (MAGPIE/Quackle) or a .json "
        "model of tools/selfplay_winpct.py; default: the built-in one.",
    ),
]

InferFlag = Annotated[
    bool,
    typer.Option(
        "--infer",
        help="Each simulation draws the opponent's rack from the leaves they likely kept with "
        "their last turn (weighed by draw odds and by whether the play was near the best "
        "for them) instead of uniformly from the unseen tiles.",
    ),
]
InferMargin = Annotated[
    float | None,
    typer.Option(
        "--infer-margin",
        min=0.0,
        max=MAX_INFER_MARGIN,
        help="--infer: a leave counts when the play was within this many equity points of "
        "the best for it (default 5).",
    ),
]
InferCap = Annotated[
    int | None,
    typer.Option(
        "--infer-cap",
        min=1,
        max=MAX_INFER_CAP,
        help="--infer: weigh every leave up to this many; beyond, this many random draws "
        "(default 5000).",
    ),
]


def win_model(
    path: str | None, *, used: bool = True, why: str = "--depth sim or full"
) -> WinModel | None:
    """The win model of ``--winpct FILE`` (None without one); a file that cannot be used
    is one line naming it on standard error and exit 2. ``used`` False: the command will
    not simulate (only with ``why``), and says so."""
    if path is None:
        return None
    from gcgtools.analysis.winprob import WinModelError, load_win_model

    try:
        model = load_win_model(path)
    except WinModelError as exc:
        echo(f"gcgtools: --winpct: {exc}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    if not used:
        echo(f"gcgtools: --winpct is used only when simulating ({why})", err=True)
    return model


def _judging(
    depth: DepthChoice = DepthChoice.static,
    seed: int = 0,
    winpct: str | None = None,
    no_early_stop: bool = False,
    infer: bool = False,
    infer_margin: float | None = None,
    infer_cap: int | None = None,
    **budgets: int | None,
) -> AnalysisSettings:
    """The settings of ``depth``: static, or judged with the ``seed``, the win model of
    ``winpct`` (a file; None: the built-in one), early stopping unless ``no_early_stop``,
    the opponent's rack inferred with ``infer`` (its margin and cap, when given) and the
    ``budgets`` given (the others those of the depth)."""
    from gcgtools.analysis.judge import Depth, settings_for
    from gcgtools.batch.settings import AnalysisSettings

    simulating = depth is not DepthChoice.static
    model = win_model(winpct, used=simulating)
    inference = inference_settings(infer, infer_margin, infer_cap, used=simulating)
    if depth is DepthChoice.static:
        return AnalysisSettings()
    judge = replace(
        settings_for(depth.value, seed=seed, **budgets), model=model,
        early_stop=not no_early_stop, **inference,
    )  # fmt: skip
    return AnalysisSettings(depth=Depth(depth.value), judge=judge)


def inference_settings(
    infer: bool,
    margin: float | None,
    cap: int | None,
    *,
    used: bool = True,
    why: str = "--depth sim or full",
) -> dict[str, Any]:
    """The judge settings of ``--infer``, ``--infer-margin`` and ``--infer-cap`` (those
    not given keep their defaults); a margin or cap without ``--infer``, or ``--infer``
    where nothing is simulated (``used`` False, ``why``), is said on standard error."""
    if not infer:
        if margin is not None or cap is not None:
            echo("gcgtools: --infer-margin and --infer-cap are used only with --infer", err=True)
        return {}
    if not used:
        echo(f"gcgtools: --infer is used only when simulating ({why})", err=True)
    given = {"infer_margin": margin, "infer_cap": cap}
    return {"infer": True, **{k: v for k, v in given.items() if v is not None}}


JUDGE_GROUP = OptionGroup(
    (
        _param("depth", DepthOpt, DepthChoice.static),
        _param("seed", SeedOpt, 0),
        _param("sim_iterations", SimIterations, None),
        _param("sim_candidates", SimCandidates, None),
        _param("endgame_nodes", EndgameNodes, None),
        _param("preendgame_nodes", PreendgameNodes, None),
        _param("winpct", WinpctOpt, None),
        _param("no_early_stop", NoEarlyStop, False),
        _param("infer", InferFlag, False),
        _param("infer_margin", InferMargin, None),
        _param("infer_cap", InferCap, None),
    ),
    _judging,
)
"""``--depth``, ``--seed``, ``--sim-iterations``, ``--sim-candidates``, ``--endgame-nodes``,
``--preendgame-nodes``, ``--winpct``, ``--no-early-stop``, ``--infer``, ``--infer-margin``,
``--infer-cap``: an :class:`AnalysisSettings` of
that depth and judge settings (the command sets the rest with :func:`dataclasses.replace`)."""


class DeepDepthChoice(str, Enum):
    sim = "sim"
    full = "full"


DeepDepthOpt = Annotated[
    DeepDepthChoice,
    typer.Option(
        "--depth",
        help="sim: judge every turn by simulation, pre-endgame and endgame solvers with small "
        "budgets (the default); full: the same, larger budgets.",
    ),
]


def _deep_judging(depth: DeepDepthChoice = DeepDepthChoice.sim, **rest: Any) -> AnalysisSettings:
    return _judging(DepthChoice(depth.value), **rest)


DEEP_JUDGE_GROUP = OptionGroup(
    (_param("depth", DeepDepthOpt, DeepDepthChoice.sim), *JUDGE_GROUP.params[1:]),
    _deep_judging,
)
"""The options of :data:`JUDGE_GROUP` for a command that needs judged turns: ``--depth``
is sim (the default) or full."""
