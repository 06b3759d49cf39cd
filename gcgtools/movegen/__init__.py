"""Move generation: every legal play for a rack on a board (GADDAG over a KWG), with
exchanges and the pass, each scored by the replay's scoring rules and valued by equity;
all of them, the best few or the best one, asked for with one :class:`MoveRequest`
(:func:`generate`, :func:`generate_best`; or its fields as keywords: :func:`generate_moves`,
:func:`best_move`);
an incremental board for many generations (:class:`EngineBoard`); and Compact Game
Positions (CGP)."""

from gcgtools.movegen.board_state import EngineBoard
from gcgtools.movegen.cgp import CgpError, CgpPosition, parse_cgp, write_cgp
from gcgtools.movegen.generate import (
    best_move,
    generate,
    generate_best,
    generate_moves,
    rack_tiles,
)
from gcgtools.movegen.move import Move, MoveKind
from gcgtools.movegen.request import MoveRequest

__all__ = [
    "CgpError",
    "CgpPosition",
    "EngineBoard",
    "Move",
    "MoveKind",
    "MoveRequest",
    "best_move",
    "generate",
    "generate_best",
    "generate_moves",
    "parse_cgp",
    "rack_tiles",
    "write_cgp",
]
