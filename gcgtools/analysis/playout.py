"""A two-player game played forward by the static player: the state (board, both racks,
the bag in drawing order, scores, the player to move), a move made on it with the
draws that follow, and the end of the game as the rules settle it.

Used by the simulation (:mod:`gcgtools.analysis.simulate`: a few plies after each
candidate) and by the self-play that makes the built-in win model
(``tools/selfplay_winpct.py``: whole games). Randomness comes only from the
``random.Random`` a caller passes in (the bag's order, where exchanged tiles go back), so a
seed gives the same game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from gcgtools.movegen import EngineBoard, Move, MoveRequest, generate_best
from gcgtools.movegen.generate import LeaveValues, LexiconLike
from gcgtools.movegen.move import apply_move, move_tiles, rack_after
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import RuleSet, rack_value
from gcgtools.rules.tiles import BLANK

__all__ = ["GameState", "advance", "full_bag", "play", "play_best", "start_game"]


@dataclass(frozen=True)
class GameState:
    """A position of a two-player game, every tile known.

    ``racks[0]`` is the rack of player 0 and so on; ``bag`` the tiles left in the bag in
    the order they are drawn (the last one first); ``scores`` by player; ``to_move`` the
    player to move; ``zeros`` the scoreless turns in a row; ``over`` whether the game has
    ended (the end-of-game rack points are then in ``scores``)."""

    board: Board
    racks: tuple[tuple[str, ...], tuple[str, ...]]
    bag: tuple[str, ...]
    scores: tuple[int, int]
    to_move: int
    rules: RuleSet
    zeros: int = 0
    over: bool = False

    def spread(self, player: int) -> int:
        """``player``'s score minus the opponent's."""
        return self.scores[player] - self.scores[1 - player]

    def unseen(self, player: int) -> int:
        """Tiles ``player`` cannot see: the bag and the opponent's rack."""
        return len(self.bag) + len(self.racks[1 - player])


def full_bag(rules: RuleSet) -> list[str]:
    """Every tile of the rules' tile set (blanks ``?``), in the tile set's order."""
    out: list[str] = []
    for tile, count in rules.tiles.counts.items():
        out.extend([BLANK if tile == BLANK else tile] * count)
    return out


def start_game(rules: RuleSet, rng: random.Random, first: int = 0) -> GameState:
    """An empty board, a shuffled bag and seven (the rack size) tiles for each player,
    ``first`` to move."""
    bag = full_bag(rules)
    rng.shuffle(bag)
    n = rules.rack_size
    racks = (tuple(bag[len(bag) - n :]), tuple(bag[len(bag) - 2 * n : len(bag) - n]))
    del bag[len(bag) - 2 * n :]
    board = Board(rules.board, rules.tiles)
    return GameState(board, racks, tuple(bag), (0, 0), first, rules)


def play(state: GameState, move: Move, rng: random.Random) -> GameState:
    """The state after the player to move makes ``move``: the tiles go down, the player
    draws back to a full rack (an exchange draws first, then its tiles go back into the
    bag at random places), the turn passes, and the game ends when a player goes out or
    after the rules' number of scoreless turns in a row."""
    board = apply_move(state.board, move) if move.kind == "play" else state.board
    return _after(state, move, rng, board)


def advance(state: GameState, move: Move, rng: random.Random) -> GameState:
    """:func:`play` without the board: the state's board is left as it is (for a caller
    that keeps the board elsewhere, e.g. on an ``EngineBoard`` it plays the move on)."""
    return _after(state, move, rng, state.board)


def _after(state: GameState, move: Move, rng: random.Random, board: Board) -> GameState:
    p = state.to_move
    rules = state.rules
    rack = rack_after(state.racks[p], move)
    bag = list(state.bag)
    need = rules.rack_size - len(rack)
    if move.kind != "pass" and need > 0:
        take = min(need, len(bag))
        if take:
            rack.extend(bag[len(bag) - take :])
            del bag[len(bag) - take :]
    if move.kind == "exchange":
        for t in move_tiles(move):
            bag.insert(rng.randrange(len(bag) + 1), t)
    scores = list(state.scores)
    scores[p] += move.score
    zeros = 0 if move.kind == "play" else state.zeros + 1
    racks = (tuple(rack), state.racks[1]) if p == 0 else (state.racks[0], tuple(rack))
    # made directly, not by dataclasses.replace (which reads the fields every time): a
    # simulation moves a state on three times an iteration
    out = GameState(board, racks, tuple(bag), (scores[0], scores[1]), 1 - p, rules, zeros,
                    state.over)  # fmt: skip
    return _maybe_over(out, p)


def _maybe_over(state: GameState, mover: int) -> GameState:
    rules = state.rules
    if not state.bag and not state.racks[mover]:
        other = 1 - mover
        left = rack_value(rules, list(state.racks[other]))
        scores = list(state.scores)
        scores[mover] += rules.end_rule.out_multiplier * left
        if rules.end_rule.deducts_own_rack:
            scores[other] -= left
        return replace(state, scores=(scores[0], scores[1]), over=True)
    if state.zeros >= rules.max_scoreless_turns:
        scores = [state.scores[i] - rack_value(rules, list(state.racks[i])) for i in (0, 1)]
        return replace(state, scores=(scores[0], scores[1]), over=True)
    return state


def play_best(
    state: GameState,
    lexicon: LexiconLike,
    leaves: LeaveValues | None,
    rng: random.Random,
    engine: EngineBoard | None = None,
) -> tuple[GameState, Move]:
    """The player to move makes their best static move (highest equity; with the bag
    empty the opponent's rack is known, so going out is valued with it).

    With ``engine`` (holding the state's board), the move is found on it and played on
    it (the caller undoes it; if moving the state on fails, it is undone here), and the
    state's board is left as it is (see :func:`advance`)."""
    p = state.to_move
    opponent = state.racks[1 - p] if not state.bag else None
    request = MoveRequest(state.racks[p], leaves=leaves, bag_count=len(state.bag),
                          opponent_rack=opponent, rules=state.rules)  # fmt: skip
    if engine is not None:
        move = engine.generate_best(request)
        engine.play(move)
        try:
            return advance(state, move, rng), move
        except BaseException:
            engine.undo()  # the caller never saw the move: leave the engine as it was
            raise
    move = generate_best(state.board, lexicon, request)
    return play(state, move, rng), move
