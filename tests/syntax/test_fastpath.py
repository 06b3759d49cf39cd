"""The fast path gives exactly what the LALR grammar gives, for every line it accepts."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import corpus_dir

from gcgtools.syntax.decode import decode
from gcgtools.syntax.lalr import line_parser
from gcgtools.syntax.parser import fast_lines
from gcgtools.syntax.terminals import grammar_terminals

TRICKY = [
    ">doug: DINNVWY 8D WINDY +32 32",
    ">emely: DEIILTZ --  -24 55",
    ">emely:  (OPEG) +14 345",
    ">Pakorn: FWLI (FWLI) -10 426",
    ">Ganesh: AOXJGWS  8g   JAW             +26   26  ",
    ">Ganesh: OXGSHYD   i12 OXY             +44   70  KO, EX",
    ">Paul:               (T)              +1  360",
    ">Joel: DROWNUG (challenge) +5 289",
    ">jvc: UNKNOWN (challenge) +5 477",
    ">JD: DIT (time) -10 509",
    ">Marlon: SEQSPO? -QO +0 268",
    ">Marlon: SEQSPO? -2 +0 268",
    ">Randy: U - +0 380",
    ">p2: ?ANNZZZ (ANNZZZ?) +-6 12",
    ">x: ABC -ABC 0 12",
    ">2: ĆĘIKPST 8G STĘPIĆ +46 46",
    ">a: [CH]ABC 8H [CH]A +10 10",
    "\t>a:\tABC\t8H\tCAB\t+10\t10\t",
    ">Al: A 8D A +1 1x",
    ">Al: ABC -+0 0",
    ">Al: ABC 8D",
    ">a: WORD+5 10",
    ">a: ABC 8D WORD+5 10",
    "#player1 Jamie James Chew",
    "#player2\tAl\tAlice Smith",
    "#note:foo",
    "#note",
    "#-",
    "#>old: ABC 8D CAB +10 10",
    "   #description    ",
    "since ive been behind and the board is not open",
    '>Cresta" (LN) +4 830',
    ">RightBehindYou: HLMOO3Y - +0 232",
]


def _both(text: str) -> tuple[object, object]:
    fast = fast_lines().parse(text, 1)
    try:
        slow = line_parser().parse(text, start="line")
        slow.line = 1
    except Exception:  # noqa: BLE001 - any rejection counts as "not accepted"
        slow = None
    return fast, slow


@pytest.mark.parametrize("text", TRICKY)
def test_fast_path_agrees_with_grammar(text: str) -> None:
    fast, slow = _both(text)
    if fast is not None:
        assert fast == slow
    assert slow is not None or fast is None


def test_fast_path_takes_the_common_lines() -> None:
    fast = fast_lines()
    assert fast.parse(">doug: DINNVWY 8D WINDY +32 32", 1) is not None
    assert fast.parse("#player1 doug Doug Smith", 1) is not None
    assert fast.parse(">emely:  (OPEG) +14 345", 1) is not None


def test_fast_path_agrees_on_every_corpus_line() -> None:
    root = corpus_dir()
    lines = 0
    taken = 0
    for path in sorted(root.rglob("*.gcg")):
        for sl in decode(path.read_bytes()).lines:
            if not sl.text.strip():
                continue
            fast, slow = _both(sl.text)
            lines += 1
            if fast is not None:
                taken += 1
                assert fast == slow, f"{path}:{sl.number}: {sl.text!r}"
    assert lines > 5000
    assert taken / lines > 0.9  # the fast path is worth having


def test_the_terminals_read_without_lark_are_the_ones_lark_builds() -> None:
    lark = line_parser()
    built = {t.name: t.pattern.to_regexp() for t in lark.terminals}
    named, ignored = grammar_terminals()
    assert named == {name: built[name] for name in named}
    assert ignored == tuple(built[name] for name in lark.ignore_tokens)
    # every terminal the grammar names is read (the others are its anonymous "#", ">", ":")
    assert {n for n in built if n not in named} == {"HASH", "MORETHAN", "COLON"} | set(
        lark.ignore_tokens
    )


def test_a_record_of_common_lines_parses_without_importing_lark() -> None:
    code = (
        "import sys\n"
        "from gcgtools import parse_string\n"
        "game = parse_string('#player1 a A\\n#player2 b B\\n>a: ABC 8D CAB +10 10\\n')\n"
        "assert len(game.events) == 1, game\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'lark'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
