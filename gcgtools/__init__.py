"""gcgtools: parse, replay, validate, analyse and annotate Scrabble GCG game records.

The public face (run from the repository root, where ``examples/`` is)::

    >>> import gcgtools
    >>> game = gcgtools.read_game("examples/club-final.gcg")
    >>> game.players[0].nick, game.players[1].nick
    ('Ada_Quill', 'Brendan')
    >>> result = gcgtools.validate(game)
    >>> result.ok, len(result.findings)
    (True, 0)
    >>> positions = list(gcgtools.replay(game))  # the empty board, then after each event
    >>> len(positions), positions[0].event, positions[-1].scores
    (36, None, [462, 372])
    >>> positions[1].event.text, positions[1].computed
    ('>Ada_Quill: EFGITUZ H5 FUTZ +32 32', 32)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gcgtools._version import __version__
from gcgtools.lazy import lazy_names

# Every public name is imported on first use (PEP 562), so that ``import gcgtools.rules``
# loads the rules and nothing above them, and ``import gcgtools`` loads almost nothing.
_LAZY = {
    "RULES": "gcgtools.findings",
    "Finding": "gcgtools.findings",
    "Game": "gcgtools.model",
    "Player": "gcgtools.model",
    "parse_bytes": "gcgtools.model",
    "parse_string": "gcgtools.model",
    "Board": "gcgtools.replay",
    "Position": "gcgtools.replay",
    "Validation": "gcgtools.replay",
    "replay": "gcgtools.replay",
    "rules_for": "gcgtools.replay",
    "validate": "gcgtools.replay",
    "load_game": "gcgtools.sources",
    "read_game": "gcgtools.sources",
    "Event": "gcgtools.syntax",
    "EventKind": "gcgtools.syntax",
    # DataFrame helpers import pandas, which is slow to load
    "moves_frame": "gcgtools.tables.frames",
    "games_frame": "gcgtools.tables.frames",
}

if TYPE_CHECKING:
    from gcgtools.findings import RULES, Finding
    from gcgtools.model import Game, Player, parse_bytes, parse_string
    from gcgtools.replay import Board, Position, Validation, replay, rules_for, validate
    from gcgtools.sources import load_game, read_game
    from gcgtools.syntax import Event, EventKind
    from gcgtools.tables.frames import games_frame, moves_frame  # noqa: F401 (not in *)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)

__all__ = [
    "RULES",
    "Board",
    "Event",
    "EventKind",
    "Finding",
    "Game",
    "Player",
    "Position",
    "Validation",
    "__version__",
    "load_game",
    "parse_bytes",
    "parse_string",
    "read_game",
    "replay",
    "rules_for",
    "validate",
]
