"""Every writer follows one set of rules (issue 9, item 10): atomic replacement only for
regular files, special files written directly, the input never overwritten without
--in-place, links kept, stale temporary files cleaned, write errors reported alike."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gcgtools.cli import app
from gcgtools.sources.atomic import TEMP_MARK, atomic_output, clean_stale, temp_prefix, write_atomic

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "club-final.gcg"
WRONG = ROOT / "examples" / "with-errors" / "wrong-scores.gcg"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if TEMP_MARK in p.name)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.gcg"
    shutil.copyfile(WRONG, path)
    return path


# (command, extra arguments) for every writer that takes an output file
WRITERS = [
    ("write", [], ".gcg"),
    ("annotate", [], ".gcg"),
    ("fix", [], ".gcg"),
    ("report", [], ".html"),
    ("picture", [], ".svg"),
    ("board", [], ".svg"),
    ("chart", [], ".svg"),
    ("export", [], ".csv"),
]


def _invoke(command: str, source: Path, out: Path | str) -> tuple[int, str, str]:
    return run(command, source, "-o", out)


# ----------------------------------------------------------- special files
def _reader(fifo: Path, got: list[bytes]) -> threading.Thread:
    def read() -> None:
        with open(fifo, "rb") as fh:
            got.append(fh.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize(("command", "extra", "suffix"), WRITERS, ids=[w[0] for w in WRITERS])
def test_a_fifo_is_written_to_not_replaced(
    command: str, extra: list[str], suffix: str, game: Path, tmp_path: Path
) -> None:
    fifo = tmp_path / f"out{suffix}"
    os.mkfifo(fifo)
    got: list[bytes] = []
    thread = _reader(fifo, got)
    code, _, err = _invoke(command, game, fifo)
    thread.join(10)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced by a regular file"
    assert not thread.is_alive() and got and got[0], err
    assert code in (0, 1), err
    assert temporaries(tmp_path) == []


def test_write_atomic_to_a_fifo_streams_the_bytes(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    thread = _reader(fifo, got)
    write_atomic(fifo, b"#player1 a A\n")
    thread.join(10)
    assert got == [b"#player1 a A\n"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@contextlib.contextmanager
def char_device(tmp_path: Path) -> Iterator[Path]:
    """A private copy of the /dev/null device node where this user may make one (root);
    else /dev/null itself (which an unprivileged user cannot replace anyway)."""
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError):
        yield Path("/dev/null")
        return
    yield node


@pytest.mark.parametrize(("command", "extra", "suffix"), WRITERS, ids=[w[0] for w in WRITERS])
def test_a_character_device_stays_a_device(
    command: str, extra: list[str], suffix: str, game: Path, tmp_path: Path
) -> None:
    with char_device(tmp_path) as device:
        before = os.lstat(device)
        if command in ("chart", "export", "picture", "board"):
            # these choose the format by the suffix: a symbolic link with one names it
            link = tmp_path / f"dev{suffix}"
            link.symlink_to(device)
            code, _, err = _invoke(command, game, link)
            assert link.is_symlink()
        else:
            code, _, err = _invoke(command, game, device)
        after = os.lstat(device)
        assert stat.S_ISCHR(after.st_mode)
        assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
        assert code in (0, 1), err
    assert temporaries(tmp_path) == []
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_a_folder_is_an_output_folder_never_the_inputs_own(game: Path, tmp_path: Path) -> None:
    """``-o DIR`` writes DIR/NAME; the input's own folder would replace the input."""
    assert game.parent == tmp_path
    code, _, err = run("write", game, "-o", tmp_path)
    assert code == 2 and "the output would replace the input" in err
    out = tmp_path / "out"
    out.mkdir()
    code, _, err = run("write", game, "-o", out)
    assert code == 0, err
    assert (out / game.name).read_bytes() == game.read_bytes()


