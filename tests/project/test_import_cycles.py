"""No import cycle anywhere: the import graph of every gcgtools module, read from the
source, has no cycle, between packages or inside one (a package's ``__init__`` importing a
module that imports the package back counts).

Every import statement counts: at module level, inside a function (an import put off to run
time still makes the two modules depend on each other), and under ``TYPE_CHECKING``. The
only edges left out are the upward imports :mod:`test_layers` allows on purpose (each
inside a function that runs only when asked: a board's picture in Jupyter).

An import resolves to the module it names: ``from gcgtools.replay import walk`` to
``gcgtools.replay.walk`` (a module), ``from gcgtools.replay import Position`` to
``gcgtools.replay`` (the package's ``__init__``, where the name comes from); relative
imports are resolved against the importing module's package. The parents Python imports
on the way (``gcgtools.replay`` before ``gcgtools.replay.walk``) are not edges: else every
package whose ``__init__`` imports its modules would be a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

from test_layers import EXEMPT

PACKAGE = Path(__file__).resolve().parents[2] / "gcgtools"

Graph = dict[str, set[str]]


def module_name(path: Path, root: Path) -> str:
    """``root/replay/walk.py`` -> ``gcgtools.replay.walk``; a package's ``__init__`` is
    the package."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, name: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that the module ``name`` (its source at ``path``) imports,
    anywhere in its source."""
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                out.add(submodule if submodule in known else base)
    return {m for m in out if m in known and m != name}


def import_graph(root: Path) -> Graph:
    """Module -> the modules it imports, for every module under the package ``root``."""
    paths = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    known = set(paths)
    return {name: imported(path, name, known) for name, path in paths.items()}


def exempt(source: str, target: str) -> bool:
    def short(module: str) -> str:
        return ".".join(module.split(".")[1:3])

    return (short(source), short(target)) in EXEMPT


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    without recursion), each sorted, with one cycle through each component shown by
    :func:`a_cycle`."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = counter
                    counter += 1
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def a_cycle(graph: Graph, component: list[str]) -> list[str]:
    """One cycle inside ``component`` (a path from its first module back to it)."""
    inside = set(component)
    first = component[0]
    paths = {first: [first]}
    queue = [first]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & inside):
            if nxt == first:
                return [*paths[node], first]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    return component


def test_the_cycle_finder_sees_a_cycle_through_a_package_init(tmp_path: Path) -> None:
    root = tmp_path / "gcgtools"
    (root / "pkg").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "pkg" / "__init__.py").write_text("from gcgtools.pkg.a import thing\n")
    (root / "pkg" / "a.py").write_text("def thing():\n    from gcgtools.pkg import b\n")
    (root / "pkg" / "b.py").write_text("from . import other\n")
    (root / "pkg" / "other.py").write_text("from gcgtools.pkg import thing\n")
    (root / "pkg" / "fine.py").write_text("from gcgtools.pkg.b import other\n")
    graph = import_graph(root)
    assert graph["gcgtools.pkg.b"] == {"gcgtools.pkg.other"}
    assert graph["gcgtools.pkg.other"] == {"gcgtools.pkg"}
    found = cycles(graph)
    assert found == [["gcgtools.pkg", "gcgtools.pkg.a", "gcgtools.pkg.b", "gcgtools.pkg.other"]]
    assert a_cycle(graph, found[0]) == [
        "gcgtools.pkg", "gcgtools.pkg.a", "gcgtools.pkg.b", "gcgtools.pkg.other", "gcgtools.pkg",
    ]  # fmt: skip


def test_no_import_cycle_in_gcgtools() -> None:
    graph = import_graph(PACKAGE)
    graph = {m: {t for t in ts if not exempt(m, t)} for m, ts in graph.items()}
    found = [" -> ".join(a_cycle(graph, c)) for c in cycles(graph)]
    assert not found, "import cycles:\n" + "\n".join(found)
