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

from typing import Any

__version__ = "0.1.0"

import gcgtools.outputs.svg  # noqa: E402, F401  # registers Board._repr_svg_
from gcgtools.findings import RULES, Finding  # noqa: E402
from gcgtools.model import Game, Player, load_game, parse_bytes, parse_string, read_game  # noqa: E402
from gcgtools.replay import Board, Position, Validation, replay, rules_for, validate  # noqa: E402
from gcgtools.syntax import Event, EventKind  # noqa: E402

# DataFrame helpers import pandas, which is slow to load: fetched on first use.
_LAZY = {
    "moves_frame": "gcgtools.analysis.frames",
    "games_frame": "gcgtools.analysis.frames",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'gcgtools' has no attribute {name!r}")


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
