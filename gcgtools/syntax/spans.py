"""Where the score and the cumulative of an event line stand, for the writers that correct
them in place (``gcgtools fix``): the grammar's own tokens, with their positions."""

from __future__ import annotations

from functools import cache

from lark import Lark, Token, UnexpectedInput

from gcgtools.syntax.terminals import grammar_text

__all__ = ["score_spans"]


@cache
def _line_parser() -> Lark:
    # the project's grammar, without the transformer: tokens keep their positions
    return Lark(grammar_text(), parser="lalr", lexer="contextual", start="line")


def score_spans(text: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """``(start, end)`` of the score and of the cumulative token of an event line, or None
    if the line is not an event."""
    try:
        tree = _line_parser().parse(text)
    except UnexpectedInput:
        return None
    spans: dict[str, tuple[int, int]] = {}
    for tok in tree.scan_values(lambda v: isinstance(v, Token)):
        if tok.type in ("SCORE", "CUMULATIVE") and tok.start_pos is not None:
            spans[tok.type] = (tok.start_pos, tok.end_pos or tok.start_pos)
    if len(spans) != 2:
        return None
    return spans["SCORE"], spans["CUMULATIVE"]
