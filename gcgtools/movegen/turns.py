"""The positions of records' turns, as the engine starts from them: the board before each
turn (play, pass, exchange), the mover's rack as the record gives it, the bag, the
scores and the tiles unseen; over one record (:func:`turn_positions`) or an archive
(:func:`standard_games`, the readable records on the standard board with English tiles,
what the benchmarks and the engine's tests take positions from).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from gcgtools.model.game import Game
from gcgtools.replay.board import Board
from gcgtools.replay.position import known_rack
from gcgtools.replay.setup import rules_for
from gcgtools.replay.walk import replay
from gcgtools.rules.rulesets import RuleSet
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import expand_paths
from gcgtools.syntax.records import TURN_KINDS

__all__ = ["TurnPosition", "standard_games", "turn_positions"]


@dataclass(frozen=True, slots=True)
class TurnPosition:
    """The position before a turn: ``event`` is the turn's event number (1-based),
    ``player`` the mover the replay credited (None: not credited), ``rack`` the mover's
    rack as recorded (None when the record does not say: check its length against the
    rack size for a full one), ``bag`` the tiles in the bag,
    ``scores`` before the turn and ``pool`` the tiles not on the board (bag and racks)."""

    event: int
    player: int | None
    board: Board
    rack: list[str] | None
    bag: int
    scores: list[int]
    pool: Counter[str]
    rules: RuleSet

    def unseen(self) -> list[str] | None:
        """The tiles the mover cannot see (the pool but the rack: the opponent's rack once
        the bag is empty), None when the rack is not known."""
        if self.rack is None:
            return None
        unseen = self.pool.copy()
        unseen.subtract(Counter(self.rack))
        return list((+unseen).elements())


def turn_positions(game: Game, rules: RuleSet | None = None) -> Iterator[TurnPosition]:
    """The position before every turn of ``game``, in order, replayed by ``rules``
    (default: the record's own, :func:`~gcgtools.replay.setup.rules_for`)."""
    if rules is None:
        rules, _ = rules_for(game)
    prev = None
    for pos in replay(game, rules):
        e = pos.event
        if prev is not None and e is not None and e.kind in TURN_KINDS:
            yield TurnPosition(
                pos.number, pos.player, prev.board, known_rack(e.rack, rules.tiles),
                prev.bag, list(prev.scores), prev.pool, rules,
            )  # fmt: skip
        prev = pos


def standard_games(
    paths: Iterable[str | os.PathLike[str]], *, two_players: bool = False
) -> Iterator[tuple[str, Game, RuleSet]]:
    """``(path, game, rules)`` of every readable record ``paths`` name (files, folders,
    globs), in path order, played on the standard board with English tiles (and by two
    players, with ``two_players``)."""
    for path in sorted(expand_paths([os.fspath(p) for p in paths])):
        game = load_game(path)
        if game.unreadable or (two_players and len(game.players) != 2):
            continue
        rules, _ = rules_for(game)
        if rules.tiles.name != "english" or rules.board.name != "CrosswordGame":
            continue
        yield path, game, rules
