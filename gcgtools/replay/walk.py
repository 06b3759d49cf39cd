"""Replaying a game event by event: board, bag, racks, scores, and every finding.

:func:`replay` yields a :class:`Position` after each event. :func:`validate` runs the
replay to the end and gathers the findings. The replay never stops at a problem: it
reports it at its own line and carries on from what the record says, so a single
mistake is reported once and later lines are judged on their own:

* the cumulative of a line is checked against the player's previous *recorded* total (a
  wrong total is reported once; later lines that follow it, or that follow the computed
  total, are fine);
* a play whose recorded score is wrong still counts as recorded for the totals;
* a play that cannot be put on the board as written (off the board, through an empty
  square, an unknown letter) still takes its tiles from the rack and the bag, so the end
  of the game is still found; no tile of a play that runs off the board is put down (where
  it went is unknown), the other such plays put their new tiles on their own squares, and
  a later play through an empty square the play may cover is not judged (B511);
* a move after the end of the game is reported and then ignored;
* a line whose nickname is wrong (out of turn, or a challenge bonus to the wrong player)
  but whose cumulative follows the other player's total is read as that player's line; a
  nickname that names no player is read as the player whose turn it is;
* a ``--`` whose player made no play just before it changes nothing (O305);
* an event line the parser could not read is replayed as the model recovered it
  (``Game.lost``, :mod:`gcgtools.model.salvage`: with an unknown rack when only its rack
  was at fault, with the ``:`` a declared nickname lacked); any other unreadable event line
  leaves a gap: the turn order and the next cumulative of its player are not judged across
  it, nor from then on the tiles left at the end;
* when most plays misscore, one S609 says the record probably uses another board or other
  tile values (:func:`validate` names a known pair that fits, if any);

This module holds the one walk through a record, :func:`walk`, which drives a
:class:`ReplayVisitor` (as python-chess's visitors are driven by its reader): the
visitor is told the start, every finding, every event with its position, and the end.
Three visitors serve every caller: :class:`FindingsOnly` (:func:`validate`: no positions
built), :class:`Positions` (:func:`replay`: a position with its own board per event) and
:class:`EachEvent` (lean positions handed to a function while the walk stands at them,
for the tables). The replayer itself, the state the walk owns and the step through one
line, is :mod:`~gcgtools.replay.replayer`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from gcgtools.findings import Code, Finding
from gcgtools.model.game import Game
from gcgtools.replay.position import Position, Validation
from gcgtools.replay.replayer import Replayer
from gcgtools.replay.setup import resolve_rules
from gcgtools.rules.boards import BOARDS
from gcgtools.rules.options import RuleOptions, rule_options
from gcgtools.rules.rulesets import EndRule, RuleSet, bingo_bonus_for
from gcgtools.rules.tiles import TILE_SETS

__all__ = [
    "EachEvent",
    "FindingsOnly",
    "Outcome",
    "Position",
    "Positions",
    "ReplayVisitor",
    "Replayer",
    "Validation",
    "replay",
    "validate",
    "walk",
]

T = TypeVar("T")


class ReplayVisitor(Generic[T]):
    """What :func:`walk` drives through a record. ``begin`` is called once, before the
    first event, with the replayer (its state: board, pool, totals, ...); ``visit_finding``
    once for every finding the replay reports, in the order reported (those of a line
    before the event that follows it); ``visit_event`` after each event of the record, in
    order, with its position (``pos.number``: 1 for the first event, as every command
    counts); ``end`` once, after the checks on the whole record, and what it returns the
    walk returns. The defaults do nothing.

    The class attributes say what the walk builds: ``positions``, a position per event
    with ``recorded``, ``findings``, ``game_over``, ``end_reason`` and ``to_move`` filled
    (else one scratch position serves every event, and nobody should keep it);
    ``detail``, each play's words and premiums and each turn's leave.
    """

    positions: bool = True
    detail: bool = True

    def begin(self, replayer: Replayer) -> None:
        """Before the first event."""

    def visit_finding(self, finding: Finding) -> None:
        """A finding of the replay (not the parser's: those are on the game)."""

    def visit_event(self, pos: Position, replayer: Replayer) -> None:
        """After an event: ``pos`` shares the live board and pool, which the walk changes
        at the next event."""

    def end(self, replayer: Replayer) -> T:
        """After the whole record; the walk's result."""
        raise NotImplementedError


def walk(
    game: Game, rules: RuleSet, visitor: ReplayVisitor[T], *, detect_end_rule: bool = True
) -> T:
    """Replay ``game`` under ``rules`` once, driving ``visitor``; return its ``end``.
    Without ``detect_end_rule`` the rules' end rule is taken as given (else the record's
    end-of-game lines tell it)."""
    replayer = _replayer(game, rules, visitor, detect_end_rule=detect_end_rule)
    visitor.begin(replayer)
    for _ in _drive(replayer, visitor):
        pass
    return visitor.end(replayer)


def _replayer(
    game: Game, rules: RuleSet, visitor: ReplayVisitor[T], *, detect_end_rule: bool
) -> Replayer:
    """The replayer of ``game`` that builds what ``visitor`` reads."""
    return Replayer(
        game, rules, detail=visitor.detail, scratch=not visitor.positions,
        detect_end_rule=detect_end_rule,
    )  # fmt: skip


def _drive(replayer: Replayer, visitor: ReplayVisitor[T]) -> Iterator[Position]:
    """Step ``replayer`` through its record, telling ``visitor`` every finding and event;
    yield each event's position once the visitor has seen it (so a caller that stops
    early replays no further). The findings after the last event are told once the
    record is done."""
    findings = replayer.findings
    told = 0
    positions = visitor.positions
    state = replayer.state
    totals, ending, order = state.totals, state.ending, state.order
    for pos, mark in replayer.events():
        if len(findings) > told:
            for f in findings[told:]:
                visitor.visit_finding(f)
            told = len(findings)
        if positions:
            pos.recorded = totals.recorded.copy()
            pos.findings = findings[mark:]
            pos.game_over, pos.end_reason = ending.over, ending.reason
            pos.to_move = order.next
        visitor.visit_event(pos, replayer)
        yield pos
    for f in findings[told:]:
        visitor.visit_finding(f)


@dataclass(slots=True)
class Outcome:
    """What a replay found, and the totals it ended with."""

    findings: list[Finding]
    recorded: list[int]
    computed: list[int]
    game_over: bool
    end_reason: str | None
    end_rule: EndRule | None
    plays_scored: int  # plays whose score could be computed


class FindingsOnly(ReplayVisitor[Outcome]):
    """The replay's findings and final totals, no position built."""

    positions = False
    detail = False

    def __init__(self) -> None:
        self.findings: list[Finding] = []

    def visit_finding(self, finding: Finding) -> None:
        self.findings.append(finding)

    def end(self, replayer: Replayer) -> Outcome:
        r = replayer
        return Outcome(self.findings, r.recorded, r.computed, r.game_over, r.end_reason,
                       r.end_rule, r.plays_scored)  # fmt: skip


class Positions(ReplayVisitor[list[Position]]):
    """The start position, then the position after each event, each with its own copy of
    the board and pool, totals, racks and leaves; ``findings`` keeps the replay's."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.out: list[Position] = []

    def begin(self, replayer: Replayer) -> None:
        self.out.append(replayer.start())

    def visit_finding(self, finding: Finding) -> None:
        self.findings.append(finding)

    def visit_event(self, pos: Position, replayer: Replayer) -> None:
        replayer.snapshot(pos)
        self.out.append(pos)

    def end(self, replayer: Replayer) -> list[Position]:
        return self.out


class EachEvent(ReplayVisitor[Replayer]):
    """Hands each event's lean position to ``on_event`` while the walk stands at it (so
    that it may read the live board, :meth:`Replayer.words_now`), for tables that read a
    few fields of every event: ``number``, ``event``, ``player``, ``computed``,
    ``placed``, ``bingo``, ``recorded``, ``findings``, ``game_over``, ``end_reason`` and
    ``to_move``, and with ``detail`` ``words``, ``premiums`` and ``leave``; ``scores``,
    ``racks`` and ``kept`` stay empty. The walk returns the replayer, at the end."""

    def __init__(
        self, on_event: Callable[[Position, Replayer], None], *, detail: bool = False
    ) -> None:
        self.on_event = on_event
        self.detail = detail

    def visit_event(self, pos: Position, replayer: Replayer) -> None:
        self.on_event(pos, replayer)

    def end(self, replayer: Replayer) -> Replayer:
        return replayer


def _name_what_fits(
    game: Game, rules: RuleSet, findings: list[Finding], *, detect_end_rule: bool
) -> None:
    """When most plays misscore (S609), replay the record on every known board with every
    known tile set that spells it; name in the finding the pair whose scores fit (at most
    one play in ten misscored, the fewest), if any."""
    hint = next((f for f in findings if f.code == Code.MOSTLY_MISSCORED), None)
    if hint is None:
        return
    texts = ".".join(t for e in game.events for t in (e.word, e.tiles, e.rack) if t)
    best: tuple[int, str, str] | None = None
    for layout in BOARDS.values():
        for tile_set in TILE_SETS.values():
            if (layout is rules.board and tile_set.name == rules.tiles.name) or not (
                tile_set.spells(texts)
            ):
                continue
            bonus = bingo_bonus_for(tile_set.name, layout.name)
            other = replace(rules, board=layout, tiles=tile_set, bingo_bonus=bonus, name="")
            trial = walk(game, other, FindingsOnly(), detect_end_rule=detect_end_rule)
            wrong = sum(1 for f in trial.findings if f.code == Code.PLAY_SCORE)
            if trial.plays_scored and wrong * 10 <= trial.plays_scored:
                if best is None or wrong < best[0]:
                    best = (wrong, layout.name, tile_set.name)
    if best is not None:
        _, layout_name, tiles_name = best
        hint.message = (
            hint.message.split(": the record", 1)[0]
            + f": its scores fit the {layout_name} board with {tiles_name} tile values "
            f"(--board {layout_name} --tiles {tiles_name})"
        )


def replay(
    game: Game,
    rules: RuleSet | None = None,
    *,
    options: RuleOptions | None = None,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> Iterator[Position]:
    """Yield the :class:`Position` after each event of ``game`` (first the empty start).

    ``rules`` defaults to what the record's pragmas imply, with the overrides given
    (``options``, or the keywords ``tiles``, ``board``, ``end_rule``, ``challenge_bonus``:
    see :class:`~gcgtools.rules.options.RuleOptions`); given ``rules`` still take the end
    rule and challenge bonus when those are passed. Without an end rule the end-of-game
    rule is read from the record itself.
    """
    chosen = rule_options(
        options, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
    )
    return _replay(game, rules, chosen)


def _replay(game: Game, rules: RuleSet | None, options: RuleOptions) -> Iterator[Position]:
    rules, _ = resolve_rules(game, rules, options)
    visitor = Positions()
    replayer = _replayer(game, rules, visitor, detect_end_rule=options.end_rule is None)
    visitor.begin(replayer)
    yield visitor.out[0]  # the start
    yield from _drive(replayer, visitor)


def validate(
    game: Game,
    rules: RuleSet | None = None,
    *,
    options: RuleOptions | None = None,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> Validation:
    """Replay the whole record and return every finding, parse-level ones included. The
    rule overrides are as for :func:`replay`."""
    chosen = rule_options(
        options, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
    )
    rules, setup_findings = resolve_rules(game, rules, chosen)
    detect = chosen.end_rule is None
    outcome = walk(game, rules, FindingsOnly(), detect_end_rule=detect)
    if chosen.tiles is None and chosen.board is None:
        _name_what_fits(game, rules, outcome.findings, detect_end_rule=detect)
    findings = sorted(
        [*game.findings, *setup_findings, *outcome.findings], key=lambda f: (f.line, f.code)
    )
    for f in findings:
        f.path = game.path
    return Validation(
        game=game,
        rules=rules,
        findings=findings,
        recorded=outcome.recorded,
        computed=outcome.computed,
        end_reason=outcome.end_reason,
        end_rule=outcome.end_rule,
        events=len(game.events),
    )
