"""Study puzzles: the positions of a judged record where a player's move was a mistake.

A :class:`Puzzle` is one such turn as a question: the position before the move (its CGP,
the board as the player saw it, the rack), the answer (the judge's best move, with the
moves judged beside it), the move played, what it lost (win% outside the endgame, spread
in it), the grade and the :class:`Tag` values that say what kind of position it is:

* ``bingo``: the answer is a bingo; ``only-bingo``: and the rack has no other bingo on
  this board (every move generated, the distinct bingos counted);
* ``equity``: the answer is also the static equity's best move (equity alone finds it);
* ``exchange``: the answer is an exchange;
* ``preendgame`` / ``endgame``: the phase (1 to 4 tiles in the bag / the bag empty);
* ``phony``: the move played formed a word the lexicon lacks.

Puzzles come from the judgements of :func:`gcgtools.analysis.judge.judge_record` (a
record analysed at ``--depth sim`` or ``full``): nothing is simulated again here. Which
turns become puzzles: a graded mistake of at least ``min_mistake`` (small, medium,
large), by ``player`` when given, with every tag of ``tags`` when given.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from gcgtools.analysis.facts import Fact
from gcgtools.analysis.grading import Mistake, Phase
from gcgtools.analysis.results import JudgedMove, RecordAnalysis, TurnAnalysis, rounded
from gcgtools.movegen.generate import MoveRequest, generate
from gcgtools.movegen.record import MovesError, record_position
from gcgtools.rules.options import NO_OPTIONS, RuleOptions

if TYPE_CHECKING:
    from gcgtools.lexicon import Lexicon
    from gcgtools.model.game import Game
    from gcgtools.movegen.record import RecordPosition

__all__ = ["MISTAKE_ORDER", "Puzzle", "Tag", "puzzles_of"]

#: the grades, smallest first: a puzzle's mistake is at least the one asked for
MISTAKE_ORDER = (Mistake.SMALL, Mistake.MEDIUM, Mistake.LARGE)


class Tag(str, Enum):
    """What kind of position a puzzle is (see the module's text)."""

    BINGO = "bingo"
    ONLY_BINGO = "only-bingo"
    EQUITY = "equity"
    EXCHANGE = "exchange"
    PREENDGAME = "preendgame"
    ENDGAME = "endgame"
    PHONY = "phony"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One mistake as a question (see the module's text). ``event`` is the turn's event
    number (1-based) in the record at ``path``; ``cgp`` the position before it, the player
    to move first; ``scores`` the player's and the opponent's before it; ``answer`` the
    judge's best move and ``moves`` every move judged (best first); ``win_pct_lost`` and
    ``spread_lost`` as the judgement says (one of them, by the phase); ``proved``: the
    solver proved its values (solvers only); ``facts``: the coach's facts on why the
    answer is better (:mod:`gcgtools.analysis.facts`)."""

    path: str
    event: int
    line: int
    player: str
    opponent: str
    cgp: str
    rack: str
    scores: tuple[int, int]
    bag: int
    answer: str
    played: str
    win_pct_lost: float | None
    spread_lost: float | None
    mistake: Mistake
    phase: Phase
    tags: tuple[Tag, ...]
    moves: tuple[JudgedMove, ...] = ()
    proved: bool | None = None
    facts: tuple[Fact, ...] = ()
    lexicon: str | None = None

    @property
    def title(self) -> str:
        """``Ada, event 12: rack AEINRST``."""
        return f"{self.player}, event {self.event}: rack {self.rack}"

    def to_dict(self) -> dict[str, object]:
        """The puzzle as one JSON object (one line of ``study -f json``)."""
        return {
            "path": self.path,
            "event": self.event,
            "line": self.line,
            "player": self.player,
            "opponent": self.opponent,
            "cgp": self.cgp,
            "rack": self.rack,
            "scores": list(self.scores),
            "bag": self.bag,
            "answer": self.answer,
            "played": self.played,
            "win_pct_lost": rounded(self.win_pct_lost, 3),
            "spread_lost": rounded(self.spread_lost, 3),
            "mistake": self.mistake.value,
            "phase": self.phase.value,
            "tags": [t.value for t in self.tags],
            "proved": self.proved,
            "facts": [f.to_dict() for f in self.facts],
            "moves": [m.to_dict() for m in self.moves],
            "lexicon": self.lexicon,
        }


def at_least(mistake: Mistake | None, least: Mistake) -> bool:
    """Whether ``mistake`` is a graded mistake of at least ``least``."""
    if mistake is None or mistake is Mistake.NONE:
        return False
    return MISTAKE_ORDER.index(mistake) >= MISTAKE_ORDER.index(least)


def puzzles_of(
    game: Game,
    analysis: RecordAnalysis,
    *,
    lexicon: Lexicon | None = None,
    player: str | None = None,
    min_mistake: Mistake = Mistake.SMALL,
    tags: Collection[Tag] = (),
    options: RuleOptions = NO_OPTIONS,
) -> list[Puzzle]:
    """The puzzles of ``game``, whose judged analysis is ``analysis``: every turn graded a
    mistake of at least ``min_mistake``, played by ``player`` (a nick, any case) when
    given, having every tag of ``tags``. ``lexicon``: the one the record was analysed with,
    to tell an only bingo (without it no puzzle is tagged ``only-bingo``)."""
    found = []
    for turn in _mistakes(analysis.turns, player, min_mistake):
        puzzle = _puzzle(game, analysis, turn, lexicon, options)
        if puzzle is not None and all(t in puzzle.tags for t in tags):
            found.append(puzzle)
    return found


def _mistakes(
    turns: Iterable[TurnAnalysis], player: str | None, least: Mistake
) -> Iterator[TurnAnalysis]:
    wanted = player.casefold() if player is not None else None
    for t in turns:
        j = t.judgement
        if j is None or j.played is None or not at_least(j.mistake, least):
            continue
        if wanted is None or t.player.casefold() == wanted:
            yield t


def _puzzle(
    game: Game,
    analysis: RecordAnalysis,
    turn: TurnAnalysis,
    lexicon: Lexicon | None,
    options: RuleOptions,
) -> Puzzle | None:
    j = turn.judgement
    assert j is not None and j.played is not None and j.mistake is not None
    try:
        position = record_position(game, turn.event - 1, options=options)
    except (MovesError, ValueError, KeyError):
        return None  # not a position the replay can rebuild (the judge said why)
    if position.rack is None or position.nick != turn.player:
        return None  # the record does not show this player's rack before the turn
    opponents = [p for p in analysis.players if p != turn.player]
    return Puzzle(
        path=analysis.path,
        event=turn.event,
        line=turn.line,
        player=turn.player,
        opponent=opponents[0] if opponents else "",
        cgp=position.cgp(),
        rack="".join(position.rack),
        scores=(position.scores[0], position.scores[1]),
        bag=position.bag,
        answer=j.best.move,
        played=j.played.move,
        win_pct_lost=j.win_pct_lost,
        spread_lost=j.spread_lost,
        mistake=j.mistake,
        phase=j.phase,
        tags=_tags(turn, position, lexicon),
        moves=tuple(j.moves),
        proved=j.proved,
        facts=j.facts,
        lexicon=analysis.lexicon,
    )


def _tags(turn: TurnAnalysis, position: RecordPosition, lexicon: Lexicon | None) -> tuple[Tag, ...]:
    j = turn.judgement
    assert j is not None
    answer = j.best.move
    tags = []
    bingo = _is_bingo(answer, turn, position.rules.rack_size)
    if bingo:
        tags.append(Tag.BINGO)
        if lexicon is not None and _bingos(position, lexicon) == 1:
            tags.append(Tag.ONLY_BINGO)
    if turn.best and turn.best[0].notation == answer:
        tags.append(Tag.EQUITY)
    if answer.startswith("-") and answer != "-":
        tags.append(Tag.EXCHANGE)
    if j.phase is Phase.PREENDGAME:
        tags.append(Tag.PREENDGAME)
    if j.phase is Phase.ENDGAME:
        tags.append(Tag.ENDGAME)
    if turn.phony_words:
        tags.append(Tag.PHONY)
    return tuple(tags)


def _is_bingo(notation: str, turn: TurnAnalysis, rack_size: int) -> bool:
    """Whether the move ``notation`` is a bingo: as the generated candidates say, else by
    the tiles it places (a whole rack's worth: ``8D QUITE``, ``O1 HAN(G)OVER``)."""
    for c in (*turn.best, turn.best_bingo, turn.found):
        if c is not None and c.notation == notation:
            return c.bingo
    coord, _, word = notation.partition(" ")
    if not word:
        return False  # a pass or an exchange
    placed = re.sub(r"\([^)]*\)", "", word)
    return len(re.findall(r"\[[^\]]*\]|[^\[\]]", placed)) >= rack_size


def _bingos(position: RecordPosition, lexicon: Lexicon) -> int:
    """How many distinct bingos the rack has on the board."""
    assert position.rack is not None
    moves = generate(position.board, lexicon, MoveRequest(
        position.rack, leaves=None, bag_count=position.bag, exchanges=False,
        rules=position.rules,
    ))  # fmt: skip
    return len({m.notation() for m in moves if m.bingo})
