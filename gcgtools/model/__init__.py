"""Model layer: the Game with its players, header, events and findings, parsed from bytes or
text (reading files is :mod:`gcgtools.sources`)."""

from gcgtools.model.build import build_game
from gcgtools.model.game import Game, LostLine, Player, event_dict
from gcgtools.model.read import parse_bytes, parse_string

__all__ = ["Game", "LostLine", "Player", "build_game", "event_dict", "parse_bytes", "parse_string"]
