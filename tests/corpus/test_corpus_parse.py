"""Parsing the shared corpus of real GCG records (needs GCGTOOLS_CORPUS, see conftest.py).

* every file under valid/ parses without an F or P error, except the one known typo;
* the syntax-level entries of invalid/EXPECTED.tsv give the right finding at the right line
  (lines and columns are computed from the files, not hard-coded);
* the header-level entries (checked by gcgtools.model while parsing) give their H code.

Entries of EXPECTED.tsv that need the board, the bag or the scores (scoring, turn order,
racks not in the bag, ...) belong to the replay engine and are not tested here.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from conftest import (
    corpus_dir,
    expected_invalid,
    invalid_file,
    valid_file,
    valid_file_params,
    valid_files,
)

from gcgtools import Game, parse_bytes, read_game
from gcgtools.findings import cannot_read
from gcgtools.syntax import EventKind

CRESTA = "HerbCaudill__scorable/e2e__games__cresta-yorra-2006.gcg"
CRESTA_TYPO = '>Cresta" (LN) +4 830'
MAGPIE = "jvc56__MAGPIE-DATA/testdata__gcgs__"


def syntax_errors(game: Game) -> list:
    return [f for f in game.findings if cannot_read(f)]


def line_of(path: Path, needle: str, encoding: str = "utf-8") -> tuple[int, str]:
    """(1-based number, text) of the only line of ``path`` containing ``needle``."""
    lines = path.read_bytes().decode(encoding).splitlines()
    hits = [(i, line) for i, line in enumerate(lines, 1) if needle in line]
    assert len(hits) == 1, f"{needle!r} found {len(hits)} times in {path}"
    return hits[0]


def expected_row(filename: str) -> dict[str, str]:
    rows = [r for r in expected_invalid() if r["filename"] == filename]
    assert len(rows) == 1, f"{filename} is not listed once in invalid/EXPECTED.tsv"
    return rows[0]


# ===================================================================== valid/
@pytest.mark.parametrize("relative", valid_file_params())
def test_valid_file_parses_without_syntax_errors(relative):
    path = valid_file(relative)
    game = read_game(path)
    errors = syntax_errors(game)
    if relative == CRESTA:  # the corpus README's known typo, checked in detail below
        assert [f.line for f in errors] == [line_of(path, CRESTA_TYPO)[0]]
        return
    assert errors == [], "\n".join(f.format(relative) for f in errors)
    # every ">" line became an event (some valid files are header-only: no event at all)
    event_lines = [sl.number for sl in game.lines if sl.text.lstrip().startswith(">")]
    assert [e.line for e in game.events] == event_lines


def test_corpus_has_valid_files():
    files = valid_files()
    assert files == sorted(files)
    assert all(f.suffix == ".gcg" and f.is_file() for f in files)
    assert len(files) >= 100  # the corpus README promises about 200 real games


def test_cresta_typo_is_a_located_error_and_the_other_lines_still_parse():
    path = valid_file(CRESTA)
    number, text = line_of(path, CRESTA_TYPO)
    game = read_game(path)

    (error,) = syntax_errors(game)
    assert error.code.startswith("P1")
    assert error.line == number
    # 'Cresta"' is a well-formed nickname token (anything but blanks and ':'), so the parser
    # stops at the next token, where the ':' should have been.
    assert error.column == text.index("(LN)") + 1
    assert "expected ':'" in error.message

    event_lines = [
        i for i, line in enumerate(path.read_bytes().decode().splitlines(), 1) if line[:1] == ">"
    ]
    assert [e.line for e in game.events] == [n for n in event_lines if n != number]
    assert any(e.line == number - 1 for e in game.events)


def test_cresta_typo_does_not_stop_the_events_after_it():
    # In the file the typo is the last line; append two events after it to check recovery.
    path = valid_file(CRESTA)
    number, _ = line_of(path, CRESTA_TYPO)
    data = path.read_bytes().rstrip(b"\r\n") + b"\n>Bob: EEE - +0 826\n>Alice:  (EEE) +6 496\n"
    game = parse_bytes(data, str(path))
    assert [f.line for f in syntax_errors(game)] == [number]
    assert [(e.line, e.kind) for e in game.events[-2:]] == [
        (number + 1, EventKind.PASS),
        (number + 2, EventKind.END_RACK_POINTS),
    ]


# ====================================================== invalid/: syntax level
# (MAGPIE file, offending token, a near-identical correct MAGPIE file to diff against)
MALFORMED_RACKS = [
    ("challenge_bonus_rack_malformed", "DEII--R", "valid/success_five_point_challenge"),
    ("end_penalty_rack_malformed", "?AEE3TT", "valid/success_six_pass"),
    ("malformed_challenge_rack", "~!#", "valid/no_challenge_rack"),
    ("malformed_rack", "KLMO8RTV", "invalid/player_does_not_exist"),
    ("pass_rack_malformed", "HLMOO3Y", "valid/success_standard"),
]


def changed_lines(broken: Path, sibling: Path) -> list[tuple[int, str]]:
    """Lines of ``broken`` that replace a line of ``sibling`` (difflib), 1-based."""
    a = broken.read_text(encoding="utf-8").splitlines()
    b = sibling.read_text(encoding="utf-8").splitlines()
    out: list[tuple[int, str]] = []
    for op, i1, i2, _j1, _j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "replace":
            out.extend((i + 1, a[i]) for i in range(i1, i2))
    return out


@pytest.mark.parametrize(("name", "token", "sibling"), MALFORMED_RACKS, ids=lambda v: v)
def test_malformed_rack_is_P102_at_the_broken_line(name, token, sibling):
    path = invalid_file(f"{MAGPIE}{name}.gcg")
    assert "RACK_MALFORMED" in expected_row(f"{MAGPIE}{name}.gcg")["expected_error_per_peer_test"]
    number, text = line_of(path, token)
    # The broken line is the only one that differs from a correct sibling file.
    folder, _, stem = sibling.partition("/")
    twin = corpus_dir() / folder / f"{MAGPIE}{stem}.gcg"
    changed = changed_lines(path, twin)
    if name == "malformed_rack":  # the sibling also renames one player on that line
        assert [n for n, _ in changed] == [number]
    else:
        assert changed == [(number, text)]
        assert syntax_errors(read_game(twin)) == []

    game = read_game(path)
    (error,) = syntax_errors(game)
    assert (error.code, error.line) == ("P102", number)
    start = text.index(token) + 1
    assert start <= error.column < start + len(token)
    # one bad line costs only itself
    events = sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line[:1] == ">")
    assert len(game.events) == events - 1
    assert number not in {e.line for e in game.events}


def test_malformed_end_rack_points_tiles():
    name = f"{MAGPIE}end_points_rack_malformed.gcg"
    assert "RACK_MALFORMED" in expected_row(name)["expected_error_per_peer_test"]
    path = invalid_file(name)
    number, text = line_of(path, "(#)")
    twin = corpus_dir() / "valid" / f"{MAGPIE}success_standard.gcg"
    assert changed_lines(path, twin) == [(number, text)]
    game = read_game(path)
    (error,) = syntax_errors(game)
    # P103 ("malformed play") is what the parser's classifier gives for a token starting
    # with "("; P102 (malformed rack) would be more precise. Either way: located, rejected.
    assert error.code in {"P102", "P103"}
    assert (error.line, error.column) == (number, text.index("(#)") + 1)
    assert number not in {e.line for e in game.events}


def test_unsupported_character_encoding_is_F003_on_line_1():
    name = f"{MAGPIE}unsupported_character_encoding.gcg"
    assert "UNSUPPORTED_CHARACTER_ENCODING" in expected_row(name)["expected_error_per_peer_test"]
    path = invalid_file(name)
    number, text = line_of(path, "#character-encoding")
    assert number == 1
    value = text.split(None, 1)[1].strip()
    found = [(f.code, f.line) for f in syntax_errors(read_game(path))]
    assert value
    assert found == [("F003", 1)]


def test_misplaced_character_encoding_is_F004():
    # invalid/ holds no file with a misplaced encoding pragma; check that, then use our own.
    root = corpus_dir()
    for path in sorted((root / "invalid").rglob("*.gcg")):
        lines = path.read_bytes().splitlines()
        assert not any(line.lstrip().startswith(b"#character-encoding") for line in lines[1:])
    data = b"#player1 Al Alice\n#player2 Bo Bob\n#character-encoding UTF-8\n>Al: AB 8D AB +4 4\n"
    game = parse_bytes(data)
    assert [(f.code, f.line) for f in syntax_errors(game)] == [("F004", 3)]
    assert len(game.events) == 1


def test_empty_file_is_F002():
    name = f"{MAGPIE}empty.gcg"
    assert "GCG_EMPTY" in expected_row(name)["expected_error_per_peer_test"]
    path = invalid_file(name)
    assert path.read_bytes().strip() == b""
    game = read_game(path)
    assert [(f.code, f.line) for f in game.findings] == [("F002", 1)]


def test_historical_lowercase_coordinate_is_accepted():
    # MAGPIE once rejected "b10"; the spec makes coordinates case-insensitive.
    name = "jvc56__MAGPIE/test__testdata__lowercase_tile_placement.gcg"
    assert "lowercase" in expected_row(name)["expected_error_per_peer_test"]
    path = invalid_file(name)
    number, _ = line_of(path, " b10 ")
    game = read_game(path)
    assert syntax_errors(game) == []
    (event,) = [e for e in game.events if e.line == number]
    assert (event.row, event.col, event.direction) == (9, 1, "down")


def test_historical_line_overflow_is_read_whole():
    # MAGPIE once had a 512-character line limit; GCG has none, and the long line is a note.
    name = f"{MAGPIE}line_overflow.gcg"
    assert "LINE_OVERFLOW" in expected_row(name)["expected_error_per_peer_test"]
    path = invalid_file(name)
    lines = path.read_text(encoding="utf-8").splitlines()
    longest = max(lines, key=len)
    assert len(longest) > 512 and longest.startswith("#note ")
    game = read_game(path)
    assert syntax_errors(game) == []
    notes = [n.text for e in game.events for n in e.notes]
    assert longest[len("#note ") :].rstrip() in notes


# ====================================================== invalid/: header level
# (file, peer error, gcgtools code, which line: ("first"|"second", line prefix))
HEADER_ENTRIES = [
    (f"{MAGPIE}duplicate_nicknames.gcg", "DUPLICATE_NICKNAMES", "H201", ("second", "#player")),
    ("domino14__macondo/gcgio__gcg_test.go__TestDuplicateNicknames.gcg", "errDuplicateNames",
     "H201", ("second", "#player")),
    (f"{MAGPIE}duplicate_names.gcg", "DUPLICATE_NAMES", "H202", ("second", "#player")),
    (f"{MAGPIE}player_number_redundant.gcg", "PLAYER_NUMBER_REDUNDANT", "H203",
     ("second", "#player1 ")),
    (f"{MAGPIE}redundant_pragma.gcg", "REDUNDANT_PRAGMA", "H204", ("second", "#title ")),
    ("domino14__macondo/gcgio__gcg_test.go__TestPragmaWrongPlace.gcg", "errPragmaPrecedeEvent",
     "H205", ("first", "#lexicon ")),
    (f"{MAGPIE}move_before_player.gcg", "GAME_EVENT_BEFORE_PLAYER", "H205",
     ("first", "#player2 ")),
    (f"{MAGPIE}player_does_not_exist.gcg", "PLAYER_DOES_NOT_EXIST", "H206", ("first", ">Jack:")),
    (f"{MAGPIE}unrecognized_game_variant.gcg", "UNRECOGNIZED_GAME_VARIANT", "H208",
     ("first", "#game-type ")),
    (f"{MAGPIE}note_before_events.gcg", "NOTE_PRECEDENT_EVENT", "P109", ("first", "#note ")),
]  # fmt: skip


def nth_line_starting(path: Path, which: str, prefix: str) -> int:
    numbers = [
        i
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith(prefix)
    ]
    index = {"first": 0, "second": 1}[which]
    assert len(numbers) > index, f"no {which} line starting {prefix!r} in {path}"
    return numbers[index]


@pytest.mark.parametrize(
    ("name", "peer", "code", "where"),
    HEADER_ENTRIES,
    ids=[f"{code}-{Path(name).stem.split('__')[-1]}" for name, _, code, _ in HEADER_ENTRIES],
)
def test_header_level_entry(name, peer, code, where):
    """Checked by gcgtools.model while parsing; not syntax errors, but located findings."""
    assert peer in expected_row(name)["expected_error_per_peer_test"]
    path = invalid_file(name)
    line = nth_line_starting(path, *where)
    if code in {"H205", "P109"}:  # it is about coming before/after the first event
        first_event = nth_line_starting(path, "first", ">")
        assert (line > first_event) if code == "H205" else (line < first_event)
    game = read_game(path)
    assert syntax_errors(game) == []
    assert (code, line) in [(f.code, f.line) for f in game.findings]
