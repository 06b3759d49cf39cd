"""Model layer: the Game with its players, header, events and findings."""

from gcgtools.model.build import build_game
from gcgtools.model.game import Game, Player, event_dict
from gcgtools.model.load import load_game, parse_bytes, parse_string, read_game
from gcgtools.model.paths import expand_paths

__all__ = [
    "Game",
    "Player",
    "build_game",
    "event_dict",
    "expand_paths",
    "load_game",
    "parse_bytes",
    "parse_string",
    "read_game",
]
