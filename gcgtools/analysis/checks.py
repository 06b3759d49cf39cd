"""Validating files for the batch commands: a small, picklable report per file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

from gcgtools.findings import Finding, make
from gcgtools.model.game import Game
from gcgtools.model.load import load_game
from gcgtools.replay.engine import validate


@dataclass(slots=True)
class FileReport:
    """What ``validate`` says about one file."""

    path: str
    ok: bool
    unreadable: bool
    events: int
    findings: list[Finding] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    final_scores: list[int] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning")

    def only(self, keep: Callable[[str], bool]) -> FileReport:
        """This report with only the findings whose code ``keep`` accepts; ``ok`` is then
        true when none of those is an error (an unreadable file stays unreadable)."""
        findings = [f for f in self.findings if keep(f.code)]
        ok = not self.unreadable and not any(f.severity == "error" for f in findings)
        return replace(self, findings=findings, ok=ok)

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "ok": self.ok,
            "unreadable": self.unreadable,
            "events": self.events,
            "findings": [f.to_dict() for f in self.findings],
            "players": self.players,
            "final_scores": self.final_scores,
        }


def check_file(
    path: str,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | None = None,
    challenge_bonus: int | None = None,
) -> FileReport:
    """Parse, replay and validate one file. Never raises for a bad file."""
    return check_game(
        load_game(path), path, tiles=tiles, board=board, end_rule=end_rule,
        challenge_bonus=challenge_bonus,
    )  # fmt: skip


def check_game(
    game: Game,
    path: str,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | None = None,
    challenge_bonus: int | None = None,
) -> FileReport:
    """Replay and validate a record already read (from standard input, say), reported
    under the name ``path``. Never raises for a bad record."""
    if game.unreadable:
        findings = sorted(game.findings, key=lambda f: f.line)
        for f in findings:
            f.path = path
        return FileReport(path, False, True, len(game.events), findings)
    try:
        result = validate(
            game, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
        )
    except (KeyError, ValueError) as exc:  # an unknown --tiles/--board/--rules name
        finding = make("H209", f"cannot set up the rules: {exc}", 1)
        finding.path = path
        return FileReport(path, False, True, len(game.events), [finding])
    for f in result.findings:
        f.path = path
    return FileReport(
        path,
        result.ok,
        False,
        result.events,
        result.findings,
        [p.nick for p in game.players],
        result.recorded,
    )


def checker(**options: object) -> partial[FileReport]:
    """``check_file`` with options bound, picklable for worker processes."""
    return partial(check_file, **options)  # type: ignore[arg-type]
