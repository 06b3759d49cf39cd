"""Validating files for the batch commands: a small, picklable report per file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

from gcgtools.findings import Code, Finding, make
from gcgtools.model.game import Game
from gcgtools.replay.walk import validate
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.sources.load import load_game
from gcgtools.sources.paths import display_name


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


def check_file(path: str, options: RuleOptions = NO_OPTIONS) -> FileReport:
    """Parse, replay and validate one file. Never raises for a bad file: even a failure
    of gcgtools itself on it becomes its F010 finding, so a batch goes on."""
    name = display_name(path)
    try:
        return check_game(load_game(path), name, options)
    except Exception as exc:  # noqa: BLE001 - one file must never stop the batch
        return failed_report(name, exc)


def failure_message(exc: BaseException) -> str:
    """``Type: message`` of an unexpected exception, kept short and printable."""
    text = f"{type(exc).__name__}: {exc}"
    text = text if len(text) <= 300 else text[:297] + "..."
    return display_name(text)


def failed_report(name: str, exc: BaseException) -> FileReport:
    """The report of a file gcgtools failed on: unreadable, with an F010 finding."""
    finding = make(Code.PROCESSING_FAILED, f"could not process the file: {failure_message(exc)}", 0)
    finding.path = name
    return FileReport(name, False, True, 0, [finding])


def check_game(game: Game, name: str, options: RuleOptions = NO_OPTIONS) -> FileReport:
    """Replay and validate a record already read (from standard input, say), reported
    under ``name``. Never raises for a bad record."""
    if game.unreadable:
        findings = sorted(game.findings, key=lambda f: f.line)
        for f in findings:
            f.path = name
        return FileReport(name, False, True, len(game.events), findings)
    try:
        result = validate(game, options=options)
    except (KeyError, ValueError) as exc:  # a tile or board file gone bad since parsed
        finding = make(Code.UNKNOWN_RULES_NAME, f"cannot set up the rules: {exc}", 1)
        finding.path = name
        return FileReport(name, False, True, len(game.events), [finding])
    for f in result.findings:
        f.path = name
    return FileReport(
        name,
        result.ok,
        False,
        result.events,
        result.findings,
        [p.nick for p in game.players],
        result.recorded,
    )


def checker(options: RuleOptions = NO_OPTIONS) -> partial[FileReport]:
    """``check_file`` with the rule options bound, picklable for worker processes."""
    return partial(check_file, options=options)
