"""No function in gcgtools/ is longer than ``MAX_LINES`` lines (its ``def`` to its last line,
nested functions included), but the few listed in ``ALLOWED`` with their reason."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "gcgtools"
MAX_LINES = 80

# "module path relative to gcgtools/:function name" -> why it may be longer. Keep it short:
# an entry goes when its function is split.
ALLOWED: dict[str, str] = {}


def long_functions(root: Path = PACKAGE, limit: int = MAX_LINES) -> dict[str, int]:
    """``"path:name" -> lines`` of every function (nested ones included, by their own
    name) longer than ``limit`` lines in the package under ``root``."""
    found: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    found[f"{path.relative_to(root).as_posix()}:{node.name}"] = lines
    return found


def test_no_long_function() -> None:
    over = {name: n for name, n in long_functions().items() if name not in ALLOWED}
    assert not over, f"functions over {MAX_LINES} lines (split them): {over}"


def test_allow_list_is_current() -> None:
    """Every allowed function still exists and is still long: the list only shrinks."""
    found = long_functions()
    stale = sorted(name for name in ALLOWED if name not in found)
    assert not stale, f"no longer over {MAX_LINES} lines, drop from ALLOWED: {stale}"


def test_finds_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "m.py").write_text(f"def short():\n    pass\n\n\ndef long():\n{body}\n")
    assert long_functions(tmp_path) == {"m.py:long": MAX_LINES + 1}
