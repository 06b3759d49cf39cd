"""The command line as a terminal shows it: the CLI runs under a pseudo-terminal (standard
output and standard error both on it, as in an interactive shell) and everything it writes
is fed to a terminal emulator (pyte); the final screen is what the user sees.

Checked: findings printed while the progress bar runs stay whole, each on its own line;
the bar (done/total, rate, ETA) was drawn and is gone at the end; tables at 80 and 120
columns match their golden files.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.pty_helper import drain
from support.report_records import GAME_A

pyte = pytest.importorskip("pyte", reason="pyte (a test extra) emulates the terminal")

if sys.platform == "win32":  # pragma: no cover
    pytest.skip("needs a pseudo-terminal", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parents[1] / "support" / "data" / "golden"
CLI = [sys.executable, "-c", "from gcgtools.cli import main; main()"]

# GAME_A with its first play scored wrong: every copy gets an S601 finding
WRONG = GAME_A.replace("8H RETAINS +66 66", "8H RETAINS +60 60")


def run_on_terminal(
    args: list[str], *, columns: int, rows: int = 50, command: list[str] | None = None
) -> tuple[int, bytes]:
    """Run the CLI (or ``command``) with standard output and standard error on one
    pseudo-terminal of ``columns`` x ``rows``; its exit code and every byte it wrote
    there."""
    import fcntl
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(TERM="xterm-256color", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [*(command or CLI), *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
        env=env, cwd=ROOT,
    )  # fmt: skip
    os.close(slave)
    screen = drain(master, proc)
    return proc.wait(timeout=120), screen


def screen_of(output: bytes, *, columns: int, rows: int) -> list[str]:
    """The screen (and the lines scrolled off it) after ``output``, right-trimmed, without
    the blank lines at the end."""
    screen = pyte.HistoryScreen(columns, rows, history=100_000)
    stream = pyte.ByteStream(screen)
    # a pty turns "\n" into "\r\n": the emulator sees what a terminal sees
    stream.feed(output)
    lines = [
        "".join(char.data for char in (line[x] for x in range(columns))).rstrip()
        for line in [*screen.history.top, *(screen.buffer[y] for y in range(rows))]
    ]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def piped(args: list[str]) -> tuple[int, str]:
    proc = subprocess.run(
        [*CLI, *args], capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    return proc.returncode, proc.stdout


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """300 records, each with a finding: enough for the bar to be drawn between them."""
    folder = tmp_path_factory.mktemp("archive")
    for i in range(300):
        (folder / f"game-{i:03}.gcg").write_text(WRONG, encoding="utf-8")
    return folder


def test_findings_print_above_the_bar_and_the_bar_is_gone_at_the_end(archive: Path) -> None:
    columns, rows = 200, 30
    code, output = run_on_terminal(
        ["validate", str(archive), "-j", "1"], columns=columns, rows=rows
    )
    assert code == 1
    # the bar was drawn: its label, done/total, rate and ETA
    text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", output).decode()
    assert re.search(r"games .*\d+/300 .*games/s ETA", text)
    # ... and erased: cursor up and erase-line sequences after it
    assert b"\x1b[2K" in output
    expected_code, expected = piped(["validate", str(archive), "-j", "1"])
    assert expected_code == 1
    want = expected.splitlines()
    assert len(want) == 300 + 1 and all(len(line) < columns for line in want)
    # the bar was on the screen while findings were printed (not only after them)
    assert text.index("games/s") < text.index(want[-2])
    screen = screen_of(output, columns=columns, rows=rows)
    # every finding whole and on its own line, in order, the summary last; nothing else
    # (no half-drawn bar, no bar fragment inside a line)
    assert screen == want
    assert "error" in want[0] and want[-1].startswith("300 files:")


def test_severity_is_coloured_on_a_terminal_and_plain_when_piped(archive: Path) -> None:
    one = str(archive / "game-000.gcg")
    code, output = run_on_terminal(["validate", one], columns=120)
    assert code == 1
    assert re.search(rb"\x1b\[[0-9;]*31m" + b"error", output)  # red "error"
    _, plain = piped(["validate", one])
    assert "\x1b[" not in plain and ": S601 error: recorded +60, computed +66" in plain


def test_quiet_draws_no_bar(archive: Path) -> None:
    code, output = run_on_terminal(["validate", str(archive), "-j", "1", "-q"], columns=200)
    assert code == 1
    assert b"games/s" not in output and b"\x1b[?25l" not in output  # no bar, no hidden cursor


@pytest.mark.parametrize("columns", [80, 120])
def test_stats_table_at_80_and_120_columns(columns: int) -> None:
    """The golden files hold what a terminal of that width shows for `gcgtools stats` of
    the bundled examples; after a deliberate change, regenerate them with
    GCGTOOLS_UPDATE_GOLDEN=1."""
    examples = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*.gcg"))
    code, output = run_on_terminal(["stats", *examples, "-j", "1"], columns=columns)
    assert code == 0
    screen = screen_of(output, columns=columns, rows=50)
    golden = GOLDEN / f"stats-{columns}.txt"
    if os.environ.get("GCGTOOLS_UPDATE_GOLDEN"):
        golden.write_text("\n".join(screen) + "\n", encoding="utf-8")
    assert screen == golden.read_text(encoding="utf-8").splitlines()
    assert max(len(line) for line in screen) <= columns
    # every default column is there with its full name, and every player
    header = " ".join(screen[:4])
    for word in ("games", "wins", "losses", "ties", "score", "spread", "turn", "bingos"):
        assert word in header
    for nick in ("Ada_Quill", "Brendan", "Kofi", "mira", "tobi", "Pat", "Sam", "lena"):
        assert any(line.startswith(nick + " ") for line in screen)


def test_plain_print_and_typer_echo_also_go_above_the_bar() -> None:
    """Commands that print with print() or typer.echo while a bar shows (not through
    gcgtools.console.echo) do not collide with it either."""
    script = (
        "import time, typer\n"
        "from gcgtools.console import track\n"
        "for i in track(range(120), 120):\n"
        "    (typer.echo if i % 2 else print)(f'line {i} ' + 'x' * 60)\n"
        "    time.sleep(0.004)\n"
        "print('done')\n"
    )
    code, output = run_on_terminal([], columns=120, command=[sys.executable, "-c", script])
    assert code == 0 and b"games/s" in output
    want = [f"line {i} " + "x" * 60 for i in range(120)] + ["done"]
    assert screen_of(output, columns=120, rows=50) == want


# A record whose text tries to take over the terminal: clear the screen, go home, print a
# forged summary, erase the rest; a title and a name that erase their own line.
FORGED = "1 file: 1 clean"
HOSTILE = (
    "#player1 A Ann\x1b[2K\x1b[1A\n#player2 B Bob\x9b2J\n#title Final\x1b]0;pwned\x07\x1b[2J\n"
    ">A: ABCDEFG 8H BAD +12 12\n"
    f">B: \x1b[2J\x1b[H{FORGED}\x1b[J\x1b[999B\n"
)


@pytest.mark.parametrize("command", ["validate", "parse", "board"])
def test_escape_sequences_in_a_record_cannot_erase_or_forge_lines(
    tmp_path: Path, command: str
) -> None:
    record = tmp_path / "hostile.gcg"
    record.write_text(HOSTILE, encoding="utf-8")
    _, output = run_on_terminal([command, str(record)], columns=400, rows=40)
    lines = screen_of(output, columns=400, rows=40)
    text = "\n".join(lines)
    # nothing a record holds reaches the terminal as a control character
    assert b"\x1b[2J" not in output and b"\x1b]0;" not in output and "\x9b".encode() not in output
    assert not any(line.startswith(FORGED) for line in lines)
    if command != "board":  # the board shows nicknames only
        assert "\\x1b[2J" in text  # shown, escaped, for the user to see
    if command == "validate":
        assert any("P10" in line and "\\x1b[H1 file: 1 clean" in line for line in lines)
        assert lines[-1].startswith("1 file: 0 clean, 1 with errors")
    if command == "parse":
        assert "  player1: A (Ann\\x1b[2K\\x1b[1A)" in lines
        assert any(line.startswith("  title: Final\\x1b]0;pwned\\x07") for line in lines)


def test_control_characters_in_json_output_stay_json(tmp_path: Path) -> None:
    import json

    record = tmp_path / "hostile.gcg"
    record.write_text(HOSTILE.replace("Bob\x9b2J", "Bob\x7f\x9b2J"), encoding="utf-8")
    code, out = piped(["parse", "--format", "json", str(record)])
    assert b"\x1b".decode() not in out and "\x7f" not in out and "\x9b" not in out
    players = json.loads(out.splitlines()[0])["players"]
    assert [p["name"] for p in players] == ["Ann\x1b[2K\x1b[1A", "Bob\x7f\x9b2J"]


def test_picture_png_to_a_terminal_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "game.gcg"
    record.write_text(GAME_A, encoding="utf-8")
    code, output = run_on_terminal(["picture", str(record), "--format", "png"], columns=120)
    assert code == 2
    assert b"\x89PNG" not in output
    text = "\n".join(screen_of(output, columns=120, rows=50))
    assert "a PNG is binary, not written to a terminal; give -o FILE.png" in text
    # piped, the PNG is written as asked
    proc = subprocess.run(
        [*CLI, "picture", str(record), "--format", "png"], capture_output=True, timeout=120,
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert proc.returncode == 0 and proc.stdout.startswith(b"\x89PNG")


def test_an_endgame_search_shows_its_progress_on_a_terminal_only() -> None:
    """moves --endgame on a terminal: a status line says each depth done, the nodes and
    the best move so far, and is gone when the answer is printed; piped, none. (A 3 v 2
    endgame: proved in a few seconds by the pure-Python search too; a 4 v 3 took 170 s
    there, over this file's time limits.)"""
    from conftest import valid_file
    from support.reference_data import DATA

    if DATA is None:
        pytest.skip("needs the shared data (GCGTOOLS_DATA): the ENABLE lexicon")
    game = valid_file("domino14__macondo/gcgio__testdata__noah_vs_peter.gcg")
    args = ["moves", str(game), "-m", "40", "--endgame", "-n", "1", "--lexicon",
            str(DATA / "lexica" / "ENABLE.kwg")]  # fmt: skip
    code, output = run_on_terminal(args, columns=80)
    assert code == 0
    assert b"endgame: depth 1 done, " in output and b"; best so far " in output
    screen = screen_of(output, columns=80, rows=50)
    assert not [line for line in screen if "depth 1 done" in line or "best so far" in line]
    assert any(line.startswith("  1  7J E(D)      8     +33") for line in screen)
    proc = subprocess.run(
        [*CLI, *args], capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert proc.returncode == 0 and "best so far" not in proc.stderr + proc.stdout
