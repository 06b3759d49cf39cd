"""Move generation: every legal play for a rack on a board (GADDAG over a KWG), with
exchanges and the pass, each scored by the replay's scoring rules and valued by equity;
and Compact Game Positions (CGP)."""

from gcgtools.movegen.cgp import CgpError, CgpPosition, parse_cgp, write_cgp
from gcgtools.movegen.generate import generate_moves, rack_tiles
from gcgtools.movegen.move import Move

__all__ = [
    "CgpError",
    "CgpPosition",
    "Move",
    "generate_moves",
    "parse_cgp",
    "rack_tiles",
    "write_cgp",
]
