"""Rules of the game as data tables plus small pure functions.

Tile sets (:mod:`~gcgtools.rules.tiles`), board layouts (:mod:`~gcgtools.rules.boards`), rule
sets and end-of-game arithmetic (:mod:`~gcgtools.rules.rulesets`), and the choice of a rule set
from a record's pragmas (:mod:`~gcgtools.rules.detect`). This layer imports only the standard
library.
"""

from gcgtools.rules.boards import BOARDS, PREMIUM_SYMBOLS, BoardLayout, board_layout
from gcgtools.rules.detect import (
    LEXICON_PREFIXES,
    WWF_BINGO_BONUS,
    lexicon_tile_set,
    parse_end_rule,
    select_rules,
)
from gcgtools.rules.rulesets import (
    DEFAULT_RULES,
    EndRule,
    RuleSet,
    challenge_bonus_allowed,
    end_rack_points,
    exchange_allowed,
    rack_value,
)
from gcgtools.rules.tiles import BLANK, PASS_THROUGH, TILE_SETS, TileError, TileSet, tile_set

__all__ = [
    "BLANK",
    "BOARDS",
    "DEFAULT_RULES",
    "LEXICON_PREFIXES",
    "PASS_THROUGH",
    "PREMIUM_SYMBOLS",
    "TILE_SETS",
    "WWF_BINGO_BONUS",
    "BoardLayout",
    "EndRule",
    "RuleSet",
    "TileError",
    "TileSet",
    "board_layout",
    "challenge_bonus_allowed",
    "end_rack_points",
    "exchange_allowed",
    "lexicon_tile_set",
    "parse_end_rule",
    "rack_value",
    "select_rules",
    "tile_set",
]
