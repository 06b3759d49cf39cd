"""Correcting the scores and cumulatives of a record that the replay proves wrong.

A play's score becomes the computed one, as do the end-rack points, own-rack penalties and
withdrawn-phony lines whose value the replay can compute; every cumulative becomes the
player's running total of the corrected scores. Only the score and cumulative tokens of
such a line are rewritten, in place: the spacing around them, the rest of the line and
every other line keep their bytes.

A line whose score cannot be computed safely (a placement the replay cannot rebuild, B5xx;
an unknown tile; end-rack tiles that are not the tiles left; a player nobody declared) is
left alone; the running total goes on from that line's recorded cumulative, as the
validator's does, so no corrected line after it disagrees with it. A line the parser could
not read is left alone too, and its player's total goes on by what their next line's
cumulative says the lost line added. The corrected record is then validated again: every
error it still has is in :attr:`FixResult.unfixable` (every warning in
:attr:`FixResult.warnings`), whatever its kind.

A record whose plays misscore by one pattern (S609: most of them, usually because the game
was played on another board or with other tile values) is not a record of wrong scores
but of other rules: :attr:`FixResult.misscored` holds that finding, and the command line
refuses to write such a fix unless asked to (``--even-if-misscored``); the right remedy is
the game's own ``--board``/``--tiles``. :meth:`FixResult.outcome_change` says when the fix
changes a final score or the winner.

    >>> data, changes = fix(read_game("game.gcg"))  # doctest: +SKIP
    >>> [(c.line, c.old, c.new) for c in changes]  # doctest: +SKIP
    [(12, '>Bob: AEINRST 8D NASTIER +64 90', '>Bob: AEINRST 8D NASTIER +66 92')]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gcgtools.findings import Code, Family, Finding
from gcgtools.model.game import Game
from gcgtools.model.read import parse_bytes
from gcgtools.render.writer import GCGExporter, accept
from gcgtools.replay.info import ReplayInfo
from gcgtools.replay.position import Validation
from gcgtools.replay.walk import validate
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.syntax.records import Event, EventKind, SourceLine
from gcgtools.syntax.spans import score_spans
from gcgtools.wording import plural

__all__ = ["FORCE_OPTION", "Change", "FixResult", "Fixer", "fix", "fix_messages", "fix_record"]

#: The command-line option that fixes a record even when most of its plays misscore.
FORCE_OPTION = "--even-if-misscored"

# Findings that mean a play or end-rack line cannot be scored from the record.
_BLOCKING = {Code.NOT_A_TILE, Code.BLANK_WITHOUT_LETTER, Code.END_TILES_MISMATCH}
# Findings that make the player of every event a guess: fix then changes nothing.
_AMBIGUOUS = {Code.DUPLICATE_NICK, Code.PLAYER_DEFINED_TWICE}
# Score findings that fix corrects (S602, the cumulative, is recomputed for every line).
_CORRECTED = {
    Code.PLAY_SCORE,
    Code.CUMULATIVE,
    Code.END_POINTS,
    Code.RACK_PENALTY,
    Code.WITHDRAWN_SCORE,
}


@dataclass(frozen=True, slots=True)
class Change:
    """One corrected line: its number, its text before and after, and why."""

    line: int
    old: str
    new: str
    reason: str


@dataclass(slots=True)
class FixResult:
    """The corrected record, its changes, and the findings fix left for a person: every
    error (``unfixable``) and warning (``warnings``) the corrected record still has, found
    by validating it again with the same rules, so nothing wrong goes unmentioned."""

    data: bytes
    changes: list[Change] = field(default_factory=list)
    unfixable: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    #: the S609 of the record as it was (most plays misscored: another board or tiles?)
    misscored: Finding | None = None
    players: list[str] = field(default_factory=list)
    #: each player's final total, as recorded before the fix and after it
    scores_before: list[int] = field(default_factory=list)
    scores_after: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.unfixable

    @property
    def winner_before(self) -> str | None:
        return _winner(self.players, self.scores_before)

    @property
    def winner_after(self) -> str | None:
        return _winner(self.players, self.scores_after)

    @property
    def score_changed(self) -> bool:
        return self.scores_before != self.scores_after

    @property
    def winner_changed(self) -> bool:
        return self.winner_before != self.winner_after

    def outcome_change(self) -> str | None:
        """One sentence when the fix changes a final score (and whether the winner
        changes with it), else None: ``final score Ann 450 -> 438, Bob 380; the winner
        changes: Ann -> Bob``."""
        if not self.score_changed:
            return None
        parts = []
        for i, nick in enumerate(self.players):
            old = self.scores_before[i] if i < len(self.scores_before) else 0
            new = self.scores_after[i] if i < len(self.scores_after) else 0
            parts.append(f"{nick} {old} -> {new}" if old != new else f"{nick} {new}")
        text = "final score " + ", ".join(parts)
        before, after = self.winner_before or "a tie", self.winner_after or "a tie"
        if before != after:
            return text + f"; the winner changes: {before} -> {after}"
        if self.winner_after is None:
            return text + "; still a tie"
        return text + f"; {after} still wins"


def _winner(players: list[str], scores: list[int]) -> str | None:
    """The player with the highest total, None for a tie (or no scores)."""
    if not scores or not players:
        return None
    top = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == top]
    if len(leaders) != 1 or leaders[0] >= len(players):
        return None
    return players[leaders[0]]


def _blocked(event: Event, info: ReplayInfo, findings: list[Finding]) -> bool:
    """True when the event's score cannot be computed safely, so its line is left alone."""
    if event.player is None:
        return True
    errors = [f for f in findings if f.severity == "error"]
    if event.kind is EventKind.PLAY:
        pos = info.position(event)
        if pos is None or pos.computed is None:
            return any(f.family == Family.BOARD or f.code in _BLOCKING for f in errors)
    if event.kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY):
        return any(f.code in _BLOCKING for f in errors)
    return False


