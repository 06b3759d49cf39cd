"""Choose a :class:`RuleSet` from a record's pragmas and the user's overrides.

Pragmas (``shared/docs/gcg-format.md`` §2.4, §2.9): ``#lexicon``, ``#tile-distribution``,
``#board-layout``, ``#game-type``. Overrides (``tiles``, ``board``, ``end_rule``,
``challenge_bonus``) come from the user and always win; an unknown override name is an error
(``KeyError`` / ``ValueError``), an unknown pragma value only a warning.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from functools import lru_cache

from gcgtools.rules.boards import BoardLayout, resolve_board
from gcgtools.rules.boards import board_layout as _board
from gcgtools.rules.rulesets import (
    WWF_BINGO_BONUS,
    WWF_BOARD,
    WWF_TILES,
    EndRule,
    RuleSet,
    bingo_bonus_for,
)
from gcgtools.rules.tiles import TileSet, resolve_tiles, tile_set

__all__ = [
    "GAME_VARIANTS",
    "LEXICON_PREFIXES",
    "WWF_BINGO_BONUS",
    "lexicon_tile_set",
    "parse_end_rule",
    "select_rules",
]

#: Lexicon name prefix (upper case) -> tile distribution; after woogles
#: ``ProbableLetterDistributionName`` (gcg-format.md §2.4), plus GERMAN (Elise) and Swedish.
LEXICON_PREFIXES: dict[str, str] = {
    "NWL": "english",
    "NSWL": "english",
    "TWL": "english",
    "OWL": "english",
    "CSW": "english",
    "AMERICA": "english",
    "CEL": "english",
    "ECWL": "english",
    "IWI": "english",
    "ENABLE": "english",
    "SOWPODS": "english",
    "OSPS": "polish",
    "RD": "german",
    "DEUTSCH": "german",
    "GERMAN": "german",
    "CGL": "german",
    "FRA": "french",
    "ODS": "french",
    "FISE": "spanish",
    "FILE": "spanish",
    "DISC": "catalan",
    "NSF": "norwegian",
    "DSW": "dutch",
    "SLV": "slovene",
    "SAOL": "swedish",
    "SV": "swedish",
}
# Longest prefix first, so that a longer prefix is never shadowed by a shorter one.
_PREFIXES_LONGEST_FIRST = sorted(LEXICON_PREFIXES, key=len, reverse=True)

#: ``#game-type`` (folded by :func:`_variant_key`) -> (how words are judged, Super game).
#: Wordsmog plays are scored as in classic; only which words are good differs. A Super game
#: defaults to the 21x21 board and the 200 Super tiles; its board and tile pragmas decide.
GAME_VARIANTS: dict[str, tuple[str, bool]] = {
    "classic": ("classic", False),
    "wordsmog": ("wordsmog", False),
    "classic_super": ("classic", True),
    "wordsmog_super": ("wordsmog", True),
}

_WWF_TILES = WWF_TILES
_WWF_BOARD = WWF_BOARD
_SUPER_TILES = "english_super"

_END_RULE_ALIASES: dict[str, EndRule] = {
    "standard": EndRule.STANDARD,
    "naspa": EndRule.STANDARD,
    "2x": EndRule.STANDARD,
    "double": EndRule.STANDARD,
    "international": EndRule.INTERNATIONAL,
    "intl": EndRule.INTERNATIONAL,
    "plus-minus": EndRule.INTERNATIONAL,
    "plusminus": EndRule.INTERNATIONAL,
    "+x-x": EndRule.INTERNATIONAL,
    "+x/-x": EndRule.INTERNATIONAL,
    "x": EndRule.INTERNATIONAL,
    "1x": EndRule.INTERNATIONAL,
    "home": EndRule.HOME,
    "hasbro": EndRule.HOME,
}


def parse_end_rule(text: str | EndRule) -> EndRule:
    """``standard`` (also ``naspa``, ``2x``), ``international`` (also ``plus-minus``, ``x``,
    ``+x-x``) or ``home`` (also ``hasbro``), case-insensitive; else :class:`ValueError`."""
    if isinstance(text, EndRule):
        return text
    key = re.sub(r"[\s_]+", "-", text.strip().casefold())
    rule = _END_RULE_ALIASES.get(key)
    if rule is None:
        raise ValueError(
            f"unknown end rule {text!r}; expected standard, international (plus-minus, x) or home"
        )
    return rule


def lexicon_tile_set(lexicon: str) -> str | None:
    """Tile distribution name implied by a lexicon name's prefix (``"CSW21"`` -> ``"english"``),
    or ``None`` if no prefix matches."""
    name = lexicon.strip().upper()
    for prefix in _PREFIXES_LONGEST_FIRST:
        if name.startswith(prefix):
            return LEXICON_PREFIXES[prefix]
    return None


def _mentions_wwf(*names: str | None) -> bool:
    for name in names:
        if name:
            key = re.sub(r"[\W_]+", "", name.casefold())
            if "wwf" in key or "wordswithfriends" in key or "worldwildlifefund" in key:
                return True
    return False


def _variant_key(value: str) -> str:
    """``Classic-Super`` -> ``classic_super``."""
    return "_".join(value.casefold().replace("-", " ").replace("_", " ").split())


def _blank(value: str | None) -> str | None:
    if value is None or not value.strip():
        return None
    return value.strip()


def select_rules(
    *,
    lexicon: str | None = None,
    tile_distribution: str | None = None,
    board_layout: str | None = None,
    game_type: str | None = None,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> tuple[RuleSet, list[str]]:
    """The rule set for a record, and human-readable warnings about how it was chosen.

    ``lexicon``, ``tile_distribution``, ``board_layout`` and ``game_type`` are the record's
    pragma values; ``tiles``, ``board``, ``end_rule`` and ``challenge_bonus`` are user
    overrides and win.

    Tiles: override > ``#tile-distribution`` > Words With Friends > Super game type
    (``classic_super``, ``wordsmog_super``) > lexicon prefix > english.
    Board: override > ``#board-layout`` > Words With Friends > (english_super tiles or a Super
    game type -> super board) > standard. Any of the game type, board or tile names mentioning WWF /
    WordsWithFriends selects the WWF board and tiles (unless given explicitly) and a bingo bonus
    of 35. End rule: override, else standard (the replay engine detects +x/-x endings itself);
    ``home`` also sets ``passes_to_end=2`` and ``exchange_minimum_bag=1``.
    """
    # a file named by --tiles/--board may change between calls: not cached by its name
    files = any(v is not None and os.path.isfile(v) for v in (tiles, board))
    select = _select_rules.__wrapped__ if files else _select_rules
    found, warnings = select(
        lexicon=lexicon,
        tile_distribution=tile_distribution,
        board_layout=board_layout,
        game_type=game_type,
        tiles=tiles,
        board=board,
        end_rule=end_rule,
        challenge_bonus=challenge_bonus,
    )
    return found, list(warnings)


@lru_cache(maxsize=1024)
def _select_rules(
    *,
    lexicon: str | None,
    tile_distribution: str | None,
    board_layout: str | None,
    game_type: str | None,
    tiles: str | None,
    board: str | None,
    end_rule: str | EndRule | None,
    challenge_bonus: int | None,
) -> tuple[RuleSet, tuple[str, ...]]:
    """:func:`select_rules`, cached: a batch of records names the same few rule sets
    (the arguments are hashable and the result a frozen rule set)."""
    warnings: list[str] = []
    lexicon = _blank(lexicon)
    tiles = _blank(tiles)
    board = _blank(board)
    game_type = _blank(game_type)
    # a file named in --tiles/--board says what it holds; its name is no hint
    named = [v for v in (tiles, board) if v is not None and not os.path.isfile(v)]
    tile_distribution, layout_name = _blank(tile_distribution), _blank(board_layout)
    wwf = _mentions_wwf(game_type, tile_distribution, layout_name, *named)
    # an unknown game type is the model's H208 warning; classic rules are used for it
    variant, super_game = GAME_VARIANTS.get(_variant_key(game_type or ""), ("classic", False))
    chosen_tiles = _choose_tiles(tiles, tile_distribution, lexicon, wwf, super_game, warnings)
    chosen_board = _choose_board(board, layout_name, chosen_tiles, wwf, super_game, warnings)
    rule = parse_end_rule(end_rule) if end_rule is not None else EndRule.STANDARD
    rules = RuleSet(
        tiles=chosen_tiles,
        board=chosen_board,
        end_rule=rule,
        challenge_bonus=challenge_bonus,
        bingo_bonus=bingo_bonus_for(chosen_tiles.name, chosen_board.name),
        variant=variant,
    )
    if rule is EndRule.HOME:
        rules = replace(rules, passes_to_end=2, exchange_minimum_bag=1)
    return rules, tuple(warnings)


def _choose_tiles(
    tiles: str | None,
    tile_distribution: str | None,
    lexicon: str | None,
    wwf: bool,
    super_game: bool,
    warnings: list[str],
) -> TileSet:
    """The tile set: --tiles, else #tile-distribution, else the variant's, else the one
    #lexicon implies, else English (each guess that may be wrong adds a warning)."""
    chosen: TileSet | None = None
    if tiles is not None:
        chosen = resolve_tiles(tiles)  # a name or a file; else the user's KeyError
    if chosen is None and tile_distribution is not None:
        try:
            chosen = tile_set(tile_distribution)
        except KeyError:
            fallback = _WWF_TILES if wwf else _fallback_tiles(lexicon)
            warnings.append(
                f"unknown #tile-distribution {tile_distribution!r}; {fallback} tiles used"
            )
    if chosen is None and wwf:
        chosen = tile_set(_WWF_TILES)
    if chosen is None and super_game:
        chosen = tile_set(_SUPER_TILES)
    implied = lexicon_tile_set(lexicon) if lexicon is not None else None
    if chosen is None:
        if lexicon is not None and implied is None:
            warnings.append(
                f"cannot tell the tile distribution from #lexicon {lexicon!r}; english tiles used"
            )
        return tile_set(implied or "english")
    if (
        tiles is None
        and implied is not None
        and not wwf
        and _language(chosen.name) != _language(implied)
    ):
        warnings.append(
            f"#lexicon {lexicon!r} suggests {implied} tiles but {chosen.name} tiles are used"
        )
    return chosen


