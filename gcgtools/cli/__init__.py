"""The ``gcgtools`` command line: a thin typer layer over the library.

Each command module registers its commands on the shared app; a command takes options,
calls one library function and prints. The modules are imported when their command runs
(:mod:`gcgtools.cli.registry` says which module holds which command), so ``--help`` and
one command start fast.
"""

import io
import sys

from gcgtools.cli.common import app


def main() -> None:
    """Console-script entry point."""
    # a name or note the terminal's encoding cannot show is escaped, never a traceback
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    app(prog_name="gcgtools")


__all__ = ["app", "main"]
