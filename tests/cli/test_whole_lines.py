"""Ctrl-C or SIGTERM while a line is being printed: the line is finished first, so that
an interrupted command's output ends with whole lines (a JSON record cut in the middle is
unreadable), and a second signal acts at once (a reader that stopped reading must not
make the command unstoppable)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from support.processes import rest_of_output

from gcgtools.console import echo_pieces, whole_lines

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def test_a_signal_inside_waits_for_the_end_of_the_line() -> None:
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with whole_lines():
            os.kill(os.getpid(), signal.SIGINT)
            reached.append("after the signal")
    assert reached == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


def test_a_second_signal_acts_at_once() -> None:
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with whole_lines():
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
            reached.append("after the second")
    assert reached == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_without_a_signal_nothing_is_raised_and_the_handlers_stay() -> None:
    with whole_lines():
        with whole_lines():  # nested: the outer one holds
            pass
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_a_json_line_interrupted_between_its_pieces_is_printed_whole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def pieces() -> Iterator[str]:
        yield '{"a": '
        os.kill(os.getpid(), signal.SIGINT)
        yield '"b"}'

    with pytest.raises(KeyboardInterrupt):
        echo_pieces(pieces(), json=True)
    assert json.loads(capsys.readouterr().out) == {"a": "b"}


WRITER = """
import sys
from gcgtools.console import echo_pieces
try:
    while True:
        echo_pieces(['{"a": "', "x" * 50_000, '"}'], json=True)
except KeyboardInterrupt:
    sys.stdout.flush()
    sys.exit(130)
"""


@pytest.mark.parametrize("buffered", [True, False])
def test_a_writer_blocked_on_a_full_pipe_ends_with_whole_lines(buffered: bool) -> None:
    env = {**os.environ}
    env.pop("PYTHONUNBUFFERED", None)
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    process = subprocess.Popen(
        [sys.executable, "-c", WRITER],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    time.sleep(0.5)  # the pipe fills up: the writer waits inside a write
    process.send_signal(signal.SIGINT)
    rest, err = rest_of_output(process, timeout=60)
    assert process.returncode == 130, err
    lines = [first, *rest.splitlines(keepends=True)]
    assert len(lines) > 1
    for line in lines:
        assert line.endswith("\n") and json.loads(line) == {"a": "x" * 50_000}
