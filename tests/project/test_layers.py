"""The layers: each package imports only the packages before it (and the third-party
packages named for it), checked on the source of every module, and at run time."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "gcgtools"

# The layers in order: a package may import itself and any package listed before it.
# Base modules (the version, counted words, the finding catalogue, the terminal) come first.
LAYERS: list[tuple[str, set[str]]] = [
    ("_version", set()),
    ("lazy", set()),
    ("wording", set()),
    ("findings", set()),
    ("console", {"rich"}),
    ("syntax", {"lark"}),
    ("model", set()),
    ("sources", {"fsspec", "platformdirs"}),
    ("rules", set()),
    ("lexicon", {"platformdirs"}),
    ("replay", set()),
    ("movegen", set()),
    ("analysis", {"numpy"}),
    ("batch", {"dask", "distributed"}),
    ("tables", {"pandas", "pyarrow", "numpy", "dask"}),
    ("render", {"rich", "matplotlib", "pandas"}),
    ("edit", set()),
    ("jobs", {"matplotlib", "pandas"}),  # pandas: the archive chart's numbers (jobs.charts)
    ("cli", {"typer", "rich"}),
    ("__main__", set()),  # python -m gcgtools: the command line
]
ORDER = [name for name, _ in LAYERS]

# Imports that go up on purpose, each inside a function that runs only when asked.
# Each is allowed only inside a function (test_exempt_imports_are_inside_functions).
EXEMPT = {
    # python-chess's way: a board and a position show as a picture in Jupyter, the
    # renderer imported only when the picture is asked for
    ("replay.board", "render.svg"),
    ("replay.position", "render.svg"),
}


def layer_of(module: str) -> str:
    """``gcgtools.replay.board`` -> ``replay``; a root module -> its own name."""
    return module.split(".")[1]


def modules() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p.parent != PACKAGE or p.stem != "__init__"]


def imports(path: Path) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.module, node.lineno))
    return found


def test_every_package_has_a_layer() -> None:
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    modules_ = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert packages | modules_ <= set(ORDER), (packages | modules_) - set(ORDER)


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_go_down_the_layers(path: Path) -> None:
    relative = path.relative_to(PACKAGE).with_suffix("")
    me = relative.parts[0]
    here = ".".join(relative.parts[:2]) if len(relative.parts) > 1 else me
    allowed_third_party = dict(LAYERS)[me]
    for name, line in imports(path):
        top = name.split(".")[0]
        if top == "gcgtools":
            other = layer_of(name) if "." in name else None
            assert other is not None, f"{path}:{line} imports the root package"
            target = ".".join(name.split(".")[1:3])
            if (here, target) in EXEMPT:
                continue
            assert ORDER.index(other) <= ORDER.index(me), f"{path}:{line}: {me} imports {name}"
        else:
            assert (
                top in sys.stdlib_module_names
                or top == "__future__"
                or top in allowed_third_party
                or (me == "movegen" and name.endswith("_gaddag"))
            ), f"{path}:{line}: {me} imports {name}"


def function_import_lines(path: Path) -> set[int]:
    """The lines of the imports inside a function (run only when it is called)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        node.lineno
        for function in ast.walk(tree)
        if isinstance(function, functions)
        for node in ast.walk(function)
        if isinstance(node, (ast.Import, ast.ImportFrom))
    }


def test_exempt_imports_are_inside_functions() -> None:
    for here, target in sorted(EXEMPT):
        path = PACKAGE.joinpath(*here.split(".")).with_suffix(".py")
        lines = [line for name, line in imports(path) if name == f"gcgtools.{target}"]
        assert lines, f"{here} no longer imports {target}: drop it from EXEMPT"
        inside = function_import_lines(path)
        assert all(line in inside for line in lines), f"{here} imports {target} at load time"


def test_importing_the_replay_loads_no_renderer() -> None:
    loaded = loaded_by("import gcgtools.replay.position, gcgtools.replay.board")
    assert not {m for m in loaded if m.startswith("gcgtools.render")}


def loaded_by(statement: str) -> set[str]:
    code = f"import sys; {statement}; print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_importing_the_simulation_loads_not_the_whole_analysis() -> None:
    # moves --sim starts quickly: the analysis package's names are loaded on first use
    loaded = loaded_by("import gcgtools.analysis.simulate")
    assert loaded.isdisjoint({"gcgtools.analysis.analyse", "gcgtools.analysis.results",
                              "gcgtools.analysis.facts", "gcgtools.analysis.endgame"})  # fmt: skip
    names = "from gcgtools.analysis import analyse_record, Candidate, RecordAnalysis"
    assert "gcgtools.analysis.analyse" in loaded_by(names)


def test_the_deep_analysis_and_its_report_load_the_solvers_only_when_asked() -> None:
    loaded = loaded_by("import gcgtools.analysis.deep, gcgtools.render.deep_moves")
    solvers = {"gcgtools.analysis.endgame.search", "gcgtools.analysis.endgame.preendgame"}
    assert loaded.isdisjoint({*solvers, "gcgtools.analysis.analyse"})
    assert solvers <= loaded_by("from gcgtools.analysis.endgame import solve_endgame, Stage")


def test_importing_rules_loads_nothing_above_them() -> None:
    loaded = {m for m in loaded_by("import gcgtools.rules") if m.startswith("gcgtools.")}
    above = {m for m in loaded if ORDER.index(layer_of(m)) > ORDER.index("rules")}
    assert not above, above
    assert "lark" not in loaded_by("import gcgtools.rules")


# compiled helpers are private modules by convention, imported by their one wrapper
PRIVATE_MODULES = {"_gaddag", "_version"}


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_private_name_is_imported_from_another_module(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gcgtools"):
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                assert not private or alias.name in PRIVATE_MODULES, (
                    f"{path}:{node.lineno} imports {alias.name} from {node.module}"
                )
