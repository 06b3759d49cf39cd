"""Bounded work per line (issue 9, item 12): long notes are joined once, absurd lines are
refused with a finding, and a decoding fallback forced by a stray byte is reported.

Speed itself is measured by benchmarks/long_note.py (no timed tests); memory is measured
here with tracemalloc, which counts the regular-expression engine's work too."""

from __future__ import annotations

import tracemalloc

import pytest

from gcgtools import parse_bytes, validate
from gcgtools.edit.fix import fix_record
from gcgtools.render.writer import write_gcg
from gcgtools.syntax.parser import MAX_EVENT_LINE, MAX_LINE

HEADER = "#player1 A Ann\n#player2 B Bob\n>A: AEINRST 8H RETAINS +66 66\n"


def test_a_note_of_100000_continuation_lines() -> None:
    lines = [f"line {i} of the note" for i in range(100_000)]
    data = (HEADER + "#note start\n" + "\n".join(lines) + "\n\n>B: DGOOPRW - +0 0\n").encode()
    game = parse_bytes(data)
    (note,) = game.events[0].notes
    assert note.text == "start\n" + "\n".join(lines)
    assert (note.line, note.end_line) == (4, 100_004)
    assert game.findings == [] and len(game.events) == 2
    assert write_gcg(game) == data
    assert validate(game).ok


@pytest.mark.parametrize(
    "line",
    [
        ">A: {} 8H RETAINS +66 66",  # a 2-million-character rack
        ">A: AEINRST 8H {} +66 66",
        "#note {}",
        "{}",
    ],
)
def test_absurd_lines_are_refused_in_bounded_memory(line: str) -> None:
    text = line.format("A" * 2_000_000)
    data = (HEADER + text + "\n>B: DGOOPRW - +0 0\n").encode()
    tracemalloc.start()
    try:
        game = parse_bytes(data)
        result = fix_record(game)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the input alone is 2 MB (and its text 2 MB more); matching it took ~190 bytes a char
    assert peak < 40_000_000, peak
    (f,) = [f for f in game.findings if f.code == "P112"]
    limit = MAX_EVENT_LINE if text.startswith(">") else MAX_LINE
    assert (f.line, f.column) == (4, limit + 1)
    assert f"of {len(text):,} characters not read (at most {limit:,})" in f.message
    assert result.data == data  # kept as it is
    assert len(game.events) == 2


def test_lines_within_the_limits_are_read() -> None:
    note = "x" * (MAX_LINE - len("#note "))
    extra = " ".join(["WORDS"] * 300)[: MAX_EVENT_LINE - 40]
    event = f">B: DGOOPRW - +0 0 {extra}"
    assert len(event) <= MAX_EVENT_LINE
    game = parse_bytes((HEADER + f"#note {note}\n{event}\n").encode())
    assert [f.code for f in game.findings] == ["P106"]  # the extra text, nothing more
    assert game.events[0].notes[0].text == note


def test_a_stray_latin1_byte_in_a_utf8_file_is_reported() -> None:
    data = (
        "#player1 J Jürgen Müller\n#player2 B Björn\n>J: AEINRST 8H RETAINS +66 66\n"
    ).encode() + b"#note caf\xe9\n"
    game = parse_bytes(data)
    assert game.encoding == "latin-1"
    (f,) = game.findings
    assert (f.code, f.severity, f.line, f.column) == ("F006", "warning", 4, 10)
    assert "byte 0xe9" in f.message and "2 other lines" in f.message
    assert write_gcg(game) == data  # still byte for byte


def test_a_plain_latin1_file_is_no_fallback_to_report() -> None:
    # ISO-8859-1 is the spec's default encoding: nothing to warn about
    data = "#player1 J Jürgen Müller\n#player2 B Björn\n".encode("latin-1")
    game = parse_bytes(data)
    assert game.encoding == "latin-1" and game.findings == []
    assert game.players[0].name == "Jürgen Müller"
