"""Real game records: every recorded play that is valid in the lexicon is generated, with
the record's score.

The shared corpus's records on the standard board with English tiles are replayed; for a
turn whose rack the record shows and whose play forms only words of the lexicon, the
generator must list that play (the same new tiles on the same squares) with the score the
replay computes, which is the record's own score wherever the record is right. The
lexicons are free ones: the ECWL record is checked with CEL (the list Woogles plays as
ECWL), the others with ENABLE (the plays of NWL and CSW games that ENABLE also holds).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import valid_files
from support.reference_data import DATA, needs_data

from gcgtools.lexicon import Lexicon, load_lexicon
from gcgtools.movegen import generate_moves
from gcgtools.movegen.core import native_module
from gcgtools.replay.position import known_rack
from gcgtools.replay.setup import rules_for
from gcgtools.replay.walk import replay
from gcgtools.sources.load import load_game
from gcgtools.syntax.records import EventKind

#: every SAMPLE-th eligible ENABLE play is checked in pure Python (about 15-40 ms a
#: position), every third with the C helper; every one of the 3,211 passed when last run
#: with SAMPLE 1 (see benchmarks/analyse.py for the same positions at full speed)
SAMPLE = 20


def _check_record(path: Path, lexicon: Lexicon, counter: list[int], sample: int) -> list[str]:
    """Check the eligible plays of one record; return what went wrong."""
    game = load_game(path)
    if game.unreadable:
        return []
    rules, _ = rules_for(game)
    if rules.tiles.name != "english" or rules.board.name != "CrosswordGame":
        return []
    problems = []
    prev = None
    for pos in replay(game, rules):
        e = pos.event
        if (
            prev is not None
            and e is not None
            and e.kind is EventKind.PLAY
            and pos.placed
            and pos.computed is not None
            and (rack := known_rack(e.rack, rules.tiles)) is not None
            and all(w.text.upper() in lexicon for w in pos.words)
        ):
            used = Counter("?" if t.islower() else t for _, _, t in pos.placed)
            counter[0] += 1
            if not used - Counter(rack) and counter[0] % sample == 0:
                counter[1] += 1
                moves = generate_moves(
                    prev.board, rack, lexicon, leaves=None, bag_count=prev.bag, rules=rules
                )
                target = sorted(pos.placed)
                hits = [m for m in moves if m.kind == "play" and sorted(m.squares) == target]
                recorded_ok = pos.computed == e.score
                if len(hits) != 1:
                    problems.append(f"{path}:{e.line}: {e.text.strip()}: {len(hits)} matches")
                elif hits[0].score != pos.computed or (recorded_ok and hits[0].score != e.score):
                    problems.append(f"{path}:{e.line}: {e.text.strip()}: {hits[0].score}")
        prev = pos
    return problems


@needs_data
def test_recorded_enable_plays_are_generated_with_their_scores() -> None:
    assert DATA is not None
    enable = load_lexicon(DATA / "lexica" / "ENABLE.kwg")
    counter = [0, 0]
    problems: list[str] = []
    sample = 3 if native_module() is not None else SAMPLE  # the C helper is faster
    for path in valid_files():
        problems += _check_record(path, enable, counter, sample)
    assert not problems, problems[:10]
    assert counter[1] >= 3000 // sample, counter  # the corpus holds thousands of such plays


@needs_data
def test_the_ecwl_record_with_cel() -> None:
    assert DATA is not None
    ecwl = [p for p in valid_files() if "#lexicon ECWL" in p.read_text(errors="replace")]
    if not ecwl:
        pytest.fail("the corpus has no #lexicon ECWL record any more")
    cel = load_lexicon(DATA / "wordlists" / "cel" / "cel_2-21.txt.gz", use_cache=False)
    counter = [0, 0]
    problems: list[str] = []
    for path in ecwl:
        problems += _check_record(path, cel, counter, 1)
    assert not problems, problems
    assert counter[1] >= 15, counter
