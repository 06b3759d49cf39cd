"""Turning the bytes of a GCG file into lines of text.

The spec says ISO-8859-1 unless the first line is ``#character-encoding``. Real files are
often UTF-8 without the pragma, so without it a strict UTF-8 decode is tried first and
Latin-1 is the fallback; :class:`Decoded` says which was used. A fallback forced by a few
stray bytes in an otherwise UTF-8 file is reported (F006, a warning at the first byte that
is not UTF-8).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from gcgtools.findings import Code, Finding, make
from gcgtools.syntax.records import SourceLine
from gcgtools.wording import plural_form

# Names accepted in #character-encoding, folded to lower case without spaces or dashes.
ENCODINGS = {
    "utf8": "utf-8",
    "iso88591": "latin-1",
    "latin1": "latin-1",
    "isolatin1": "latin-1",
    "l1": "latin-1",
}

_PRAGMA = re.compile(rb"^[ \t]*#character-encoding[ \t]*([^\r\n]*)", re.IGNORECASE | re.MULTILINE)
_LINE = re.compile(r"([^\r\n]*)(\r\n|\n|\r|$)")


@dataclass(slots=True)
class Decoded:
    """The text of a file, how it was decoded, and what went wrong on the way."""

    lines: list[SourceLine]
    encoding: str  # the Python codec used: "utf-8", "latin-1", ...
    declared: str | None  # the value of #character-encoding, if any
    bom: bool = False
    findings: list[Finding] = field(default_factory=list)


def _fold(name: str) -> str:
    return re.sub(r"[\s_-]", "", name.lower())


def split_lines(text: str) -> list[SourceLine]:
    """Split text into lines, keeping each line's ending ("" for a last line without one)."""
    if "\r" in text:
        lines: list[SourceLine] = []
        number = 0
        for m in _LINE.finditer(text):
            body, ending = m.group(1), m.group(2)
            if not body and not ending:
                break
            number += 1
            lines.append(SourceLine(number, body, ending))
        return lines
    # Only "\n" endings (the common case): a plain split gives the same lines.
    bodies = text.split("\n")
    last = bodies.pop()
    lines = [SourceLine(number, body, "\n") for number, body in enumerate(bodies, 1)]
    if last:
        lines.append(SourceLine(len(lines) + 1, last, ""))
    return lines


def _fallback_finding(body: bytes, start: int) -> Finding | None:
    """F006 when a file that is not UTF-8 looks like UTF-8 but for a few stray bytes: other
    lines with letters beyond ASCII are valid UTF-8, and reading the whole file as Latin-1
    (the spec's default, which keeps it byte for byte) turns each of their letters into
    two. Names the first byte that is not UTF-8, its line and column. None for a plain
    Latin-1 file."""
    utf8_lines = sum(1 for raw in body.split(b"\n") if not raw.isascii() and _is_utf8(raw))
    if not utf8_lines:
        return None
    line_start = body.rfind(b"\n", 0, start) + 1
    line_no = body.count(b"\n", 0, start) + 1
    column = len(body[line_start:start].decode("latin-1")) + 1
    lines = f"{utf8_lines} other {plural_form('line', utf8_lines)}"
    message = (
        f"byte {body[start]:#04x} is not UTF-8, but {lines} with accented letters "
        f"{plural_form('is', utf8_lines)}: the "
        "file is read as ISO-8859-1 (Latin-1), so each of their letters shows as two "
        "characters; fix the byte, or declare #character-encoding on the first line"
    )
    return make(Code.READ_AS_LATIN1, message, line_no, column)


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def decode(data: bytes) -> Decoded:
    """Decode a GCG file's bytes, honouring #character-encoding on the first line."""
    findings: list[Finding] = []
    bom = data.startswith(b"\xef\xbb\xbf")
    body = data[3:] if bom else data

    declared: str | None = None
    codec: str | None = None
    # the pattern ignores ASCII case only, as bytes.lower() does: a cheap test first
    matches = _PRAGMA.finditer(body) if b"#character-encoding" in body.lower() else ()
    for m in matches:
        value = m.group(1).decode("latin-1").strip()
        line_no = body.count(b"\n", 0, m.start()) + 1
        if line_no != 1:
            findings.append(
                make(
                    Code.ENCODING_NOT_FIRST,
                    "#character-encoding must be the first line of the file",
                    line_no,
                )
            )
            continue
        declared = value
        codec = ENCODINGS.get(_fold(value))
        if codec is None:
            findings.append(
                make(
                    Code.UNSUPPORTED_ENCODING,
                    f"unsupported character encoding {value!r}: use UTF-8 or ISO-8859-1",
                    1,
                    m.start(1) + 1,
                )
            )
    if bom:
        codec = "utf-8"

    if codec is None:
        try:
            text = body.decode("utf-8")
            codec = "utf-8"
        except UnicodeDecodeError as exc:
            text = body.decode("latin-1")
            codec = "latin-1"
            fallback = _fallback_finding(body, exc.start)
            if fallback is not None:
                findings.append(fallback)
    else:
        try:
            text = body.decode(codec)
        except UnicodeDecodeError as exc:
            line_no = body.count(b"\n", 0, exc.start) + 1
            findings.append(
                make(Code.UNDECODABLE, f"byte {body[exc.start]:#04x} is not valid {codec}", line_no)
            )
            return Decoded(_keep_raw(body, codec), codec, declared, bom, findings)
    return Decoded(split_lines(text), codec, declared, bom, findings)


def _keep_raw(body: bytes, codec: str) -> list[SourceLine]:
    """The lines of ``body``, which is not valid ``codec``: a line with bad bytes has them
    as U+FFFD in its text and keeps its bytes in ``raw`` (for the lossless writers)."""
    lines = split_lines(body.decode(codec, errors="surrogateescape"))
    for line in lines:
        if any("\udc80" <= ch <= "\udcff" for ch in line.text):
            raw = line.text.encode(codec, "surrogateescape")
            line.text, line.raw = raw.decode(codec, errors="replace"), raw
    return lines
