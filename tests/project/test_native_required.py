"""Where CI requires it (``GCGTOOLS_REQUIRE_NATIVE`` set), the C helper is built and in
use, so that the tests comparing the C code with its Python twins run rather than skip.

``python3 -m pytest`` run from a checkout imports the ``gcgtools/`` folder beside it: with
``pip install .`` the helper was built into the installed copy only, and a whole CI run
tested the pure-Python twins alone (18 C comparison tests skipped). The README's second
command installs in place (``pip install -e``), which builds the helper beside the code."""

from __future__ import annotations

import os

import pytest

from gcgtools.movegen.core import PURE_ENV, native_built, native_module

REQUIRED = os.environ.get("GCGTOOLS_REQUIRE_NATIVE", "").strip() not in ("", "0")


@pytest.mark.skipif(not REQUIRED, reason="GCGTOOLS_REQUIRE_NATIVE is not set (CI sets it)")
def test_the_c_helper_is_built_and_in_use_where_required() -> None:
    import gcgtools

    assert native_built(), (
        f"the C helper is not built beside {gcgtools.__file__}: install in place "
        "(python3 -m pip install -e '.[test]') with a C compiler"
    )
    assert native_module() is not None, f"{PURE_ENV} is set: the C helper is switched off"
    assert hasattr(native_module(), "solve_endgame_native")
