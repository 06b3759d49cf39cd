"""A fast path for the commonest line shapes, assembled from the grammar's own terminals.

Lark's lexer and LALR parser cost a few microseconds per token, most of it spent on the
whitespace between tokens. Most lines of a record are plain events and pragmas with tokens
separated by whitespace; for those, one regular expression built from the *same terminal
patterns* as grammar/gcg.lark recognises the line, and the *same transformer methods*
build the record. Anything else (touching tokens, odd dialects, errors) goes to the LALR
parser, which stays the judge of the syntax. The fast path only accepts lines the grammar
accepts, with the same result: tests/test_fastpath.py checks that on every corpus line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lark import Lark, Token

from gcgtools.syntax.records import Record

Transform = Callable[[list[object]], object]


class FastLines:
    """Recognise a line without the LALR parser when its shape is a common one."""

    def __init__(self, lark: Lark, transformer: object) -> None:
        t = {term.name: term.pattern.to_regexp() for term in lark.terminals}
        ws = f"(?:{t[lark.ignore_tokens[0]]})"
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
        rules = transformer
        self.actions: dict[str, Transform] = {
            "COORD": rules.play,  # type: ignore[attr-defined]
            "CHALLENGE": rules.challenge_bonus,  # type: ignore[attr-defined]
            "TIME": rules.time_penalty,  # type: ignore[attr-defined]
            "TILES_IN_PARENS": rules.end_rack,  # type: ignore[attr-defined]
            "WITHDRAWN": rules.withdrawn,  # type: ignore[attr-defined]
            "EXCHANGE": rules.exchange,  # type: ignore[attr-defined]
            "PASS": rules.pass_,  # type: ignore[attr-defined]
        }
        self.make_event: Transform = rules.event  # type: ignore[attr-defined]
        self.make_pragma: Transform = rules.pragma  # type: ignore[attr-defined]
        self.make_text: Transform = rules.text  # type: ignore[attr-defined]
        self.make_commented: Transform = rules.commented_event  # type: ignore[attr-defined]

    @staticmethod
    def _token(m: re.Match[str], name: str, line: int) -> Token | None:
        value = m.group(name)
        if value is None:
            return None
        start = m.start(name)
        return Token(name, value, start_pos=start, line=line, column=start + 1)

    def parse(self, text: str, line: int) -> Record | None:
        """The record for ``text`` if its shape is a common one, else None."""
        first = text.lstrip()[:1]
        tok = self._token
        if first == ">":
            m = self.event.fullmatch(text)
            if m is None:
                return None
            for name, build in self.actions.items():
                if m.group(name) is not None:
                    args = [tok(m, name, line)]
                    if name == "COORD":
                        args.append(tok(m, "WORD", line))
                    action = build(args)
                    break
            return self.make_event(  # type: ignore[return-value]
                [
                    tok(m, "NICK", line),
                    tok(m, "RACK", line),
                    action,
                    tok(m, "SCORE", line),
                    tok(m, "CUMULATIVE", line),
                    tok(m, "EXTRA", line),
                ]
            )
        if first == "#":
            m = self.commented.fullmatch(text)
            if m is not None:
                return self.make_commented([tok(m, "COMMENTED", line)])  # type: ignore[return-value]
            m = self.pragma.fullmatch(text)
            if m is None:
                return None
            return self.make_pragma(  # type: ignore[return-value]
                [tok(m, "KEYWORD", line), tok(m, "REST", line)]
            )
        m = self.text.fullmatch(text)
        if m is None:
            return None
        return self.make_text([tok(m, "TEXT", line)])  # type: ignore[return-value]
