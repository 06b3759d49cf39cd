"""The examples of README.md and docs/**/*.md run as tests, so the documentation shows what
the code does today.

Each Markdown file's fenced blocks run in order, in one sandbox folder and (for Python) one
namespace, so a later block may use what an earlier one made:

* ```` ```python ```` blocks are executed; ```` ```pycon ```` blocks are doctests (their
  output must match; ``...`` stands for any text).
* In ```` ```sh ```` blocks every line that starts with ``gcgtools `` is run with bash; its
  exit code must be 0, or the one a trailing comment names (``# exit 1``).
* In ```` ```console ```` blocks every ``$ gcgtools ...`` line is run the same way and what
  it prints on standard output must be the lines below it (``...`` for any text).
* Each command has a time limit, a guard against a hang: 300 s, or an hour when the
  gcgtools the commands run has no C helper (the deep-analysis examples are ten times
  slower in pure Python).
* A block that cannot run here (an ``s3://`` archive, a Dask cluster's address) is preceded
  by the line ``<!-- docs-test: skip REASON -->``; there may be only a few of those.

The sandbox stands in for the repository root as the examples assume it: copies of
``examples/`` and ``tests/support/data/analysis_records/`` (so that ``--in-place`` leaves
the checkout alone), and from the shared data
(``$GCGTOOLS_DATA``) the files the lexicon examples name: ``ENABLE.kwg``, ``CSW21.klv2``,
``enable2k.txt.gz``, ``cel.txt.gz`` and the folder ``lexica/`` with ``ENABLE2K.kwg`` and
``LEAVES.klv2``. Without the shared data, a page any of whose examples needs it is
skipped as a whole, with the lines that need it as the reason: its blocks are one script,
and a later block may use a name an earlier one made.
"""

from __future__ import annotations

import doctest
import functools
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.reference_data import DATA

