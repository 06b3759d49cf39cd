"""Annotating a record: ``#note gcgtools: ...`` lines after each event.

The notes say what the replay found: the words a play formed and their scores, the computed
score when it differs from the record, each finding of the event (code, severity, message),
a bingo, and the tiles still unseen with the number left in the bag. Everything else of the
record is written back byte for byte: the notes are added after the lines that belong to the
event (its own notes, continuation lines and unknown pragmas), in the file's line-ending
style. Lines starting with ``#note gcgtools:`` are the annotator's own: annotating an
annotated record first drops them, so annotating twice gives the same bytes as once.

    >>> data = annotate(read_game("game.gcg"))  # doctest: +SKIP
    >>> annotate(parse_bytes(data)) == data  # doctest: +SKIP
    True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from gcgtools.analysis.analyse import RecordAnalysis
from gcgtools.analysis.judge import Depth, JudgeSettings
from gcgtools.batch.analyses import analyse_with
from gcgtools.lexicon.choice import LexiconChoice
from gcgtools.model.game import Game
from gcgtools.model.read import parse_bytes
from gcgtools.render.analysis import analysis_notes
from gcgtools.render.writer import GCGExporter, accept
from gcgtools.replay.info import ReplayInfo
from gcgtools.replay.notation import event_notation
from gcgtools.replay.position import tiles_text
from gcgtools.replay.walk import Position
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.syntax.records import Event, EventKind, Note, Pragma, SourceLine
from gcgtools.wording import plural_form

if TYPE_CHECKING:
    from gcgtools.lexicon import Leaves, Lexicon

__all__ = [
    "GROUPS",
    "MARK",
    "Annotator",
    "Stripper",
    "annotate",
    "annotate_analysed",
    "annotate_game",
    "annotation_lines",
    "strip_annotations",
    "unseen_text",
]

MARK = "gcgtools:"
"""Every generated note starts ``#note gcgtools:``; no other note is ever touched."""
GROUPS = frozenset({"findings", "words", "tracking", "analysis"})
"""``findings``: one note per finding. ``words``: the play as ``COORD WORD`` with the
played-through letters in parentheses (``O1 HAN(G)OVER``), the words formed, bingo, computed
score when it differs. ``tracking``: unseen tiles and tiles in the bag after each turn.
``analysis`` (only with a lexicon): best move, equity lost, phonies (W8xx), missed bingo;
judged (a ``depth`` of sim or full), the judged best move, the win% lost and the facts
that separate the move played from the best (``why:``, ``but:``, ``also:``)."""

_TRACKED = {
    EventKind.PLAY,
    EventKind.PASS,
    EventKind.EXCHANGE,
    EventKind.WITHDRAWN,
}


def _is_generated(text: str) -> bool:
    stripped = text.strip()
    return stripped[:5].lower() == "#note" and stripped[5:].strip().startswith(MARK)


def unseen_text(pos: Position) -> tuple[str, int]:
    """The tiles unseen after ``pos`` from the mover's side of the board (tile tracking: not
    on the board and not kept on the mover's rack; blanks last, ``[CH]`` for multi-letter
    tiles) and how many there are."""
    counts = pos.unseen_for(pos.player) if pos.player is not None else pos.pool
    pool = sorted(
        ((t, n) for t, n in counts.items() if n > 0), key=lambda tn: (tn[0] == "?", tn[0])
    )
    tiles = [t for t, n in pool for _ in range(n)]
    return tiles_text(tiles), len(tiles)


def _groups(only: str | Iterable[str] | None) -> frozenset[str]:
    if only is None:
        return GROUPS
    chosen = frozenset([only] if isinstance(only, str) else only)
    unknown = chosen - GROUPS
    if unknown:
        raise ValueError(
            f"unknown annotation {plural_form('group', len(unknown))} "
            f"{', '.join(sorted(unknown))}: "
            f"choose from {', '.join(sorted(GROUPS))}"
        )
    return chosen


def annotation_lines(
    event: Event,
    info: ReplayInfo,
    only: str | Iterable[str] | None = None,
    analysis: RecordAnalysis | None = None,
) -> list[str]:
    """The ``#note gcgtools: ...`` lines (without line endings) for one event; the
    ``analysis`` group's notes come from ``analysis`` (none without it)."""
    groups = _groups(only)
    pos = info.position(event)
    notes: list[str] = []
    if "words" in groups and pos is not None:
        if pos.words:
            words = ", ".join(f"{w.text} {w.score}" for w in pos.words)
            text = f"{event_notation(event, pos)}: words {words}"
            if pos.bingo:
                text += f"; bingo +{info.rules.bingo_bonus}"
            if pos.computed is not None:
                text += f"; score {pos.computed:+d}"
            notes.append(text)
        elif pos.bingo:
            notes.append("bingo")
        if pos.computed is not None and pos.computed != event.score:
            notes.append(f"computed {pos.computed:+d}, recorded {event.score:+d}")
    if "findings" in groups:
        for f in info.findings_at(event.line):
            notes.append(f"{f.code} {f.severity}: {f.message}")
    if "tracking" in groups and pos is not None and event.kind in _TRACKED:
        unseen, count = unseen_text(pos)
        notes.append(f"bag {pos.bag}; unseen {count}: {unseen}" if count else "unseen 0")
    if "analysis" in groups and analysis is not None:
        notes.extend(_analysis_notes(event, analysis))
    return [f"#note {MARK} {' '.join(text.split())}" for text in notes]