class Fixer(GCGExporter):
    """The lossless exporter, with corrected score and cumulative tokens."""

    wants_replay = True

    def __init__(self) -> None:
        super().__init__()
        self.new_values: dict[int, tuple[int, int]] = {}  # line -> (score, cumulative)
        self.changes: list[Change] = []
        self.unfixable: list[Finding] = []

    def begin_game(self, game: Game, info: ReplayInfo | None) -> None:
        super().begin_game(game, info)
        assert info is not None
        self.plan(game, info)

    def plan(self, game: Game, info: ReplayInfo) -> None:
        """Work out the corrected score and cumulative of every event."""
        ambiguous = [f for f in game.findings if f.code in _AMBIGUOUS and f.severity == "error"]
        if ambiguous:
            self.unfixable = ambiguous
            return
        players = game.player_count()
        totals = [0] * players
        before_play: dict[int, int] = {}  # id(play) -> corrected total before it
        corrected: dict[int, int] = {}  # id(event) -> corrected score
        previous: Event | None = None
        # (line, player named: None if unknown) of each event line the parser could not read
        lost = sorted({x.line: x.player for x in game.lost}.items())
        # players whose next line says what the lost lines before it added to their total
        resync: set[int] = set()
        last_recorded = [0] * players
        for e in game.events:
            while lost and lost[0][0] < e.line:
                # a line that could not be read: its score is not known for sure, so the
                # player's total goes on from what their next line records
                q = lost.pop(0)[1]
                resync.update(range(players) if q is None else (q,))
            findings = info.findings_at(e.line)
            p = e.player
            if p is not None and p in resync:
                resync.discard(p)
                if e.kind is not EventKind.WITHDRAWN and p < players:
                    # what the record's totals say the lost line added
                    totals[p] += e.cumulative - e.score - last_recorded[p]
            if p is not None and p < players:
                last_recorded[p] = e.cumulative
            if p is None or p >= players:  # nobody declared this player: left alone
                self.unfixable += [f for f in findings if f.severity == "error"]
                previous = e
                continue
            pos = info.position(e)
            if _blocked(e, info, findings):
                self.unfixable += [f for f in findings if f.severity == "error"]
                if e.kind is EventKind.PLAY:
                    before_play[id(e)] = totals[p]
                corrected[id(e)] = e.score
                # cannot check it: take the record's word, so that no line after it is
                # judged differently than before (the validator too goes on from here)
                totals[p] = e.cumulative
                previous = e
                continue
            score = e.score
            if e.kind is EventKind.WITHDRAWN and any(
                f.code == Code.WITHDRAWN_WITHOUT_PLAY for f in findings
            ):
                # a misplaced "--", which the replay ignores: left alone, changes nothing
                corrected[id(e)] = e.score
                continue
            if e.kind is EventKind.WITHDRAWN:
                if previous is not None and id(previous) in before_play:
                    q = previous.player if previous.player is not None else p
                    if e.score != 0:  # "-- +0" is an old dialect the replay accepts
                        score = -corrected[id(previous)]
                    totals[q] = before_play[id(previous)]
                    self._plan_line(e, score, totals[q], findings)
                    corrected[id(e)] = score
                    previous = e
                    continue
            elif e.kind is EventKind.PLAY:
                before_play[id(e)] = totals[p]
                if pos is not None and pos.computed is not None:
                    score = pos.computed
            elif e.kind in (EventKind.PASS, EventKind.EXCHANGE):
                if pos is not None and pos.computed is not None:
                    score = pos.computed
            elif e.kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY):
                if pos is not None and pos.computed is not None:
                    score = pos.computed
            corrected[id(e)] = score
            totals[p] += score
            self._plan_line(e, score, totals[p], findings)
            previous = e
        self.unfixable.sort(key=lambda f: (f.line, f.code))

    def _plan_line(self, e: Event, score: int, cumulative: int, findings: list[Finding]) -> None:
        # score findings fix does not correct (a time penalty with the wrong sign, ...)
        self.unfixable += [
            f for f in findings if f.is_error(Family.SCORES) and f.code not in _CORRECTED
        ]
        if score != e.score or cumulative != e.cumulative:
            self.new_values[e.line] = (score, cumulative)

    def visit_event(self, line: SourceLine, event: Event) -> None:
        values = self.new_values.get(line.number)
        spans = score_spans(line.text) if values is not None else None
        if values is None or spans is None:
            self.copy(line)
            return
        score, cumulative = values
        (s0, s1), (c0, c1) = spans
        text = line.text
        new = (
            text[:s0]
            + (f"{score:+d}" if score != event.score else text[s0:s1])
            + text[s1:c0]
            + (str(cumulative) if cumulative != event.cumulative else text[c0:c1])
            + text[c1:]
        )
        why = []
        if score != event.score:
            why.append(f"score {text[s0:s1]} -> {score:+d}")
        if cumulative != event.cumulative:
            why.append(f"cumulative {text[c0:c1]} -> {cumulative}")
        self.changes.append(Change(line.number, text, new, "; ".join(why)))
        self.emit(new, line.ending)


