"""The grammar's text, and its terminals read as regular expressions without Lark.

The fast path (:mod:`gcgtools.syntax.fastpath`) is built from the terminals of
grammar/gcg.lark. Each of them is one literal, ``NAME[.priority]: /regex/flags`` or
``NAME: "string"``, so they are read here exactly as Lark reads them (the same escaping
and flags), and most records parse without importing Lark at all: the LALR parser is
loaded for the first line the fast path does not take. tests/syntax/test_fastpath.py checks that
these regular expressions are the ones Lark builds from the grammar.
"""

from __future__ import annotations

import re
from ast import literal_eval
from functools import cache
from importlib.util import find_spec
from pathlib import Path

# NAME[.priority]: one literal (a /regex/ or a "string", with flags), then the end of line
_TERMINAL = re.compile(r'([A-Z_][A-Z0-9_]*)(?:\.-?\d+)?\s*:\s*((?:/.*/|".*")[imslux]*)\s*')
_IGNORE = re.compile(r'%ignore\s+((?:/.*/|".*")[imslux]*)\s*')


def grammar_text() -> str:
    """The text of grammar/gcg.lark: installed inside the package as ``gcgtools.grammar``,
    or, when running from a source checkout, the top-level grammar/ folder. The package
    is found, not imported, and the file read beside its ``__init__.py``:
    :mod:`importlib.resources` would add milliseconds to the start of every command that
    parses a record."""
    spec = find_spec("gcgtools.grammar")
    if spec is not None and spec.origin is not None:
        folder = Path(spec.origin).parent
    else:
        folder = Path(__file__).resolve().parents[2] / "grammar"
    return (folder / "gcg.lark").read_text(encoding="utf-8")


def _unescape(body: str) -> str:
    """A literal's body with its escapes read as Lark reads them (``\\n``, ``\\t``,
    ``\\uXXXX``... become the characters; any other backslash is kept for ``re``)."""
    out = ""
    chars = iter(body)
    for char in chars:
        out += char
        if char == "\\":
            following = next(chars)
            if following == "\\":
                out += "\\\\"
            elif following not in "Uuxnftr":
                out += "\\"
            out += following
    out = out.replace('\\"', '"').replace("'", "\\'")
    return str(literal_eval(f"u'''{out}'''"))


def to_regexp(literal: str) -> str:
    """The regular expression of one grammar literal, ``/regex/flags`` or ``"string"``."""
    end = max(literal.rfind("/"), literal.rfind('"'))
    body, flags = _unescape(literal[1:end]), literal[end + 1 :]
    pattern = body if literal[0] == "/" else re.escape(body.replace("\\\\", "\\"))
    for flag in flags:
        pattern = f"(?{flag}:{pattern})"
    return pattern


@cache
def grammar_terminals() -> tuple[dict[str, str], tuple[str, ...]]:
    """The named terminals of the grammar (name: regular expression) and the patterns it
    ignores between tokens."""
    named: dict[str, str] = {}
    ignored: list[str] = []
    for line in grammar_text().splitlines():
        if m := _TERMINAL.fullmatch(line):
            named[m.group(1)] = to_regexp(m.group(2))
        elif m := _IGNORE.fullmatch(line):
            ignored.append(to_regexp(m.group(1)))
    return named, tuple(ignored)
