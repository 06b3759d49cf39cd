"""The finding codes by name (``findings.Code``): one constant for every code of the
catalogue, and no code spelt out as a string anywhere else in the package."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from gcgtools.findings import RULES, Code, code_names, make

PACKAGE = Path(__file__).resolve().parents[2] / "gcgtools"
CODE = re.compile(r"[FPHOTBSRW]\d{3}")


def test_every_constant_is_a_catalogue_code_and_every_code_has_one() -> None:
    names = code_names()
    assert sorted(names.values()) == sorted(RULES)
    assert len(set(names.values())) == len(names)  # no code under two names
    for name, code in names.items():
        assert getattr(Code, name) == code
        assert make(code, "x").severity == RULES[code].severity


def test_constants_are_plain_strings() -> None:
    # the stable public codes: a finding's code is the same str whichever way it is set
    assert all(type(code) is str for code in code_names().values())
    assert Code.PLAY_SCORE == "S601" and Code.MOSTLY_MISSCORED == "S609"
    assert make(Code.MALFORMED_RACK, "m").to_dict()["code"] == "P102"


def test_no_code_literal_outside_the_catalogue() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "findings.py" and path.parent == PACKAGE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and CODE.fullmatch(node.value)
            ):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value}")
    assert found == []
