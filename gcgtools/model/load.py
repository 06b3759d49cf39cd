"""Reading GCG records from bytes, text or files into :class:`Game` objects."""

from __future__ import annotations

import os
import re
from pathlib import Path

from gcgtools.findings import Finding, make
from gcgtools.model.build import build_game
from gcgtools.model.game import Game
from gcgtools.model.remote import is_url, read_url
from gcgtools.syntax.decode import decode, split_lines
from gcgtools.syntax.parser import parse_lines

PathLike = str | os.PathLike[str]


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
                make("F005", f"{code} is not a character any encoding can write", line, column)
            )
    return _SURROGATE.sub("\ufffd", text), findings


def read_game(path: PathLike) -> Game:
    """Read and parse one GCG file.

    Raises OSError if the file cannot be read; everything wrong *inside* the file is
    reported in ``game.findings`` instead, and every good line is still parsed.

    >>> game = read_game("examples/club-game.gcg")  # doctest: +SKIP
    >>> [p.nick for p in game.players]  # doctest: +SKIP
    ['Alice', 'Bob']
    """
    return parse_bytes(read_bytes(path), str(path))


def read_bytes(path: PathLike) -> bytes:
    """The bytes of a record file, or of a URL (``s3://...``, read through fsspec).
    Raises OSError when it cannot be read."""
    if isinstance(path, str) and is_url(path) and not os.path.exists(path):
        return read_url(path)
    return _read(path)


def _read(path: PathLike) -> bytes:
    """``Path(path).read_bytes()``; a name that Path would leave as it is is opened
    directly (the same file, the same errors), which saves building the Path."""
    if isinstance(path, str) and os.sep == "/" and not os.altsep and _plain_name(path):
        with open(path, "rb") as f:
            return f.read()
    return Path(path).read_bytes()


def _plain_name(name: str) -> bool:
    """True when ``str(Path(name)) == name`` (POSIX): nothing for Path to tidy up."""
    return (
        name not in ("", ".")
        and "//" not in name
        and "/./" not in name
        and not name.startswith("./")
        and not name.endswith(("/", "/."))
    )


def load_game(path: PathLike) -> Game:
    """Like :func:`read_game`, but an unreadable file gives a game with an F001 finding."""
    try:
        return read_game(path)
    except OSError as exc:
        game = Game(path=str(path))
        reason = exc.strerror or str(exc)
        game.findings.append(make("F001", f"cannot read file: {reason}", 0))
        return game
