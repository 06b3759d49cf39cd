"""Which module defines each ``gcgtools`` command, and its one-line help.

``gcgtools --help`` lists the commands from this table without importing their modules,
and running a command imports only its own module (pip's ``commands_dict`` is the model).
The summaries are the first sentence of each command's docstring, which is all of it
``--help`` ever shows; tests/cli/test_startup.py checks that they and the modules match the
commands those modules define.
"""

from __future__ import annotations

from typing import NamedTuple


class CommandEntry(NamedTuple):
    """Where a command is defined, and the summary ``--help`` shows for it."""

    module: str
    summary: str


COMMANDS: dict[str, CommandEntry] = {
    "parse": CommandEntry(
        "gcgtools.cli.core",
        "Parse records and print a summary of each (or the parsed model as JSON).",
    ),
    "board": CommandEntry(
        "gcgtools.cli.core",
        "Print the board after event N (default: the last) with a legend, the move, the "
        "scores, each player's rack after it and the unseen tiles; with --format cgp, the "
        "position as CGP; with -o, draw it as an SVG or PNG picture (several records: one "
        "picture each in -o DIR).",
    ),
    "validate": CommandEntry(
        "gcgtools.cli.validate",
        "Replay records and report every wrong score, placement, rack and order, one line "
        "per finding: path:line:col: CODE severity: message.",
    ),
    "rules": CommandEntry(
        "gcgtools.cli.core",
        "List every finding code with its severity and title (JSON: also the explanation, "
        "an example and how to fix it).",
    ),
    "explain": CommandEntry(
        "gcgtools.cli.core",
        "Explain one finding code: what it means, an example record line, how to fix it.",
    ),
    "stats": CommandEntry(
        "gcgtools.cli.archive",
        "Per-player statistics (games, wins, averages, bingos, best plays, challenges) or a "
        "one-line summary per game.",
    ),
    "bingos": CommandEntry(
        "gcgtools.cli.archive",
        "Every bingo (game, event number, player, opponent, word, position, score); the "
        "table also counts them per player.",
    ),
    "chart": CommandEntry(
        "gcgtools.cli.archive",
        "Draw the score progression of one game, or the archive charts of several (final "
        "scores, bingos per game, points per turn by player).",
    ),
    "export": CommandEntry(
        "gcgtools.cli.archive",
        "Write one row per event (and with --games one row per game) to Parquet or CSV, "
        "streamed chunk by chunk.",
    ),
    "analyse": CommandEntry(
        "gcgtools.cli.analyse",
        "Check every play's words against a lexicon and, for every turn whose full rack is "
        "known, compare the move with the best moves: equity, equity lost, rank, missed "
        "bingos.",
    ),
    "moves": CommandEntry(
        "gcgtools.cli.moves",
        "List the best moves (score, leave, equity) for the player to move after event N "
        "of a record, or in a CGP position; with --sim ranked by simulated win%, with "
        "--endgame by their value to the end of the game.",
    ),
    "report": CommandEntry(
        "gcgtools.cli.html_report",
        "Write a self-contained HTML page: the board after each event (slider and buttons), "
        "the player to move, their rack and the unseen tiles, the move list with notes and "
        "findings, and the score chart; with a lexicon (--lexicon, --lexica or "
        "$GCGTOOLS_LEXICA) the top moves beside each recorded one.",
    ),
    "study": CommandEntry(
        "gcgtools.cli.study",
        "Turn a player's mistakes in judged records into puzzles: a self-contained HTML quiz, "
        "or one JSON line per puzzle.",
    ),
    "picture": CommandEntry(
        "gcgtools.cli.picture",
        "Draw the board after an event: SVG, or PNG when the output file ends in .png.",
    ),
    "write": CommandEntry(
        "gcgtools.cli.write",
        "Write the record back: byte for byte (lossless), or --normalise'd to the canonical "
        "modern form (UTF-8, single spaces, '.' for played-through squares, upper-case "
        "coordinates, signed scores).",
    ),
    "annotate": CommandEntry(
        "gcgtools.cli.annotate",
        "Add '#note gcgtools: ...' lines after each event: the play (O1 HAN(G)OVER), words "
        "and scores, findings, bingos, unseen tiles, and with a lexicon the analysis.",
    ),
    "fix": CommandEntry(
        "gcgtools.cli.fix",
        "Correct the scores and cumulatives the replay proves wrong, and print each change, "
        "then every finding the corrected record still has, and when a final score or the "
        "winner changes.",
    ),
    "cache": CommandEntry(
        "gcgtools.cli.cache", "The cache of per-record results and compiled lexicons (info, clear)."
    ),
}
