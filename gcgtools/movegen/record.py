"""The position after an event of a record (or of a CGP), with the rack of the player to
move, and its moves: what ``gcgtools moves`` and ``gcgtools board --format cgp`` show."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from os import PathLike

from gcgtools.lexicon import Leaves, Lexicon, LexiconError, resolve_leaves, resolve_lexicon
from gcgtools.model.game import Game
from gcgtools.movegen.cgp import (
    CgpError,
    CgpPosition,
    check_rack_size,
    check_tile_counts,
    parse_cgp,
    quoted,
    write_cgp,
)
from gcgtools.movegen.generate import generate_moves, rack_tiles
from gcgtools.movegen.move import Move
from gcgtools.replay.after import position_after
from gcgtools.replay.board import Board
from gcgtools.replay.position import Position, known_rack, tiles_text
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.rules.rulesets import RuleSet
from gcgtools.rules.tiles import BLANK, TileError, is_blank_tile
from gcgtools.syntax.records import TURN_KINDS, EventKind
from gcgtools.wording import no_lexicon

__all__ = [
    "MovesError",
    "PositionMoves",
    "RecordPosition",
    "cgp_moves",
    "given_rack",
    "moves_leaves",
    "moves_lexicon",
    "record_cgp",
    "record_moves",
    "record_position",
    "record_position_at",
]


class MovesError(ValueError):
    """A position or its analysis cannot be had: the message says why (one line).

    ``option``: the input at fault (``"move"``: the event number; ``"rack"``: the rack
    given), or None. The message names it in words (``move must be between 0 and 4``,
    ``rack 'ABC…' has 11 tiles; …``, ``…; give a rack``), never as a command-line option:
    a command puts its own option's name there."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


@dataclass
class RecordPosition:
    """The position after ``event`` (0: before the first event) for the player to move.

    ``rack`` is that player's rack as the record shows it (the next line of theirs, or
    ``#rackN``), None when unknown; ``opponent_rack`` is known only when the bag is empty
    (the tiles unseen by the player to move). ``scores`` are the recorded totals, the
    player to move first; ``zeros`` the scoreless turns in a row so far.
    """

    event: int
    board: Board
    rules: RuleSet
    player: int
    nick: str
    rack: list[str] | None
    bag: int
    opponent_rack: list[str] | None
    scores: tuple[int, int]
    zeros: int
    lexicon_name: str | None
    position: Position | None = None

    def check_rack(self) -> None:
        """MovesError when the record's rack is longer than a rack can be (T409)."""
        if self.rack is not None and len(self.rack) > self.rules.rack_size:
            raise MovesError(
                f"the record's rack {quoted(tiles_text(self.rack))} of {self.nick} after event "
                f"{self.event} has {len(self.rack)} tiles; a rack holds at most "
                f"{self.rules.rack_size} (T409)"
            )

    def cgp(self) -> str:
        """The position in CGP, the player to move first (MovesError for a rack that
        cannot be one: see :meth:`check_rack`)."""
        self.check_rack()
        options: dict[str, str] = {}
        if self.lexicon_name:
            options["lex"] = self.lexicon_name
        if self.rules.tiles.name != "english":
            options["ld"] = self.rules.tiles.name
        if self.rules.board.name != "CrosswordGame":
            options["bdn"] = self.rules.board.name
        racks = (self.rack or [], self.opponent_rack or [])
        return write_cgp(self.board, racks, self.scores, self.zeros, options)


@dataclass
class PositionMoves:
    """A position's moves (best first) with what they were computed from."""

    position: RecordPosition
    rack: list[str]
    lexicon: Lexicon
    leaves: Leaves
    moves: list[Move] = field(default_factory=list)


def _zeros(game: Game, event: int) -> int:
    """Scoreless turns in a row at the end of the first ``event`` events."""
    count = 0
    skip = False
    for e in reversed(game.events[:event]):
        if e.kind is EventKind.WITHDRAWN:
            count += 1
            skip = True
        elif e.kind in TURN_KINDS:
            if skip:
                skip = False
                continue
            if e.score != 0:
                break
            count += 1
        elif e.kind is EventKind.CHALLENGE_BONUS:
            break
    return count


