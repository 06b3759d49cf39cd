"""Text from a record reaches the terminal escaped: controls (ESC), bidi overrides and
isolates (U+202E), zero-width characters (U+200B) and every other invisible or format
character (Unicode categories Cc, Cf, Co, Cs, Zl, Zp) are shown as ``\\x1b``,
``\\u202e``, ``\\u200b`` by the one function :func:`gcgtools.console.safe_text`, in every
command's text output; JSON output holds them as JSON escapes, the values unchanged."""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

import pytest
from support.report_records import GAME_A
from typer.testing import CliRunner

from gcgtools.cli import app
from gcgtools.console import HIDDEN_CATEGORIES, echo, safe_text

BIDI = [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C]
ZERO_WIDTH = [*range(0x200B, 0x200E), 0x2060, 0xFEFF]
OTHERS = [0x00AD, 0x2028, 0x2029, 0xE000, 0xF8FF, 0xE0001, 0x10FFFD, 0x0085, 0x009B]
HIDDEN = ("\x1b", "\u202e", "\u200b")


@pytest.mark.parametrize("code", BIDI + ZERO_WIDTH + OTHERS, ids=lambda c: f"U+{c:04X}")
def test_invisible_and_format_characters_are_escaped(code: int) -> None:
    c = chr(code)
    shown = safe_text(f"Ann{c}Bob")
    escape = (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code <= 0xFFFF
        else f"\\U{code:08x}"
    )
    assert shown == f"Ann{escape}Bob"
    assert shown.isprintable()
    # in a JSON document: a JSON escape, the same value
    document = json.dumps({"nick": f"Ann{c}"}, ensure_ascii=False)
    escaped = safe_text(document, json=True)
    assert escaped.isprintable() and json.loads(escaped) == {"nick": f"Ann{c}"}


def test_every_character_of_the_hidden_categories_and_no_other_is_escaped() -> None:
    """All of Unicode, one character at a time: escaped exactly when its category is
    Cc, Cf, Co, Cs, Zl or Zp (tab and newline kept); what is shown is printable."""
    wrong = []
    for code in range(sys.maxunicode + 1):
        c = chr(code)
        hidden = c not in "\t\n" and unicodedata.category(c) in HIDDEN_CATEGORIES
        shown = safe_text(c)
        if (shown != c) != hidden or (hidden and not shown.isprintable()):
            wrong.append(f"U+{code:04X}")
    assert not wrong, wrong[:20]
    assert safe_text("caf\u00e9 \u00a0 \u4e2d\u6587 \U0001f600\ttab\nnew") == (
        "caf\u00e9 \u00a0 \u4e2d\u6587 \U0001f600\ttab\nnew"
    )  # letters, spaces, emoji, tab and newline are kept


def test_undecodable_bytes_and_lone_surrogates_are_escaped_as_before() -> None:
    assert safe_text("caf\udce9 \ud800") == "caf\\xe9 \\ud800"
    assert safe_text("caf\udce9", json=True) == "caf\\udce9"


def test_echo_escapes_styled_text_on_the_same_letters() -> None:
    from rich.text import Text

    text = Text("Ann\u202eBob")
    text.stylize("bold", 3, 7)
    import io

    out = io.StringIO()
    saved, sys.stdout = sys.stdout, out
    try:
        echo(text)
    finally:
        sys.stdout = saved
    assert out.getvalue() == "Ann\\u202eBob\n"


# ------------------------------------------------------------------ the commands
NICK = "Al\x1b[2Ki\u202ece\u200b"
NOTE = "Gr\x1b[2Jeat \u202eyalp\u200b!"
RECORD = (
    GAME_A.replace("Alice", NICK)
    + f"#note {NOTE}\n"
    + ">Bob: an unreadable line \x1b[1A\u202e\u200b\n"
)
WORDS = "RETAINS\nQUOTE\nLOAD\nUNDO\nVETS\nUT\nGRADABLE\nLOADED\nTOAD\nDEAL\n"
runner = CliRunner()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("hostile")
    record = folder / "hostile.gcg"
    record.write_text(RECORD, encoding="utf-8")
    words = folder / "words.txt"
    words.write_text(WORDS, encoding="utf-8")
    return record, words


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.stdout + result.stderr


