"""The Lark LALR parser for GCG lines, with an inline transformer that builds records.

Each line is parsed on its own, so that one bad line costs only itself: every good line
still becomes a record and the bad one becomes a located finding.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from gcgtools.findings import Finding, make
from gcgtools.syntax import builders
from gcgtools.syntax.fastpath import FastLines
from gcgtools.syntax.records import CommentedEvent, Event, Pragma, Record, SourceLine, TextLine

# Friendly names for the grammar's terminals, used in "expected ..." messages.
_TERMINAL_NAMES = {
    "RACK": "a rack",
    "COORD": "a coordinate such as 8D or D8",
    "WORD": "the word played",
    "PASS": "'-'",
    "EXCHANGE": "an exchange such as -QO or -2",
    "WITHDRAWN": "'--'",
    "CHALLENGE": "'(challenge)'",
    "TIME": "'(time)'",
    "TILES_IN_PARENS": "'(TILES)'",
    "SCORE": "a score such as +24",
    "CUMULATIVE": "the cumulative score",
    "EXTRA": "end of line",
    "NICK": "a nickname",
    "COLON": "':'",
    "KEYWORD": "a pragma keyword",
    "$END": "end of line",
    "MORETHAN": "'>'",
    "__ANON_0": "'#'",
}


def grammar_text() -> str:
    """The text of grammar/gcg.lark: installed inside the package as ``gcgtools.grammar``,
    or, when running from a source checkout, the top-level grammar/ folder."""
    try:
        source = resources.files("gcgtools.grammar").joinpath("gcg.lark")
    except ModuleNotFoundError:
        source = Path(__file__).resolve().parents[2] / "grammar" / "gcg.lark"
    return source.read_text(encoding="utf-8")


class _ToRecords(Transformer):
    """One method per grammar rule; called by the LALR parser as it reduces. The records
    are made by :mod:`gcgtools.syntax.builders`, as on the fast path."""

    def pragma(self, items: list[Token | None]) -> Pragma:
        keyword, rest = items
        assert keyword is not None
        return builders.pragma(
            str(keyword),
            str(rest) if rest is not None else None,
            keyword.line or 0,
            (keyword.column or 2) - 1,
        )

    def commented_event(self, items: list[Token]) -> CommentedEvent:
        return builders.commented_event(str(items[0]), items[0].line or 0)

    def text(self, items: list[Token]) -> TextLine:
        return builders.text_line(str(items[0]), items[0].line or 0)

    # actions return a builders.Action tuple and the event rule assembles them
    def play(self, items: list[Token]) -> builders.Action:
        coord, word = items
        return builders.play_action(str(coord), str(word))

    def pass_(self, items: list[Token]) -> builders.Action:
        return builders.PASS_ACTION

    def exchange(self, items: list[Token]) -> builders.Action:
        return builders.exchange_action(str(items[0]))

    def withdrawn(self, items: list[Token]) -> builders.Action:
        return builders.WITHDRAWN_ACTION

    def challenge_bonus(self, items: list[Token]) -> builders.Action:
        return builders.CHALLENGE_ACTION

    def time_penalty(self, items: list[Token]) -> builders.Action:
        return builders.TIME_ACTION

    def end_rack(self, items: list[Token]) -> builders.Action:
        return builders.end_rack_action(str(items[0]))

    def event(self, items: list[object]) -> Event:
        nick, rack, action, score, cumulative, extra = items
        assert isinstance(nick, Token) and isinstance(score, Token)
        return builders.event(
            str(nick),
            str(rack) if rack is not None else None,
            action,  # type: ignore[arg-type]
            str(score),
            str(cumulative),
            str(extra) if extra is not None else None,
            nick.line or 0,
            max((nick.column or 2) - 1, 1),
        )


# "pass" is a Python keyword, so its method carries an underscore.
setattr(_ToRecords, "pass", _ToRecords.pass_)


@cache
def _parser() -> Lark:
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        start="line",
        transformer=_ToRecords(),
        maybe_placeholders=True,
        propagate_positions=False,
        cache=False,
    )


@cache
def _fast_lines() -> FastLines:
    return FastLines(_parser())


def _expected(exc: UnexpectedInput) -> str:
    names: set[str] = set()
    if isinstance(exc, UnexpectedToken):
        names = set(exc.expected)
    elif isinstance(exc, UnexpectedCharacters):
        names = set(exc.allowed or ())
    pretty = sorted({_TERMINAL_NAMES.get(n, n.lower()) for n in names})
    return ", ".join(pretty) if pretty else "nothing more"


def _classify(text: str, column: int) -> str:
    """Pick the most specific syntax code for a failure at ``column`` of an event line."""
    stripped = text.strip()
    if not stripped.startswith(">"):
        return "P101"
    head, _, body = stripped.partition(":")
    tokens = body.split()
    offset = text.find(":") + 1
    for i, tok in enumerate(tokens):
        start = text.find(tok, offset) + 1
        end = start + len(tok)
        offset = end - 1
        if start <= column < end or (column < start and i == 0):
            if i == 0 and not tok.startswith(("-", "(")) and not tok[:1].isdigit():
                return "P102"
            if tok.startswith("-") and i <= 1:
                return "P104"
            return "P103" if i <= 2 else "P101"
    return "P101"


def _error_finding(exc: UnexpectedInput, text: str, line: int) -> Finding:
    column = exc.column if isinstance(exc.column, int) and exc.column > 0 else 1
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        column = len(text.rstrip()) + 1
    found = text[column - 1 : column + 11].split()[:1]
    where = f"at {found[0]!r}" if found else "at end of line"
    code = _classify(text, column)
    message = f"cannot read line {where}: expected {_expected(exc)} | {text.strip()}"
    return make(code, message, line, column)


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
    return make("P112", message, line, limit + 1)


def _range_finding(exc: builders.OutOfRange, text: str, line: int) -> Finding:
    digits = exc.token.lstrip("+-")
    column = text.find(digits) + 1 or 1
    shown = exc.token if len(exc.token) <= 20 else f"{exc.token[:12]}... ({len(digits)} digits)"
    limit = 10**builders.MAX_DIGITS - 1
    message = f"{exc.what} {shown} is out of range (-{limit:,} to {limit:,})"
    return make("P111", message, line, column)


def parse_lines(lines: list[SourceLine]) -> tuple[list[Record], list[Finding]]:
    """Parse decoded lines into records. Bad lines become findings; the rest still parse.

    Common line shapes take the fast path (built from the grammar's terminals); every other
    line is parsed on its own by the LALR parser, which decides what is valid.
    """
    parser = _parser()
    fast = _fast_lines().parse
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
                try:
                    record = parser.parse(text, start="line")
                except UnexpectedInput as exc:
                    findings.append(_error_finding(exc, text, sl.number))
                    continue
                record.line = sl.number
        except builders.OutOfRange as exc:
            findings.append(_range_finding(exc, text, sl.number))
            continue
        except ValueError as exc:  # a number int() refuses (over 4,300 digits, '²')
            findings.append(make("P101", f"cannot read a number on this line: {exc}", sl.number))
            continue
        if type(record) is Event:
            record.text = text
        records.append(record)
    return records, findings