def record_position(game: Game, event: int, *, options: RuleOptions = NO_OPTIONS) -> RecordPosition:
    """The position after event ``event`` (1-based; 0 = the empty board). Raises
    :class:`MovesError` for an event number out of range, RuleOptionError for bad
    rule ``options``."""
    if not 0 <= event <= len(game.events):
        raise MovesError(f"move must be between 0 and {len(game.events)}", option="move")
    pos, rules = position_after(game, event, options)
    return record_position_at(game, event, pos, rules)


def record_position_at(game: Game, event: int, pos: Position, rules: RuleSet) -> RecordPosition:
    """The :class:`RecordPosition` of ``pos``, the position after event ``event`` of
    ``game`` replayed under ``rules`` (for a caller that replayed the record once and holds
    every position: :func:`gcgtools.replay.after.replay_positions`)."""
    player = pos.to_move if pos.to_move is not None else 0
    nick = next((p.nick for p in game.players if p.index == player), f"player{player + 1}")
    rack = None
    for e in game.events[event:]:
        if e.player == player and e.kind in TURN_KINDS:
            rack = known_rack(e.rack, rules.tiles)
            if rack is not None:
                break
    if rack is None and player in game.final_racks:
        rack = known_rack(game.final_racks[player], rules.tiles)
    if rack is None and event == 0 and player in game.initial_racks:
        rack = known_rack(game.initial_racks[player], rules.tiles)
    opponent = None
    if rack is not None and pos.bag == 0 and len(game.players) == 2:
        unseen = +(pos.pool - Counter(rack))
        opponent = sorted(unseen.elements())
    other = 1 - player if len(pos.recorded) == 2 else (player + 1) % max(len(pos.recorded), 1)
    recorded = list(pos.recorded) or [0, 0]
    scores = (recorded[player], recorded[other]) if len(recorded) > max(player, other) else (0, 0)
    return RecordPosition(
        event, pos.board, rules, player, nick, rack, pos.bag, opponent, scores,
        _zeros(game, event), game.lexicon, pos,
    )  # fmt: skip


def record_cgp(game: Game, event: int, *, options: RuleOptions = NO_OPTIONS) -> str:
    """The CGP of the position after event ``event``."""
    return record_position(game, event, options=options).cgp()


def moves_lexicon(
    name: str | None,
    rules: RuleSet,
    lexicon: str | PathLike[str] | None,
    lexica: str | PathLike[str] | None,
) -> Lexicon:
    """The lexicon moves are generated with: the file ``lexicon``, else the one ``name``
    names in the ``lexica`` folder. Raises :class:`MovesError` when there is none, or
    when its KWG has no GADDAG."""
    try:
        found = resolve_lexicon(name, path=lexicon, lexica=lexica, tiles=rules.tiles)
    except LexiconError as exc:
        raise MovesError(str(exc)) from None
    if found is None:
        where = "the lexicon folder (--lexica DIR or GCGTOOLS_LEXICA)"
        why = f"{name} not found in {where}" if name else f"the record names none for {where}"
        raise MovesError(no_lexicon(why))
    if not found.kwg.gaddag_root:
        raise MovesError(f"{found.describe()}: the KWG has no GADDAG, moves cannot be generated")
    return found


def moves_leaves(
    name: str | None, rules: RuleSet, leaves: str | PathLike[str] | None,
    lexica: str | PathLike[str] | None,
) -> Leaves:  # fmt: skip
    """The leave values of the lexicon ``name``: the file ``leaves``, else the lexicon's
    in the ``lexica`` folder, else the built-in ones. Raises :class:`MovesError` for a
    file that cannot be used."""
    try:
        return resolve_leaves(path=leaves, lexica=lexica, lexicon_name=name, tiles=rules.tiles)
    except ValueError as exc:
        raise MovesError(str(exc)) from None


def given_rack(text: str, rules: RuleSet) -> list[str]:
    """The tiles of a rack given as text (``--rack``), checked against the tile set and
    the rack size. Raises :class:`MovesError` naming the rack (``option`` ``"rack"``)."""
    try:
        tiles = rack_tiles(text, rules.tiles)
        check_rack_size(tiles, rules, "rack")
    except CgpError as exc:
        raise MovesError(str(exc), option="rack") from None
    except TileError as exc:
        raise MovesError(f"rack {quoted(text)}: {exc}", option="rack") from None
    return tiles


