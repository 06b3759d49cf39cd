"""The replay's state, in small groups the walk owns: the board and the tiles in play
(:class:`Table`), the bag and the racks (:class:`Hands`), the scores (:class:`Totals`),
whose turn it is and what the last lines leave to answer (:class:`Order`), the end of the
game (:class:`Ending`, :class:`EndLines`) and what the lines the parser could not read
leave unknown (:class:`Gaps`); :class:`ReplayState` holds them with the game, its rules and
where findings go. The rule checks are functions of it (:mod:`~gcgtools.replay.checks`,
:mod:`~gcgtools.replay.moves`, :mod:`~gcgtools.replay.turns`,
:mod:`~gcgtools.replay.ending`); :class:`~gcgtools.replay.replayer.Replayer` steps them
through the record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from gcgtools.findings import Finding
from gcgtools.model.game import Game
from gcgtools.replay.board import Board
from gcgtools.rules.rulesets import EndRule, RuleSet
from gcgtools.syntax.records import Event


@dataclass(slots=True)
class Undo:
    """What a play changed, so that a withdrawn phony can be taken back: the play, its
    tiles and computed score, and what the state was before it."""

    event: Event
    player: int
    placed: list[tuple[int, int, str]]
    used: list[str]  # the tiles taken from the rack, as in the bag
    computed_score: int | None
    computed_before: int  # the player's computed total before the play
    recorded_before: int  # the player's recorded total before the play
    hands: tuple[int, list[int]]  # the bag and the rack counts before the play
    streak: tuple[int, int]  # scoreless turns and passes in a row before the play
    end: tuple[str | None, int | None]  # how the game was over, who went out: before it


@dataclass(slots=True)
class EndLines:
    """The end-of-game lines met so far."""

    points: int = 0  # end-rack points lines
    penalties: set[int] = field(default_factory=set)  # players given an own-rack penalty
    times: set[int] = field(default_factory=set)  # players given a time penalty
    early_time: int = 0  # the line of a time penalty before the end-rack lines (O309)


@dataclass(slots=True)
class Gaps:
    """What the event lines the parser could not read leave unknown."""

    # players whose next cumulative is not checked
    unjudged: set[int] = field(default_factory=set)
    tiles_unknown: bool = False  # a lost line may have been a play: not every tile is known
    after_end: bool = False  # a lost line came after the end of the game


@dataclass(slots=True)
class Table:
    """The board and the tiles in play."""

    board: Board
    pool: Counter[str]  # the tiles not on the board (the unseen pool; below 0: overplayed)
    on_board: int = 0  # tiles on the board
    overdrawn: set[str] = field(default_factory=set)  # tiles played more than the set holds
    # empty squares a play that could not be put down may cover -> its line (B511)
    uncertain: dict[int, int] = field(default_factory=dict)


@dataclass(slots=True)
class Hands:
    """The bag and the players' racks."""

    bag: int  # tiles in the bag
    counts: list[int]  # tiles on each player's rack
    racks: list[str | None]  # each player's last recorded rack
    kept: list[str | None]  # each player's last leave


@dataclass(slots=True)
class Totals:
    """The players' scores."""

    recorded: list[int]  # each player's last recorded cumulative
    computed: list[int]  # each player's total by the computed scores
    # the totals lines that change nothing recorded, which the player's next cumulative
    # may follow instead
    also: dict[int, int] = field(default_factory=dict)
    plays_scored: int = 0  # plays whose score could be computed (S609 counts them)


@dataclass(slots=True)
class Order:
    """Whose turn it is, and what the lines before this one leave to answer."""

    players: int  # how many players
    next: int | None = None  # the player to move, if known
    scoreless: int = 0  # scoreless turns in a row
    passes: int = 0  # passes in a row
    undo: Undo | None = None  # what the last play changed, while it can be withdrawn
    last: Event | None = None  # the last line that changed something
    # set by a handler for a line that changes nothing (the next line still follows
    # the one before it)
    ignored: bool = False


@dataclass(slots=True)
class Ending:
    """The end of the game: whether and how it ended, by what rule, the end lines met."""

    reason: str | None = None  # "out", "scoreless", "passes" or "time"; None: not over
    out_player: int | None = None  # the player who went out
    rule: EndRule | None = None  # the end-of-game rule, given or read from the record
    lines: EndLines = field(default_factory=EndLines)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.reason is not None

    def end(self, reason: str, out_player: int | None = None) -> None:
        """The game ends, by ``reason`` (``out_player``: who went out)."""
        self.reason, self.out_player = reason, out_player


@dataclass(slots=True)
class ReplayState:
    """Everything a rule check may read or change part way through a record: the game and
    its rules, the state's groups, and ``report``, where every finding goes."""

    game: Game
    rules: RuleSet
    report: Callable[[Finding], None]
    table: Table
    hands: Hands
    totals: Totals
    order: Order
    ending: Ending
    gaps: Gaps = field(default_factory=Gaps)
    detail: bool = True  # words, premiums and leaves for the positions


def start_state(
    game: Game,
    rules: RuleSet,
    report: Callable[[Finding], None],
    *,
    detail: bool = True,
    detect_end_rule: bool = True,
) -> ReplayState:
    """The state before the first event: an empty board, full bag, racks drawn, no score.
    Without ``detect_end_rule`` the rules' end rule is taken as given."""
    n = game.player_count()
    tiles, size = rules.tiles, rules.rack_size
    return ReplayState(
        game=game,
        rules=rules,
        report=report,
        table=Table(Board(rules.board, tiles), Counter(dict(tiles.counts))),
        hands=Hands(tiles.total_tiles - size * n, [size] * n, [None] * n, [None] * n),
        totals=Totals([0] * n, [0] * n),
        order=Order(n),
        ending=Ending(rule=None if detect_end_rule else rules.end_rule),
        detail=detail,
    )