ROOT = Path(__file__).resolve().parents[2]
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SKIP_MARKER = re.compile(r"^<!--\s*docs-test:\s*skip\b\s*(?P<reason>.*?)\s*-->$")
MAX_SKIPPED = 8
RUN_LANGS = {"python", "pycon", "sh", "console"}
# name in the sandbox -> file in the shared data
DATA_FILES = {
    "ENABLE.kwg": "lexica/ENABLE.kwg",
    "CSW21.klv2": "lexica/CSW21.klv2",
    "enable2k.txt.gz": "wordlists/enable2k/enable2k.txt.gz",
    "cel.txt.gz": "wordlists/cel/cel_2-21.txt.gz",
    "lexica/ENABLE2K.kwg": "lexica/ENABLE.kwg",
    "lexica/LEAVES.klv2": "lexica/CSW21.klv2",
}
NEEDS_DATA = re.compile("|".join(re.escape(Path(name).name) for name in DATA_FILES) + r"|lexica/")
# every command runs the gcgtools of the interpreter running the tests
SHELL_PRELUDE = (
    'gcgtools() { "$DOCS_PYTHON" -c '
    '\'import sys; sys.argv[0] = "gcgtools"; from gcgtools.cli import main; main()\' "$@"; }\n'
)
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# a command's limit (a hang guard, not a speed target): the deep-analysis examples (study,
# report --depth sim on whole records) take about a minute with the C helper and ten times
# longer without it (one study of the club final at 100 iterations: 12 minutes on 2 cores)
TIMEOUT, PURE_PYTHON_TIMEOUT = 300, 3600


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    lang: str
    body: str
    skip: str | None  # the reason given by a skip marker


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file (fences at any indent, as in lists)."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = re.match(r"^(\s*)(`{3,})\s*([\w-]*)", lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, lang = opening.groups()
        before = next((s.strip() for s in reversed(lines[:i]) if s.strip()), "")
        marker = SKIP_MARKER.match(before)
        end = i + 1
        while end < len(lines) and lines[end].strip() != fence:
            end += 1
        body = "\n".join(line.removeprefix(indent) for line in lines[i + 1 : end])
        found.append(Block(path, i + 1, lang, body + "\n", marker["reason"] if marker else None))
        i = end + 1
    return found


def shell_lines(body: str) -> list[str]:
    """The lines of a shell block, continuation lines joined."""
    return body.replace("\\\n", " ").splitlines()


def expected_status(command: str) -> int:
    found = re.search(r"#.*\bexit (\d)\b", command)
    return int(found[1]) if found else 0


def sandbox(folder: Path) -> None:
    shutil.copytree(ROOT / "examples", folder / "examples")
    shutil.copytree(
        ROOT / "tests" / "support" / "data" / "analysis_records",
        folder / "tests" / "support" / "data" / "analysis_records",
    )
    if DATA is None:
        return
    for name, source in DATA_FILES.items():
        target = folder / name
        target.parent.mkdir(exist_ok=True)
        target.symlink_to(DATA / source)


@pytest.fixture(scope="session")
def result_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One result cache for every page's examples, so an analysis shown on two pages runs
    once."""
    return tmp_path_factory.mktemp("docs-cache")


def environment(cache: Path) -> dict[str, str]:
    """What a user piping the output sees: no colour, no terminal width, no lexicon folder
    or Dask scheduler from the environment. The commands run the gcgtools installed for
    this interpreter (with its compiled move generator, where it was built)."""
    dropped = ("GCGTOOLS_LEXICA", "DASK_SCHEDULER_ADDRESS", "COLUMNS", "LINES")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(
        DOCS_PYTHON=sys.executable,
        GCGTOOLS_CACHE_DIR=str(cache),
        NO_COLOR="1",
    )
    return env


@functools.cache
def command_timeout(folder: Path) -> int:
    """The limit of one command: longer when the commands run without the C helper (as the
    gcgtools they run says, from the sandbox with the environment test_examples_run set)."""
    ask = "from gcgtools.movegen.core import generator_name; print(generator_name())"
    done = subprocess.run(
        [sys.executable, "-c", ask], cwd=folder, capture_output=True, text=True, timeout=60
    )
    return TIMEOUT if done.stdout.strip() == "C" else PURE_PYTHON_TIMEOUT


def run(command: str, folder: Path, where: str) -> str:
    done = subprocess.run(
        ["bash", "-c", SHELL_PRELUDE + command],
        cwd=folder,
        env=dict(os.environ),  # as test_examples_run set it
        capture_output=True,
        text=True,
        timeout=command_timeout(folder),
    )
    want = expected_status(command)
    assert done.returncode == want, (
        f"{where}: `{command}` exited {done.returncode}, the documentation says {want}\n"
        f"stdout:\n{done.stdout[-2000:]}\nstderr:\n{done.stderr[-2000:]}"
    )
    return done.stdout


def run_shell(block: Block, folder: Path) -> None:
    for offset, line in enumerate(shell_lines(block.body), 1):
        if line.startswith("gcgtools "):
            run(line, folder, f"{block.path.name}:{block.line + offset}")


def run_console(block: Block, folder: Path) -> None:
    checker = doctest.OutputChecker()
    lines = block.body.splitlines()
    starts = [n for n, line in enumerate(lines) if line.startswith("$ ")] + [len(lines)]
    for start, stop in zip(starts, starts[1:], strict=False):
        command = lines[start][2:]
        if not command.startswith("gcgtools "):
            continue
        want = "\n".join(line.rstrip() for line in lines[start + 1 : stop]) + "\n"
        where = f"{block.path.name}:{block.line + start + 1}"
        got = "\n".join(line.rstrip() for line in run(command, folder, where).splitlines()) + "\n"
        assert checker.check_output(want, got, doctest.ELLIPSIS), (
            f"{where}: `{command}` printed\n{got}\nthe documentation shows\n{want}"
        )


def run_python(block: Block, namespace: dict[str, object]) -> None:
    code = compile("\n" * block.line + block.body, str(block.path), "exec")
    exec(code, namespace)


def run_pycon(block: Block, namespace: dict[str, object]) -> None:
    test = doctest.DocTestParser().get_doctest(
        block.body, namespace, f"{block.path.name}:{block.line}", str(block.path), block.line
    )
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    runner.run(test, clear_globs=False)
    namespace.update(test.globs)  # the doctest ran in a copy: later blocks see its names
    assert runner.failures == 0, f"{block.path.name}:{block.line}: doctest failed (see above)"


def runnable(path: Path) -> list[Block]:
    return [b for b in blocks(path) if b.lang in RUN_LANGS and b.skip is None]


def without_data(name: str, todo: list[Block], data: Path | None) -> str | None:
    """Why a page cannot run without the shared data (None: it can, or the data is there).

    A page's blocks are one script (a later block uses what an earlier one made), so a page
    runs whole or not at all: one block that needs the data skips the page."""
    lines = [str(b.line) for b in todo if NEEDS_DATA.search(b.body)]
    if data is not None or not lines:
        return None
    which = (
        f"the example at line {lines[0]} needs"
        if len(lines) == 1
        else f"the examples at lines {', '.join(lines)} need"
    )
    return (
        f"{name}: {which} the shared data (a lexicon); set GCGTOOLS_DATA to the shared data folder"
    )


@pytest.mark.parametrize(
    "path", [p for p in DOC_FILES if runnable(p)], ids=lambda p: str(p.relative_to(ROOT))
)
def test_examples_run(
    path: Path, tmp_path: Path, result_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo = runnable(path)
    reason = without_data(path.name, todo, DATA)
    if reason:
        pytest.skip(reason)
    sandbox(tmp_path)
    for key in ("GCGTOOLS_LEXICA", "DASK_SCHEDULER_ADDRESS", "COLUMNS", "LINES"):
        monkeypatch.delenv(key, raising=False)
    for key, value in environment(result_cache).items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for block in todo:
        if block.lang in ("sh", "console"):
            (run_shell if block.lang == "sh" else run_console)(block, tmp_path)
        else:
            (run_python if block.lang == "python" else run_pycon)(block, namespace)


def test_a_page_needing_data_is_skipped_whole_without_it(tmp_path: Path) -> None:
    """Without the data, a page with one block that needs a lexicon skips as a whole (its
    later blocks would use names that block made); with the data, or with no such block,
    it runs."""
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nfrom gcgtools import load_lexicon\nlex = load_lexicon('ENABLE.kwg')\n```\n\n"
        "```python\nprint(lex)\n```\n\n```sh\ngcgtools validate examples/\n```\n",
        encoding="utf-8",
    )
    todo = runnable(page)
    assert [b.line for b in todo] == [1, 6, 10]
    reason = without_data("page.md", todo, None)
    assert reason == (
        "page.md: the example at line 1 needs the shared data (a lexicon); "
        "set GCGTOOLS_DATA to the shared data folder"
    )
    assert without_data("page.md", todo, tmp_path) is None
    assert without_data("page.md", todo[2:], None) is None


def test_few_examples_opt_out() -> None:
    skipped = [b for p in DOC_FILES for b in blocks(p) if b.skip is not None]
    assert all(b.skip for b in skipped), "every skip marker gives its reason"
    assert len(skipped) <= MAX_SKIPPED, [f"{b.path.name}:{b.line}" for b in skipped]


def test_runnable_blocks_are_found() -> None:
    """The extraction itself: the README's examples are found and some of them run."""
    found = blocks(ROOT / "README.md")
    assert any(b.lang == "console" for b in found)
    assert any(b.lang == "pycon" for b in found)
    commands = [line for b in found if b.lang == "sh" for line in shell_lines(b.body)]
    assert any(line.startswith("gcgtools validate") for line in commands)


def test_package_docstring_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    """The examples in gcgtools/__init__.py's docstring run (no +SKIP)."""
    import gcgtools

    monkeypatch.chdir(ROOT)
    failures, tried = doctest.testmod(gcgtools, optionflags=OPTIONS)
    assert tried > 0 and failures == 0