# ------------------------------------------------------------- analysis group
def _analysis_notes(event: Event, analysis: RecordAnalysis) -> list[str]:
    """The analysis notes of ``event``: the turn's (best move, equity lost, phonies, missed
    bingo) and the W8xx findings at its line."""
    notes: list[str] = []
    for turn in analysis.turns:
        if turn.line == event.line:
            notes.extend(analysis_notes(turn))
    for f in analysis.findings:
        if f.line == event.line:
            notes.append(f"{f.code} {f.severity}: {f.message}")
    return notes


class Stripper(GCGExporter):
    """The lossless exporter minus the ``#note gcgtools:`` lines."""

    def visit_note_line(self, line: SourceLine, note: Note, first: bool) -> None:
        if not _is_generated(line.text):
            self.copy(line)

    def visit_pragma(self, line: SourceLine, pragma: Pragma) -> None:
        if not _is_generated(line.text):  # e.g. a generated note before the first event
            self.copy(line)


class Annotator(Stripper):
    """The lossless exporter, minus old ``#note gcgtools:`` lines, plus new ones."""

    wants_replay = True

    def __init__(
        self, only: str | Iterable[str] | None = None, analysis: RecordAnalysis | None = None
    ) -> None:
        super().__init__()
        self.only = _groups(only)
        self.analysis = analysis

    def end_event(self, event: Event) -> None:
        assert self.info is not None
        for text in annotation_lines(event, self.info, self.only, self.analysis):
            self._add_note(text)

    def visit_unparsed(self, line: SourceLine) -> None:
        """A line the parser could not read: kept as it is, and its findings (the syntax
        error, and what the replay found on it if it could be salvaged) noted after it."""
        super().visit_unparsed(line)
        if "findings" not in self.only or self.info is None:
            return
        for f in self.info.findings_at(line.number):
            text = f"{f.code} {f.severity} (line {line.number}): {f.message}"
            self._add_note(f"#note {MARK} {' '.join(text.split())}")

    def _add_note(self, text: str) -> None:
        # characters the file's encoding cannot hold become "?"
        safe = text.encode(self.encoding, errors="replace").decode(self.encoding)
        self.add(safe)


def annotate(
    game: Game,
    only: str | Iterable[str] | None = None,
    *,
    options: RuleOptions = NO_OPTIONS,
    lexicon: LexiconChoice | Lexicon | None = None,
    leaves: Leaves | None = None,
    depth: Depth | str = Depth.STATIC,
    judge: JudgeSettings | None = None,
) -> bytes:
    """The record as bytes with ``#note gcgtools:`` lines after each event.

    ``only`` limits the notes to some of :data:`GROUPS` (a name or several). The rule
    ``options`` override the rules the record implies, as for :func:`gcgtools.validate`.
    The ``analysis`` notes need ``lexicon``: a loaded lexicon (with ``leaves``, else the
    built-in heuristic), or a :class:`~gcgtools.lexicon.choice.LexiconChoice` that
    picks one for the record; without one (or when none is found) there are none. With a
    ``depth`` of sim or full (and the ``judge`` settings; None: the depth's), the turns are
    judged too and the notes say what the judgement found.
    Raises ValueError for an unknown group.
    """
    data, _ = annotate_analysed(game, only, options=options, lexicon=lexicon, leaves=leaves,
                                depth=depth, judge=judge)  # fmt: skip
    return data


def annotate_analysed(
    game: Game,
    only: str | Iterable[str] | None = None,
    *,
    options: RuleOptions = NO_OPTIONS,
    lexicon: LexiconChoice | Lexicon | None = None,
    leaves: Leaves | None = None,
    depth: Depth | str = Depth.STATIC,
    judge: JudgeSettings | None = None,
) -> tuple[bytes, RecordAnalysis | None]:
    """:func:`annotate`, and the analysis its ``analysis`` notes come from (None when the
    group was not asked for or no lexicon was given; its ``used`` says which lexicon and
    leaves were used, or why there was none)."""
    groups = _groups(only)
    if any(_is_generated(line.text) for line in game.lines):
        # judge the record without its old notes, so that line numbers quoted in messages
        # are those of the record itself and annotating twice equals annotating once
        game = parse_bytes(strip_annotations(game), game.path)
    analysis = None
    if "analysis" in groups and lexicon is not None:
        analysis = analyse_with(game, lexicon, leaves, options=options, depth=depth, judge=judge)
    annotator = Annotator(groups, analysis)
    info = ReplayInfo.of(game, options)
    return accept(game, annotator, info), analysis


def strip_annotations(game: Game) -> bytes:
    """The record as bytes without its ``#note gcgtools:`` lines."""
    return accept(game, Stripper())


def annotate_game(game: Game, only: str | Iterable[str] | None = None) -> Game:
    """Like :func:`annotate`, parsed back into a :class:`Game` (same path)."""
    return parse_bytes(annotate(game, only), game.path)
