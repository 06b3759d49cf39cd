"""Print the README's set-up commands, so that CI runs exactly what the README says.

The commands are the first two ``sh`` code blocks under the heading ``## Set-up`` of
README.md: the install that validates the examples, then the install of the test extras
that runs the tests. ``.ci/run`` runs them as printed here::

    python3 tools/readme_commands.py 1     # the first command
    python3 tools/readme_commands.py 2     # the second
    python3 tools/readme_commands.py       # both, one per line

Exit 1 (with a message on standard error) when the README has no such heading or fewer
than two such blocks, or when a block is not one command on one line.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
HEADING = "## Set-up"
COUNT = 2
_FENCE = re.compile(r"^```sh[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


class ReadmeError(ValueError):
    """The README does not hold the set-up commands where this tool looks for them."""


def setup_section(text: str) -> str:
    """The text under the ``## Set-up`` heading, up to the next heading of that level."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.rstrip() == HEADING]
    if not starts:
        raise ReadmeError(f"README.md has no {HEADING!r} heading")
    body = []
    for line in lines[starts[0] + 1 :]:
        if line.startswith("## "):
            break
        body.append(line)
    return "".join(body)


def setup_commands(text: str) -> list[str]:
    """The first two ``sh`` blocks of the set-up section, each one command."""
    blocks = [m.group(1).strip() for m in _FENCE.finditer(setup_section(text))]
    if len(blocks) < COUNT:
        raise ReadmeError(f"README.md's {HEADING} has {len(blocks)} sh blocks, not {COUNT}")
    commands = blocks[:COUNT]
    for command in commands:
        if not command or "\n" in command:
            raise ReadmeError(f"a set-up block is not one command on one line: {command!r}")
    return commands


def main(argv: list[str]) -> int:
    try:
        commands = setup_commands(README.read_text(encoding="utf-8"))
    except (OSError, ReadmeError) as exc:
        print(f"readme_commands.py: {exc}", file=sys.stderr)
        return 1
    if argv and argv[0] not in {str(n) for n in range(1, COUNT + 1)}:
        print(f"readme_commands.py: say 1 or 2, not {argv[0]!r}", file=sys.stderr)
        return 1
    print(commands[int(argv[0]) - 1] if argv else "\n".join(commands))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
