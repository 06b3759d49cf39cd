"""Rule sets: a tile set, a board and the numbers that vary between rule variants.

End of game (``shared/docs/gcg-format.md`` §3.8, §3.9, §6.1; Hasbro home rules in
``shared/seeds/003_*.txt``):

* ``standard`` (NASPA / Woogles default): the player who goes out gets twice the value of the
  opponents' racks (``>OUT: (OPP) +2x``).
* ``international`` (+x/-x; Polish, Swedish, WSC 2005 ...): the player who goes out gets the
  value of the other racks (``+x``) and every other player loses their own (``RACK (RACK) -x``).
* ``home`` (Hasbro US Classic A8166): the same arithmetic as international; the game also ends
  when every player has passed twice in a row; a final tie is broken by the scores before the
  unused-tile adjustments; to exchange, the bag must hold as many tiles as are exchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from gcgtools.rules.boards import BoardLayout, board_layout
from gcgtools.rules.tiles import TileSet, tile_set

__all__ = [
    "DEFAULT_RULES",
    "EndRule",
    "RuleSet",
    "challenge_bonus_allowed",
    "end_rack_points",
    "exchange_allowed",
    "WWF_BINGO_BONUS",
    "bingo_bonus_for",
    "rack_value",
    "tiles_value",
]

#: The bingo bonus of Words With Friends (every other game: 50).
WWF_BINGO_BONUS = 35
WWF_TILES = "wwf_english"
WWF_BOARD = "WordsWithFriends"


def bingo_bonus_for(tiles: str, board: str) -> int:
    """The bingo bonus of a game on the board named ``board`` with the tile set named
    ``tiles``: 35 when either is Words With Friends', else 50. The one place it is
    decided; a :class:`RuleSet` carries it as ``bingo_bonus``."""
    return WWF_BINGO_BONUS if tiles == WWF_TILES or board == WWF_BOARD else 50


class EndRule(str, Enum):
    """How unplayed tiles are settled at the end of the game."""

    STANDARD = "standard"
    INTERNATIONAL = "international"
    HOME = "home"

    @property
    def out_multiplier(self) -> int:
        """Multiple of the opponents' rack values credited to the player who goes out."""
        return 2 if self is EndRule.STANDARD else 1

    @property
    def deducts_own_rack(self) -> bool:
        """True if a player left with tiles when someone goes out loses their value."""
        return self is not EndRule.STANDARD

    @property
    def tie_break_before_adjustments(self) -> bool:
        """True if a final tie is broken by the scores before the end-of-game adjustments."""
        return self is EndRule.HOME

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class RuleSet:
    """Everything a replay needs to know about the rules of one game.

    ``challenge_bonus``: points for an unsuccessful challenge; ``None`` accepts 0, 5, 5 per
    word, or 10. ``exchange_minimum_bag``: an exchange is legal only with at least this many
    tiles in the bag (and never with fewer than the number exchanged). ``passes_to_end``: the
    game also ends when every player has passed this many times in a row (home rules: 2).
    ``name`` defaults to ``"<tiles>/<board>/<end rule>"``.
    """

    tiles: TileSet
    board: BoardLayout
    end_rule: EndRule = EndRule.STANDARD
    challenge_bonus: int | None = None
    bingo_bonus: int = 50
    rack_size: int = 7
    max_scoreless_turns: int = 6
    exchange_minimum_bag: int = 7
    time_penalty_per_minute: int = 10
    passes_to_end: int | None = None
    name: str = ""
    variant: str = "classic"  # "wordsmog": any anagram of a word is good; scored the same

    def __post_init__(self) -> None:
        object.__setattr__(self, "end_rule", EndRule(self.end_rule))
        if not self.name:
            name = f"{self.tiles.name}/{self.board.name}/{self.end_rule.value}"
            object.__setattr__(self, "name", name)


DEFAULT_RULES = RuleSet(tiles=tile_set("english"), board=board_layout("CrosswordGame"))


def tiles_value(tile_set: TileSet, tiles: Iterable[str] | str, *, strict: bool = True) -> int:
    """Sum of the values of ``tiles`` (tile names, or a rack string split by the tile set).

    Blanks (``?`` or lower-case names) are worth 0; an unknown tile raises ``TileError``,
    or counts nothing when ``strict`` is False (the replay reports it)."""
    if isinstance(tiles, str):
        tiles = tile_set.split(tiles)
    value = tile_set.value
    if strict:
        return sum(value(tile) for tile in tiles)
    total = 0
    for tile in tiles:
        try:
            total += value(tile)
        except ValueError:
            pass
    return total


def rack_value(rules: RuleSet, tiles: Iterable[str] | str) -> int:
    """Sum of the values of ``tiles`` under ``rules`` (see :func:`tiles_value`)."""
    return tiles_value(rules.tiles, tiles)


def end_rack_points(rules: RuleSet, opponent_tiles: Iterable[str] | str) -> int:
    """Points credited to the player who goes out for the opponents' unplayed tiles.

    2x their value under ``standard``, 1x under ``international`` and ``home``.
    """
    return rules.end_rule.out_multiplier * rack_value(rules, opponent_tiles)


def exchange_allowed(rules: RuleSet, bag_size: int, exchanged: int) -> bool:
    """Whether ``exchanged`` tiles may be exchanged with ``bag_size`` tiles in the bag."""
    return 0 < exchanged <= rules.rack_size and bag_size >= max(
        rules.exchange_minimum_bag, exchanged
    )


def challenge_bonus_allowed(rules: RuleSet, points: int) -> bool:
    """Whether ``points`` is a possible ``(challenge) +N`` bonus under ``rules``.

    With ``challenge_bonus`` ``None``: 0 or any positive multiple of 5 (5, 5 per word, 10).
    With a fixed bonus ``B``: ``B`` itself, or a multiple of it (``B`` per challenged word).
    """
    bonus = rules.challenge_bonus
    if points < 0:
        return False
    if bonus is None:
        return points % 5 == 0
    if bonus == 0:
        return points == 0
    return points > 0 and points % bonus == 0
