"""The event lines the parser could not read, each with what can still be read from it.

The parser reports an unreadable line (a P finding) and moves on; the game keeps, for each
unreadable event line (``>...``), a :class:`~gcgtools.model.game.LostLine`: the player its
nickname names, and the event a small repair recovers, if one does. Two repairs are
tried, and only when they leave a line the parser reads cleanly: a line whose only fault
is its rack (P102) is read with the rack ``UNKNOWN``; a line that lacks only the ``:``
after a declared nickname (``>Ann 8D WORD +20 20``) is read with it. The line's finding
stays the parser's; the replay replays a recovered event, and leaves a gap for any other
lost line (it does not re-read record lines itself).
"""

from __future__ import annotations

import re

from gcgtools.findings import Code, Family
from gcgtools.model.game import Game, LostLine
from gcgtools.syntax.parser import parse_lines
from gcgtools.syntax.records import Event, SourceLine

__all__ = ["lost_lines"]

_NICK = re.compile(r"\s*>([^\s:]+):")
# ">nick rest": an event line without the colon after the nickname
_NO_COLON = re.compile(r"\s*>([^\s:]+)\s")


def lost_lines(game: Game) -> list[LostLine]:
    """The event lines of ``game`` the parser could not read, in order (see the module
    doc); ``game`` is complete: its events, players and syntax findings are known."""
    bad = {f.line for f in game.findings if f.is_error(Family.SYNTAX)}
    if not bad:
        return []
    bad -= {e.line for e in game.events}
    lines = game.lines
    numbers = sorted(
        line for line in bad if 0 < line <= len(lines) and lines[line - 1].text.lstrip()[:1] == ">"
    )
    nicks = game.nicks
    lost = []
    for line in numbers:
        text = lines[line - 1].text
        m = _NICK.match(text) or _NO_COLON.match(text)
        player = nicks.get(m.group(1)) if m is not None else None
        lost.append(LostLine(line, player, _salvage(game, line, text)))
    return lost


def _salvage(game: Game, line: int, text: str) -> Event | None:
    """The event of an unreadable line whose only fault is its rack (P102), read with the
    rack ``UNKNOWN``, or whose only fault is the missing ``:`` after a player's nickname,
    read with it; None for any other line."""
    m = _NICK.match(text)
    if m is None:
        return _without_colon(game, line, text)
    for f in game.findings:
        if f.line == line and f.code == Code.MALFORMED_RACK and f.column - 1 >= m.end():
            col = f.column - 1
            if text[m.end() : col].strip():
                return None  # the bad token is not the rack
            token = text[col:].split(None, 1)[0]
            return _reparsed(game, line, text[:col] + "UNKNOWN" + text[col + len(token) :])
    return None


def _without_colon(game: Game, line: int, text: str) -> Event | None:
    """The event of a line that lacks only the ``:`` after a declared nickname."""
    m = _NO_COLON.match(text)
    if m is None or m.group(1) not in game.nicks:
        return None
    return _reparsed(game, line, text[: m.end(1)] + ":" + text[m.end(1) :])


def _reparsed(game: Game, line: int, fixed: str) -> Event | None:
    """The event of the repaired text of ``line``, if it parses cleanly into one."""
    records, problems = parse_lines([SourceLine(line, fixed, "")])
    if len(records) == 1 and isinstance(records[0], Event) and not problems:
        e = records[0]
        e.player = game.nicks.get(e.nick)
        return e
    return None
