"""The ``gcgtools`` command line: a thin typer layer over the library.

Each command module registers its commands on the shared app; a command takes options,
calls one library function and prints.
"""

import io
import sys

from gcgtools.cli import analyse as _analyse  # noqa: F401  (analyse)
from gcgtools.cli import annotate as _annotate  # noqa: F401  (write, annotate, fix, report, ...)
from gcgtools.cli import cache as _cache  # noqa: F401  (cache info, cache clear)
from gcgtools.cli import core  # noqa: F401  (registers the commands)
from gcgtools.cli import moves as _moves  # noqa: F401  (moves)
from gcgtools.cli import reports as _reports  # noqa: F401  (stats, bingos, chart, export)
from gcgtools.cli.common import app, use_command_class

use_command_class(app)


def main() -> None:
    """Console-script entry point."""
    # a name or note the terminal's encoding cannot show is escaped, never a traceback
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    app(prog_name="gcgtools")


__all__ = ["app", "main"]
