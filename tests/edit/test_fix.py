"""The fixer: wrong scores and cumulatives corrected in place, nothing else touched."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import valid_file, valid_file_params
from support.samples_annotator import GAME
from typer.testing import CliRunner

from gcgtools import parse_bytes, parse_string, validate
from gcgtools.cli import app
from gcgtools.edit.fix import fix, fix_record
from gcgtools.syntax.spans import score_spans

SCORE_CODES = {"S601", "S602", "S603", "S604", "S605"}


def test_sample_is_correct() -> None:
    result = validate(parse_string(GAME))
    assert not [f for f in result.findings if f.severity == "error"]
    assert result.recorded == [73, 16]


def test_fix_restores_the_original_bytes() -> None:
    broken = (
        GAME.replace(">Ann: AEHMRTX 8G HEX +26 26", ">Ann: AEHMRTX 8G HEX +24 24")
        .replace(">Ann: AEMRTU? 12C MATURe. +16 42", ">Ann: AEMRTU? 12C MATURe. +16 40")
        .replace(">Ann: EFNOORW 13B FEW +31 73", ">Ann: EFNOORW 13B FEW +27 67")
        .replace(">Bob: AEIRRUV -UV +0 16", ">Bob: AEIRRUV -UV +0 61")
    )
    assert broken != GAME
    data, changes = fix(parse_string(broken))
    assert data == GAME.encode()
    assert [(c.line, c.old, c.new) for c in changes] == [
        (4, ">Ann: AEHMRTX 8G HEX +24 24", ">Ann: AEHMRTX 8G HEX +26 26"),
        (8, ">Ann: AEMRTU? 12C MATURe. +16 40", ">Ann: AEMRTU? 12C MATURe. +16 42"),
        (10, ">Bob: AEIRRUV -UV +0 61", ">Bob: AEIRRUV -UV +0 16"),
        (11, ">Ann: EFNOORW 13B FEW +27 67", ">Ann: EFNOORW 13B FEW +31 73"),
    ]
    assert changes[0].reason == "score +24 -> +26; cumulative 24 -> 26"
    assert changes[1].reason == "cumulative 40 -> 42"


def test_fix_keeps_spacing_line_endings_and_encoding() -> None:
    good = (
        "#player1 A \xc9lodie\r\n#player2 B Bob\r\n"
        ">A:   AEHMRTX  8g   HEX     +26    26   \r\n"
        ">B:\tADEIORS\ti7\tOXIDES\t+16\t16\r\n"
        ">A: AEMRTU? 12C MATURe. +16 42 MATURES"
    ).encode("latin-1")
    bad = (
        good.replace(b"+26    26", b"+62    62")
        .replace(b"+16\t16", b"+10\t10")
        .replace(b"+16 42", b"+16 78")
    )
    data, changes = fix(parse_bytes(bad))
    assert data == good
    assert len(changes) == 3
    assert fix(parse_bytes(good)) == (good, [])


def test_unfixable_placement_is_reported_and_left_alone() -> None:
    # the "." in F.W stands on an empty square: the play cannot be rebuilt (B508)
    broken = (
        GAME.replace(">Ann: AEHMRTX 8G HEX +26 26", ">Ann: AEHMRTX 8G HEX +24 24")
        .replace(">Ann: AEMRTU? 12C MATURe. +16 42", ">Ann: AEMRTU? 12C MATURe. +16 40")
        .replace(">Ann: EFNOORW 13B FEW +31 73", ">Ann: EFNOORW 13B F.W +31 71")
    )
    result = fix_record(parse_string(broken))
    # listed: the placement, and the cumulative of the line left alone, which no longer
    # follows the corrected total before it
    assert [(f.line, f.code) for f in result.unfixable] == [(11, "B508"), (11, "S602")]
    assert not result.ok
    lines = result.data.decode().splitlines()
    assert lines[3] == ">Ann: AEHMRTX 8G HEX +26 26"
    assert lines[7] == ">Ann: AEMRTU? 12C MATURe. +16 42"
    assert lines[10] == ">Ann: EFNOORW 13B F.W +31 71"  # left alone
    assert [c.line for c in result.changes] == [4, 8]


def test_score_spans() -> None:
    text = ">Ann:  AEHMRTX 8g  HEX   +26  26 extra words"
    (s0, s1), (c0, c1) = score_spans(text)  # type: ignore[misc]
    assert text[s0:s1] == "+26" and text[c0:c1] == "26"
    assert score_spans("#note not an event") is None


def test_duplicate_nicknames_are_not_guessed() -> None:
    text = "#player1 A Ann\n#player2 A Bob\n>A: AEHMRTX 8G HEX +20 20\n"
    result = fix_record(parse_string(text))
    assert result.data == text.encode() and not result.changes
    assert [f.code for f in result.unfixable] == ["H201", "S601"]


@pytest.mark.parametrize("relative", valid_file_params())
def test_corpus_fix(relative: str | None) -> None:
    path = valid_file(relative)
    data = path.read_bytes()
    game = parse_bytes(data, str(path))
    result = fix_record(game)
    if not result.changes:
        assert result.data == data
        return
    fixed = parse_bytes(result.data, str(path))
    assert len(fixed.lines) == len(game.lines)
    changed = {c.line for c in result.changes}
    for old, new in zip(game.lines, fixed.lines, strict=True):
        if old.number not in changed:
            assert (old.text, old.ending) == (new.text, new.ending)
    left = {f.line for f in result.unfixable}
    after = validate(fixed).findings
    assert not [f for f in after if f.code in SCORE_CODES and f.line in changed - left]
    assert fix_record(fixed).changes == []  # nothing more to fix


# ------------------------------------------------------------------------------- CLI
def test_cli_fix(tmp_path: Path) -> None:
    src = tmp_path / "game.gcg"
    broken = GAME.replace("+31 73", "+30 72").encode()
    src.write_bytes(broken)
    runner = CliRunner()
    out = tmp_path / "fixed.gcg"
    result = runner.invoke(app, ["fix", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == GAME.encode()
    assert src.read_bytes() == broken
    assert f"{src}:11: score +30 -> +31; cumulative 72 -> 73" in result.output
    assert "- >Ann: EFNOORW 13B FEW +30 72" in result.output
    assert "+ >Ann: EFNOORW 13B FEW +31 73" in result.output

    result = runner.invoke(app, ["fix", str(src)])  # record on stdout, report on stderr
    assert result.exit_code == 0
    assert result.stdout_bytes == GAME.encode()
    assert "score +30 -> +31" in result.stderr

    result = runner.invoke(app, ["fix", str(src), "--in-place"])
    assert result.exit_code == 0
    assert src.read_bytes() == GAME.encode()

    src.write_text(GAME.replace("13B FEW", "13B F.W"))
    result = runner.invoke(app, ["fix", str(src), "-o", str(out)])
    assert result.exit_code == 1
    assert "B508" in result.output and "(not fixed)" in result.output


def test_fix_lists_every_finding_it_did_not_fix(tmp_path: Path) -> None:
    # a tile not in the rack (T401) and a duplicate pragma (H204): nothing fix can correct,
    # so nothing changes, and both are listed; the exit code says errors remain
    text = GAME.replace(">Ann: AEHMRTX 8G HEX +26 26", ">Ann: AEHMRTQ 8G HEX +26 26")
    text = text.replace("#player2", "#title a\n#title b\n#player2", 1)
    src = tmp_path / "left.gcg"
    src.write_text(text, encoding="utf-8")
    result = fix_record(parse_string(text))
    assert result.changes == [] and result.data == text.encode()
    codes = sorted(f.code for f in result.unfixable)
    assert codes == ["H204", "T401"]
    cli = CliRunner().invoke(app, ["fix", str(src), "-o", str(tmp_path / "out.gcg")])
    assert cli.exit_code == 1
    assert "T401" in cli.output and "H204" in cli.output
    assert "0 lines changed, 2 errors and 0 warnings left to fix by hand" in cli.output


def test_fix_of_quackle_multiplayer_crash_lists_its_nine_errors(tmp_path: Path) -> None:
    path = valid_file("quackle__quackle/test__positions__multiplayer-crash.gcg")
    cli = CliRunner().invoke(app, ["fix", str(path), "-o", str(tmp_path / "out.gcg")])
    assert cli.exit_code == 1
    assert cli.output.count("T401") == 9 and "9 errors" in cli.output


def test_fix_leaves_a_misplaced_withdrawal_alone() -> None:
    # B's "--" follows A's play: it counts as B's turn and changes nothing else, and fix
    # leaves it alone (A's total is not rolled back, nothing after it changes); the
    # finding is listed
    text = (
        "#player1 A Alice\n#player2 B Bob\n>A: AEINRST 8H RETAINS +66 66\n"
        ">B: DGOOPRW -- -0 0\n>A: EEILMOT N8 .MILE +9 75\n>B: DGOOPRW I7 P.G +11 11\n"
    )
    result = fix_record(parse_string(text))
    assert result.changes == [] and result.data == text.encode()
    assert [(f.line, f.code) for f in result.unfixable] == [(4, "O305")]


# ------------------------------------------------- misscored by one pattern (S609)
WWF = Path(__file__).resolve().parents[1] / "support" / "data" / "records" / "wwf-scores.gcg"
FLIP = "#player1 A Ann\n#player2 B Bob\n>A: AEINRST 8H RETAINS +66 66\n>B: DGOOPRW I7 P.G +80 80\n"


def test_fix_refuses_a_record_that_misscores_by_one_pattern(tmp_path: Path) -> None:
    out = tmp_path / "fixed.gcg"
    result = CliRunner().invoke(app, ["fix", str(WWF), "-o", str(out)])
    assert result.exit_code == 1
    assert not out.exists()  # nothing written
    text = result.stderr
    assert "S609" in text and "--board" in text and "--tiles" in text
    assert "--even-if-misscored" in text and "not fixed" in text
    assert "would change 5 lines" in text


def test_fix_misscored_record_when_asked_to_says_the_final_scores(tmp_path: Path) -> None:
    out = tmp_path / "fixed.gcg"
    result = CliRunner().invoke(app, ["fix", str(WWF), "-o", str(out), "--even-if-misscored"])
    assert result.exit_code == 0 and out.exists()
    assert "final score A 74 -> 81, B 14 -> 16; A still wins" in result.stdout
    # with the board and tiles the game used there is nothing to fix and nothing refused
    right = ["--board", "WordsWithFriends", "--tiles", "wwf_english"]
    result = CliRunner().invoke(app, ["fix", str(WWF), "-o", str(out), *right])
    assert result.exit_code == 0 and "0 lines changed" in result.stdout


def test_fix_says_when_the_winner_changes() -> None:
    result = fix_record(parse_string(FLIP))
    assert result.misscored is None
    assert result.scores_before == [66, 80] and result.scores_after == [66, 11]
    assert result.winner_before == "B" and result.winner_after == "A"
    assert result.outcome_change() == "final score A 66, B 80 -> 11; the winner changes: B -> A"
    same = fix_record(parse_string(FLIP.replace("+80 80", "+11 11")))
    assert same.changes == [] and same.outcome_change() is None


def test_batch_fix_prints_a_total(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "wwf.gcg").write_bytes(WWF.read_bytes())
    (folder / "flip.gcg").write_text(FLIP)
    (folder / "fine.gcg").write_text(FLIP.replace("+80 80", "+11 11"))
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["fix", str(folder), "-o", f"{out}/", "-q", "-j", "1"])
    assert result.exit_code == 1  # one record refused
    assert sorted(p.name for p in out.iterdir()) == ["fine.gcg", "flip.gcg"]
    total = result.stdout.splitlines()[-1]
    assert total.startswith("fix: 1 line changed in 1 of 3 records; final score changed in 1")
    assert "winner in 1" in total and "1 refused (S609" in total
    assert "the winner changes: B -> A" in result.stdout
