"""CI runs the README's two set-up commands as tools/readme_commands.py reads them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "readme_commands.py"
FIRST = "python3 -m pip install . && gcgtools validate examples/*.gcg"
SECOND = "python3 -m pip install -e '.[test]' && python3 -m pytest"


def tool():  # noqa: ANN201 - the module
    spec = importlib.util.spec_from_file_location("readme_commands", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_holds_exactly_the_two_set_up_commands() -> None:
    done = subprocess.run([sys.executable, str(TOOL)], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [FIRST, SECOND]
    for n, command in ((1, FIRST), (2, SECOND)):
        one = subprocess.run([sys.executable, str(TOOL), str(n)], capture_output=True, text=True)
        assert one.stdout == command + "\n"


def test_ci_runs_the_commands_the_tool_reads() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "tools/readme_commands.py 1" in script
    assert "tools/readme_commands.py 2" in script
    # the first command runs before anything else installs gcgtools
    assert script.index("readme_commands.py 1") < script.index("pip install")
    assert "python3 -m venv" in script
    # the second command runs twice: with the shared data, and in a fresh clone with nothing
    # beside it and no GCGTOOLS_* variable (a new user's checkout)
    assert script.count("run_second") == 3  # the function and its two calls
    fresh = script[script.index('git clone --quiet "$PWD" "$scratch/fresh/gcgtools"') :]
    assert "GCGTOOLS_* | XDG_*) unset" in fresh.split("run_second")[0]


def test_only_the_set_up_section_counts() -> None:
    readme = tool()
    text = (
        "# x\n\n```sh\necho before\n```\n\n## Set-up\n\n```sh\nA\n```\n\ntext\n\n"
        "```python\nprint(1)\n```\n\n```sh\nB\n```\n\n```sh\nC\n```\n\n## Next\n"
    )
    assert readme.setup_commands(text) == ["A", "B"]


@pytest.mark.parametrize(
    "text",
    [
        "# no set-up heading\n\n```sh\nA\n```\n",
        "## Set-up\n\n```sh\nA\n```\n\n## Next\n\n```sh\nB\n```\n",
        "## Set-up\n\n```sh\nA\nB\n```\n\n```sh\nC\n```\n",
    ],
)
def test_a_readme_without_the_two_commands_is_refused(text: str) -> None:
    readme = tool()
    with pytest.raises(readme.ReadmeError):
        readme.setup_commands(text)
