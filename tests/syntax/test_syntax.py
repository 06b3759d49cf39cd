"""Unit tests of the syntax layer: decoding bytes, splitting lines, the Lark grammar and the
records it builds (gcgtools.syntax).

Expected values come from the GCG format digest (/work/shared/docs/gcg-format.md): the spec
examples quoted there (e.g. ``>David: ANTHER? n8 ANoTHER +73 416``) and the dialects it lists.
Coordinates: row number first = across, column letter first = down; rows count from 1 at
the top and column A is the leftmost, so ``8D`` is 0-based row 7, column 3.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gcgtools.findings import RULES
from gcgtools.syntax import (
    END_KINDS,
    TURN_KINDS,
    CommentedEvent,
    Event,
    EventKind,
    Pragma,
    SourceLine,
    TextLine,
    decode,
    grammar_text,
    parse_lines,
    split_lines,
)

GRAMMAR_FILE = Path(__file__).resolve().parents[2] / "grammar" / "gcg.lark"


# ------------------------------------------------------------------ helpers
def parse(text: str):
    return parse_lines(split_lines(text))


def events_of(text: str) -> list[Event]:
    records, findings = parse(text)
    assert findings == [], [f.message for f in findings]
    return [r for r in records if isinstance(r, Event)]


def one_event(line: str) -> Event:
    (event,) = events_of(line + "\n")
    return event


def only_error(text: str):
    """The single finding for ``text`` (which must not parse), with the good records."""
    records, findings = parse(text)
    assert len(findings) == 1, [f.message for f in findings]
    return findings[0], records


def col(line: str, token: str) -> int:
    """1-based column of ``token`` in ``line``."""
    assert token in line
    return line.index(token) + 1


# ======================================================== decoding the bytes
class TestEncoding:
    @pytest.mark.parametrize("name", ["UTF-8", "utf-8", "UTF8", "utf8"])
    def test_utf8_pragma_is_honoured(self, name):
        text = f"#character-encoding {name}\n#player1 Jo Józef Żółć\n>Jo: ĄĆĘŁŃÓŚŹŻ 8D ŹŻ +1 1\n"
        decoded = decode(text.encode("utf-8"))
        assert decoded.encoding == "utf-8"
        assert decoded.declared == name
        assert decoded.findings == []
        assert decoded.lines[1].text == "#player1 Jo Józef Żółć"
        assert decoded.lines[2].text == ">Jo: ĄĆĘŁŃÓŚŹŻ 8D ŹŻ +1 1"

    @pytest.mark.parametrize(
        "name", ["ISO-8859-1", "iso-8859-1", "ISO 8859-1", "iso8859-1", "Latin-1", "latin1"]
    )
    def test_latin1_pragma_is_honoured(self, name):
        text = f"#character-encoding {name}\n#player1 Jo Jürgen Müller\n>Jo: ÄÖÜ 8D ÄÖÜ +9 9\n"
        data = text.encode("latin-1")
        decoded = decode(data)
        assert decoded.encoding == "latin-1"
        assert decoded.declared == name
        assert decoded.findings == []
        assert [sl.text for sl in decoded.lines] == text.splitlines()

    def test_latin1_pragma_wins_over_bytes_that_are_also_valid_utf8(self):
        # "Ã¼" in Latin-1 is the two bytes C3 BC, which are also valid UTF-8 for "ü".
        data = "#character-encoding ISO-8859-1\n#player1 Jo JÃ¼rgen\n".encode("latin-1")
        decoded = decode(data)
        assert decoded.encoding == "latin-1"
        assert decoded.lines[1].text == "#player1 Jo JÃ¼rgen"

    def test_without_pragma_valid_utf8_is_read_as_utf8(self):
        data = "#player1 Jo Jürgen Müller\n>Jo: ÄÖÜ 8D ÄÖÜ +9 9\n".encode()
        decoded = decode(data)
        assert decoded.encoding == "utf-8"
        assert decoded.declared is None
        assert decoded.lines[0].text == "#player1 Jo Jürgen Müller"

    def test_without_pragma_invalid_utf8_falls_back_to_latin1(self):
        data = "#player1 Jo Jürgen Müller\n>Jo: ÄÖÜ 8D ÄÖÜ +9 9\n".encode("latin-1")
        decoded = decode(data)
        assert decoded.encoding == "latin-1"
        assert decoded.findings == []
        assert decoded.lines[1].text == ">Jo: ÄÖÜ 8D ÄÖÜ +9 9"

    def test_plain_ascii_without_pragma(self):
        decoded = decode(b"#player1 Al Alice\n")
        assert decoded.encoding == "utf-8"
        assert decoded.findings == []

    def test_unsupported_encoding_is_F003_on_line_1(self):
        line = "#character-encoding EBCDIC"
        decoded = decode(f"{line}\n#player1 Jo Jürgen\n".encode())
        (finding,) = decoded.findings
        assert finding.code == "F003"
        assert finding.severity == "error"
        assert finding.line == 1
        assert finding.column == col(line, "EBCDIC")
        assert "EBCDIC" in finding.message
        # the text is still read, with the default strategy (strict UTF-8, then Latin-1)
        assert decoded.encoding == "utf-8"
        assert decoded.lines[1].text == "#player1 Jo Jürgen"

    def test_ascii_is_an_unsupported_encoding_name(self):
        decoded = decode(b"#character-encoding ASCII\n#player1 Al Alice\n")
        assert [(f.code, f.line) for f in decoded.findings] == [("F003", 1)]

    def test_misplaced_encoding_pragma_is_F004_at_its_line(self):
        text = "#player1 Al Alice\n#player2 Bo Bob\n#character-encoding UTF-8\n"
        decoded = decode(text.encode())
        (finding,) = decoded.findings
        assert (finding.code, finding.severity, finding.line) == ("F004", "error", 3)
        assert decoded.declared is None

    def test_misplaced_encoding_pragma_is_not_honoured(self):
        # Declared UTF-8 on line 2 only: the file is not forced to UTF-8 (which would fail on
        # the Latin-1 byte), it is read with the default strategy.
        data = "#player1 Jo Jürgen\n#character-encoding UTF-8\n".encode("latin-1")
        decoded = decode(data)
        assert [(f.code, f.line) for f in decoded.findings] == [("F004", 2)]
        assert decoded.encoding == "latin-1"
        assert decoded.lines[0].text == "#player1 Jo Jürgen"

    def test_second_encoding_pragma_after_a_good_first_one_is_F004(self):
        text = "#character-encoding UTF-8\n#player1 Al Alice\n#character-encoding UTF-8\n"
        decoded = decode(text.encode())
        assert [(f.code, f.line) for f in decoded.findings] == [("F004", 3)]
        assert decoded.declared == "UTF-8"

    def test_bytes_invalid_in_the_declared_encoding_are_F005(self):
        data = "#character-encoding UTF-8\n#player1 Al Alice\n#player2 Jo Jürgen\n".encode(
            "latin-1"
        )
        decoded = decode(data)
        assert [(f.code, f.line) for f in decoded.findings] == [("F005", 3)]
        assert decoded.lines[2].text.startswith("#player2 Jo J")

    def test_utf8_bom_is_stripped(self):
        data = b"\xef\xbb\xbf" + "#player1 Jo Jürgen\n>Jo: Ä 8D Ä +1 1\n".encode()
        decoded = decode(data)
        assert decoded.bom is True
        assert decoded.encoding == "utf-8"
        assert decoded.lines[0].text == "#player1 Jo Jürgen"  # no U+FEFF left
        records, findings = parse_lines(decoded.lines)
        assert findings == []
        assert isinstance(records[0], Pragma) and records[0].keyword == "player1"

    def test_bom_then_encoding_pragma_is_still_the_first_line(self):
        data = b"\xef\xbb\xbf#character-encoding UTF-8\r\n#player1 Al Alice\r\n"
        decoded = decode(data)
        assert decoded.findings == []
        assert decoded.declared == "UTF-8"
        assert decoded.bom is True

    def test_no_bom_flag_without_bom(self):
        assert decode(b"#player1 Al Alice\n").bom is False


# ===================================================== lines and line endings
class TestSourceLines:
    def test_lf_crlf_cr_and_missing_final_newline(self):
        text = "#player1 Al Alice\r\n#player2 Bo Bob\n>Al: A 8D A +1 1\r>Bo: B 9D B +1 1"
        lines = split_lines(text)
        assert lines == [
            SourceLine(1, "#player1 Al Alice", "\r\n"),
            SourceLine(2, "#player2 Bo Bob", "\n"),
            SourceLine(3, ">Al: A 8D A +1 1", "\r"),
            SourceLine(4, ">Bo: B 9D B +1 1", ""),
        ]
        assert "".join(sl.text + sl.ending for sl in lines) == text

    def test_trailing_whitespace_and_blank_lines_are_kept(self):
        text = "#player1 Al Alice  \n\n   \n>Al: A 8D A +1 1\t\n"
        lines = split_lines(text)
        assert [sl.text for sl in lines] == ["#player1 Al Alice  ", "", "   ", ">Al: A 8D A +1 1\t"]
        assert [sl.number for sl in lines] == [1, 2, 3, 4]
        assert "".join(sl.text + sl.ending for sl in lines) == text

    def test_empty_text_has_no_lines(self):
        assert split_lines("") == []

    def test_decoded_crlf_file_round_trips(self):
        text = "#character-encoding UTF-8\r\n#player1 Al Alice\r\n>Al: A 8D A +1 1\r\n"
        decoded = decode(text.encode())
        assert all(sl.ending == "\r\n" for sl in decoded.lines)
        assert "".join(sl.text + sl.ending for sl in decoded.lines) == text


# ================================================================= pragmas
class TestPragmaRecords:
    def test_keyword_value_and_line(self):
        records, findings = parse("#title  2006 Showdown Round 1  \n\n#lexicon CSW21\n")
        assert findings == []
        assert records == [
            Pragma("title", "2006 Showdown Round 1", 1, 1),
            Pragma("lexicon", "CSW21", 3, 1),
        ]

    def test_trailing_tab_is_not_part_of_the_value(self):
        (p,), _ = parse("#rack2 RETAIN?\t\n")
        assert (p.keyword, p.value) == ("rack2", "RETAIN?")

    def test_pragma_without_value(self):
        (p,), _ = parse("#incomplete \n")
        assert (p.keyword, p.value) == ("incomplete", "")

    def test_keyword_is_lower_cased(self):
        (p,), _ = parse("#Player1 Al Alice\n")
        assert p.keyword == "player1"

    @pytest.mark.parametrize(
        ("line", "keyword", "value"),
        [
            ("#character-encoding UTF-8", "character-encoding", "UTF-8"),
            ("#player1 Jamie James Chew", "player1", "Jamie James Chew"),
            ("#player4 Dd Dora D", "player4", "Dd Dora D"),
            ("#description Created with Macondo", "description", "Created with Macondo"),
            ("#id io.woogles p6QRjJHG", "id", "io.woogles p6QRjJHG"),
            ("#note Wow. 12C LIG is better #tactics", "note", "Wow. 12C LIG is better #tactics"),
            ("#game-type classic", "game-type", "classic"),
            ("#board-layout CrosswordGame", "board-layout", "CrosswordGame"),
            ("#tile-distribution english", "tile-distribution", "english"),
            ("#tile-set english set", "tile-set", "english set"),
            ("#tile L·L l·l", "tile", "L·L l·l"),
            ("#- continued", "-", "continued"),
            (
                '#comment date="2006-06-02 13:05"; text="\\"Hello, world!\\""',
                "comment",
                'date="2006-06-02 13:05"; text="\\"Hello, world!\\""',
            ),
            ("#style wsc2001", "style", "wsc2001"),
        ],
    )
    def test_pragma_forms(self, line, keyword, value):
        (p,), findings = parse(line + "\n")
        assert findings == []
        assert isinstance(p, Pragma)
        assert (p.keyword, p.value, p.line) == (keyword, value, 1)

    def test_commented_out_event(self):
        (r,), findings = parse("#>Al: ABC 8D FOO +10 10\n")
        assert findings == []
        assert r == CommentedEvent("#>Al: ABC 8D FOO +10 10", 1)

    def test_text_line(self):
        records, findings = parse("#note first line\nsince ive been behind, risky play\n")
        assert findings == []
        assert records[1] == TextLine("since ive been behind, risky play", 2)


# ================================================================== events
class TestPlays:
    def test_across_from_spec_example(self):
        e = one_event(">doug: AEJNOSV 8D JAVE..N +34 66")
        assert e.kind is EventKind.PLAY
        assert (e.nick, e.rack) == ("doug", "AEJNOSV")
        assert (e.position, e.row, e.col, e.direction) == ("8D", 7, 3, "across")
        assert (e.word, e.score, e.cumulative) == ("JAVE..N", 34, 66)
        assert e.line == 1

    def test_down_column_letter_first(self):
        e = one_event(">doug: AEJNOSV E3 JAVE..N +34 66")
        assert (e.row, e.col, e.direction) == (2, 4, "down")

    def test_spec_example_lower_case_coordinate_and_blank(self):
        e = one_event(">David: ANTHER? n8 ANoTHER +73 416")
        assert (e.position, e.row, e.col, e.direction) == ("n8", 7, 13, "down")
        assert e.word == "ANoTHER"  # the lower-case o is the blank, kept as written
        assert e.rack == "ANTHER?"
        assert (e.score, e.cumulative) == (73, 416)

    @pytest.mark.parametrize(
        ("coord", "row", "column", "direction"),
        [
            ("8b", 7, 1, "across"),
            ("h10", 9, 7, "down"),
            ("15A", 14, 0, "across"),
            ("A15", 14, 0, "down"),
            ("10B", 9, 1, "across"),
            ("o1", 0, 14, "down"),
            ("21U", 20, 20, "across"),  # 21x21 board
        ],
    )
    def test_coordinates(self, coord, row, column, direction):
        e = one_event(f">Al: ABC {coord} AB +4 4")
        assert (e.row, e.col, e.direction) == (row, column, direction)
        assert e.position == coord

    @pytest.mark.parametrize(
        "word",
        [
            "JAVE..N",  # '.' = square already on the board
            "YEARLONG",  # old dialect: the played-through letter itself
            "(FA)DE",  # parenthesised run of board tiles
            "fIRELOc.",  # lower case = blank
            "(.A.)NT",
        ],
    )
    def test_word_is_kept_as_written(self, word):
        assert one_event(f">Al: EGLNORY G6 {word} +66 66").word == word

    def test_partial_rack(self):
        e = one_event(">Puneet: PUU J6 PU.U +13 13")
        assert e.rack == "PUU"
        assert (e.row, e.col, e.direction, e.word) == (5, 9, "down", "PU.U")

    def test_play_without_rack(self):
        e = one_event(">Al:  8D FOO +12 12")
        assert e.kind is EventKind.PLAY and e.rack is None

    @pytest.mark.parametrize(
        ("line", "rack", "word"),
        [
            (">Al: [CH]AL·LNY? 8D [CH]AL·L +20 20", "[CH]AL·LNY?", "[CH]AL·L"),
            (">Al: NYAEIOU D8 NYa +10 10", "NYAEIOU", "NYa"),
            (">Al: [ch]AEIOU 8D [ch]A +5 5", "[ch]AEIOU", "[ch]A"),
            (">2: ĆĘIKPST 8G STĘPIĆ +46 46", "ĆĘIKPST", "STĘPIĆ"),
            (">Al: ĄĆĘŁŃÓŚŹŻ 8D ŹdŹBŁO +30 30", "ĄĆĘŁŃÓŚŹŻ", "ŹdŹBŁO"),
            (">Al: ÄÖÜ?ERT 8D ÄRgER +20 20", "ÄÖÜ?ERT", "ÄRgER"),
            (">Al: ÑLL?AEO 8D ÑoLL +20 20", "ÑLL?AEO", "ÑoLL"),
        ],
    )
    def test_multi_character_and_non_ascii_tiles(self, line, rack, word):
        e = one_event(line)
        assert (e.kind, e.rack, e.word) == (EventKind.PLAY, rack, word)

    def test_numeric_and_non_ascii_nicknames(self):
        assert one_event(">1: ABC 8D CAB +7 7").nick == "1"
        assert one_event(">úrsula: ABC 8D CAB +7 7").nick == "úrsula"
        assert one_event(">Peter_Armstrong: AEY 8D AYE +7 7").nick == "Peter_Armstrong"


class TestOtherEvents:
    def test_pass(self):
        e = one_event(">Randy: U - +0 380")
        assert e.kind is EventKind.PASS
        assert (e.rack, e.score, e.cumulative) == ("U", 0, 380)
        assert e.position is None and e.word is None and e.tiles is None

    def test_pass_quackle_spacing_and_without_rack(self):
        assert one_event(">Noah: DEINNOR -  +0 402").kind is EventKind.PASS
        e = one_event(">JayLevin:  - +0 367")
        assert (e.kind, e.rack, e.cumulative) == (EventKind.PASS, None, 367)

    def test_exchange_of_known_tiles(self):
        e = one_event(">Marlon: SEQSPO? -QO +0 268")
        assert e.kind is EventKind.EXCHANGE
        assert (e.tiles, e.count, e.rack, e.score, e.cumulative) == ("QO", None, "SEQSPO?", 0, 268)

    def test_exchange_of_a_count(self):
        e = one_event(">Marlon: SEQSPO? -2 +0 268")
        assert e.kind is EventKind.EXCHANGE
        assert (e.tiles, e.count) == (None, 2)

    def test_exchange_with_blank_and_multi_character_tile(self):
        assert one_event(">bot: ?AIOOOY -?OOOY +0 0").tiles == "?OOOY"
        assert one_event(">Al: [CH]AEIOU -[CH]U +0 0").tiles == "[CH]U"

    def test_exchange_without_plus_sign(self):
        e = one_event(">josh: IIIU -4 0 349")
        assert (e.kind, e.count, e.score, e.cumulative) == (EventKind.EXCHANGE, 4, 0, 349)
        assert e.score_text == "0"

    def test_phony_withdrawn(self):
        e = one_event(">Ron: MOULAGD -- -76 354")
        assert e.kind is EventKind.WITHDRAWN
        assert (e.rack, e.score, e.cumulative) == ("MOULAGD", -76, 354)

    def test_phony_withdrawn_quackle_spacing(self):
        e = one_event(">emely: DEIILTZ --  -24 55")
        assert (e.kind, e.score, e.cumulative) == (EventKind.WITHDRAWN, -24, 55)

    def test_phony_withdrawn_old_plus_zero_form(self):
        e = one_event(">Pakorn: LWGRAKE   -- +0 59")
        assert (e.kind, e.score, e.cumulative) == (EventKind.WITHDRAWN, 0, 59)

    def test_challenge_bonus(self):
        e = one_event(">Joel: DROWNUG (challenge) +5 289")
        assert e.kind is EventKind.CHALLENGE_BONUS
        assert (e.rack, e.score, e.cumulative) == ("DROWNUG", 5, 289)

    @pytest.mark.parametrize(
        ("line", "rack"),
        [
            (">frentz:  (challenge) +5 534", None),
            (">jvc: UNKNOWN (challenge) +5 477", "UNKNOWN"),
            (">jvc: BCEIPRR (challenge) +10 131", "BCEIPRR"),
        ],
    )
    def test_challenge_bonus_rack_forms(self, line, rack):
        e = one_event(line)
        assert (e.kind, e.rack) == (EventKind.CHALLENGE_BONUS, rack)

    def test_end_rack_points_spec_example(self):
        e = one_event(">Dave: (G) +4 539")
        assert e.kind is EventKind.END_RACK_POINTS
        assert (e.rack, e.tiles, e.score, e.cumulative) == (None, "G", 4, 539)

    def test_end_rack_points_two_spaces_for_missing_rack(self):
        e = one_event(">emely:  (OPEG) +14 345")
        assert (e.kind, e.rack, e.tiles, e.score) == (EventKind.END_RACK_POINTS, None, "OPEG", 14)

    def test_end_rack_points_with_blank_and_multi_character_tiles(self):
        e = one_event(">Bo:  (?[CH]L·L) +20 400")
        assert (e.kind, e.tiles) == (EventKind.END_RACK_POINTS, "?[CH]L·L")

    def test_own_rack_penalty_spec_example(self):
        e = one_event(">Pakorn: FWLI (FWLI) -10 426")
        assert e.kind is EventKind.END_RACK_PENALTY
        assert (e.rack, e.tiles, e.score, e.cumulative) == ("FWLI", "FWLI", -10, 426)

    def test_own_rack_penalty_with_negative_cumulative(self):
        e = one_event(">Marlon_Hill: ?AEEOTT (?AEEOTT) -6 -6 ")
        assert (e.kind, e.score, e.cumulative) == (EventKind.END_RACK_PENALTY, -6, -6)

    def test_own_rack_penalty_column_aligned(self):
        e = one_event(">Ganesh: T             (T)              -1  452")
        assert (e.kind, e.rack, e.tiles, e.score, e.cumulative) == (
            EventKind.END_RACK_PENALTY,
            "T",
            "T",
            -1,
            452,
        )

    def test_quackle_plus_minus_score(self):
        e = one_event(">p2: ?ANNZZZ (ANNZZZ?) +-6 12")
        assert (e.kind, e.score, e.score_text) == (EventKind.END_RACK_PENALTY, -6, "+-6")

    def test_time_penalty(self):
        e = one_event(">Pakorn: ISBALI (time) -10 409")
        assert e.kind is EventKind.TIME_PENALTY
        assert (e.rack, e.score, e.cumulative) == ("ISBALI", -10, 409)

    def test_time_penalty_without_rack(self):
        e = one_event(">HastyBot:  (time) -10 69")
        assert (e.kind, e.rack, e.score) == (EventKind.TIME_PENALTY, None, -10)

    def test_kinds_groups(self):
        assert TURN_KINDS == {EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE}
        assert EventKind.TIME_PENALTY in END_KINDS and EventKind.PLAY not in END_KINDS
        assert str(EventKind.END_RACK_PENALTY) == "end_rack_penalty"


class TestDialects:
    def test_tabs_between_tokens(self):
        e = one_event(">Al:\tABC\t8D\tCAB\t+7\t7\t")
        assert (e.rack, e.position, e.word, e.score, e.cumulative) == ("ABC", "8D", "CAB", 7, 7)
        assert e.extra is None

    def test_column_aligned_spacing_and_trailing_spaces(self):
        e = one_event(">Ganesh: AOXJGWS  8g   JAW             +26   26  ")
        assert (e.rack, e.row, e.col, e.direction) == ("AOXJGWS", 7, 6, "across")
        assert (e.word, e.score, e.cumulative, e.extra) == ("JAW", 26, 26, None)

    def test_trailing_tab_spec_example(self):
        e = one_event(">David: ANTHER? n8 ANoTHER +73 416\t")
        assert (e.cumulative, e.extra) == (416, None)

    def test_cross_words_after_cumulative_are_kept_in_extra(self):
        e = one_event(">AdamLogan: EKOX 8G KO +44 70  KO, EX  ")
        assert (e.score, e.cumulative) == (44, 70)
        assert e.extra == "KO, EX"

    def test_kurnik_word_list_is_kept_in_extra(self):
        assert one_event(">a: ABC 8D CAB +7 7 /CAB/AB").extra == "/CAB/AB"

    def test_play_score_without_plus_sign(self):
        e = one_event(">Al: ABC 8D CAB 26 26")
        assert (e.score, e.cumulative, e.score_text) == (26, 26, "26")

    def test_score_text_is_kept(self):
        assert one_event(">Al: ABC 8D CAB +26 26").score_text == "+26"

    def test_crlf_file(self):
        text = "#player1 Al Alice\r\n>Al: ABC 8D CAB +7 7\r\n>Al: ABC - +0 7\r\n"
        records, findings = parse(text)
        assert findings == []
        assert records[0] == Pragma("player1", "Al Alice", 1, 1)
        assert [(r.kind, r.line) for r in records[1:]] == [
            (EventKind.PLAY, 2),
            (EventKind.PASS, 3),
        ]

    def test_missing_final_newline(self):
        (e,) = events_of(">Al: ABC 8D CAB +7 7")
        assert (e.word, e.cumulative) == ("CAB", 7)

    def test_blank_and_whitespace_lines_count_for_line_numbers(self):
        records, findings = parse("\n  \n#player1 Al Alice\n\t\n>Al: ABC 8D CAB +7 7\n")
        assert findings == []
        assert [r.line for r in records] == [3, 5]


# ============================================================ syntax errors
class TestSyntaxErrors:
    def test_bad_line_in_the_middle_is_located_and_the_rest_still_parses(self):
        bad = ">Bo: EFG 9D FEG +8"
        text = (
            "#player1 Al Alice\n"
            "#player2 Bo Bob\n"
            ">Al: ABC 8D CAB +7 7\n"
            f"{bad}\n"
            ">Al: DEF - +0 7\n"
            "#note still a note\n"
            ">Bo: XYZ (challenge) +5 5\n"
        )
        finding, records = only_error(text)
        assert finding.code.startswith("P1")
        assert finding.severity == "error"
        assert finding.line == 4
        assert finding.column == len(bad) + 1  # the cumulative is missing at the end
        assert "cumulative" in finding.message
        kinds = [(type(r).__name__, r.line) for r in records]
        assert kinds == [
            ("Pragma", 1),
            ("Pragma", 2),
            ("Event", 3),
            ("Event", 5),
            ("Pragma", 6),
            ("Event", 7),
        ]
        assert records[3].kind is EventKind.PASS
        assert records[5].kind is EventKind.CHALLENGE_BONUS

    def test_each_bad_line_gets_its_own_finding(self):
        text = ">Al ABC 8D CAB +7 7\n>Al: ABC 8D CAB +7 7\n>Al: ABC 8D CAB +x 7\n"
        records, findings = parse(text)
        assert [f.line for f in findings] == [1, 3]
        assert [r.line for r in records] == [2]

    def test_missing_colon_names_the_expected_colon(self):
        line = ">Al ABC 8D CAB +7 7"
        finding, _ = only_error(line + "\n")
        assert finding.code == "P101"
        assert finding.column == col(line, "ABC")
        assert "expected ':'" in finding.message
        assert line in finding.message  # the message quotes the line

    def test_bad_score_names_the_expected_score(self):
        line = ">Al: ABC 8D CAB +x 7"
        finding, _ = only_error(line + "\n")
        assert finding.code.startswith("P1")
        assert finding.column == col(line, "+x")
        assert "expected a score" in finding.message

    def test_expected_tokens_after_the_colon_are_listed(self):
        line = ">Al: ABC ? 8D +0 0"
        finding, _ = only_error(line + "\n")
        assert finding.column == col(line, "?")
        for name in ("'(challenge)'", "'(time)'", "'--'", "a coordinate", "an exchange"):
            assert name in finding.message

    def test_bare_hash_expects_a_pragma_keyword(self):
        finding, _ = only_error("#player1 Al Alice\n#\n")
        assert (finding.code, finding.line) == ("P101", 2)
        assert "expected a pragma keyword" in finding.message

    def test_event_without_nickname(self):
        finding, _ = only_error(">: ABC 8D CAB +7 7\n")
        assert finding.code.startswith("P1")
        assert "nickname" in finding.message

    @pytest.mark.parametrize(
        ("line", "token"),
        [
            (">RightBehindYou: HLMOO3Y - +0 232", "HLMOO3Y"),  # not a rack then "3Y" a play
            (">Al: AB1C 8D CAB +7 7", "AB1C"),
            (">Marlon_Hill: ?AEE3TT (?AEEOTT) -6 -6", "?AEE3TT"),
            (">Eric: ~!# (challenge) +5 100", "~!#"),
            (">HastyBot: DEII--R (challenge) +5 398", "DEII--R"),
        ],
    )
    def test_malformed_rack_is_P102(self, line, token):
        finding, records = only_error(line + "\n")
        assert records == []
        assert finding.code == "P102"
        start = col(line, token)
        assert start <= finding.column < start + len(token)

    def test_malformed_end_rack_tiles_are_rejected(self):
        line = ">RightBehindYou: (#) +2 378"
        finding, records = only_error(line + "\n")
        assert records == []
        assert finding.code in {"P102", "P103"}  # see the report: P102 would be apt
        assert finding.column == col(line, "(#)")

    def test_error_codes_are_in_the_catalogue_with_error_severity(self):
        _, findings = parse(">Al ABC\n>Al: 1BC 8D X +1 1\n#\n>Al: ABC 8D CAB +7\n")
        assert len(findings) == 4
        for f in findings:
            assert f.code in RULES and f.code.startswith("P1")
            assert f.severity == RULES[f.code].severity == "error"


# ================================================================= grammar
def test_grammar_text_is_the_grammar_file():
    assert grammar_text() == GRAMMAR_FILE.read_text(encoding="utf-8")
