"""The movegen layer imports only earlier layers (it comes after the replay) and the
standard library; the scoring rules stay in the replay's scoring module."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gcgtools" / "movegen"
ALLOWED = (
    "gcgtools.syntax", "gcgtools.model", "gcgtools.rules", "gcgtools.lexicon", "gcgtools.replay",
    "gcgtools.findings", "gcgtools.movegen",
)  # fmt: skip


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_movegen_imports_only_earlier_layers() -> None:
    files = sorted(PACKAGE.glob("*.py"))
    assert len(files) >= 6
    for path in files:
        for name in imported_modules(path):
            top = name.split(".")[0]
            if top == "gcgtools":
                assert name.startswith(ALLOWED), f"{path.name} imports {name}"
            else:
                assert top in sys.stdlib_module_names or top == "__future__", (
                    f"{path.name} imports {name}"
                )


def test_no_layer_before_movegen_imports_it() -> None:
    root = PACKAGE.parent
    for layer in ("syntax", "model", "rules", "lexicon", "replay"):
        for path in sorted((root / layer).glob("*.py")):
            assert not any(n.startswith("gcgtools.movegen") for n in imported_modules(path)), path
