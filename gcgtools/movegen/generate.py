"""``generate_moves``: every legal move for a rack, scored, with its leave and equity."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import Protocol

from gcgtools.movegen.generator import KwgLike, RackIndex, find_plays
from gcgtools.movegen.move import Move
from gcgtools.replay.board import Board
from gcgtools.replay.position import sorted_tiles, tiles_text
from gcgtools.replay.scoring import parts_score
from gcgtools.rules.detect import WWF_BINGO_BONUS
from gcgtools.rules.rulesets import EndRule, RuleSet
from gcgtools.rules.tiles import BLANK, TileError, TileSet

__all__ = ["LeaveValues", "generate_moves", "rack_tiles"]


class LexiconLike(Protocol):
    """What :func:`generate_moves` needs of a lexicon (``gcgtools.lexicon.Lexicon``)."""

    @property
    def kwg(self) -> KwgLike: ...
    @property
    def tiles(self) -> TileSet | None: ...


class LeaveValues(Protocol):
    """What :func:`generate_moves` needs of a leave table (``gcgtools.lexicon.Leaves``)."""

    def value(self, tiles: Iterable[str]) -> float: ...


def rack_tiles(rack: str | Sequence[str], tiles: TileSet) -> list[str]:
    """A rack as tile texts, upper case, blanks ``?`` (a string is split by the tile set:
    ``[CH]`` or the longest match)."""
    items = tiles.split(rack) if isinstance(rack, str) else list(rack)
    out = []
    for t in items:
        if t == BLANK:
            out.append(t)
        else:
            out.append(t.upper())
    return out


def _tileset(board: Board, lexicon: LexiconLike) -> TileSet:
    ts = board.tileset if board.tileset is not None else lexicon.tiles
    if ts is None:
        from gcgtools.rules.tiles import tile_set

        ts = tile_set("english")
    return ts


def generate_moves(
    board: Board,
    rack: str | Sequence[str],
    lexicon: LexiconLike,
    *,
    leaves: LeaveValues | None,
    bag_count: int,
    opponent_rack: str | Sequence[str] | None = None,
    exchanges: bool = True,
    rules: RuleSet | None = None,
) -> list[Move]:
    """Every legal move of ``rack`` (tile texts, ``?`` a blank; TileError for a tile the
    tile set lacks) on ``board`` in
    ``lexicon`` (anything with a ``kwg``: see :mod:`gcgtools.lexicon`), best first.

    Plays are scored by the replay's scoring rules. **Equity**: while the bag holds
    tiles (``bag_count`` > 0), score plus the value of the leave (``leaves``; 0 without
    one). With the bag empty: a play that goes out gets its score plus the opponent's
    rack as the end-of-game rule counts it (twice its value under standard rules) when
    ``opponent_rack`` is known, its score alone otherwise; any other move gets its score
    minus the value of the tiles it keeps. Exchanges (every distinct set of tiles) come
    only when the bag holds at least ``rules.exchange_minimum_bag`` tiles (7), worth
    their leave; the pass is always there, keeping the whole rack. ``rules`` gives the
    bingo bonus (default 50, 35 on the Words With Friends board), the rack size (7) and
    the end-of-game rule.
    """
    tiles = _tileset(board, lexicon)
    values = tiles.token_values
    rack_list = rack_tiles(rack, tiles)
    most = rules.rack_size if rules is not None else 7  # the rules' default rack size
    if len(rack_list) > most:  # 2**n leaves and exchanges: a 26-tile rack would never end
        raise ValueError(f"a rack of {len(rack_list)} tiles; a rack holds at most {most}")
    for t in rack_list:
        if t != BLANK and t not in tiles.values:
            raise TileError(f"{t!r} in the rack is not a tile of {tiles.name}")
    kwg = lexicon.kwg
    if not kwg.gaddag_root:
        raise ValueError("the lexicon's KWG has no GADDAG: moves cannot be generated")
    index: dict[str, int] = kwg.index
    n_letters = len(kwg.letters) - 1
    ri = RackIndex(rack_list, index, n_letters)
    if rules is not None:
        bingo_size, bingo_bonus = rules.rack_size, rules.bingo_bonus
        out_mult = rules.end_rule.out_multiplier
        min_bag = rules.exchange_minimum_bag
    else:
        bingo_size = 7
        bingo_bonus = WWF_BINGO_BONUS if board.layout.name == "WordsWithFriends" else 50
        out_mult = EndRule.STANDARD.out_multiplier
        min_bag = 7

    # the leave of every code: its text and its value
    codes = ri.all_codes()
    leave_texts: list[str] = []
    leave_values: list[float] = []
    endgame = bag_count <= 0
    for code in codes:
        kept = ri.leave_tiles(code)
        leave_texts.append(sorted_tiles(kept))
        if endgame:
            leave_values.append(-float(_points(kept, values)))
        elif leaves is None or not kept:
            leave_values.append(0.0)
        else:
            leave_values.append(float(leaves.value(kept)))
    going_out = 0.0
    if endgame and opponent_rack is not None:
        going_out = float(out_mult * _points(rack_tiles(opponent_rack, tiles), values))

    moves: list[Move] = []
    append = moves.append
    for ms, wmul, xs, n, code, across, line, start, _end, mask, cells in find_plays(
        board, kwg, ri, values
    ):
        score = parts_score(ms, wmul, xs, n, bingo_size, bingo_bonus)
        if endgame and code == 0:
            lv = going_out
        else:
            lv = leave_values[code]
        if across:
            row, col = line, start
        else:
            row, col = start, line
        append(
            Move("play", row, col, across, cells, mask >> start, score, leave_texts[code], lv,
                 score + lv, n >= bingo_size)
        )  # fmt: skip
    full = ri.code
    if exchanges and bag_count >= min_bag:
        for code in codes:
            if code == full:
                continue
            thrown = _minus(rack_list, ri.leave_tiles(code))
            if len(thrown) > bag_count:
                continue
            lv = leave_values[code]
            append(
                Move("exchange", 0, 0, True, (), 0, 0, leave_texts[code], lv, lv,
                     tiles=tiles_text(sorted_tiles_list(thrown)))
            )  # fmt: skip
    lv = leave_values[full]
    append(Move("pass", 0, 0, True, (), 0, 0, leave_texts[full], lv, lv, tiles=""))
    moves.sort(key=_EQUITY, reverse=True)
    return moves


_EQUITY = attrgetter("equity")


def _points(tiles: Iterable[str], values: dict[str, int]) -> int:
    total = 0
    for t in tiles:
        try:
            total += values[t]
        except KeyError:
            raise TileError(f"unknown tile {t!r}") from None
    return total


def _minus(rack: list[str], kept: list[str]) -> list[str]:
    left = list(rack)
    for t in kept:
        left.remove(t)
    return left


def sorted_tiles_list(tiles: list[str]) -> list[str]:
    """Tiles sorted, blanks last."""
    return sorted(tiles, key=lambda t: (t == BLANK, t))