def record_moves(
    game: Game,
    event: int,
    *,
    rack: str | None = None,
    lexicon: str | PathLike[str] | None = None,
    lexica: str | PathLike[str] | None = None,
    leaves: str | PathLike[str] | None = None,
    options: RuleOptions = NO_OPTIONS,
) -> PositionMoves:
    """The moves of the player to move after event ``event`` of ``game``, best first.
    ``rack`` overrides the record's rack. Raises :class:`MovesError` (a one-line reason)
    when there is no rack, no lexicon, or bad input."""
    pos = record_position(game, event, options=options)
    rules = pos.rules
    if rack is None:
        pos.check_rack()
    tiles_in_hand = given_rack(rack, rules) if rack is not None else pos.rack
    if not tiles_in_hand:
        raise MovesError(
            f"the record does not show the rack of {pos.nick} after event {event}; give a rack",
            option="rack",
        )
    lex = moves_lexicon(game.lexicon, rules, lexicon, lexica)
    leave_table = moves_leaves(
        lex.name if lexicon is not None else game.lexicon, rules, leaves, lexica
    )
    opponent = pos.opponent_rack
    if rack is not None and pos.bag == 0 and pos.position is not None:
        opponent = sorted((+(pos.position.pool - Counter(tiles_in_hand))).elements())
    moves = generate_moves(
        pos.board, tiles_in_hand, lex, leaves=leave_table, bag_count=pos.bag,
        opponent_rack=opponent, rules=rules,
    )  # fmt: skip
    return PositionMoves(pos, tiles_in_hand, lex, leave_table, moves)


def cgp_moves(
    text: str,
    *,
    rack: str | None = None,
    lexicon: str | PathLike[str] | None = None,
    lexica: str | PathLike[str] | None = None,
    leaves: str | PathLike[str] | None = None,
    bag: int | None = None,
    tiles: str | None = None,
    board: str | None = None,
) -> PositionMoves:
    """The moves of the player to move in a CGP position. The bag holds what the board
    and both racks leave of the tile set (``bag`` overrides). ``tiles`` and ``board``
    (``--tiles``, ``--board``) override the CGP's ``ld`` and ``bdn``."""
    try:
        cgp: CgpPosition = parse_cgp(text, tiles=tiles, board=board)
    except ValueError as exc:
        raise MovesError(f"CGP: {exc}") from None
    rules = cgp.rules
    mine = given_rack(rack, rules) if rack is not None else cgp.racks[0]
    if not mine:
        raise MovesError("the CGP gives no rack for the player to move; give a rack", "rack")
    if rack is not None:
        try:
            check_tile_counts(cgp.board, [mine, cgp.racks[1]], rules.tiles)
        except CgpError as exc:
            raise MovesError(f"rack {quoted(rack)}: {exc}", option="rack") from None
    if bag is None:
        seen = Counter(BLANK if is_blank_tile(t) else t for t in cgp.board.cells if t is not None)
        seen.update(mine)
        seen.update(cgp.racks[1])
        total = sum(rules.tiles.counts.values())
        bag = max(total - sum(seen.values()), 0)
        if not cgp.racks[1]:  # the opponent's rack is unknown: it holds up to 7 of them
            bag = max(bag - rules.rack_size, 0)
    opponent = cgp.racks[1] or None
    lex = moves_lexicon(cgp.lexicon, rules, lexicon, lexica)
    leave_table = moves_leaves(
        lex.name if lexicon is not None else cgp.lexicon, rules, leaves, lexica
    )
    moves = generate_moves(
        cgp.board, mine, lex, leaves=leave_table, bag_count=bag, opponent_rack=opponent,
        rules=rules,
    )  # fmt: skip
    recorded = RecordPosition(
        0, cgp.board, rules, 0, "to move", mine, bag, cgp.racks[1] or None, cgp.scores,
        cgp.zeros, cgp.lexicon,
    )  # fmt: skip
    return PositionMoves(recorded, mine, lex, leave_table, moves)
