"""Syntax layer: bytes to lines to typed records, driven by grammar/gcg.lark."""

from gcgtools.syntax.decode import Decoded, decode, split_lines
from gcgtools.syntax.parser import parse_lines
from gcgtools.syntax.records import (
    END_KINDS,
    TURN_KINDS,
    CommentedEvent,
    Event,
    EventKind,
    Note,
    Pragma,
    Record,
    SourceLine,
    TextLine,
)
from gcgtools.syntax.terminals import grammar_text

__all__ = [
    "END_KINDS",
    "TURN_KINDS",
    "CommentedEvent",
    "Decoded",
    "Event",
    "EventKind",
    "Note",
    "Pragma",
    "Record",
    "SourceLine",
    "TextLine",
    "decode",
    "grammar_text",
    "parse_lines",
    "split_lines",
]
