"""The local pool's limits: never more worker processes than cores (``--jobs`` is capped,
once, in the batch layer), and no worker outlives the command, however the command ends
(a normal exit, an exception, SIGTERM, or SIGKILL, which gives it no chance to clean up)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.processes import marked

from gcgtools.batch.run import capped_jobs, default_jobs, map_batches

MARKER = "GCGTOOLS_POOL_TEST_MARK"

# A command that starts a pool of 2 workers running batches that take long, says so on
# standard output ("working" once the first result is in), then waits; the test ends it.
SCRIPT = """
import sys, time
from gcgtools.batch.run import map_batches

def slow(batch):
    time.sleep(0.2 if batch[0] == "f0" else 60)
    return len(batch)

files = [f"f{i}" for i in range(80)]  # enough for 2 workers
results = map_batches(slow, files, jobs=2, size=1)
next(results)
print("working", flush=True)
if sys.argv[1] == "raise":
    sys.stdin.readline()  # the test has seen the workers
    raise SystemExit("stopped by an exception")
time.sleep(120)
"""


def _marked(mark: str) -> list[int]:
    """The live processes whose environment holds ``MARKER=mark`` (this test's command
    and its workers)."""
    return marked(MARKER, mark)


def _wait_gone(mark: str, seconds: float = 15.0) -> list[int]:
    deadline = time.monotonic() + seconds
    left = _marked(mark)
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = _marked(mark)
    return left


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("ending", ["SIGTERM", "SIGKILL", "raise"])
def test_no_worker_outlives_its_command(ending: str) -> None:
    mark = f"{os.getpid()}-{ending}"
    env = {**os.environ, MARKER: mark}
    command = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, ending],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert command.stdout is not None
        assert command.stdout.readline().strip() == "working"  # the pool is busy now
        workers = [pid for pid in _marked(mark) if pid != command.pid]
        assert workers  # at least one worker is running
        if ending == "raise":
            assert command.stdin is not None
            command.stdin.write("go\n")
            command.stdin.flush()
        else:
            os.kill(command.pid, getattr(signal, ending))
        command.wait(timeout=60)
        assert _wait_gone(mark) == []  # every worker ended with its command
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()
    if ending == "raise":
        assert "Traceback" not in command.stderr.read()  # type: ignore[union-attr]


def test_jobs_are_capped_at_the_cores_with_a_note(capsys: pytest.CaptureFixture[str]) -> None:
    cores = default_jobs()
    assert capped_jobs(None) == cores
    assert capped_jobs(1) == 1
    assert capped_jobs(cores + 1_000_000_000) == cores
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--jobs {cores + 1_000_000_000}" in err
    assert f"running {cores} worker" in err


def test_a_huge_jobs_value_starts_only_as_many_workers_as_cores() -> None:
    """``-j 1000000000`` once forked processes until memory ran out: the pool gets at
    most one worker per core, and the results are those of one process."""
    files = [f"f{i}" for i in range(200)]
    pids = {pid for _, batch in map_batches(_pids, files, jobs=10**9, size=1) for pid in batch}
    assert 1 <= len(pids) <= default_jobs()


def _pids(batch: list[str]) -> list[int]:
    time.sleep(0.002)
    return [os.getpid()]
