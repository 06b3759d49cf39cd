"""A fast path for the commonest line shapes, assembled from the grammar's own terminals.

Lark's lexer and LALR parser cost a few microseconds per token, most of it spent on the
whitespace between tokens. Most lines of a record are plain events and pragmas with tokens
separated by whitespace; for those, one regular expression built from the *same terminal
patterns* as grammar/gcg.lark recognises the line, and the *same record builders* as the
grammar's transformer (:mod:`gcgtools.syntax.builders`) make the record from the matched
terminals' text and positions. Anything else (touching tokens, odd dialects, errors) goes
to the LALR parser, which stays the judge of the syntax. The fast path only accepts lines
the grammar accepts, with the same result: tests/syntax/test_fastpath.py checks that on every
corpus line.
"""

from __future__ import annotations

import re

from gcgtools.syntax import builders
from gcgtools.syntax.records import Record

# The named groups of the event pattern, in the order parse() unpacks them (the order
# in which they appear in the pattern, so that Match.groups() gives them in one call).
_EVENT_GROUPS = (
    "NICK", "RACK", "COORD", "WORD", "CHALLENGE", "TIME", "TILES_IN_PARENS", "WITHDRAWN",
    "EXCHANGE", "PASS", "SCORE", "CUMULATIVE", "EXTRA",
)  # fmt: skip


class FastLines:
    """Recognise a line without the LALR parser when its shape is a common one."""

    def __init__(self, terminals: dict[str, str], ignored: str) -> None:
        """``terminals``: the grammar's named terminals as regular expressions;
        ``ignored``: the pattern the grammar ignores between tokens."""
        t = terminals
        ws = f"(?:{ignored})"
        action = "|".join(
            [
                rf"(?P<COORD>{t['COORD']}){ws}(?P<WORD>{t['WORD']})",
                rf"(?P<CHALLENGE>{t['CHALLENGE']})",
                rf"(?P<TIME>{t['TIME']})",
                rf"(?P<TILES_IN_PARENS>{t['TILES_IN_PARENS']})",
                rf"(?P<WITHDRAWN>{t['WITHDRAWN']})",
                rf"(?P<EXCHANGE>{t['EXCHANGE']})",
                rf"(?P<PASS>{t['PASS']})",
            ]
        )
        self.event = re.compile(
            rf"{ws}?>(?P<NICK>{t['NICK']}):{ws}?(?:(?P<RACK>{t['RACK']}){ws})?"
            rf"(?:{action}){ws}(?P<SCORE>{t['SCORE']}){ws}(?P<CUMULATIVE>{t['CUMULATIVE']})"
            rf"(?:{ws}(?P<EXTRA>{t['EXTRA']}))?{ws}?"
        )
        self.pragma = re.compile(
            rf"{ws}?#(?P<KEYWORD>{t['KEYWORD']})(?:{ws}(?P<REST>{t['REST']}))?{ws}?"
        )
        self.text = re.compile(rf"{ws}?(?P<TEXT>{t['TEXT']})")
        self.commented = re.compile(rf"{ws}?(?P<COMMENTED>{t['COMMENTED']})")
        self._nick = self.event.groupindex["NICK"]
        # groups() is quicker than group(*names) when the terminals add no group of their own
        self._by_position = tuple(self.event.groupindex) == _EVENT_GROUPS and (
            self.event.groups == len(_EVENT_GROUPS)
        )
        self._keyword = self.pragma.groupindex["KEYWORD"]

    def parse(self, text: str, line: int) -> Record | None:
        """The record for ``text`` if its shape is a common one, else None."""
        first = text[:1]
        if first.isspace():
            first = text.lstrip()[:1]
        if first == ">":
            m = self.event.fullmatch(text)
            if m is None:
                return None
            (nick, rack, coord, word, challenge, _time, tiles, withdrawn, exchange, pass_,
             score, cumulative, extra) = (
                m.groups() if self._by_position else m.group(*_EVENT_GROUPS)
            )  # fmt: skip
            # the alternatives of the action exclude one another: one group is set
            if coord is not None:
                action = builders.play_action(coord, word)
            elif exchange is not None:
                action = builders.exchange_action(exchange)
            elif pass_ is not None:
                action = builders.PASS_ACTION
            elif tiles is not None:
                action = builders.end_rack_action(tiles)
            elif withdrawn is not None:
                action = builders.WITHDRAWN_ACTION
            elif challenge is not None:
                action = builders.CHALLENGE_ACTION
            else:
                action = builders.TIME_ACTION
            # '>' stands just before the nickname: its 1-based column is NICK's 0-based start
            return builders.event(
                nick, rack, action, score, cumulative, extra, line, max(m.start(self._nick), 1)
            )
        if first == "#":
            m = self.pragma.fullmatch(text)
            if m is not None:
                keyword, rest = m.group("KEYWORD", "REST")
                return builders.pragma(keyword, rest, line, m.start(self._keyword))
            m = self.commented.fullmatch(text)
            if m is None:
                return None
            return builders.commented_event(m.group("COMMENTED"), line)
        m = self.text.fullmatch(text)
        if m is None:
            return None
        return builders.text_line(m.group("TEXT"), line)
