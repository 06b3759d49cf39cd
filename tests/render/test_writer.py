"""The GCG writer: lossless round trip (every corpus file, plus dialect cases) and the
canonical form written by ``normalise``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import corpus_dir, corpus_problem
from support.samples_annotator import GAME
from typer.testing import CliRunner

from gcgtools import parse_bytes, parse_string, replay, validate
from gcgtools.cli import app
from gcgtools.model.game import Game
from gcgtools.render import writer
from gcgtools.render.writer import (
    GameVisitor,
    GCGExporter,
    accept,
    canonical_event,
    write_gcg,
)
from gcgtools.replay.info import ReplayInfo


def _corpus_params() -> list[object]:
    """One param per *.gcg under valid/ and invalid/ (a placeholder when the corpus is not
    usable: the test then skips or fails through corpus_dir())."""
    root, _ = corpus_problem()
    if root is None:
        return [pytest.param(None, id="corpus-unavailable")]
    files = sorted(root.glob("valid/**/*.gcg")) + sorted(root.glob("invalid/**/*.gcg"))
    return [pytest.param(p.relative_to(root).as_posix(), id=p.relative_to(root).as_posix())
            for p in files]  # fmt: skip


def _corpus_file(relative: str | None) -> Path:
    root = corpus_dir()
    if relative is None:
        pytest.fail("the corpus became usable after collection; run pytest again")
    return root / relative


CORPUS = _corpus_params()


# ------------------------------------------------------------------ lossless round trip
@pytest.mark.parametrize("relative", CORPUS)
def test_corpus_round_trip_is_byte_identical(relative: str | None) -> None:
    path = _corpus_file(relative)
    data = path.read_bytes()
    assert write_gcg(parse_bytes(data, str(path))) == data


def test_corpus_has_invalid_files_too() -> None:
    root = corpus_dir()
    assert list(root.glob("invalid/**/*.gcg")), "the round trip must cover invalid/ as well"


ROUND_TRIP = {
    "crlf": b"#player1 A Ann\r\n#player2 B Bob\r\n>A: AEHMRTX 8G HEX +26 26\r\n",
    "bom": b"\xef\xbb\xbf#character-encoding UTF-8\n#player1 A \xc3\x89lodie\n",
    "latin-1 without pragma": b"#player1 A \xc9lodie Dupr\xe9\n>A: EX 8G EX +18 18\n",
    "cp1252 declared": b"#character-encoding windows-1252\n#title \x93quoted\x94\n",
    "no final newline": b"#player1 A Ann\n#player2 B Bob\n>A: AEHMRTX 8G HEX +26 26",
    "blank last line without newline": b"#player1 A Ann\n   ",
    "tabs and spaces": b"#player1\tA\tAnn\n>A:\tAEHMRTX  8g\t HEX    +26   26  \t\n",
    "unknown pragmas": b"#style wsc2001\n#player1 A Ann\n>A: EX 8G EX +18 18\n#htarget 1\n",
    "multi-line notes": (
        b"#player1 A Ann\n>A: EX 8G EX +18 18\n#note first\nsecond\n\n  third\n"
        b"#note another\n#tacticsSAD\n\n\n"
    ),
    "mixed endings and lone CR": b"#player1 A Ann\r#player2 B Bob\r\n>A: EX 8G EX +18 18\n",
    "empty": b"",
    "only a newline": b"\n",
    "syntax errors": b"#player1 A Ann\n>A: ?? what is this\nstray text\n#>A: EX 8G EX +18 18\n",
}


@pytest.mark.parametrize("data", ROUND_TRIP.values(), ids=list(ROUND_TRIP))
def test_round_trip_dialects(data: bytes) -> None:
    game = parse_bytes(data)
    assert write_gcg(game) == data


def test_round_trip_keeps_encoding() -> None:
    data = ROUND_TRIP["latin-1 without pragma"]
    game = parse_bytes(data)
    assert game.encoding == "latin-1"
    assert write_gcg(game) == data  # not re-encoded as UTF-8


def test_exporter_is_a_visitor() -> None:
    class Count(GameVisitor[Counter[str]]):
        def __init__(self) -> None:
            self.seen: Counter[str] = Counter()

        def visit_event(self, line: object, event: object) -> None:
            self.seen["event"] += 1

        def visit_note_line(self, line: object, note: object, first: bool) -> None:
            self.seen["note first" if first else "note more"] += 1

        def end_event(self, event: object) -> None:
            self.seen["end"] += 1

        def end_game(self) -> Counter[str]:
            return self.seen

    counts = accept(parse_string(GAME), Count())
    assert counts == Counter({"event": 5, "end": 5, "note first": 2, "note more": 1})
    assert accept(parse_string(GAME), GCGExporter()) == GAME.encode()


# ----------------------------------------------------------------------- normalise
def _normalise(data: bytes) -> bytes:
    return write_gcg(parse_bytes(data), normalise=True)


def test_normalise_canonical_form() -> None:
    data = (
        b"#player1 A \xc9lodie\r\n"
        b"#player2 B Bob\r\n"
        b">A:  AEHMRTX   8g  HEX   +26   26  \r\n"
        b">B: ADEIORS i7\tOXIDES 16 16\r\n"  # letter written in full, unsigned score
        b"#note kept   as  it is\r\n"
        b">A: AEMRTU? 12c MATUReS +16 42\r\n"
        b">B: AEIRRUV -UV +0 16\r\n"
        b">A: EFNOORW 13b FEW +31 73 FEW, ME, AW\r\n"
    )
    out = _normalise(data)
    assert out == (
        "#character-encoding UTF-8\n"
        "#player1 A \u00c9lodie\n"
        "#player2 B Bob\n"
        ">A: AEHMRTX 8G HEX +26 26\n"
        ">B: ADEIORS I7 O.IDES +16 16\n"
        "#note kept   as  it is\n"
        ">A: AEMRTU? 12C MATURe. +16 42\n"
        ">B: AEIRRUV -UV +0 16\n"
        ">A: EFNOORW 13B FEW +31 73 FEW, ME, AW\n"
    ).encode("utf-8")


def test_normalise_parenthesised_runs_and_quackle_signs() -> None:
    text = (
        "#character-encoding UTF-8\n#player1 A Ann\n#player2 B Bob\n"
        ">A: AEHMRTX 8G HEX +26 26\n"
        ">B: ADEIORS I7 O(X)IDES +16 16\n"
        ">A: AEMRTU? 12C MATURe(S) +16 42\n"
        ">B: AEIRRUV -UV +-0 16\n"
    )
    out = _normalise(text.encode()).decode()
    assert ">B: ADEIORS I7 O.IDES +16 16\n" in out
    assert ">A: AEMRTU? 12C MATURe. +16 42\n" in out
    assert ">B: AEIRRUV -UV +0 16\n" in out
    assert out.count("#character-encoding") == 1


def test_normalise_leaves_an_impossible_placement_as_written() -> None:
    text = "#player1 A Ann\n#player2 B Bob\n>A: AEHMRTX 8g HE.X +26 26\n"
    out = _normalise(text.encode()).decode()
    assert ">A: AEHMRTX 8G HE.X +26 26\n" in out  # "." on an empty square: kept


def test_normalise_legacy_woogles_header_notes() -> None:
    text = (
        "#player1 A Ann\n#player2 B Bob\n#note Variant: classic\n"
        "#note LetterDistribution: english\n>A: AEHMRTX 8G HEX +26 26\n"
    )
    out = _normalise(text.encode()).decode()
    assert "#game-type classic\n#tile-distribution english\n" in out
    assert parse_bytes(out.encode()).game_type == "classic"


def test_normalise_is_idempotent_and_empty_stays_empty() -> None:
    once = _normalise(GAME.encode())
    assert once == GAME.encode()  # the sample is already canonical
    assert _normalise(once) == once
    assert _normalise(b"") == b""


def _same_events(a: Game, b: Game) -> None:
    assert len(a.events) == len(b.events)
    for x, y in zip(a.events, b.events, strict=True):
        for name in ("kind", "nick", "rack", "row", "col", "direction", "tiles", "count"):
            assert getattr(x, name) == getattr(y, name), (x.line, name)
        assert (x.score, x.cumulative, x.extra) == (y.score, y.cumulative, y.extra)
        assert [n.text for n in x.notes] == [n.text for n in y.notes]


# What normalising is for: the encoding pragma and the score tokens become canonical.
NORMALISED_AWAY = {"F003", "F004", "F005", "P108"}


def _event_findings(game: Game) -> tuple[list[str], list[tuple[int, str]]]:
    index = {e.line: i for i, e in enumerate(game.events)}
    findings = [f for f in validate(game).findings if f.code not in NORMALISED_AWAY]
    codes = sorted(f.code for f in findings)
    by_event = sorted((index[f.line], f.code) for f in findings if f.line in index)
    return codes, by_event


@pytest.mark.parametrize("relative", CORPUS)
def test_corpus_normalise_reparses_to_the_same_game(relative: str | None) -> None:
    path = _corpus_file(relative)
    game = parse_bytes(path.read_bytes(), str(path))
    out = write_gcg(game, normalise=True)
    again = parse_bytes(out, str(path))
    if game.records:
        assert out.startswith(b"#character-encoding UTF-8\n")
        assert again.encoding == "utf-8" and again.declared_encoding == "UTF-8"
    _same_events(game, again)
    assert _event_findings(game) == _event_findings(again)
    assert not [f for f in validate(again).findings if f.code in NORMALISED_AWAY]
    placed = [p.placed for p in replay(game)]
    assert placed == [p.placed for p in replay(again)]
    assert write_gcg(again, normalise=True) == out  # idempotent
    for line in out.decode("utf-8").split("\n"):
        if line.startswith(">"):
            assert "  " not in line and "\t" not in line, line


# ------------------------------------------------------------------------------- CLI
def test_cli_write_round_trip_and_normalise(tmp_path: Path) -> None:
    src = tmp_path / "game.gcg"
    data = ROUND_TRIP["crlf"]
    src.write_bytes(data)
    runner = CliRunner()
    out = tmp_path / "copy.gcg"
    result = runner.invoke(app, ["write", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == data
    result = runner.invoke(app, ["write", str(src), "--normalise"])
    assert result.exit_code == 0
    assert result.stdout_bytes.startswith(b"#character-encoding UTF-8\n#player1 A Ann\n")
    assert src.read_bytes() == data  # the input is never touched
    result = runner.invoke(app, ["write", str(src), "--normalise", "--in-place"])
    assert result.exit_code == 0
    assert src.read_bytes().startswith(b"#character-encoding UTF-8\n")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_cli_write_unreadable_input(tmp_path: Path) -> None:
    # a line that cannot be read is reported, and written back as it was
    partly = tmp_path / "partly.gcg"
    data = b"#player1 A Ann\n>A: ?? what is this\n>A: ABC 8D CAB +7 7\n"
    partly.write_bytes(data)
    result = CliRunner().invoke(app, ["write", str(partly)])
    assert result.exit_code == 0
    assert result.stdout_bytes == data
    assert f"{partly}:2:" in result.stderr and "P10" in result.stderr
    normalised = CliRunner().invoke(app, ["write", str(partly), "--normalise"])
    assert b"\n>A: ?? what is this\n" in normalised.stdout_bytes
    # nothing at all can be read: exit 2
    bad = tmp_path / "bad.gcg"
    bad.write_bytes(b">A ?? what is this\n")
    result = CliRunner().invoke(app, ["write", str(bad)])
    assert result.exit_code == 2
    assert f"{bad}:1:" in result.output and "P10" in result.output
    assert "Traceback" not in result.output
    missing = CliRunner().invoke(app, ["write", str(tmp_path / "nope.gcg")])
    assert missing.exit_code == 2 and "F001" in missing.output


def test_canonical_event_forms() -> None:
    game = parse_string(
        "#player1 A Ann\n#player2 B Bob\n"
        ">A: ABC -2 +0 0\n>B: XYZ --  -10 0\n>A:  (challenge) +5 5\n>B: Q (Q) -10 -10\n"
        ">A: (time) -10 -5\n>B:   (Q)   +20 10\n"
    )
    assert [canonical_event(e) for e in game.events] == [
        ">A: ABC -2 +0 0",
        ">B: XYZ -- -10 0",
        ">A: (challenge) +5 5",
        ">B: Q (Q) -10 -10",
        ">A: (time) -10 -5",
        ">B: (Q) +20 10",
    ]


def test_bytes_the_declared_encoding_cannot_decode_are_written_back() -> None:
    # a Latin-1 byte in a file declared UTF-8: F005, U+FFFD in the text, the byte kept
    data = b"#character-encoding UTF-8\n#player1 A J\xfcrgen\n#player2 B Bob\n#note caf\xe9!\n"
    game = parse_bytes(data)
    assert [f.code for f in game.findings] == ["F005", "P109"]  # P109: a note before events
    assert game.players[0].name == "J\ufffdrgen"
    assert write_gcg(game) == data
    normalised = write_gcg(game, normalise=True)
    assert "J\ufffdrgen" in normalised.decode("utf-8")  # valid UTF-8 out


def test_replay_info_lives_in_the_replay_layer_and_the_writer_still_offers_it():
    assert writer.ReplayInfo is ReplayInfo and "ReplayInfo" in writer.__all__
    game = parse_string(GAME)
    info = ReplayInfo.of(game)
    assert [p.number for p in info.ordered] == [p.number for p in replay(game)]
    assert info.start is info.ordered[0] and len(info.positions) <= len(game.events)
