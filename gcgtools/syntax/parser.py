"""Parse decoded GCG lines into records: the fast path for the common line shapes, the
LALR parser (:mod:`gcgtools.syntax.lalr`, loaded on first need) for every other line.

Each line is parsed on its own, so that one bad line costs only itself: every good line
still becomes a record and the bad one becomes a located finding.
"""

from __future__ import annotations

from functools import cache

from gcgtools.findings import Code, Finding, make
from gcgtools.syntax import builders
from gcgtools.syntax.fastpath import FastLines
from gcgtools.syntax.records import Event, Record, SourceLine
from gcgtools.syntax.terminals import grammar_terminals, grammar_text

__all__ = ["MAX_EVENT_LINE", "MAX_LINE", "fast_lines", "grammar_text", "parse_lines"]


@cache
def fast_lines() -> FastLines:
    """The fast path, built once from the grammar's terminals."""
    named, ignored = grammar_terminals()
    return FastLines(named, ignored[0])


#: The longest line read, in characters: a longer one is refused with a finding (P112)
#: and kept as it is (``write`` still copies it), so that memory and time per line stay
#: bounded. Event lines (``>...``) are short: a rack, a move, two numbers and perhaps a
#: list of cross-words; any other line (a note, a pragma) may be a long paragraph.
MAX_EVENT_LINE = 1_000
MAX_LINE = 100_000
_BLANKS = " \t\f\v\u00a0\ufeff"


def _long_line_finding(text: str, line: int) -> Finding:
    event = text.lstrip(_BLANKS).startswith(">")
    limit = MAX_EVENT_LINE if event else MAX_LINE
    what = "event line" if event else "line"
    message = f"{what} of {len(text):,} characters not read (at most {limit:,})"
    return make(Code.LINE_TOO_LONG, message, line, limit + 1)


def _range_finding(exc: builders.OutOfRange, text: str, line: int) -> Finding:
    digits = exc.token.lstrip("+-")
    column = text.find(digits) + 1 or 1
    shown = exc.token if len(exc.token) <= 20 else f"{exc.token[:12]}... ({len(digits)} digits)"
    limit = 10**builders.MAX_DIGITS - 1
    message = f"{exc.what} {shown} is out of range (-{limit:,} to {limit:,})"
    return make(Code.NUMBER_OUT_OF_RANGE, message, line, column)


def parse_lines(lines: list[SourceLine]) -> tuple[list[Record], list[Finding]]:
    """Parse decoded lines into records. Bad lines become findings; the rest still parse.

    Common line shapes take the fast path (built from the grammar's terminals); every other
    line is parsed on its own by the LALR parser, which decides what is valid.
    """
    fast = fast_lines().parse
    records: list[Record] = []
    findings: list[Finding] = []
    for sl in lines:
        text = sl.text
        if not text or text.isspace():
            continue
        if len(text) > MAX_EVENT_LINE and (
            len(text) > MAX_LINE or text.lstrip(_BLANKS).startswith(">")
        ):
            findings.append(_long_line_finding(text, sl.number))
            continue
        try:
            record = fast(text, sl.number)
            if record is None:
                from gcgtools.syntax.lalr import parse_line

                parsed = parse_line(text, sl.number)
                if isinstance(parsed, Finding):
                    findings.append(parsed)
                    continue
                record = parsed
        except builders.OutOfRange as exc:
            findings.append(_range_finding(exc, text, sl.number))
            continue
        except ValueError as exc:  # a number int() refuses (over 4,300 digits, '²')
            findings.append(
                make(Code.SYNTAX, f"cannot read a number on this line: {exc}", sl.number)
            )
            continue
        if type(record) is Event:
            record.text = text
        records.append(record)
    return records, findings
