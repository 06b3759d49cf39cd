"""The finding codes by name (``findings.Code``): one constant for every code of the
catalogue, and no code spelt out as a string anywhere else in the package."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import gcgtools.findings
from gcgtools.findings import RULES, Code, Family, Finding, cannot_read, code_names, make

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


def test_every_code_is_of_a_named_family_and_every_family_has_codes() -> None:
    assert {rule.code[0] for rule in RULES.values()} == set(Family.ALL)
    assert all(make(code, "m").family == code[0] for code in RULES)
    doc = gcgtools.findings.__doc__ or ""
    for family in Family.ALL:  # the module's table names each one
        assert re.search(rf"\b{family}  [a-z]", doc), family
    assert set(Family.READING) <= set(Family.ALL)


def test_is_error_asks_the_severity_and_the_family() -> None:
    syntax = Finding(Code.SYNTAX, "m")
    assert syntax.family == Family.SYNTAX
    assert syntax.is_error() and syntax.is_error(Family.SYNTAX)
    assert not syntax.is_error(Family.SCORES, Family.BOARD)
    warned = Finding(Code.SYNTAX, "m", severity="warning")
    assert not warned.is_error(Family.SYNTAX) and not warned.is_error()
    assert cannot_read(syntax) and cannot_read(Finding(Code.EMPTY_FILE, "m"))
    assert not cannot_read(warned) and not cannot_read(Finding(Code.DUPLICATE_NICK, "m"))
