"""The lexicon layer imports only earlier layers (rules), the shared atomic writer, the
standard library and platformdirs."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gcgtools" / "lexicon"
ALLOWED_GCGTOOLS = ("gcgtools.rules", "gcgtools.atomic", "gcgtools.lexicon")
ALLOWED_THIRD_PARTY = {"platformdirs"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_lexicon_imports_only_earlier_layers():
    files = sorted(PACKAGE.glob("*.py"))
    assert files
    for path in files:
        for name in imported_modules(path):
            top = name.split(".")[0]
            if top == "gcgtools":
                assert name.startswith(ALLOWED_GCGTOOLS), f"{path.name} imports {name}"
            else:
                assert (
                    top in sys.stdlib_module_names
                    or top in ALLOWED_THIRD_PARTY
                    or (top == "__future__")
                ), f"{path.name} imports {name}"
