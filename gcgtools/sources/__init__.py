"""Sources layer: where records come from and where outputs go. Files, folders and globs
(:mod:`~gcgtools.sources.paths`), fsspec URLs (:mod:`~gcgtools.sources.remote`), reading with
size and file-type rules (:mod:`~gcgtools.sources.limited`, :mod:`~gcgtools.sources.load`),
the files a dying worker is not to read again (:mod:`~gcgtools.sources.quarantine`), and
atomic writes (:mod:`~gcgtools.sources.atomic`).

The names below are loaded when first used (PEP 562), so that a lower layer may use
:func:`~gcgtools.sources.limited.read_limited` without loading the record parser."""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "MAX_RECORD_BYTES": "gcgtools.sources.load",
    "load_game": "gcgtools.sources.load",
    "read_bytes": "gcgtools.sources.load",
    "read_game": "gcgtools.sources.load",
    "display_name": "gcgtools.sources.paths",
    "expand_paths": "gcgtools.sources.paths",
    "read_limited": "gcgtools.sources.limited",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
