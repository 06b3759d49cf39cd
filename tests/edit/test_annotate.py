"""The annotator: generated ``#note gcgtools:`` lines, idempotence, untouched originals."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import valid_file, valid_file_params
from support.reference_data import DATA, needs_data
from support.samples_annotator import BINGO, GAME
from typer.testing import CliRunner

from gcgtools import parse_bytes, parse_string
from gcgtools.cli import app
from gcgtools.edit.annotate import annotate, annotate_game, strip_annotations

MARK = b"#note gcgtools:"


def _without_generated(data: bytes) -> bytes:
    """The bytes minus every generated line (its line ending included)."""
    return b"".join(
        line for line in data.splitlines(keepends=True) if not line.lstrip().startswith(MARK)
    )


def _generated(data: bytes) -> list[str]:
    return [
        line.decode().strip()[len("#note gcgtools: ") :]
        for line in data.splitlines()
        if line.startswith(MARK)
    ]


def _notes_after(data: bytes, event_start: str) -> list[str]:
    """The generated notes between the event line starting with ``event_start`` and the
    next event."""
    lines = data.decode().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(event_start))
    out = []
    for line in lines[start + 1 :]:
        if line.startswith(">"):
            break
        if line.startswith("#note gcgtools:"):
            out.append(line[len("#note gcgtools: ") :])
    return out


def test_annotations_of_each_event() -> None:
    out = annotate(parse_string(GAME))
    assert _notes_after(out, ">Ann: AEHMRTX") == [
        "8G HEX: words HEX 26; score +26",
        "bag 83; unseen 93: " + _unseen_after_hex(),
    ]
    assert _notes_after(out, ">Bob: ADEIORS")[0] == "I7 O(X)IDES: words OXIDES 16; score +16"
    assert _notes_after(out, ">Ann: AEMRTU?")[0] == "12C MATURe(S): words MATUReS 16; score +16"
    assert _notes_after(out, ">Ann: EFNOORW")[:2] == [
        "13B FEW: words FEW 18, ME 8, AW 5; score +31",
        "O312 info: the game is not over: 69 tiles in the bag",
    ]
    exchange = _notes_after(out, ">Bob: AEIRRUV")
    # 86 tiles are off the board; Bob kept AEIRR of AEIRRUV when he exchanged UV
    assert len(exchange) == 1 and exchange[0].startswith("bag 72; unseen 81: ")


def _unseen_after_hex() -> str:
    # the full English bag (blanks last) less H, E, X on the board and A, M, R, T that Ann
    # kept from AEHMRTX: tile tracking from the mover's side
    bag = {
        "A": 9, "B": 2, "C": 2, "D": 4, "E": 12, "F": 2, "G": 3, "H": 2, "I": 9, "J": 1,
        "K": 1, "L": 4, "M": 2, "N": 6, "O": 8, "P": 2, "Q": 1, "R": 6, "S": 4, "T": 6,
        "U": 4, "V": 2, "W": 2, "X": 1, "Y": 2, "Z": 1,
    }  # fmt: skip
    bag["H"] -= 1
    bag["E"] -= 1
    bag["X"] -= 1
    for kept in "AMRT":
        bag[kept] -= 1
    return "".join(letter * n for letter, n in bag.items()) + "??"


def test_bingo_and_findings_are_noted_after_their_event() -> None:
    wrong = GAME.replace("+16 16\n#note nice", "+61 61\n#note nice")
    out = annotate(parse_string(wrong))
    notes = _notes_after(out, ">Bob: ADEIORS")
    assert "computed +16, recorded +61" in notes
    assert "S601 error: recorded +61, computed +16" in notes
    # after the event's own note and its continuation line, before the next event
    lines = out.decode().splitlines()
    at = lines.index("#note gcgtools: S601 error: recorded +61, computed +16")
    assert lines[at - 4 : at - 2] == ["#note nice fishing", "second line of the note"]
    assert (
        lines.index(">Bob: ADEIORS I7 O.IDES +61 61")
        < at
        < lines.index(">Ann: AEMRTU? 12C MATURe. +16 42")
    )
    bingo = annotate(parse_string(BINGO))
    assert _generated(bingo)[0] == "8D NASTIER: words NASTIER 16; bingo +50; score +66"


def test_existing_lines_stay_byte_identical() -> None:
    data = GAME.replace("\n", "\r\n").encode()
    out = annotate(parse_bytes(data))
    assert _without_generated(out) == data
    assert out.count(b"\n") == out.count(b"\r\n")  # added lines in the file's CRLF style
    assert strip_annotations(parse_bytes(out)) == data


def test_annotate_twice_equals_once() -> None:
    once = annotate(parse_string(GAME))
    assert annotate(parse_bytes(once)) == once
    only = annotate(parse_bytes(once), only="findings")
    assert annotate(parse_bytes(only), only="findings") == only
    assert annotate(parse_bytes(only)) == once  # old notes are replaced, not added to


def test_missing_final_newline_latin1_and_unknown_pragma() -> None:
    data = (
        b"#player1 A \xc9lodie\n#player2 B Bob\n>A: AEHMRTX 8G HEX +26 26\n#style wsc\n"
        b">B: ADEIORS I7 O.IDES +16 16"
    )
    game = parse_bytes(data)
    assert game.encoding == "latin-1"
    out = annotate(game)
    assert not out.endswith(b"\n")
    assert _without_generated(out + b"\n") == data + b"\n"
    assert out.decode("latin-1").startswith("#player1 A \xc9lodie\n")
    # the unknown pragma stays where it was, and is still not read as note text
    lines = out.split(b"\n")
    assert lines[lines.index(b"#style wsc") - 1].startswith(b">A:")
    again = parse_bytes(out)
    assert [f.code for f in again.findings] == [f.code for f in game.findings]
    assert annotate(again) == out


def test_only() -> None:
    game = parse_string(GAME.replace("+31 73", "+30 72"))
    findings = _generated(annotate(game, only="findings"))
    assert findings == [
        "S601 error: recorded +30, computed +31",
        "O312 info: the game is not over: 69 tiles in the bag",
    ]
    words = _generated(annotate(game, only={"words"}))
    assert words[-2:] == [
        "13B FEW: words FEW 18, ME 8, AW 5; score +31",
        "computed +31, recorded +30",
    ]
    tracking = _generated(annotate(game, only=["tracking"]))
    assert len(tracking) == 5 and all(t.startswith("bag ") for t in tracking)
    with pytest.raises(ValueError, match="unknown annotation group"):
        annotate(game, only="colours")


def test_annotate_game_returns_a_game() -> None:
    game = annotate_game(parse_string(GAME))
    notes = [n.text for n in game.events[0].notes]
    assert notes[0] == "gcgtools: 8G HEX: words HEX 26; score +26"
    assert [n.text for n in game.events[1].notes][0] == "nice fishing\nsecond line of the note"


@pytest.mark.parametrize("relative", valid_file_params())
def test_corpus_annotate(relative: str | None) -> None:
    path = valid_file(relative)
    data = path.read_bytes()
    game = parse_bytes(data, str(path))
    once = annotate(game)
    if data.endswith((b"\n", b"\r")):
        assert _without_generated(once) == data
    else:  # the line before the last generated note needed a line ending
        assert _without_generated(once) in (data, data + b"\n", data + b"\r\n", data + b"\r")
    assert strip_annotations(parse_bytes(once)) == data
    assert annotate(parse_bytes(once, str(path))) == once
    again = parse_bytes(once)
    original_notes = [[n.text for n in e.notes] for e in game.events]
    kept = [[n.text for n in e.notes if not n.text.startswith("gcgtools:")] for e in again.events]
    assert kept == original_notes


# ------------------------------------------------------------------------------- CLI
def test_cli_annotate(tmp_path: Path) -> None:
    src = tmp_path / "game.gcg"
    src.write_bytes(GAME.encode())
    runner = CliRunner()
    result = runner.invoke(app, ["annotate", str(src)])
    assert result.exit_code == 0, result.output
    assert result.stdout_bytes == annotate(parse_string(GAME))
    assert src.read_bytes() == GAME.encode()

    out = tmp_path / "out.gcg"
    result = runner.invoke(
        app, ["annotate", str(src), "-o", str(out), "--only", "findings", "--only", "words"]
    )
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == annotate(parse_string(GAME), only={"findings", "words"})

    result = runner.invoke(app, ["annotate", str(src), "--in-place", "--only", "tracking"])
    assert result.exit_code == 0
    assert src.read_bytes() == annotate(parse_string(GAME), only="tracking")

    result = runner.invoke(app, ["annotate", str(src), "--only", "colours"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["annotate", str(src), "-o", str(out), "--in-place"])
    assert result.exit_code == 2 and "not both" in result.output


# ----------------------------------------------------------- judged: the coach's notes
@needs_data
def test_judged_analysis_notes_round_trip_as_valid_gcg(tmp_path: Path) -> None:
    from gcgtools import validate
    from gcgtools.analysis.judge import JudgeSettings
    from gcgtools.lexicon import load_lexicon

    assert DATA is not None
    lexicon = load_lexicon(DATA / "lexica" / "ENABLE.kwg")
    example = Path(__file__).parents[2] / "examples" / "club-final.gcg"
    lines = example.read_text().splitlines()
    start = [x for x in lines if x.startswith("#")] + [x for x in lines if x.startswith(">")][:6]
    data = ("\n".join(start) + "\n").encode()
    judge = JudgeSettings(sim_iterations=8, sim_candidates=4)
    out = annotate(parse_bytes(data), "analysis", lexicon=lexicon, depth="sim", judge=judge)
    again = parse_bytes(out)
    notes = [n.text for e in again.events for n in e.notes if n.text.startswith("gcgtools:")]
    judged = [n for n in notes if n.startswith("gcgtools: judged (simulation): ")]
    assert len(judged) == 6  # one per turn
    why = [n for n in notes if n.split(":")[1].strip() in ("why", "but", "also")]
    assert why and all(n.endswith(".") for n in why)
    found = {f.code for f in validate(again).findings}
    assert found == {f.code for f in validate(parse_bytes(data)).findings}  # notes are valid
    assert strip_annotations(again) == data  # everything else byte for byte
    assert annotate(again, "analysis", lexicon=lexicon, depth="sim", judge=judge) == out
    static = annotate(parse_bytes(data), "analysis", lexicon=lexicon)
    assert b"judged (" not in static and b"why:" not in static
