"""Parsing GCG records from bytes or text into :class:`Game` objects (no file I/O: reading
files, URLs and standard input is :mod:`gcgtools.sources.load`)."""

from __future__ import annotations

import re

from gcgtools.findings import Code, Finding, make
from gcgtools.model.build import build_game
from gcgtools.model.game import Game
from gcgtools.syntax.decode import decode, split_lines
from gcgtools.syntax.parser import parse_lines

__all__ = ["parse_bytes", "parse_string"]


def parse_bytes(data: bytes, path: str | None = None) -> Game:
    """Parse the bytes of a GCG file. Problems become findings on the game; never raises."""
    decoded = decode(data)
    game = Game(
        path=path,
        lines=decoded.lines,
        encoding=decoded.encoding,
        declared_encoding=decoded.declared,
        bom=decoded.bom,
        findings=list(decoded.findings),
    )
    records, findings = parse_lines(decoded.lines)
    game.findings.extend(findings)
    return build_game(records, game)


def parse_string(text: str, path: str | None = None) -> Game:
    """Parse GCG text that is already decoded (encoding pragmas are not re-checked).

    Text that no encoding can write (lone surrogates, as ``surrogateescape`` leaves for
    bytes it could not decode) has each such character replaced by U+FFFD and reported
    (F005, at its line), so that every output can write the record."""
    text, problems = _writable(text.removeprefix("\ufeff"))
    game = Game(path=path, lines=split_lines(text), findings=problems)
    records, findings = parse_lines(game.lines)
    game.findings.extend(findings)
    return build_game(records, game)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _writable(text: str) -> tuple[str, list[Finding]]:
    """``text`` with lone surrogates replaced by U+FFFD, and a finding per line with any."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text, []
    findings: list[Finding] = []
    seen: set[int] = set()
    for m in _SURROGATE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        if line not in seen:
            seen.add(line)
            column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
            code = f"U+{ord(m.group()):04X}"
            findings.append(
                make(
                    Code.UNDECODABLE,
                    f"{code} is not a character any encoding can write",
                    line,
                    column,
                )
            )
    return _SURROGATE.sub("\ufffd", text), findings