def _assert_escaped(output: str, *, nick: bool = True) -> None:
    for c in HIDDEN:
        assert c not in output, repr(output[:400])
    if nick:
        assert "Al\\x1b[2Ki\\u202ece\\u200b" in output, output[:400]


@pytest.mark.parametrize(
    "command",
    [["validate"], ["parse"], ["stats"], ["bingos"], ["board"], ["board", "-m", "3"],
     ["moves", "-m", "3"]],
    ids=" ".join,
)  # fmt: skip
def test_text_output_shows_the_record_escaped(files: tuple[Path, Path], command: list[str]) -> None:
    record, words = files
    extra = ["--lexicon", str(words)] if command[0] == "moves" else []
    output = _run(*command, str(record), *extra)
    _assert_escaped(output, nick=command[0] != "validate")
    if command[0] == "validate":  # the unreadable line quoted in its finding
        assert "an unreadable line \\x1b[1A\\u202e\\u200b" in output, output


def _on_terminal(args: list[str]) -> bytes:
    """Every byte the CLI writes with standard output and error on a pseudo-terminal."""
    import os
    import subprocess

    from support.pty_helper import drain

    master, slave = os.openpty()
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(root), "COLUMNS": "200"}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from gcgtools.cli import main; main()", *args],
        stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, cwd=root,
    )  # fmt: skip
    os.close(slave)
    output = drain(master, proc)
    proc.wait(timeout=120)
    return output


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("command", [["write"], ["stats"], ["moves", "-m", "3"]], ids=" ".join)
def test_on_a_terminal_too(files: tuple[Path, Path], command: list[str]) -> None:
    """A record written to a terminal (``write``), a table drawn by rich on one."""
    record, words = files
    extra = ["--lexicon", str(words)] if command[0] == "moves" else []
    output = _on_terminal([*command, str(record), *extra])
    # the terminal gets ESC from gcgtools' own styles and bar, never from the record
    for raw in ("\u202e", "\u200b", "Al\x1b", "Gr\x1b", "line \x1b"):
        assert raw.encode() not in output, raw
    text = output.decode("utf-8", "replace")
    assert "Al\\x1b[2Ki\\u202ece\\u200b" in text, text[:600]
    if command[0] == "write":
        assert "Gr\\x1b[2Jeat \\u202eyalp\\u200b!" in text


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.parametrize(
    "command", [["parse"], ["stats"], ["bingos"], ["moves", "-m", "3"]], ids=" ".join
)
def test_json_output_stays_valid_and_holds_the_same_text(
    files: tuple[Path, Path], command: list[str]
) -> None:
    record, words = files
    extra = ["--lexicon", str(words)] if command[0] == "moves" else []
    result = runner.invoke(app, [*command, str(record), *extra, "--format", "json"])
    output = result.stdout
    for c in HIDDEN:
        assert c not in output
    values = _strings([json.loads(line) for line in output.splitlines() if line.strip()])
    if command[0] != "moves":  # the moves of a position name no player
        assert NICK in values
    if command[0] == "parse":
        assert any(NOTE in v for v in values)


def test_a_lock_file_on_a_shared_cache_is_shown_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not a record, but anyone's file too: the host a compile lock names."""
    from gcgtools.lexicon import cache

    lock = tmp_path / "key.lock"
    lock.write_text(json.dumps({"pid": 1, "host": "h\x1b[2J\u202e", "started": 1.0}))
    cache._say_waiting(lock)
    err = capsys.readouterr().err
    assert "on h\\x1b[2J\\u202e to compile" in err and "\x1b" not in err
