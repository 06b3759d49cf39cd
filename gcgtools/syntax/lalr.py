"""The Lark LALR parser for GCG lines, with an inline transformer that builds records.

The judge of every line the fast path (:mod:`gcgtools.syntax.fastpath`) does not take:
it is imported, and the grammar analysed, only when the first such line is met. A line
it refuses becomes a located finding naming what was expected.
"""

from __future__ import annotations

from functools import cache

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from gcgtools.findings import Code, Finding, make
from gcgtools.syntax import builders
from gcgtools.syntax.records import CommentedEvent, Event, Pragma, Record, TextLine
from gcgtools.syntax.terminals import grammar_text

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
def line_parser() -> Lark:
    """The LALR parser of one line (start rule ``line``), built once."""
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
        return Code.SYNTAX
    head, _, body = stripped.partition(":")
    tokens = body.split()
    offset = text.find(":") + 1
    for i, tok in enumerate(tokens):
        start = text.find(tok, offset) + 1
        end = start + len(tok)
        offset = end - 1
        if start <= column < end or (column < start and i == 0):
            if i == 0 and not tok.startswith(("-", "(")) and not tok[:1].isdigit():
                return Code.MALFORMED_RACK
            if tok.startswith("-") and i <= 1:
                return Code.MALFORMED_EXCHANGE
            return Code.MALFORMED_PLAY if i <= 2 else Code.SYNTAX
    return Code.SYNTAX


def _error_finding(exc: UnexpectedInput, text: str, line: int) -> Finding:
    column = exc.column if isinstance(exc.column, int) and exc.column > 0 else 1
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        column = len(text.rstrip()) + 1
    found = text[column - 1 : column + 11].split()[:1]
    where = f"at {found[0]!r}" if found else "at end of line"
    code = _classify(text, column)
    message = f"cannot read line {where}: expected {_expected(exc)} | {text.strip()}"
    return make(code, message, line, column)


def parse_line(text: str, line: int) -> Record | Finding:
    """The record of one line, or the finding that says why the grammar refuses it."""
    try:
        record: Record = line_parser().parse(text, start="line")
    except UnexpectedInput as exc:
        return _error_finding(exc, text, line)
    record.line = line
    return record
