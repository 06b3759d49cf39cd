"""The reading and checking commands as a user meets them: validate's severity words,
--select/--ignore, --statistics and standard input; JSON Lines everywhere; rules, explain
and --help; the short representations of games and validation results."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from support.report_records import BROKEN, GAME_A, write
from typer.testing import CliRunner

import gcgtools
from gcgtools.cli import app
from gcgtools.findings import RULES, code_filter

ROOT = Path(__file__).resolve().parents[2]
WRONG = ROOT / "examples" / "with-errors" / "wrong-scores.gcg"
DIALECTS = ROOT / "examples" / "dialects.gcg"  # two P106 warnings
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def jsonl(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


# ------------------------------------------------------------------------ validate
def test_each_finding_says_its_severity() -> None:
    code, out, _ = run("validate", str(WRONG), str(DIALECTS), "-q")
    assert code == 1
    lines = out.splitlines()
    assert f"{WRONG}:13:1: S601 error: recorded +14, computed +41" in lines
    assert any(re.fullmatch(rf"{DIALECTS}:16:1: P106 warning: .*", line) for line in lines)
    assert lines[-1] == "2 files: 1 clean, 1 with errors, 0 unreadable; 3 errors, 2 warnings"


def test_select_and_ignore_take_codes_and_prefixes() -> None:
    paths = [str(WRONG), str(DIALECTS), "-q"]
    _, out, _ = run("validate", *paths, "--select", "S602")
    assert [line.split()[1] for line in out.splitlines()[:-1]] == ["S602"]
    code, out, _ = run("validate", *paths, "--select", "S", "--ignore", "S602")
    assert code == 1 and [line.split()[1] for line in out.splitlines()[:-1]] == ["S601"] * 2
    # ignoring every error leaves the warnings, and nothing fails
    code, out, _ = run("validate", *paths, "--ignore", "S6,T")
    assert code == 0
    assert {line.split()[1] for line in out.splitlines()[:-1]} == {"P106"}
    code, _, err = run("validate", *paths, "--select", "Z9")
    assert code == 2 and "matches no finding code" in err


def test_code_filter_prefers_the_longer_prefix() -> None:
    keep = code_filter(["S"], ["S60"])
    assert not keep("S601") and keep("S701" if "S701" in RULES else "S")
    keep = code_filter(["S602"], ["S"])
    assert keep("S602") and not keep("S601") and not keep("T401")
    assert code_filter()("B501")
    with pytest.raises(ValueError):
        code_filter(["X"])


def test_statistics_count_findings_by_code() -> None:
    code, out, _ = run("validate", str(WRONG), str(DIALECTS), "--statistics", "-q")
    assert code == 1
    lines = [line.split(None, 3) for line in out.splitlines()[:-1]]
    assert [line[:3] for line in lines] == [
        ["2", "P106", "warning"], ["2", "S601", "error"], ["1", "S602", "error"],
    ]  # fmt: skip
    assert lines[1][3] == RULES["S601"].title
    assert out.splitlines()[-1].startswith("2 files:")


def test_dash_reads_a_record_from_standard_input() -> None:
    code, out, _ = run("validate", "-", stdin=WRONG.read_text(encoding="utf-8"))
    assert code == 1
    assert out.splitlines()[0] == "<stdin>:13:1: S601 error: recorded +14, computed +41"
    code, out, _ = run("validate", "-", str(DIALECTS), "-f", "json", stdin=GAME_A)
    assert code == 0
    assert [r["path"] for r in jsonl(out)] == ["<stdin>", str(DIALECTS)]
    code, out, _ = run("parse", "-", "-f", "json", stdin=GAME_A)
    assert code == 0 and jsonl(out)[0]["players"][0]["nick"] == "Alice"


@pytest.mark.parametrize("command", ["validate", "parse"])
def test_standard_input_has_the_files_size_limit(command: str) -> None:
    """``cat /dev/zero | gcgtools validate -``: refused after 16 MiB, never read to the end
    (run under a 1 GB address-space limit, so that a regression fails, not the machine)."""
    import resource
    import subprocess
    import sys

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run(
            [sys.executable, "-c", "from gcgtools.cli import main; main()", command, "-"],
            stdin=zero, capture_output=True, text=True, timeout=120, preexec_fn=limit_memory,
        )  # fmt: skip
    assert proc.returncode == 2, proc.stderr[-500:]
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr
    assert "<stdin>: F001 cannot read file: file too large for a game record" in proc.stderr
    assert "the limit is 16,777,216" in proc.stderr


def test_parse_json_of_a_huge_record_is_written_in_pieces() -> None:
    notes = "".join(f"#note {i}\x7f\n" for i in range(20_000))
    game = gcgtools.parse_string(GAME_A + notes)
    pieces = list(game.json_chunks(size=4096))
    whole = json.dumps(game.to_dict(), ensure_ascii=False)
    assert "".join(pieces) == whole
    # a few list items at a time (the largest: the last event, with its 20,000 notes)
    assert len(pieces) > 50 and max(map(len, pieces)) < len(whole) // 4
    code, out, _ = run("parse", "-", "-f", "json", stdin=GAME_A + notes)
    record = jsonl(out)[0]
    assert (
        code == 0 and len(record["notes"]) == 20_001 and record["notes"][-1]["text"] == "19999\x7f"
    )
    assert "\x7f" not in out  # escaped as JSON for the terminal: the value is the same


def test_unreadable_files_are_listed_one_per_line_with_the_reason(tmp_path: Path) -> None:
    broken = write(tmp_path, "broken.gcg", BROKEN)
    missing = str(tmp_path / "missing.gcg")
    for command in ("validate", "parse", "stats", "bingos"):
        code, _, err = run(command, broken, missing, "-q" if command != "parse" else "-f")
        if command == "parse":  # parse has no -q: run it again with its text format
            code, _, err = run(command, broken, missing)
        assert code == 2, command
        lines = err.splitlines()
        assert lines[0] == "could not read 2 files:", command
        assert re.match(rf"  {re.escape(broken)}: P10\d line \d+: ", lines[1]), command
        assert lines[2].startswith(f"  {missing}: F001"), command


# ------------------------------------------------------------------ JSON Lines
@pytest.mark.parametrize(
    "args",
    [
        ["parse", str(WRONG), str(DIALECTS)],
        ["validate", str(WRONG), str(DIALECTS)],
        ["stats", str(WRONG), str(DIALECTS)],
        ["bingos", str(WRONG), str(DIALECTS)],
        ["rules"],
    ],
)
def test_json_is_one_object_per_line(args: list[str]) -> None:
    result = runner.invoke(app, [*args, "-f", "json"])
    assert result.exit_code in (0, 1)
    lines = result.stdout.splitlines()
    assert len(lines) >= 2 and all(isinstance(json.loads(line), dict) for line in lines)
    help_text = " ".join(runner.invoke(app, [args[0], "--help"]).stdout.split())
    assert "JSON Lines" in help_text


def test_parse_json_lists_every_note_of_the_record() -> None:
    path = ROOT / "examples" / "club-final.gcg"
    code, out, _ = run("parse", str(path), "-f", "json")
    (record,) = jsonl(out)
    text = path.read_text(encoding="utf-8").splitlines()
    written = [i + 1 for i, line in enumerate(text) if line.startswith("#note")]
    assert [n["line"] for n in record["notes"]] == written and written
    first = record["notes"][0]
    assert first["text"] == text[first["line"] - 1].removeprefix("#note ")
    # "event" is the event number the note follows
    assert record["events"][first["event"] - 1]["notes"] == [first["text"]]


# ------------------------------------------------------------- rules and explain
def test_rules_as_json_carry_examples_and_fixes() -> None:
    code, out, _ = run("rules", "-f", "json")
    rules = jsonl(out)
    assert code == 0 and [r["code"] for r in rules] == list(RULES)
    for r in rules:
        assert set(r) == {"code", "severity", "title", "explanation", "example", "fix"}
        assert r["example"].strip() and r["fix"].strip(), r["code"]


@pytest.mark.parametrize("code", sorted(RULES))
def test_explain_shows_an_example_and_how_to_fix_it(code: str) -> None:
    exit_code, out, _ = run("explain", code.lower())
    assert exit_code == 0
    rule = RULES[code]
    assert out.startswith(f"{code} ({rule.severity}): {rule.title}")
    example = out.split("Example:\n", 1)[1].split("\n\n", 1)[0]
    assert example.splitlines() == [f"    {line}" for line in rule.example.splitlines()]
    assert " ".join(out.split("How to fix it:\n", 1)[1].split()) == " ".join(rule.fix.split())


EXAMPLE_HEADER = "#player1 Ann Ann Smith\n#player2 Bob Bob Brown\n"
# the codes whose example is record lines that get the finding on their own (after the
# two #player lines, unless the example declares players or is about the file itself);
# the others describe their context in words
SELF_CONTAINED = [
    "F003", "F004", "P101", "P102", "P104", "P105", "P106", "P107", "P108", "P109", "P110",
    "H201", "H202", "H203", "H204", "H205", "H206", "H207", "H208", "H209", "H210", "H211",
    "H212", "H213", "O301", "O303", "O304", "O305", "O306", "O307", "O308", "O310", "T401",
    "T402", "T403", "T405", "T406", "B501", "B502", "B503", "B504", "B508", "B509", "S601",
    "S602", "S604", "S605", "S606", "S607", "P111",
]  # fmt: skip


@pytest.mark.parametrize("code", SELF_CONTAINED)
def test_the_example_of_a_code_gets_that_code(code: str) -> None:
    example = RULES[code].example
    alone = "#player1" in example or code in ("H213", "F003", "F004")
    record = (example if alone else EXAMPLE_HEADER + example) + "\n"
    game = gcgtools.parse_bytes(record.encode("utf-8"))
    assert code in {f.code for f in gcgtools.validate(game).findings}


# ------------------------------------------------------------------------- --help
def test_help_lists_commands_by_purpose_in_order() -> None:
    out = runner.invoke(app, ["--help"]).stdout
    titles = [line[:-1] for line in out.splitlines() if re.fullmatch(r"[A-Z][a-z ]+:", line)]
    assert titles[:6] == ["Options", "Read", "Check", "Analyse", "Report", "Edit"]
    order = [m.group(1) for m in re.finditer(r"^  ([a-z]+)  ", out, re.MULTILINE)]
    assert order.index("parse") < order.index("validate") < order.index("stats")
    assert order.index("stats") < order.index("report") < order.index("fix")


@pytest.mark.parametrize("command", ["validate", "stats", "bingos", "parse", "export", "chart"])
def test_usage_lines_read_path(command: str) -> None:
    out = runner.invoke(app, [command, "--help"]).stdout
    usage = out.splitlines()[0]
    assert usage.endswith("PATH...") and "{" not in usage, usage


def test_stats_help_has_a_legend_of_every_column() -> None:
    from gcgtools.tables.stats import PLAYER_STAT_MEANINGS

    out = runner.invoke(app, ["stats", "--help"]).stdout
    for column, meaning in PLAYER_STAT_MEANINGS.items():
        assert re.search(rf"^\s+{column}\s+{re.escape(meaning)}", out, re.MULTILINE), column


def test_board_help_says_the_event_numbering() -> None:
    out = " ".join(runner.invoke(app, ["board", "--help"]).stdout.split())
    assert "after event N" in out and "0: the empty board" in out and "1-based" not in out


# --------------------------------------------------------------------- reprs
def test_short_reprs_and_html_for_jupyter() -> None:
    game = gcgtools.read_game(WRONG)
    result = gcgtools.validate(game)
    assert repr(game) == (
        f"<Game '{WRONG}': Ada_Quill vs Brendan, ENABLE2K, 35 events, 0 errors, "
        "0 warnings in parsing>"
    )
    assert repr(result) == (
        f"<Validation '{WRONG}': errors, 35 events, 3 errors, 0 warnings, final 472-335>"
    )
    html = game._repr_html_()
    assert html.startswith("<table") and "Ada_Quill" in html and len(html) < 2000
    html = result._repr_html_()
    assert html.count("<tr>") == 1 + 3 and "S601" in html and "S602" in html
    assert len(html) < 3000


def test_statistics_as_json_lines() -> None:
    code, out, _ = run("validate", str(WRONG), str(DIALECTS), "--statistics", "-f", "json")
    assert code == 1
    assert jsonl(out) == [
        {"count": 2, "code": "P106", "severity": "warning", "title": RULES["P106"].title},
        {"count": 2, "code": "S601", "severity": "error", "title": RULES["S601"].title},
        {"count": 1, "code": "S602", "severity": "error", "title": RULES["S602"].title},
    ]


def test_sort_and_columns_choose_rows_order_and_fields() -> None:
    examples = sorted(str(p) for p in (ROOT / "examples").glob("*.gcg"))
    code, out, _ = run("bingos", *examples, "-f", "json", "--sort", "score", "-c", "word,score")
    assert code == 0
    rows = jsonl(out)
    assert all(set(r) == {"word", "score"} for r in rows)
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    code, out, _ = run("stats", *examples, "-f", "csv", "--sort", "player", "-c", "wins")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "player,wins"
    players = [line.split(",")[0] for line in lines[1:]]
    assert players == sorted(players)
    # an unknown column stops the command before it reads anything
    code, _, err = run("stats", "no-such-folder/", "--sort", "nope")
    assert code == 2 and "unknown column 'nope'" in err and "could not read" not in err


def test_validate_json_says_which_files_could_not_be_read(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.gcg")
    code, out, _ = run("validate", str(DIALECTS), missing, "-f", "json")
    assert code == 2
    assert [(r["path"], r["ok"], r["unreadable"]) for r in jsonl(out)] == [
        (str(DIALECTS), True, False), (missing, False, True),
    ]  # fmt: skip
