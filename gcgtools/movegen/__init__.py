"""Move generation: every legal play for a rack on a board (GADDAG over a KWG), with
exchanges and the pass, each scored by the replay's scoring rules and valued by equity;
and Compact Game Positions (CGP)."""

from gcgtools.movegen.generate import generate_moves, rack_tiles
from gcgtools.movegen.move import Move

__all__ = ["Move", "generate_moves", "rack_tiles"]
