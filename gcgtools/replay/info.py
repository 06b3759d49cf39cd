"""What one replay says about a record, for the writers that need more than its text
(the annotator, the fixer, the report, the HTML page): every position, the board before
each event, and every finding by source line."""

from __future__ import annotations

from dataclasses import dataclass, field

from gcgtools.findings import Finding
from gcgtools.model.game import Game
from gcgtools.replay.board import Board
from gcgtools.replay.walk import Position, Positions, walk
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.rules.resolve import resolve_with_findings
from gcgtools.rules.rulesets import RuleSet
from gcgtools.syntax.records import Event

__all__ = ["ReplayInfo"]


@dataclass(slots=True)
class ReplayInfo:
    """What the replay says about a record, for visitors that need more than the text.

    ``positions`` maps ``id(event)`` to the :class:`Position` after the event (an event the
    replay ignored, such as a final pass after the opponent went out, has none);
    ``boards_before`` to the board just before it. ``findings`` holds every finding of the
    record (syntax, header, rules set-up and replay), by source line: errors first, then
    warnings, then infos.
    """

    rules: RuleSet
    positions: dict[int, Position] = field(default_factory=dict)
    boards_before: dict[int, Board] = field(default_factory=dict)
    findings: dict[int, list[Finding]] = field(default_factory=dict)
    start: Position | None = None
    ordered: list[Position] = field(default_factory=list)

    def position(self, event: Event) -> Position | None:
        return self.positions.get(id(event))

    def board_before(self, event: Event) -> Board | None:
        return self.boards_before.get(id(event))

    def findings_at(self, line: int) -> list[Finding]:
        return self.findings.get(line, [])

    @classmethod
    def of(
        cls,
        game: Game,
        options: RuleOptions = NO_OPTIONS,
    ) -> ReplayInfo:
        """Replay ``game`` once under the rule ``options``, keeping every position and
        every finding."""
        rules, setup = resolve_with_findings(game, options)
        info = cls(rules)
        visitor = Positions()
        positions = walk(game, rules, visitor, detect_end_rule=options.end_rule is None)
        previous: Board | None = None
        for pos in positions:
            info.ordered.append(pos)
            if pos.event is None:
                info.start = pos
            else:
                info.positions[id(pos.event)] = pos
                if previous is not None:
                    info.boards_before[id(pos.event)] = previous
            previous = pos.board
        rank = {"error": 0, "warning": 1, "info": 2}
        every = [*game.findings, *setup, *visitor.findings]
        for f in sorted(every, key=lambda f: (f.line, rank.get(f.severity, 3), f.code)):
            info.findings.setdefault(f.line, []).append(f)
        return info
