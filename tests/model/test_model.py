"""Unit tests of the model layer: Game objects built by parse_string / parse_bytes /
read_game / load_game — players, header pragmas, notes, racks, findings on structure.

Expected behaviour follows the GCG format digest (/work/shared/docs/gcg-format.md, sections
1-3) and the finding catalogue (gcgtools/findings.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gcgtools import Game, load_game, parse_bytes, parse_string, read_game
from gcgtools.findings import RULES
from gcgtools.syntax import EventKind, Pragma, SourceLine

PLAYERS = "#player1 Al Alice Smith\n#player2 Bo Bob Jones\n"


# ------------------------------------------------------------------ helpers
def codes(game: Game) -> list[tuple[str, int]]:
    """(code, line) of every finding."""
    return [(f.code, f.line) for f in game.findings]


def finding(game: Game, code: str):
    found = [f for f in game.findings if f.code == code]
    assert len(found) == 1, codes(game)
    return found[0]


def clean(text: str) -> Game:
    game = parse_string(text)
    assert game.findings == [], codes(game)
    return game


# ================================================================= players
class TestPlayers:
    def test_nickname_and_full_name(self):
        game = clean("#player1 Jamie James Chew\n#player2 úrsula Úrsula Iguarán Buendía\n")
        assert [(p.index, p.number, p.nick, p.name, p.line) for p in game.players] == [
            (0, 1, "Jamie", "James Chew", 1),
            (1, 2, "úrsula", "Úrsula Iguarán Buendía", 2),
        ]
        assert game.nicks == {"Jamie": 0, "úrsula": 1}

    def test_numeric_nickname(self):
        game = clean("#player1 711657467 Garth Van Vliet\n#player2 1 ptf1559\n")
        assert [(p.nick, p.name) for p in game.players] == [
            ("711657467", "Garth Van Vliet"),
            ("1", "ptf1559"),
        ]

    def test_tab_between_nickname_and_full_name(self):
        game = clean("#player1\tAl\tAlice Smith\n")
        assert [(p.nick, p.name) for p in game.players] == [("Al", "Alice Smith")]

    def test_three_and_four_players(self):
        text = PLAYERS + "#player3 Cy Cyd C\n#player4 Di Dina D\n>Di: ABC 8D CAB +7 7\n"
        game = clean(text)
        assert [p.number for p in game.players] == [1, 2, 3, 4]
        assert game.events[0].player == 3
        assert game.player(2).nick == "Cy"

    def test_players_are_ordered_by_number(self):
        game = clean("#player2 Bo Bob\n#player1 Al Alice\n")
        assert [p.nick for p in game.players] == ["Al", "Bo"]

    def test_missing_full_name_uses_nickname_and_warns_H210(self):
        game = parse_string("#player1 Al\n#player2 Bo Bob\n")
        assert game.players[0].name == "Al"
        f = finding(game, "H210")
        assert (f.line, f.severity) == (1, "warning")

    def test_duplicate_nickname_is_H201(self):
        game = parse_string("#player1 dougie Doungy B\n#player2 dougie Cesar D\n")
        f = finding(game, "H201")
        assert (f.line, f.severity) == (2, "error")

    def test_duplicate_player_number_is_H203(self):
        game = parse_string("#player1 Tim Tim Weiss\n#player1 Josh Josh C\n")
        f = finding(game, "H203")
        assert (f.line, f.severity) == (2, "error")
        assert [p.nick for p in game.players] == ["Tim"]

    def test_duplicate_full_name_is_only_a_warning_H202(self):
        game = parse_string("#player1 Tim Tim Weiss\n#player2 Tom Tim Weiss\n")
        f = finding(game, "H202")
        assert (f.line, f.severity) == (2, "warning")
        assert [p.nick for p in game.players] == ["Tim", "Tom"]

    def test_player_without_nickname_is_H211(self):
        assert codes(parse_string("#player1\n")) == [("H211", 1)]

    def test_player_after_events_is_H205(self):
        game = parse_string("#player1 Tim Tim\n>Tim: ABC 8D CAB +7 7\n#player2 Josh Josh\n")
        f = finding(game, "H205")
        assert (f.line, f.severity) == (3, "error")

    def test_events_get_the_player_index_by_exact_nickname(self):
        game = clean(PLAYERS + ">Al: ABC 8D CAB +7 7\n>Bo: DEF 9D FED +8 8\n")
        assert [(e.nick, e.player) for e in game.events] == [("Al", 0), ("Bo", 1)]

    def test_unknown_nickname_is_H206_and_case_sensitive(self):
        line = ">al: ABC 8D CAB +7 7"
        game = parse_string(PLAYERS + line + "\n")
        f = finding(game, "H206")
        assert (f.line, f.column, f.severity) == (3, 1, "error")
        assert "'al'" in f.message
        assert game.events[0].player is None  # still kept as an event

    def test_no_player_pragma_takes_players_from_events_H213(self):
        game = parse_string(">a: AB 8H AB +6 6\n>b: CD 9H CD +6 6\n>a: EF 10H EF +6 12\n")
        assert codes(game) == [("H213", 1)]
        assert [(p.index, p.nick) for p in game.players] == [(0, "a"), (1, "b")]
        assert [e.player for e in game.events] == [0, 1, 0]

    def test_event_before_its_player_pragma_is_H207(self):
        game = parse_string("#player1 a Al\n>a: AB 8H AB +6 6\n>b: CD 9H CD +6 6\n#player2 b Bo\n")
        assert codes(game) == [("H206", 3), ("H205", 4)]
        game = parse_string(">a: AB 8H AB +6 6\n#player1 a Al\n#player2 b Bo\n")
        assert sorted(codes(game)) == [("H205", 2), ("H205", 3), ("H207", 1)]
        assert game.events[0].player == 0  # resolved once the player is declared


# ========================================================== header pragmas
class TestHeader:
    def test_title_descriptions_id_lexicon(self):
        game = clean(
            "#title 2006 Human vs. Computer Showdown Round 1\n"
            "#description Quackle plays David Boys\n"
            "#description Created with Macondo\n"
            "#id io.woogles p6QRjJHG\n"
            "#lexicon NWL23\n" + PLAYERS
        )
        assert game.title == "2006 Human vs. Computer Showdown Round 1"
        assert game.descriptions == ["Quackle plays David Boys", "Created with Macondo"]
        assert game.description == "Quackle plays David Boys\nCreated with Macondo"
        assert (game.id_authority, game.id) == ("io.woogles", "p6QRjJHG")
        assert game.lexicon == "NWL23"

    def test_empty_description_and_title_are_accepted(self):
        game = clean("#title\n#description    \n" + PLAYERS)
        assert game.descriptions == [""]

    def test_no_description(self):
        game = clean(PLAYERS)
        assert game.descriptions == [] and game.description is None and game.title is None

    def test_id_needs_authority_and_identifier_H211(self):
        game = parse_string("#id p6QRjJHG\n" + PLAYERS)
        assert codes(game) == [("H211", 1)]

    def test_repeated_title_is_H204_and_the_first_one_counts(self):
        game = parse_string("#title first\n" + PLAYERS + "#title second\n")
        f = finding(game, "H204")
        assert (f.line, f.severity) == (4, "error")
        assert "line 1" in f.message
        assert game.title == "first"

    @pytest.mark.parametrize("keyword", ["id", "lexicon", "game-type", "board-layout"])
    def test_other_unique_pragmas_are_H204_when_repeated(self, keyword):
        value = {"id": "org.x 1", "game-type": "classic", "board-layout": "CrosswordGame"}.get(
            keyword, "CSW21"
        )
        game = parse_string(f"#{keyword} {value}\n#{keyword} {value}\n")
        assert codes(game) == [("H204", 2)]

    def test_description_is_repeatable_but_not_after_events(self):
        game = parse_string(PLAYERS + ">Al: ABC 8D CAB +7 7\n#description late\n")
        assert codes(game) == [("H205", 4)]

    @pytest.mark.parametrize(
        "line", ["#title late", "#lexicon CSW21", "#game-type classic", "#id org.x 1"]
    )
    def test_header_pragma_after_first_event_is_H205(self, line):
        game = parse_string(PLAYERS + ">Al: ABC 8D CAB +7 7\n" + line + "\n")
        assert codes(game) == [("H205", 4)]

    def test_game_type_board_layout_tile_distribution(self):
        game = clean(
            "#game-type classic\n#board-layout SuperCrosswordGame\n"
            "#tile-distribution english_super\n" + PLAYERS
        )
        assert game.game_type == "classic"
        assert game.board_layout == "SuperCrosswordGame"
        assert game.tile_distribution == "english_super"

    @pytest.mark.parametrize("variant", ["classic", "wordsmog", "WordSmog", "CLASSIC"])
    def test_known_game_types_case_insensitive(self, variant):
        assert clean(f"#game-type {variant}\n" + PLAYERS).game_type == variant

    def test_unknown_game_type_is_H208(self):
        game = parse_string(PLAYERS + "#game-type lonify\n")
        f = finding(game, "H208")
        assert (f.line, f.severity) == (3, "warning")
        assert game.game_type == "lonify"

    @pytest.mark.parametrize(
        "variant", ["classic_super", "wordsmog_super", "Classic-Super", "WORDSMOG_SUPER"]
    )
    def test_liwords_super_game_types_are_known(self, variant):
        assert clean(f"#game-type {variant}\n" + PLAYERS).game_type == variant

    def test_tile_and_tile_set_pragmas_are_kept(self):
        game = parse_string("#tile-set english set\n#tile CH ch\n#tile L·L l·l\n" + PLAYERS)
        assert game.pragma("tile") == "CH ch"
        assert [p.value for p in game.pragmas if p.keyword == "tile"] == ["CH ch", "L·L l·l"]
        assert game.pragma("tile-set") == "english set"
        # #tile-set is recognised but not acted on: an info finding, nothing worse
        assert [(f.code, f.severity) for f in game.findings] == [("H212", "info")]

    def test_incomplete(self):
        assert clean(PLAYERS + ">Al: ABC 8D CAB +7 7\n#incomplete \n").incomplete is True
        assert clean(PLAYERS).incomplete is False

    def test_unknown_pragma_is_kept_verbatim_with_P107(self):
        game = parse_string("#style wsc2001\n" + PLAYERS + "#htarget 400 points\n")
        assert codes(game) == [("P107", 1), ("P107", 4)]
        assert all(f.severity == "warning" for f in game.findings)
        assert Pragma("style", "wsc2001", 1, 1) in game.pragmas
        assert game.pragma("htarget") == "400 points"

    def test_pragmas_are_kept_in_order(self):
        game = clean("#character-encoding UTF-8\n#lexicon CSW21\n" + PLAYERS)
        assert [(p.keyword, p.line) for p in game.pragmas] == [
            ("character-encoding", 1),
            ("lexicon", 2),
            ("player1", 3),
            ("player2", 4),
        ]


# =================================================================== racks
class TestRackPragmas:
    def test_racks_before_events_are_initial_racks(self):
        game = clean("#rack1 AEINRST\n#rack2 EIOU?XZ\n" + PLAYERS + ">Al: AEINRST - +0 0\n")
        assert game.initial_racks == {0: "AEINRST", 1: "EIOU?XZ"}
        assert game.final_racks == {}

    def test_racks_after_events_are_final_racks(self):
        game = clean(PLAYERS + ">Al: ABC 8D CAB +7 7\n#rack1 AEEIILZ\n#rack2 RETAIN?\t\n")
        assert game.final_racks == {0: "AEEIILZ", 1: "RETAIN?"}
        assert game.initial_racks == {}


# =================================================================== notes
class TestNotes:
    def test_note_annotates_the_preceding_event(self):
        game = clean(
            PLAYERS + ">Al: CGILLRS 12C CIG +28 200\n#note Wow. 12C LIG is better.\n"
            ">Bo: ABC 8D CAB +7 7\n"
        )
        first, second = game.events
        assert first.note_text == "Wow. 12C LIG is better."
        assert (first.notes[0].line, first.notes[0].keyword) == (4, "note")
        assert second.notes == []

    def test_continuation_lines_and_blank_lines_inside_a_note(self):
        text = (
            PLAYERS
            + ">Al: ABC 8D CAB +7 7\n"  # line 3
            + "#note tennises dentines way more points\n"  # 4
            + "since ive been behind, risky play.\n"  # 5
            + "\n"  # 6: blank line inside the note
            + "win or lose.\n"  # 7
            + "\n"  # 8: trailing blank line, not part of the note
            + ">Bo: DEF 9D FED +8 8\n"  # 9
        )
        game = clean(text)
        (note,) = game.events[0].notes
        assert note.text == (
            "tennises dentines way more points\nsince ive been behind, risky play.\n\nwin or lose."
        )
        assert (note.line, note.end_line) == (4, 7)
        assert game.events[1].notes == []

    def test_note_continuation_with_crlf(self):
        text = PLAYERS.replace("\n", "\r\n") + ">Al: ABC 8D CAB +7 7\r\n#note a\r\nb\r\n"
        game = clean(text)
        assert game.events[0].note_text == "a\nb"

    def test_several_note_lines_are_several_notes(self):
        game = clean(PLAYERS + ">Al: ABC 8D CAB +7 7\n#note one\n#note two\n")
        assert [n.text for n in game.events[0].notes] == ["one", "two"]
        assert game.events[0].note_text == "one\ntwo"

    def test_unknown_pragma_right_after_a_note_is_note_text(self):
        # Macondo and MAGPIE read such a line (a hashtag on its own line) as note text.
        game = clean(PLAYERS + ">Al: ABC 8D CAB +7 7\n#note nice\n#strategysad\n")
        assert game.events[0].note_text == "nice\n#strategysad"
        assert [p.keyword for p in game.pragmas].count("strategysad") == 0

    def test_note_before_first_event_is_a_game_note_with_P109(self):
        game = parse_string(PLAYERS + "#note Scrabble Soiree, Round 6.\n>Al: ABC 8D CAB +7 7\n")
        f = finding(game, "P109")
        assert (f.line, f.severity) == (3, "warning")
        assert [n.text for n in game.notes] == ["Scrabble Soiree, Round 6."]
        assert game.events[0].notes == []

    def test_legacy_woogles_header_notes_set_the_header(self):
        game = clean(
            "#note Variant: classic\n#note BoardLayout: CrosswordGame\n"
            "#note LetterDistribution: english\n" + PLAYERS + ">Al: ABC 8D CAB +7 7\n"
        )
        assert game.game_type == "classic"
        assert game.board_layout == "CrosswordGame"
        assert game.tile_distribution == "english"
        assert game.notes == []

    def test_legacy_note_reads_the_key_as_the_reader_and_the_writer_do(self):
        from gcgtools.model.build import legacy_note

        assert legacy_note("Board Layout :  SuperCrosswordGame ") == (
            "board-layout",
            "SuperCrosswordGame",
        )
        assert legacy_note("letterdistribution:german") == ("tile-distribution", "german")
        assert legacy_note("Variant classic") is None  # no colon
        assert legacy_note("Venue: the club") is None  # not a legacy key

    def test_legacy_header_note_after_an_event_is_an_ordinary_note(self):
        game = clean(PLAYERS + ">Al: ABC 8D CAB +7 7\n#note Variant: classic\n")
        assert game.game_type is None
        assert game.events[0].note_text == "Variant: classic"

    def test_comment_is_kept_like_a_note(self):
        comment = 'date="2006-06-02 13:05"; author="John Chew"; text="\\"Hello, world!\\""'
        game = clean(f"#comment {comment}\n" + PLAYERS + ">Al: ABC 8D CAB +7 7\n#comment c2\n")
        assert [(n.text, n.keyword) for n in game.notes] == [(comment, "comment")]
        assert [(n.text, n.keyword) for n in game.events[0].notes] == [("c2", "comment")]

    def test_text_line_outside_a_note_is_P105(self):
        game = parse_string(PLAYERS + "stray words\n>Al: ABC 8D CAB +7 7\n")
        f = finding(game, "P105")
        assert (f.line, f.severity) == (3, "error")
        assert len(game.events) == 1

    def test_text_after_an_event_is_not_a_note(self):
        game = parse_string(PLAYERS + ">Al: ABC 8D CAB +7 7\nnot a note\n")
        assert codes(game) == [("P105", 4)]
        assert game.events[0].notes == []

    def test_note_ends_at_the_next_pragma(self):
        game = parse_string(PLAYERS + ">Al: ABC 8D CAB +7 7\n#note n\n#rack2 XYZ\nmore\n")
        assert codes(game) == [("P105", 6)]
        assert game.events[0].note_text == "n"


# ===================================================== events in the model
class TestEvents:
    def test_every_event_kind(self):
        text = PLAYERS + (
            ">Al: ABCDEFG 8D FADE +20 20\n"
            ">Bo: XYZ?ABC -XYZ +0 0\n"
            ">Al: ABCDEFG -2 +0 20\n"
            ">Bo: MOULAGD 9E MOULAGD +76 76\n"
            ">Bo: MOULAGD -- -76 0\n"
            ">Al: ABC 10A CAB +10 30\n"
            ">Al: DEFGHIJ (challenge) +5 35\n"
            ">Bo: U - +0 0\n"
            ">Al:  (U) +2 37\n"
            ">Bo: U (U) -1 -1\n"
            ">Bo:  (time) -10 -11\n"
        )
        game = clean(text)
        assert [e.kind for e in game.events] == [
            EventKind.PLAY,
            EventKind.EXCHANGE,
            EventKind.EXCHANGE,
            EventKind.PLAY,
            EventKind.WITHDRAWN,
            EventKind.PLAY,
            EventKind.CHALLENGE_BONUS,
            EventKind.PASS,
            EventKind.END_RACK_POINTS,
            EventKind.END_RACK_PENALTY,
            EventKind.TIME_PENALTY,
        ]
        assert [e.line for e in game.events] == list(range(3, 14))
        assert [e.player for e in game.events] == [0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1]
        assert game.event_counts()["exchange"] == 2

    def test_commented_out_event_is_P110_and_not_an_event(self):
        game = parse_string(PLAYERS + ">Al: ABC 8D CAB +7 7\n#>Bo: DEF 9D FED +8 8\n")
        f = finding(game, "P110")
        assert (f.line, f.severity) == (4, "info")
        assert len(game.events) == 1

    def test_bad_line_in_the_middle(self):
        bad = ">Bo: DEF 9D FED +8"
        text = PLAYERS + ">Al: ABC 8D CAB +7 7\n" + bad + "\n>Al: GHI 10D HIG +9 16\n"
        game = parse_string(text)
        (f,) = game.findings
        assert f.code.startswith("P1") and f.severity == "error"
        assert (f.line, f.column) == (4, len(bad) + 1)
        assert [e.line for e in game.events] == [3, 5]
        # the rest of the record is read: one bad line does not make it unreadable
        assert game.unreadable is False
        assert game.errors == [f]

    def test_no_line_readable_is_unreadable(self):
        game = parse_string(">Al ABC 8D CAB +7 7\n>Bo: DEF 9D FED +8\n")
        assert sorted(c for c, _ in codes(game)) == ["F002", "P101", "P101"]
        assert game.unreadable is True

    def test_findings_are_sorted_by_line(self):
        text = "#player1 Al\n>Zed: ABC 8D CAB +7 7\n>Al ABC\nstray\n#title late\n"
        game = parse_string(text)
        lines = [f.line for f in game.findings]
        assert lines == sorted(lines)
        assert {c for c, _ in codes(game)} == {"H210", "H206", "P101", "P105", "H205"}

    def test_findings_carry_catalogue_severities(self):
        game = parse_string("#style x\n#player1 Al\n>Al: ABC 8D CAB +7 7\n#>x\nstray\n")
        for f in game.findings:
            assert f.severity == RULES[f.code].severity


# ============================================================ files, bytes
class TestReading:
    def test_empty_file_is_F002(self):
        for game in (parse_bytes(b""), parse_bytes(b"\n \r\n\t\n"), parse_string("")):
            assert codes(game) == [("F002", 1)]
            assert game.unreadable is True

    def test_encoding_is_reported(self):
        assert parse_bytes("#player1 Jo Jürgen\n".encode()).encoding == "utf-8"
        game = parse_bytes("#player1 Jo Jürgen\n".encode("latin-1"))
        assert game.encoding == "latin-1"
        assert game.players[0].name == "Jürgen"
        game = parse_bytes("#character-encoding ISO-8859-1\n#player1 Jo Jürgen\n".encode("latin-1"))
        assert (game.encoding, game.declared_encoding) == ("latin-1", "ISO-8859-1")
        assert game.players[0].name == "Jürgen"

    def test_decoding_findings_reach_the_game(self):
        game = parse_bytes(b"#character-encoding KOI8-R\n#player1 Al Alice\n")
        assert codes(game) == [("F003", 1)]
        game = parse_bytes(b"#player1 Al Alice\n#character-encoding UTF-8\n")
        assert codes(game) == [("F004", 2)]

    def test_utf8_bom(self):
        game = parse_bytes(b"\xef\xbb\xbf#player1 Al Alice\n>Al: ABC 8D CAB +7 7\n")
        assert game.bom is True
        assert [p.nick for p in game.players] == ["Al"]
        assert game.findings == []
        assert parse_string("\ufeff#player1 Al Alice\n").players[0].nick == "Al"

    def test_german_and_polish_letters(self):
        text = (
            "#character-encoding UTF-8\n#player1 Jo Józef\n#player2 Jü Jürgen\n"
            ">Jo: ĄĆĘŁŃÓŚ 8D ŚĆ +9 9\n>Jü: ÄÖÜSSST H7 ÄÖÜ +9 9\n"
        )
        game = parse_bytes(text.encode())
        assert game.findings == []
        assert [(e.rack, e.word) for e in game.events] == [
            ("ĄĆĘŁŃÓŚ", "ŚĆ"),
            ("ÄÖÜSSST", "ÄÖÜ"),
        ]

    def test_lines_keep_text_and_endings(self):
        text = "#player1 Al Alice  \r\n#player2 Bo Bob\n\n>Al: ABC 8D CAB +7 7\t"
        game = parse_bytes(text.encode())
        assert game.lines == [
            SourceLine(1, "#player1 Al Alice  ", "\r\n"),
            SourceLine(2, "#player2 Bo Bob", "\n"),
            SourceLine(3, "", "\n"),
            SourceLine(4, ">Al: ABC 8D CAB +7 7\t", ""),
        ]
        assert "".join(sl.text + sl.ending for sl in game.lines) == text
        assert game.players[0].name == "Alice"
        assert game.events[0].cumulative == 7

    def test_read_game_and_load_game(self, tmp_path):
        path = tmp_path / "g.gcg"
        path.write_bytes(b"#player1 Al Alice\r\n>Al: ABC 8D CAB +7 7\r\n")
        game = read_game(path)
        assert game.path == str(path)
        assert (len(game.events), game.findings) == (1, [])
        assert load_game(path).events[0].word == "CAB"

    def test_missing_file(self, tmp_path):
        with pytest.raises(OSError):
            read_game(tmp_path / "nope.gcg")
        game = load_game(tmp_path / "nope.gcg")
        assert [f.code for f in game.findings] == ["F001"]
        assert game.unreadable is True


def test_every_event_knows_its_original_text_and_line():
    text = "#player1 a Al\n#player2 b Bo\n>a:  ABC   8H  CAB   +14  14   \n>b: DEF -DEF +0 0\n"
    game = parse_string(text)
    assert [(e.line, e.text) for e in game.events] == [
        (3, ">a:  ABC   8H  CAB   +14  14   "),
        (4, ">b: DEF -DEF +0 0"),
    ]
    assert game.to_dict()["events"][0]["text"] == ">a:  ABC   8H  CAB   +14  14   "


# ------------------------------------------------- the library: numbering and reprs
def test_replay_numbers_positions_as_the_commands_do() -> None:
    import warnings

    from gcgtools import replay

    game = read_game(Path(__file__).resolve().parents[2] / "examples" / "club-final.gcg")
    positions = list(replay(game))
    # 0: the start before any event; then the 1-based event number (board --move N)
    assert [p.number for p in positions] == list(range(len(game.events) + 1))
    assert positions[0].event is None and positions[1].event is game.events[0]
    assert repr(positions[0]) == "<Position 0: start | 0-0>"
    assert repr(positions[1]) == "<Position 1: >Ada_Quill H5 FUTZ +32 | 32-0>"
    assert repr(positions[7]) == "<Position 7: >Brendan -- -47 | 79-63>"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert positions[1].index == 0 and positions[0].index == -1  # the old numbering
    assert [w.category for w in caught] == [DeprecationWarning, DeprecationWarning]
    assert "Position.number" in str(caught[0].message)


def test_events_print_as_their_line() -> None:
    game = parse_string("#player1 A Ann\n#player2 B Bob\n>A: AEINRST 8H RETAINS +66 66\n")
    assert repr(game.events[0]) == "<Event line 3: >A: AEINRST 8H RETAINS +66 66>"
    odd = parse_string("#player1 A Ann\n#player2 B Bob\n>A: AEINRST 8H RETAINS +66 66 \x1b[2J\n")
    assert "\x1b" not in repr(odd.events[0])
