"""Commands for reports over archives: stats, bingos, chart, export.

Each reads PATH... (files, folders, globs) on all cores, shows a progress bar on a
terminal, goes on past files it cannot read and lists them on stderr at the end; the exit
code is 2 when a file could not be read, else 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from gcgtools.batch.settings import DEFAULT_SETTINGS, AnalysisSettings
from gcgtools.cli.common import (
    NoCache,
    Paths,
    app,
    batch_command,
    cannot_write,
    output_is_input,
    report_unreadable,
)
from gcgtools.cli.groups import (
    JUDGE_GROUP,
    LEXICON_GROUP,
    NO_BATCH,
    QUIET_FIRST_GROUP,
    RULE_GROUP,
    BatchOptions,
    checked_lexicon,
    option_groups,
)
from gcgtools.console import echo
from gcgtools.findings import EXIT_CLEAN, EXIT_UNREADABLE
from gcgtools.lexicon.choice import NO_CHOICE, LexiconChoice
from gcgtools.render.tables import check_columns, print_frame
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.sources.paths import display_name
from gcgtools.wording import plural


class ReportFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


class StatsBy(str, Enum):
    player = "player"
    game = "game"
    profile = "profile"


FormatOpt = Annotated[
    ReportFormat,
    typer.Option(
        "--format",
        "-f",
        help="table (for a terminal), csv, or json: JSON Lines, one JSON object per row.",
    ),
]
ColumnsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--columns",
        "-c",
        metavar="COLUMNS",
        help="The columns to show, comma-separated or repeated (default: the table's usual "
        "few; CSV and JSON: all).",
    ),
]
SortOpt = Annotated[
    str | None,
    typer.Option("--sort", "-s", metavar="COLUMN", help="Sort by COLUMN (numbers highest first)."),
]


def _legend() -> str:
    """The stats columns and what they mean, for --help (kept as written: \\b)."""
    from gcgtools.tables.stats import PLAYER_STAT_MEANINGS, PLAYER_TABLE_COLUMNS

    width = max(len(c) for c in PLAYER_STAT_MEANINGS)
    lines = [
        f"  {c:<{width}}  {m}{' *' if c in PLAYER_TABLE_COLUMNS else ''}"
        for c, m in PLAYER_STAT_MEANINGS.items()
    ]
    return "\b\nColumns per player (* shown by default in the table):\n" + "\n".join(lines)


def _lexicon(
    choice: LexiconChoice, no_cache: bool = False, judging: AnalysisSettings = DEFAULT_SETTINGS
) -> dict[str, Any]:
    """The analysis options: only with --lexicon or --lexica (the analysis is slow, so
    $GCGTOOLS_LEXICA alone does not turn it on for stats and export). The files given are
    checked first (:func:`~gcgtools.cli.groups.checked_lexicon`); the table functions
    leave the analysis out when neither is given
    (:func:`~gcgtools.tables.frames.lexicon_options`). ``judging``: the depth and judge
    settings (--depth sim or full needs --lexicon or --lexica)."""
    from dataclasses import replace

    from gcgtools.analysis.judge import Depth
    from gcgtools.tables.rows import TABLE_SETTINGS

    if judging.depth is not Depth.STATIC and not choice.given:
        echo(f"gcgtools: --depth {judging.depth} judges the moves: give --lexicon or --lexica",
             err=True)  # fmt: skip
        raise typer.Exit(EXIT_UNREADABLE)
    if choice.given or choice.leaves is not None:
        checked_lexicon(choice)
    settings = replace(judging, top=TABLE_SETTINGS.top, cache=not no_cache)
    return {"lexicon": choice, "settings": settings}


def _finish(unreadable: list[str], reasons: dict[str, str], read: int) -> None:
    """List the files that could not be read on stderr and exit with the right code."""
    if unreadable:
        report_unreadable({name: reasons.get(name, "unreadable") for name in unreadable})
        raise typer.Exit(EXIT_UNREADABLE)
    if read == 0:
        echo("no game records found", err=True)
        raise typer.Exit(EXIT_UNREADABLE)
    raise typer.Exit(EXIT_CLEAN)


def _check_output(out: Path | None, paths: list[str]) -> None:
    """Refuse an output file that is one of the input files named."""
    if out is not None and (same := output_is_input(out, paths)) is not None:
        why = OSError(0, f"it is the input file {display_name(same)}", str(out))
        echo(cannot_write(why, out), err=True)
        raise typer.Exit(EXIT_UNREADABLE)


def _cannot_write(exc: OSError, out: Path) -> NoReturn:
    echo(cannot_write(exc, out), err=True)
    raise typer.Exit(EXIT_UNREADABLE)


def _count(n: int, noun: str) -> str:
    """``1 game``, ``2 games``."""
    return plural(n, noun)


def _check(known: list[str], columns: list[str] | None, sort: str | None) -> None:
    """Stop before reading anything when --columns or --sort names an unknown column."""
    try:
        check_columns(known, columns, sort=sort)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--columns/--sort") from None


def _print(
    frame: Any,
    fmt: ReportFormat,
    *,
    title: str,
    index: bool,
    columns: list[str] | None = None,
    sort: str | None = None,
) -> None:
    try:
        print_frame(frame, fmt.value, title=title, index=index, columns=columns, sort=sort)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--columns/--sort") from None


#: the judged columns the stats table shows by default with --depth sim or full
JUDGED_TABLE_COLUMNS = [
    "missed_bingos", "mistake_index", "mistakes_small", "mistakes_medium", "mistakes_large",
    "best_move_share",
]  # fmt: skip


def _profile_legend() -> str:
    """The --by profile columns and what they mean, for --help."""
    from gcgtools.tables.profiles import PROFILE_MEANINGS

    width = max(len(c) for c in PROFILE_MEANINGS)
    lines = [f"  {c:<{width}}  {m}" for c, m in PROFILE_MEANINGS.items()]
    return "\n\n\b\nColumns per player (--by profile):\n" + "\n".join(lines)


ProfileFile = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        metavar="FILE",
        help="With --by profile: also write the per-player table to FILE (.csv or .parquet).",
    ),
]
ProfileGames = Annotated[
    Path | None,
    typer.Option(
        "--games",
        metavar="FILE",
        help="With --by profile: also write the per-game table (one row per player per "
        "judged game) to FILE (.csv or .parquet).",
    ),
]
ProfileChart = Annotated[
    Path | None,
    typer.Option(
        "--chart",
        metavar="FILE",
        help="With --by profile: draw each player's Mistake Index per game over time (by "
        "date when every record gives one, else in archive order) to FILE (.png, .svg, .pdf).",
    ),
]


@dataclass(frozen=True, slots=True)
class _ProfileFiles:
    """The files --by profile writes besides its output (None: not asked for)."""

    table: Path | None = None
    games: Path | None = None
    chart: Path | None = None

    def given(self) -> list[Path]:
        return [f for f in (self.table, self.games, self.chart) if f is not None]


@app.command(
    epilog=_legend()
    + "\n\n\b\nColumns per game (--by game): game_id, player1, player2, score1, score2, "
    "spread,\nwinner, turns, bingos1, bingos2, best_score, best_word, best_player, status."
    + _profile_legend()
)
@batch_command
@option_groups(
    rule_set=RULE_GROUP, choice=LEXICON_GROUP, judging=JUDGE_GROUP, batch=QUIET_FIRST_GROUP
)
def stats(
    paths: Paths,
    by: Annotated[
        StatsBy,
        typer.Option(
            "--by",
            help="One row per player or per game, or the player profiles (--depth sim or full).",
        ),
    ] = StatsBy.player,
    format: FormatOpt = ReportFormat.table,
    columns: ColumnsOpt = None,
    sort: SortOpt = None,
    rule_set: RuleOptions = NO_OPTIONS,
    choice: LexiconChoice = NO_CHOICE,
    judging: AnalysisSettings = DEFAULT_SETTINGS,
    no_cache: NoCache = False,
    output: ProfileFile = None,
    games: ProfileGames = None,
    chart: ProfileChart = None,
    batch: BatchOptions = NO_BATCH,
) -> None:
    """Per-player statistics (games, wins, averages, bingos, best plays, challenges) or a
    one-line summary per game. With --lexicon or --lexica every game is also analysed:
    phonies played and stood, missed bingos, average equity lost per turn; with --depth
    sim or full every turn is judged too (Mistake Index, mistakes by size, best moves).
    --by profile (with --depth sim or full): each player's Mistake Index per game by phase
    and by kind of mistake, share of best moves and a rating estimate. The table shows a
    few columns; --columns picks others, CSV and JSON have them all."""
    files = _ProfileFiles(output, games, chart)
    if by is StatsBy.profile:
        _profiles(paths, format, columns, sort, rule_set, choice, judging, no_cache, files, batch)
    if files.given():
        raise typer.BadParameter("only with --by profile", param_hint="--output/--games/--chart")
    from gcgtools.tables.stats import (
        ANALYSIS_STAT_COLUMNS,
        GAME_SUMMARY_COLUMNS,
        GAME_TABLE_COLUMNS,
        PLAYER_STAT_COLUMNS,
        PLAYER_TABLE_COLUMNS,
        archive_stats,
    )

    known = ["player", *PLAYER_STAT_COLUMNS] if by is StatsBy.player else GAME_SUMMARY_COLUMNS
    _check(known, columns, sort)
    analysis = _lexicon(choice, no_cache, judging)
    table = archive_stats(
        paths,
        by=by.value,
        jobs=batch.jobs,
        scheduler=batch.scheduler,
        progress=batch.progress,
        rules=rule_set,
        **analysis,
    )
    for used in table.attrs.get("analysis", []):
        echo(f"analysis: {used}", err=True)
    if columns is None and format is ReportFormat.table:
        if by is StatsBy.game:
            columns = GAME_TABLE_COLUMNS
        elif table.attrs.get("analysis"):  # what the lexicon adds, with the basics
            columns = ["games", "wins", "losses", "points_per_turn", *ANALYSIS_STAT_COLUMNS]
            if str(analysis["settings"].depth) != "static":
                columns = ["games", "wins", "losses", *JUDGED_TABLE_COLUMNS]
        else:
            columns = PLAYER_TABLE_COLUMNS
    title = _count(table.attrs["games"], "game")
    _print(table, format, title=title, index=by is StatsBy.player, columns=columns, sort=sort)
    _finish(table.attrs["unreadable"], table.attrs["reasons"], table.attrs["games"])


def _check_profile_files(files: _ProfileFiles, paths: list[str]) -> None:
    """Stop before reading anything when a --by profile file has the wrong suffix or is
    one of the inputs."""
    for path, suffixes, hint in (
        (files.table, (".csv", ".parquet"), "--output"),
        (files.games, (".csv", ".parquet"), "--games"),
        (files.chart, (".png", ".svg", ".pdf"), "--chart"),
    ):
        if path is None:
            continue
        if path.suffix.lower() not in suffixes:
            raise typer.BadParameter(
                f"{path}: the file name must end in {' or '.join(suffixes)}", param_hint=hint
            )
        _check_output(path, paths)


def _profiles(
    paths: list[str],
    format: ReportFormat,
    columns: list[str] | None,
    sort: str | None,
    rule_set: RuleOptions,
    choice: LexiconChoice,
    judging: AnalysisSettings,
    no_cache: bool,
    files: _ProfileFiles,
    batch: BatchOptions,
) -> NoReturn:
    """``stats --by profile``: judge the archive, print the profiles, write the files."""
    from gcgtools.analysis.judge import Depth
    from gcgtools.tables.profiles import PROFILE_COLUMNS, archive_profiles, profile_frame

    if judging.depth is Depth.STATIC:
        raise typer.BadParameter("needs --depth sim or full (the profiles judge every turn)",
                                 param_hint="--by profile")  # fmt: skip
    _check(["player", *PROFILE_COLUMNS], columns, sort)
    _check_profile_files(files, paths)
    checked_lexicon(choice, rule_set.tiles, required=True)
    profiles, games = archive_profiles(
        paths, jobs=batch.jobs, scheduler=batch.scheduler, progress=batch.progress,
        rules=rule_set, **_lexicon(choice, no_cache, judging),
    )  # fmt: skip
    for used in games.attrs.get("analysis", []):
        echo(f"analysis: {used}", err=True)
    title = f"{_count(games.attrs['games'], 'game')}, {len(games)} judged player-games"
    frame = profile_frame(profiles)
    if format is ReportFormat.table and columns is None and sort is None:
        from gcgtools.render.profiles import profile_text

        echo(profile_text(profiles, title=title).rstrip("\n"))
    else:
        echo(profiles.fit.describe(), err=True)
        _print(frame, format, title=title, index=True, columns=columns, sort=sort)
    _write_profile_files(files, frame, games)
    _finish(games.attrs["unreadable"], games.attrs["reasons"], games.attrs["games"])


def _write_profile_files(files: _ProfileFiles, frame: Any, games: Any) -> None:
    """Write the tables and the chart --by profile was asked for, and say so on stderr."""
    from gcgtools.jobs.charts import write_profile_chart
    from gcgtools.tables.profiles import save_frame

    jobs = [
        (files.table, lambda out: save_frame(frame, out, index=True),
         f"the profiles of {plural(len(frame), 'player')}"),
        (files.games, lambda out: save_frame(games, out, index=False),
         plural(len(games), "player-game")),
        (files.chart, lambda out: write_profile_chart(games, out), "the Mistake Index chart"),
    ]  # fmt: skip
    for out, write, what in jobs:
        if out is None:
            continue
        try:
            write(out)
        except OSError as exc:
            _cannot_write(exc, out)
        echo(f"wrote {what} to {out}", err=True)


@app.command()
@batch_command
@option_groups(rule_set=RULE_GROUP, batch=QUIET_FIRST_GROUP)
def bingos(
    paths: Paths,
    format: FormatOpt = ReportFormat.table,
    columns: ColumnsOpt = None,
    sort: SortOpt = None,
    rule_set: RuleOptions = NO_OPTIONS,
    batch: BatchOptions = NO_BATCH,
) -> None:
    """Every bingo (game, event number, player, opponent, word, position, score); the table
    also counts them per player. JSON Lines: one object per bingo."""
    from gcgtools.tables.stats import BINGO_COLUMNS, bingo_counts
    from gcgtools.tables.stats import bingos as find_bingos

    _check(BINGO_COLUMNS, columns, sort)

    table = find_bingos(
        paths,
        jobs=batch.jobs,
        scheduler=batch.scheduler,
        progress=batch.progress,
        rules=rule_set,
    )
    games = table.attrs["games"]
    title = f"{_count(len(table), 'bingo')} in {_count(games, 'game')}"
    _print(table, format, title=title, index=False, columns=columns, sort=sort)
    if format is ReportFormat.table:
        echo()
        _print(bingo_counts(table), format, title="bingos per player", index=True)
    _finish(table.attrs["unreadable"], table.attrs["reasons"], games)


@app.command()
@batch_command
@option_groups(rule_set=RULE_GROUP, batch=QUIET_FIRST_GROUP)
def chart(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH", help="One record for its score chart; several for archive charts."
        ),
    ],
    out: Annotated[Path, typer.Option("--output", "-o", help="The picture: .png, .svg or .pdf.")],
    archive: Annotated[
        bool, typer.Option("--archive", help="Archive charts even for a single file.")
    ] = False,
    rule_set: RuleOptions = NO_OPTIONS,
    batch: BatchOptions = NO_BATCH,
) -> None:
    """Draw the score progression of one game, or the archive charts of several (final
    scores, bingos per game, points per turn by player)."""
    from gcgtools.jobs.charts import write_chart

    _check_output(out, paths)
    try:
        result = write_chart(
            paths,
            out,
            archive=archive,
            jobs=batch.jobs,
            scheduler=batch.scheduler,
            progress=batch.progress,
            options=rule_set,
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--output") from None
    except OSError as exc:
        _cannot_write(exc, out)
    if result.path is not None:
        echo(f"wrote {result.kind} chart of {plural(result.games, 'game')} to {result.path}")
    _finish(result.unreadable, result.reasons, result.games)


@app.command()
@batch_command
@option_groups(rule_set=RULE_GROUP, choice=LEXICON_GROUP, batch=QUIET_FIRST_GROUP)
def export(
    paths: Paths,
    out: Annotated[
        str,
        typer.Option(
            "--output", "-o", help="Moves table: .parquet or .csv, or a folder (a dataset)."
        ),
    ],
    games: Annotated[
        str | None,
        typer.Option("--games", help="Also the games table: .parquet, .csv or a folder."),
    ] = None,
    partitioned: Annotated[
        bool,
        typer.Option(
            "--partitioned",
            help="Write each table as a folder of Parquet files, one per chunk (also when "
            "the name ends with / or is a folder).",
        ),
    ] = False,
    rule_set: RuleOptions = NO_OPTIONS,
    choice: LexiconChoice = NO_CHOICE,
    no_cache: NoCache = False,
    batch: BatchOptions = NO_BATCH,
) -> None:
    """Write one row per event (and with --games one row per game) to Parquet or CSV,
    streamed chunk by chunk. With --lexicon or --lexica the analysis columns are filled
    in (equity, best move, equity lost, phony words, bingo available)."""
    from gcgtools.tables.frames import write_moves

    _check_output(out, paths)
    _check_output(games, paths)
    try:
        summary = write_moves(
            paths,
            out,
            games_out=games,
            partitioned=True if partitioned else None,
            jobs=batch.jobs,
            scheduler=batch.scheduler,
            progress=batch.progress,
            rules=rule_set,
            **_lexicon(choice, no_cache),
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    except OSError as exc:
        _cannot_write(exc, out)
    for used in summary.analysis:
        echo(f"analysis: {used}", err=True)
    where = f"{out}" + (f" and {games}" if games is not None else "")
    echo(f"wrote {plural(summary.moves, 'move')} of {plural(summary.games, 'game')} to {where}")
    _finish(summary.unreadable, summary.reasons, summary.games)
