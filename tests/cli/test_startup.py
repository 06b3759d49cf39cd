"""Start-up stays light: ``import gcgtools`` and ``gcgtools --help`` import none of the
heavy packages, a command imports only its own module, and the table ``--help`` lists the
commands from matches the commands their modules define."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from gcgtools.cli.common import SECTIONS, Command, app
from gcgtools.cli.registry import COMMANDS

HEAVY = ("pandas", "matplotlib", "numpy", "lark", "dask", "distributed", "pyarrow")
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "club-final.gcg"


def modules_after(code: str) -> set[str]:
    """The top-level packages imported once ``code`` has run in a fresh interpreter."""
    report = "\nimport sys\nprint(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    done = subprocess.run(
        [sys.executable, "-c", code + report], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def run_cli(*args: str) -> str:
    return (
        "import sys\n"
        f"sys.argv = ['gcgtools', *{list(args)!r}]\n"
        "from gcgtools.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
    )


def test_import_gcgtools_imports_no_heavy_package() -> None:
    assert modules_after("import gcgtools").isdisjoint(HEAVY)


def test_help_imports_no_heavy_package() -> None:
    assert modules_after(run_cli("--help")).isdisjoint(HEAVY)


def test_help_imports_no_command_module() -> None:
    code = run_cli("--help") + (
        "import sys\nprint(' '.join(m for m in sys.modules if m.startswith('gcgtools.cli.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    assert set(last.split()) == {"gcgtools.cli.common", "gcgtools.cli.registry"}


def test_validate_imports_its_module_and_no_heavy_package() -> None:
    code = run_cli("validate", str(EXAMPLE)) + "assert 'gcgtools.cli.archive' not in sys.modules\n"
    loaded = modules_after(code)
    assert loaded.isdisjoint(HEAVY), loaded & set(HEAVY)


def gcgtools_modules_after(code: str) -> set[str]:
    """The gcgtools modules imported once ``code`` has run in a fresh interpreter."""
    report = "\nimport sys\nprint(' '.join(m for m in sys.modules if m.startswith('gcgtools')))"
    done = subprocess.run(
        [sys.executable, "-c", code + report], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_validate_of_one_file_loads_no_other_command_nor_layer_it_does_not_use() -> None:
    loaded = gcgtools_modules_after(run_cli("validate", str(EXAMPLE)))
    assert "gcgtools.cli.validate" in loaded
    commands = {m for m in loaded if m.startswith("gcgtools.cli.")}
    assert commands == {"gcgtools.cli.common", "gcgtools.cli.registry", "gcgtools.cli.groups",
                        "gcgtools.cli.validate"}  # fmt: skip
    unused = ("lexicon", "movegen", "analysis", "tables", "edit", "jobs")
    assert not {m for m in loaded if m.split(".")[1:2] and m.split(".")[1] in unused}
    assert {m for m in loaded if m.startswith("gcgtools.render.")} == {"gcgtools.render.lint"}
    assert modules_after(run_cli("validate", str(EXAMPLE))).isdisjoint({"rich", "pydantic"})


# What validate of one record needs none of: the process pool (one file runs in this
# process) and the HTML escaping of the Jupyter view.
NOT_FOR_ONE_FILE = ("multiprocessing", "concurrent", "html")


def test_validate_of_one_file_imports_no_process_pool() -> None:
    loaded = modules_after(run_cli("validate", str(EXAMPLE)))
    assert loaded.isdisjoint(NOT_FOR_ONE_FILE), loaded & set(NOT_FOR_ONE_FILE)


def test_validate_imports_no_pydantic() -> None:
    # typer 0.29 checks every option's value with pydantic, which more than doubles
    # validate's start-up: pyproject.toml keeps typer below 0.29 (docs/install.md)
    assert "pydantic" not in modules_after(run_cli("validate", str(EXAMPLE)))


def test_validate_of_many_files_with_jobs_runs_on_the_pool(tmp_path: Path) -> None:
    copies = [tmp_path / f"game{i}.gcg" for i in range(16)]  # 8 files a worker at least
    for copy in copies:
        copy.write_bytes(EXAMPLE.read_bytes())
    loaded = modules_after(run_cli("validate", "--jobs", "2", *map(str, copies)))
    assert {"multiprocessing", "concurrent"} <= loaded


def defined_commands() -> dict[str, typer.core.TyperCommand]:
    for module in {entry.module for entry in COMMANDS.values()}:
        importlib.import_module(module)
    return typer.main.get_command(app).commands  # type: ignore[attr-defined]


def test_the_table_names_every_command_and_its_module() -> None:
    commands = defined_commands()
    assert set(commands) == set(COMMANDS)
    for name, command in commands.items():
        module = command.callback.__module__ if command.callback else None
        if isinstance(command, typer.core.TyperGroup):  # a group: its module registers it
            continue
        assert module == COMMANDS[name].module, name
    listed = {name for _, section in SECTIONS for name in section}
    assert listed <= set(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_table_summary_is_what_help_shows_at_every_width(name: str) -> None:
    real = defined_commands()[name]
    from_table = Command(name=name, help=COMMANDS[name].summary)
    for limit in range(10, 300, 7):
        assert from_table.get_short_help_str(limit) == real.get_short_help_str(limit)


def test_version_names_the_move_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from gcgtools._version import __version__
    from gcgtools.movegen.core import PURE_ENV, native_built

    monkeypatch.delenv(PURE_ENV, raising=False)
    out = CliRunner().invoke(app, ["--version"]).output
    built = "C" if native_built() else "pure Python; install a C compiler"
    assert out.startswith(f"gcgtools {__version__} (move generator: {built}")
    monkeypatch.setenv(PURE_ENV, "1")
    out = CliRunner().invoke(app, ["--version"]).output
    assert "(move generator: pure Python" in out
    if native_built():
        assert out == f"gcgtools {__version__} (move generator: pure Python, {PURE_ENV} is set)\n"


def test_dir_gcgtools_lists_each_name_once() -> None:
    import gcgtools

    # a lazy name, once loaded, is a global as well: listed once all the same
    assert gcgtools.Board is not None and gcgtools.validate is not None
    names = dir(gcgtools)
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
    assert names == sorted(names) and set(gcgtools.__all__) <= set(names)
