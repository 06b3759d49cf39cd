"""Every package gcgtools imports is declared in pyproject.toml, every declared runtime
dependency is imported, the optional ones only where their absence is handled, and the
minimum-versions constraints pin exactly the lower bounds pyproject claims."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "gcgtools"
CONSTRAINTS = ROOT / "constraints" / "minimum.txt"

# The import name of each distribution whose import name is not its own (normalised).
IMPORT_NAMES: dict[str, str] = {"pyyaml": "yaml", "pillow": "PIL"}
# Packages of the optional ``dask`` extra: imported only inside functions or under a
# ``try: ... except ImportError``, so that gcgtools works without them.
OPTIONAL = {"dask", "distributed", "fsspec"}
# Constraints pins of packages gcgtools does not depend on directly, each for a reason
# written in the constraints file: the versions of their time, which the minimum pins need.
TRANSITIVE = {"numpy", "click"}


def normalise(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    return normalise(re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0])


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def declared(extra: str | None = None) -> dict[str, str]:
    """{name: requirement} of the runtime dependencies, or of one extra."""
    project = pyproject()["project"]
    requirements = project["optional-dependencies"][extra] if extra else project["dependencies"]
    return {requirement_name(r): r for r in requirements}


def import_name(distribution: str) -> str:
    return IMPORT_NAMES.get(distribution, distribution.replace("-", "_"))


def guarded_lines(tree: ast.AST) -> set[int]:
    """Line numbers of imports inside a function, a ``try`` that catches ImportError, or
    an ``if TYPE_CHECKING:`` block (never run)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        inside = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        if isinstance(node, ast.Try):
            names = {
                ast.unparse(h.type) for h in node.handlers if h.type is not None
            }  # "ImportError", "(ImportError, OSError)", ...
            inside = any("ImportError" in n or "ModuleNotFoundError" in n for n in names)
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            inside = True
        if inside:
            body = node.body if isinstance(node, ast.Try | ast.If) else [node]
            for part in body:
                for child in ast.walk(part):
                    if isinstance(child, ast.Import | ast.ImportFrom):
                        lines.add(child.lineno)
    return lines


def third_party_imports() -> dict[str, list[tuple[str, int, bool]]]:
    """{top-level name: [(module file, line, guarded)]} of every import in gcgtools/ that
    is neither the standard library nor gcgtools itself, wherever it is (in functions too)."""
    found: dict[str, list[tuple[str, int, bool]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = guarded_lines(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top == "gcgtools":
                    continue
                where = (str(path.relative_to(ROOT)), node.lineno, node.lineno in guarded)
                found.setdefault(top, []).append(where)
    return found


def test_every_imported_package_is_declared() -> None:
    runtime = {import_name(n) for n in declared()}
    dask_extra = {import_name(n) for n in declared("dask")}
    undeclared = {
        name: places
        for name, places in third_party_imports().items()
        if name not in runtime and not (name in OPTIONAL and name in dask_extra)
    }
    assert not undeclared, f"imported but not declared in pyproject.toml: {undeclared}"


def test_optional_packages_are_imported_only_where_their_absence_is_handled() -> None:
    loose = [
        (name, file, line)
        for name, places in third_party_imports().items()
        if name in OPTIONAL
        for file, line, guarded in places
        if not guarded
    ]
    assert not loose, f"an optional package imported at module level, unguarded: {loose}"


def test_every_declared_dependency_is_imported() -> None:
    imported = set(third_party_imports())
    unused = [r for n, r in declared().items() if import_name(n) not in imported]
    assert not unused, f"declared but never imported by gcgtools: {unused}"
    extra = [r for n, r in declared("dask").items() if import_name(n) not in imported]
    assert not extra, f"in the dask extra but never imported: {extra}"


def test_the_test_extra_holds_the_dask_extra() -> None:
    # the whole suite runs with Dask, so the test extra installs what the dask extra does
    assert set(declared("dask").values()) <= set(declared("test").values())


def lower_bound(requirement: str) -> str | None:
    m = re.search(r">=\s*([0-9][^,;\s]*)", requirement)
    return m.group(1) if m else None


def release(version: str) -> tuple[int, ...]:
    """``1.1`` and ``1.1.0`` alike: the numbers of a plain release, trailing zeros dropped."""
    numbers = [int(part) for part in version.split(".")]
    while numbers and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def pins() -> dict[str, str]:
    found = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"not an exact pin: {line!r}"
            found[normalise(name)] = version.strip()
    return found


def test_the_minimum_constraints_pin_the_lower_bounds_pyproject_claims() -> None:
    claims = dict(declared())
    claims["pytest"] = declared("test")["pytest"]
    expected = {}
    for name, requirement in claims.items():
        bound = lower_bound(requirement)
        assert bound is not None, f"no lower bound in {requirement!r}"
        expected[requirement_name(name)] = release(bound)
    pinned = {n: release(v) for n, v in pins().items() if n not in TRANSITIVE}
    assert pinned == expected


def test_the_transitive_pins_are_explained_and_not_dependencies() -> None:
    pinned = pins()
    text = CONSTRAINTS.read_text(encoding="utf-8")
    for name in TRANSITIVE:
        assert name in pinned
        assert name not in declared(), f"{name} is declared: pin its lower bound instead"
        assert re.search(rf"#.*\n(#.*\n)*{name}==", text), f"no comment explains {name}"
