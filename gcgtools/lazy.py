"""Names of a package imported on first use (PEP 562): ``import gcgtools`` or
``import gcgtools.analysis.simulate`` then loads only what it needs, while
``from gcgtools.analysis import analyse_record`` still works."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, where: dict[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of the package ``package``, whose public names
    ``where`` maps to the modules that define them: a name is imported when first asked
    for, then kept as a global of the package; ``dir()`` lists each name once."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *where})

    return __getattr__, __dir__
