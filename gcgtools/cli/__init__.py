"""The ``gcgtools`` command line: a thin typer layer over the library.

Each command module registers its commands on the shared app; a command takes options,
calls one library function and prints.
"""

from gcgtools.cli import annotate as _annotate  # noqa: F401  (write, annotate, fix, report, ...)
from gcgtools.cli import core  # noqa: F401  (registers the commands)
from gcgtools.cli import reports as _reports  # noqa: F401  (stats, bingos, chart, export)
from gcgtools.cli.common import app, use_command_class

use_command_class(app)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="gcgtools")


__all__ = ["app", "main"]
