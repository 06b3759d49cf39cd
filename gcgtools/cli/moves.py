"""The ``moves`` command: the best moves in a position of a record, or of a CGP."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gcgtools.cli.common import (
    MAX_CANDIDATES,
    MAX_EVENT,
    MAX_ITERATIONS,
    MAX_NODES,
    MAX_PLIES,
    MAX_SECONDS,
    MAX_SEED,
    MAX_TOP,
    app,
    hint_pure_python,
    interruptible,
)
from gcgtools.cli.groups import (
    LEXICON_GROUP,
    TILE_BOARD_GROUP,
    InferCap,
    InferMargin,
    WinpctOpt,
    checked_lexicon,
    option_groups,
    win_model,
)
from gcgtools.console import echo
from gcgtools.findings import EXIT_UNREADABLE
from gcgtools.lexicon.choice import NO_CHOICE, LexiconChoice
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.rules.tiles import TileError

if TYPE_CHECKING:
    from gcgtools.analysis.inference import Inference
    from gcgtools.model.game import Game
    from gcgtools.movegen.record import PositionMoves


class MovesFormat(str, Enum):
    text = "text"
    json = "json"


SimFlag = Annotated[
    bool, typer.Option("--sim", help="Simulate the best candidates and rank them by win%.")
]
EndgameFlag = Annotated[
    bool,
    typer.Option(
        "--endgame",
        help="Solve to the end: the exact endgame (empty bag), or the pre-endgame (1 to 4 tiles).",
    ),
]
Iterations = Annotated[
    int,
    typer.Option(
        "--iterations", min=1, max=MAX_ITERATIONS, help="--sim: iterations per candidate."
    ),
]
Candidates = Annotated[
    int,
    typer.Option("--candidates", min=1, max=MAX_CANDIDATES, help="--sim: moves simulated."),
]
Plies = Annotated[
    int,
    typer.Option("--plies", min=0, max=MAX_PLIES, help="--sim: moves after the candidate."),
]
#: the default budget of ``moves --endgame`` (positions searched; a few tens of seconds)
ENDGAME_NODES = 1_000_000
Nodes = Annotated[
    int,
    typer.Option(
        "--nodes",
        min=1,
        max=MAX_NODES,
        help="--endgame: the budget in nodes (positions searched), in all.",
    ),
]
Seconds = Annotated[
    float | None,
    typer.Option(
        "--seconds",
        min=0.001,
        max=MAX_SECONDS,
        help="--endgame: the budget in seconds, in all.",
    ),
]
Seed = Annotated[
    int,
    typer.Option("--seed", min=-MAX_SEED, max=MAX_SEED, help="--sim: the seed of the draws."),
]
InferFlag = Annotated[
    bool,
    typer.Option(
        "--infer",
        help="The leaves the opponent likely kept with their last turn; with --sim, draw "
        "the opponent's rack from them.",
    ),
]
InferTop = Annotated[
    int | None,
    typer.Option(
        "--infer-top", min=0, max=MAX_TOP, help="--infer: leaves listed (0: all; default 10)."
    ),
]
NoEarlyStop = Annotated[
    bool,
    typer.Option(
        "--no-early-stop",
        help="--sim: drop no candidate early; each runs all its iterations (a fixed budget).",
    ),
]


@app.command()
@interruptible(finished="positions done")
@option_groups(choice=LEXICON_GROUP, rule_set=TILE_BOARD_GROUP)
def moves(
    file: Annotated[Path | None, typer.Argument(help="A .gcg file (or use --cgp).")] = None,
    move: Annotated[
        int | None,
        typer.Option(
            "--move",
            "-m",
            min=0,
            max=MAX_EVENT,
            help="The position after event N (0: before the first; default: the last "
            "position whose rack the record shows, or the end with --rack).",
        ),
    ] = None,
    top: Annotated[
        int, typer.Option("--top", "-n", min=0, max=MAX_TOP, help="How many moves (0: all).")
    ] = 10,
    rack: Annotated[
        str | None, typer.Option(help="The rack to move with (default: the record's).")
    ] = None,
    cgp: Annotated[
        str | None, typer.Option("--cgp", help="Analyse this CGP position instead of a record.")
    ] = None,
    choice: LexiconChoice = NO_CHOICE,
    format: Annotated[MovesFormat, typer.Option("--format", "-f")] = MovesFormat.text,
    rule_set: RuleOptions = NO_OPTIONS,
    sim: SimFlag = False,
    endgame: EndgameFlag = False,
    iterations: Iterations = 1000,
    candidates: Candidates = 20,
    plies: Plies = 2,
    nodes: Nodes = ENDGAME_NODES,
    seconds: Seconds = None,
    seed: Seed = 0,
    no_early_stop: NoEarlyStop = False,
    winpct: WinpctOpt = None,
    infer: InferFlag = False,
    infer_margin: InferMargin = None,
    infer_top: InferTop = None,
    infer_cap: InferCap = None,
) -> None:
    """List the best moves (score, leave, equity) for the player to move after event N
    of a record, or in a CGP position; with --sim ranked by simulated win%, with
    --endgame by their value to the end of the game."""
    if sim and endgame:
        echo("give --sim or --endgame, not both", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    _check_infer(infer, cgp is not None, endgame, (infer_margin, infer_cap, infer_top))
    model = win_model(winpct, used=sim, why="--sim")
    inferred = None
    if infer:
        inferred = _inference(file, move, rack=rack, choice=choice, rule_set=rule_set,
                              margin=infer_margin, cap=infer_cap, seed=seed)  # fmt: skip
        if not sim:
            _print_inference(inferred, str(file), 10 if infer_top is None else infer_top, format)
            return
    result, where = _position_moves(file, move, cgp, rack=rack, choice=choice, rule_set=rule_set)
    hint_pure_python()  # the position and the lexicon are good: moves are generated now
    if sim or endgame:
        from gcgtools.cli.deep_moves import deep_moves

        label = "cgp" if cgp is not None else str(file)
        budget = (iterations, candidates, plies, nodes, seed)
        deep_moves(result, where, label, format.value, top, sim=sim, budget=budget,
                   model=model, seconds=seconds, early_stop=not no_early_stop,
                   inferred=inferred)  # fmt: skip
        return
    _print_moves(result, top, where, format)


def _position_moves(
    file: Path | None,
    move: int | None,
    cgp: str | None,
    *,
    rack: str | None,
    choice: LexiconChoice,
    rule_set: RuleOptions,
) -> tuple[PositionMoves, str]:
    """The moves in the position ``moves`` names (after event ``move`` of ``file``, or
    ``cgp``) and how to name it; exits 2 for a position it cannot read."""
    from gcgtools.movegen.record import MovesError, cgp_moves, record_moves
    from gcgtools.sources.load import load_game

    if cgp is not None and (file is not None or move is not None):
        given = "a file" if file is not None else "--move"
        echo(
            f"cgp: {given} and --cgp: give one position (a file with --move N, or --cgp)", err=True
        )
        raise typer.Exit(EXIT_UNREADABLE)
    checked_lexicon(choice, rule_set.tiles, hint=False)  # said once the position is read
    lexicon, lexica, leaves = choice.lexicon, choice.lexica, choice.leaves
    try:
        if cgp is not None:
            result = cgp_moves(
                cgp, rack=rack, lexicon=lexicon, lexica=lexica, leaves=leaves,
                tiles=rule_set.tiles, board=rule_set.board,
            )  # fmt: skip
            return result, "CGP position"
        if file is None:
            echo("give a .gcg file (with --move N) or --cgp 'POSITION'", err=True)
            raise typer.Exit(EXIT_UNREADABLE)
        game = load_game(file)
        if game.unreadable:
            for f in game.findings:
                echo(f.format(str(file)), err=True)
            raise typer.Exit(EXIT_UNREADABLE)
        event = move
        if event is None:
            event = len(game.events) if rack is not None else _last_known(game, rule_set)
            if rack is None and event < len(game.events):
                echo(f"{file}: no --move: the position after event {event}, the last whose "
                     "rack the record shows (--move N for another)", err=True)  # fmt: skip
        result = record_moves(
            game, event, rack=rack, lexicon=lexicon, lexica=lexica, leaves=leaves,
            options=rule_set,
        )  # fmt: skip
        return result, f"{file}"
    except (MovesError, KeyError, TileError) as exc:
        message = exc.args[0] if exc.args else str(exc)
        if isinstance(exc, MovesError) and exc.option:  # the option's name, as given here
            message = _as_option(message, exc.option)
        echo(f"{file if cgp is None else 'cgp'}: {message}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None


def _check_infer(infer: bool, cgp: bool, endgame: bool, given: tuple[object, ...]) -> None:
    """``--infer`` needs a record and no ``--endgame`` (exit 2); its other options given
    without it are said on standard error."""
    if infer and (cgp or endgame):
        echo(f"--infer: give a .gcg file, not {'--cgp' if cgp else '--endgame'}", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    if not infer and any(x is not None for x in given):
        echo("--infer-margin, --infer-cap and --infer-top are used only with --infer", err=True)


def _inference(
    file: Path | None,
    move: int | None,
    *,
    rack: str | None,
    choice: LexiconChoice,
    rule_set: RuleOptions,
    margin: float | None,
    cap: int | None,
    seed: int,
) -> Inference:
    """The inference ``moves --infer`` names (the opponent's turn before the player to
    move after event ``move`` of ``file``; ``margin`` and ``cap`` None: the defaults);
    exits 2 when it cannot be made."""
    from gcgtools.analysis.inference import DEFAULT_CAP, DEFAULT_MARGIN, record_inference
    from gcgtools.movegen.record import MovesError
    from gcgtools.sources.load import load_game

    if file is None:
        echo("--infer: give a .gcg file (with --move N)", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    checked_lexicon(choice, rule_set.tiles, hint=False)
    game = load_game(file)
    if game.unreadable:
        for f in game.findings:
            echo(f.format(str(file)), err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    event = move
    if event is None:
        event = len(game.events) if rack is not None else _last_known(game, rule_set)
    try:
        return record_inference(
            game, event, rack=rack, lexicon=choice.lexicon, lexica=choice.lexica,
            leaves=choice.leaves, options=rule_set, seed=seed,
            margin=DEFAULT_MARGIN if margin is None else margin,
            cap=DEFAULT_CAP if cap is None else cap,
        )  # fmt: skip
    except (MovesError, KeyError, TileError) as exc:
        message = exc.args[0] if exc.args else str(exc)
        if isinstance(exc, MovesError) and exc.option:
            message = _as_option(message, exc.option)
        echo(f"{file}: --infer: {message}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None


def _print_inference(result: Inference, where: str, top: int, format: MovesFormat) -> None:
    """The inference as text lines, or one JSON object."""
    from gcgtools.render.inference import inference_lines

    if format is MovesFormat.json:
        data = result.to_dict()
        if top > 0:
            data["leaves"] = data["leaves"][:top]  # type: ignore[index]
        echo(json.dumps(data, ensure_ascii=False), json=True)
        return
    for line in inference_lines(result, where, top):
        echo(line)


def _as_option(message: str, option: str) -> str:
    """A MovesError's message with its input named as this command's option: ``move must
    be ...`` -> ``--move must be ...``, ``...; give a rack`` -> ``...; give --rack``."""
    if message.startswith(f"{option} "):
        message = f"--{message}"
    tail = f"give a {option}"
    return message[: -len(tail)] + f"give --{option}" if message.endswith(tail) else message


def _last_known(game: Game, options: RuleOptions) -> int:
    """The last event after which the record shows the rack of the player to move, in a
    game not over (the end when there is none: the error then says to give --rack)."""
    from gcgtools.movegen.record import record_position

    for event in range(len(game.events), -1, -1):
        pos = record_position(game, event, options=options)
        over = pos.position is not None and pos.position.game_over
        if pos.rack and not over:
            return event
    return len(game.events)


def _print_moves(result: PositionMoves, top: int, where: str, format: MovesFormat) -> None:
    """The ``top`` moves (0: all) as text lines or JSON Lines."""
    from gcgtools.render.moves import moves_lines

    shown = result.moves if top <= 0 else result.moves[:top]
    if format is MovesFormat.json:
        for m in shown:
            echo(json.dumps(m.to_dict(), ensure_ascii=False), json=True)
        return
    for line in moves_lines(result, shown, where):
        echo(line)