def _choose_board(
    board: str | None,
    layout_name: str | None,
    tiles: TileSet,
    wwf: bool,
    super_game: bool,
    warnings: list[str],
) -> BoardLayout:
    """The board: --board, else #board-layout, else the variant's or the tile set's."""
    chosen: BoardLayout | None = None
    unknown_layout = False
    if board is not None:
        chosen = resolve_board(board)  # a name or a file; else the user's KeyError
    if chosen is None and layout_name is not None:
        try:
            chosen = _board(layout_name)
        except KeyError:
            unknown_layout = True
    if chosen is None:
        if wwf:
            chosen = _board(_WWF_BOARD)
        elif tiles.name == _SUPER_TILES or super_game:
            chosen = _board("SuperCrosswordGame")
        else:
            chosen = _board("CrosswordGame")
        if unknown_layout:
            warnings.append(f"unknown #board-layout {layout_name!r}; {chosen.name} used")
    if tiles.name == _SUPER_TILES and chosen.size != 21:
        warnings.append(f"english_super tiles on the {chosen.name} board")
    elif chosen.size == 21 and tiles.name != _SUPER_TILES:
        warnings.append(f"{tiles.name} tiles on the {chosen.name} board")
    return chosen


def _fallback_tiles(lexicon: str | None) -> str:
    implied = lexicon_tile_set(lexicon) if lexicon is not None else None
    return implied or "english"


def _language(tile_set_name: str) -> str:
    """english and english_super are the same language (a lexicon cannot tell them apart)."""
    return "english" if tile_set_name.startswith("english") else tile_set_name