# ------------------------------------------------------ the input is kept
@pytest.mark.parametrize("command", ["write", "annotate", "fix", "report", "picture", "board"])
def test_the_input_is_not_an_output_without_in_place(
    command: str, game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    before = game.read_bytes()
    (tmp_path / "h.gcg").hardlink_to(game)
    for spelling in ("g.gcg", "./g.gcg", str(game), "h.gcg"):
        code, _, err = run(command, "g.gcg", "-o", spelling)
        assert code == 2, (spelling, err)
        assert "cannot write: it is the input file" in err
    assert game.read_bytes() == before


@pytest.mark.parametrize("command", ["chart", "export"])
def test_report_outputs_are_not_inputs(command: str, tmp_path: Path) -> None:
    data = tmp_path / ("x.svg" if command == "chart" else "x.csv")
    shutil.copyfile(GAME, data)
    before = data.read_bytes()
    code, _, err = run(command, data, "-o", data)
    assert code == 2 and "it is the input file" in err
    assert data.read_bytes() == before


def test_in_place_still_replaces_the_input(game: Path) -> None:
    code, _, _ = run("fix", game, "--in-place")
    assert code == 0
    assert game.read_bytes() != WRONG.read_bytes()


# --------------------------------------------------------------- links
def test_in_place_on_a_symbolic_link_writes_its_target(game: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.gcg"
    link.symlink_to(game.name)
    code, _, err = run("fix", link, "--in-place")
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == game.name
    assert game.read_bytes() != WRONG.read_bytes()
    assert link.read_bytes() == game.read_bytes()
    assert temporaries(tmp_path) == []


def test_a_symbolic_link_into_another_folder(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    target = real / "g.gcg"
    shutil.copyfile(WRONG, target)
    (tmp_path / "g.gcg").symlink_to(target)
    code, _, _ = run("annotate", tmp_path / "g.gcg", "--in-place", "--only", "findings")
    assert code == 0
    assert b"#note gcgtools:" in target.read_bytes()
    assert (tmp_path / "g.gcg").is_symlink()
    assert temporaries(real) == [] and temporaries(tmp_path) == []


def test_in_place_on_a_hard_link_keeps_the_file(game: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.gcg"
    other.hardlink_to(game)
    inode = game.stat().st_ino
    code, _, err = run("fix", other, "--in-place")
    assert code == 0, err
    assert other.stat().st_ino == game.stat().st_ino == inode
    assert game.stat().st_nlink == 2
    assert game.read_bytes() == other.read_bytes() != WRONG.read_bytes()
    assert temporaries(tmp_path) == []


def test_output_over_a_hard_linked_file_updates_every_name(game: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.gcg"
    out.write_bytes(b"old")
    (tmp_path / "alias.gcg").hardlink_to(out)
    assert run("write", game, "-o", out)[0] == 0
    assert (tmp_path / "alias.gcg").read_bytes() == WRONG.read_bytes()


# -------------------------------------------------------- temporary files
def test_temporary_files_are_named_after_the_target(tmp_path: Path) -> None:
    target = tmp_path / "game.gcg"
    with atomic_output(target) as name:
        Path(name).write_bytes(b"x")
        tmp = Path(name).name
        assert tmp.startswith(f".game.gcg{TEMP_MARK}{os.getpid()}-") and tmp.endswith(".tmp")
    assert [p.name for p in tmp_path.iterdir()] == ["game.gcg"]


def _dead_pid() -> int:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], check=True,
                          capture_output=True, text=True)  # fmt: skip
    return int(proc.stdout)


def test_a_stale_temporary_file_is_removed_by_the_next_write(game: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.gcg"
    stale = tmp_path / f"{temp_prefix(out)}{_dead_pid()}-abcd1234.tmp"
    stale.write_bytes(b"half a file" * 1000)
    other = tmp_path / f"{temp_prefix(tmp_path / 'other.gcg')}{_dead_pid()}-abcd1234.tmp"
    other.write_bytes(b"another target's")
    assert run("write", game, "-o", out)[0] == 0
    assert not stale.exists()
    assert other.exists(), "only the temporary files of the same target are touched"
    assert out.read_bytes() == WRONG.read_bytes()


def test_a_live_writers_temporary_file_is_kept_unless_old(tmp_path: Path) -> None:
    out = tmp_path / "out.gcg"
    live = tmp_path / f"{temp_prefix(out)}{os.getppid()}-abcd1234.tmp"
    live.write_bytes(b"being written")
    assert clean_stale(out) == []
    os.utime(live, (0, 0))  # a day old at least: stale whoever wrote it
    assert clean_stale(out) == [str(live)]


def test_sigkill_mid_write_leaves_nothing_for_long(tmp_path: Path) -> None:
    out = tmp_path / "big.gcg"
    script = (
        "import os, signal\n"
        "from gcgtools.sources.atomic import open_output\n"
        f"o = open_output({str(out)!r})\n"
        "with open(o.name, 'wb') as fh:\n"
        "    fh.write(b'x' * 1_000_000)\n"
        "    fh.flush()\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", script], env=env, check=False)
    assert proc.returncode == -signal.SIGKILL
    assert len(temporaries(tmp_path)) == 1  # the killed write left its temporary file
    write_atomic(out, b"#player1 a A\n")
    assert temporaries(tmp_path) == []
    assert out.read_bytes() == b"#player1 a A\n"


def test_a_very_long_target_name_gets_a_short_temporary_name(tmp_path: Path) -> None:
    target = tmp_path / ("n" * 240 + ".gcg")
    write_atomic(target, b"data")
    assert target.read_bytes() == b"data"
    assert temporaries(tmp_path) == []


# ----------------------------------------------------------- write errors
def _no_space(tmp_path: Path, suffix: str) -> Path:
    link = tmp_path / f"full{suffix}"
    link.symlink_to("/dev/full")
    return link


@pytest.mark.parametrize(("command", "extra", "suffix"), WRITERS, ids=[w[0] for w in WRITERS])
def test_a_full_disk_is_a_clear_message(
    command: str, extra: list[str], suffix: str, game: Path, tmp_path: Path
) -> None:
    out = _no_space(tmp_path, suffix)
    code, _, err = _invoke(command, game, out)
    assert code == 2
    assert f"{out}: cannot write: No space left on device" in err
    assert "Traceback" not in err


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """A folder nobody may create files in: mode 0o555, or for root (whom modes do not
    stop) the immutable attribute."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    if shutil.which("chattr") is None:
        pytest.skip("running as root without chattr: no way to make a folder read-only")
    done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"chattr +i is not supported here: {done.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


@pytest.mark.parametrize(("command", "extra", "suffix"), WRITERS, ids=[w[0] for w in WRITERS])
def test_a_read_only_folder_is_a_clear_message(
    command: str, extra: list[str], suffix: str, game: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    out = folder / f"out{suffix}"
    with read_only_folder(folder):
        code, _, err = _invoke(command, game, out)
    assert code == 2
    assert err.startswith(f"{out}: cannot write: ")
    assert "Traceback" not in err and TEMP_MARK not in err
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize(("command", "extra", "suffix"), WRITERS, ids=[w[0] for w in WRITERS])
def test_a_missing_folder_is_refused_by_every_writer(
    command: str, extra: list[str], suffix: str, game: Path, tmp_path: Path
) -> None:
    out = tmp_path / "missing" / f"out{suffix}"
    code, _, err = _invoke(command, game, out)
    assert code == 2
    assert f"{out}: cannot write: the folder {out.parent} does not exist" in err
    assert not out.parent.exists()


def test_export_games_table_errors_name_that_file(game: Path, tmp_path: Path) -> None:
    out = tmp_path / "moves.parquet"
    games = tmp_path / "nope" / "games.parquet"
    code, _, err = run("export", game, "-o", out, "--games", games)
    assert code == 2 and f"{games}: cannot write: the folder" in err
    assert list(tmp_path.iterdir()) == [game]  # the moves file was dropped too
    code, _, err = run("export", game, "-o", out, "--games", out)
    assert code == 2 and "two different files" in err