def fix_record(
    game: Game,
    *,
    options: RuleOptions = NO_OPTIONS,
) -> FixResult:
    """Correct the scores and cumulatives the replay proves wrong; see the module doc."""

    def check(record: Game) -> Validation:
        return validate(record, options=options)

    before = check(game)
    info = ReplayInfo.of(game, options)
    fixer = Fixer()
    data = accept(game, fixer, info)
    # what is left: the corrected record validated again (a line left alone keeps its
    # findings, and so do lines and pragmas fix never touches)
    fixed = parse_bytes(data, game.path) if fixer.changes else game
    after = check(fixed) if fixer.changes else before
    left = after.findings
    errors = [f for f in left if f.severity == "error"]
    warnings = [f for f in left if f.severity == "warning"]
    return FixResult(
        data,
        fixer.changes,
        errors,
        warnings,
        misscored=next((f for f in before.findings if f.code == Code.MOSTLY_MISSCORED), None),
        players=[p.nick for p in sorted(game.players, key=lambda p: p.index)],
        scores_before=list(before.recorded),
        scores_after=list(after.recorded),
    )


def fix(
    game: Game,
    *,
    options: RuleOptions = NO_OPTIONS,
) -> tuple[bytes, list[Change]]:
    """``(bytes, changes)``: the corrected record and each change (line, old, new, reason).

    Use :func:`fix_record` to also get the findings that could not be fixed."""
    result = fix_record(game, options=options)
    return result.data, result.changes


def fix_messages(result: FixResult, name: str, *, refused: bool = False) -> list[str]:
    """What ``fix`` tells the user about one record: each change (the line before and
    after), every finding left, and when the final score or the winner changes; or, when
    the fix is ``refused`` (the record misscores by one pattern, S609), why, and what to
    do instead."""
    if refused and result.misscored is not None:
        f = result.misscored
        n = len(result.changes)
        would = f"rescoring every play on this board would change {plural(n, 'line')}"
        if result.winner_changed:
            would += f" and the winner ({result.winner_before or 'a tie'} -> "
            would += f"{result.winner_after or 'a tie'})"
        return [
            f"{f.format(name)}",
            f"{name}: not fixed: {would}; give the board and tiles the game used (--board, "
            f"--tiles), or rescore anyway with {FORCE_OPTION}",
        ]
    lines: list[str] = []
    for c in result.changes:
        lines += [f"{name}:{c.line}: {c.reason}", f"  - {c.old}", f"  + {c.new}"]
    left = sorted([*result.unfixable, *result.warnings], key=lambda f: (f.line, f.code))
    lines += [f"{f.format(name)} (not fixed)" for f in left]
    outcome = result.outcome_change()
    if outcome is not None:
        lines.append(f"{name}: {outcome}")
    return lines
