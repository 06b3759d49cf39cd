"""Positions the analysis tests share."""

from __future__ import annotations

from gcgtools.analysis.simulate import SimPosition, position_from_board
from gcgtools.movegen.cgp import parse_cgp
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import DEFAULT_RULES

#: a real mid-game position (MAGPIE's README); ENABLE holds every word on its board
MAGPIE_CGP = (
    "15/3Q7U3/3U2TAURINE2/1CHANSONS2W3/2AI6JO3/DIRL1PO3IN3/E1D2EF3V4/F1I2p1TRAIK3/"
    "O1L2T4E4/ABy1PIT2BRIG2/ME1MOZELLE5/1GRADE1O1NOH3/WE3R1V7/AT5E7/G6D7 ENOSTXY/ACEISUY "
    "356/378 0 lex NWL20;"
)


def magpie_position() -> SimPosition:
    """The position of :data:`MAGPIE_CGP`, the first rack's player to move."""
    cgp = parse_cgp(MAGPIE_CGP)
    return position_from_board(cgp.board, cgp.rules, cgp.racks[0], cgp.scores, cgp.zeros)


def board_with(*words: tuple[int, int, bool, str]) -> Board:
    """A standard board with each ``(row, col, across, word)`` written on it (0-based)."""
    board = Board(DEFAULT_RULES.board, DEFAULT_RULES.tiles)
    for row, col, across, word in words:
        for i, letter in enumerate(word):
            board[(row, col + i) if across else (row + i, col)] = letter
    return board
