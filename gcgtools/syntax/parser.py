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
from gcgtools.syntax.fastpath import FastLines
from gcgtools.syntax.records import (
    CommentedEvent,
    Event,
    EventKind,
    Pragma,
    Record,
    SourceLine,
    TextLine,
)

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


def _coordinate(text: str) -> tuple[int, int, str]:
    """``8D`` -> (7, 3, "across"); ``D8`` -> (7, 3, "down"). 0-based row and column."""
    if text[0].isdigit():
        return int(text[:-1]) - 1, ord(text[-1].upper()) - 65, "across"
    return int(text[1:]) - 1, ord(text[0].upper()) - 65, "down"


def _score(text: str) -> int:
    if text.startswith("+-"):
        return -int(text[2:])
    return int(text)


class _ToRecords(Transformer):
    """One method per grammar rule; called by the LALR parser as it reduces."""

    def pragma(self, items: list[Token | None]) -> Pragma:
        keyword, rest = items
        assert keyword is not None
        value = rest.rstrip() if rest is not None else ""
        return Pragma(keyword.lower(), str(value), keyword.line or 0, (keyword.column or 2) - 1)

    def commented_event(self, items: list[Token]) -> CommentedEvent:
        return CommentedEvent(str(items[0]).rstrip(), items[0].line or 0)

    def text(self, items: list[Token]) -> TextLine:
        return TextLine(str(items[0]).rstrip(), items[0].line or 0)

    # actions return (kind, fields) and the event rule assembles them
    def play(self, items: list[Token]) -> tuple[EventKind, dict[str, object]]:
        coord, word = items
        row, col, direction = _coordinate(str(coord))
        return EventKind.PLAY, {
            "position": str(coord),
            "row": row,
            "col": col,
            "direction": direction,
            "word": str(word),
        }

    def pass_(self, items: list[Token]) -> tuple[EventKind, dict[str, object]]:
        return EventKind.PASS, {}

    def exchange(self, items: list[Token]) -> tuple[EventKind, dict[str, object]]:
        tiles = str(items[0])[1:]
        if tiles.isdigit():
            return EventKind.EXCHANGE, {"count": int(tiles)}
        return EventKind.EXCHANGE, {"tiles": tiles}

    def withdrawn(self, items: list[Token]) -> tuple[EventKind, dict[str, object]]:
        return EventKind.WITHDRAWN, {}

    def challenge_bonus(self, items: list[Token]) -> tuple[EventKind, dict[str, object]]:
        return EventKind.CHALLENGE_BONUS, {}

    def time_penalty(self, items: list[Token]) -> tuple[EventKind, dict[str, object]]:
        return EventKind.TIME_PENALTY, {}

    def end_rack(self, items: list[Token]) -> tuple[EventKind, dict[str, object]]:
        # Whether this is points for the opponents' tiles or a penalty for one's own
        # depends on the rack before it; the event rule decides.
        return EventKind.END_RACK_POINTS, {"tiles": str(items[0])[1:-1]}

    def event(self, items: list[object]) -> Event:
        nick, rack, (kind, fields), score, cumulative, extra = items
        assert isinstance(nick, Token) and isinstance(score, Token)
        if kind is EventKind.END_RACK_POINTS and rack is not None:
            kind = EventKind.END_RACK_PENALTY
        return Event(
            kind=kind,
            nick=str(nick),
            rack=str(rack) if rack is not None else None,
            score=_score(str(score)),
            cumulative=int(str(cumulative)),
            line=nick.line or 0,
            column=max((nick.column or 2) - 1, 1),
            score_text=str(score),
            extra=str(extra).rstrip() if extra is not None else None,
            **fields,  # type: ignore[arg-type]
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
    return FastLines(_parser(), _ToRecords())


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


def parse_lines(lines: list[SourceLine]) -> tuple[list[Record], list[Finding]]:
    """Parse decoded lines into records. Bad lines become findings; the rest still parse.

    Common line shapes take the fast path (built from the grammar's terminals); every other
    line is parsed on its own by the LALR parser, which decides what is valid.
    """
    parser = _parser()
    fast = _fast_lines()
    records: list[Record] = []
    findings: list[Finding] = []
    for sl in lines:
        text = sl.text
        if not text or text.isspace():
            continue
        record = fast.parse(text, sl.number)
        if record is None:
            try:
                record = parser.parse(text, start="line")
            except UnexpectedInput as exc:
                findings.append(_error_finding(exc, text, sl.number))
                continue
            record.line = sl.number
        records.append(record)
    return records, findings
