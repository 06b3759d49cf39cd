"""Standard error without the one line that depends on how gcgtools was installed."""

from __future__ import annotations

#: the start of the line a command prints once a run when the C helper was not built
#: (tests importing the source tree of a fresh clone run without it)
PURE_PYTHON_HINT = "gcgtools: the move generator runs in pure Python (its C helper"


def without_build_hint(err: str) -> str:
    """``err`` less the pure-Python hint, so a test means the same with or without C."""
    kept = [line for line in err.splitlines(keepends=True) if not line.startswith(PURE_PYTHON_HINT)]
    return "".join(kept)
