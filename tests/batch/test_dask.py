"""The Dask backend: the same output as the local pool, on a 2-worker LocalCluster.

One cluster serves the whole module (a LocalCluster costs seconds to start); it is closed
at the end and no worker process may outlive it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

# Dask is in the test extras: missing, these tests fail (they are not skipped)
import fsspec
import pandas as pd
import psutil  # comes with distributed
import pytest
from conftest import corpus_dir
from distributed import Client, LocalCluster
from support.reference_data import DATA, needs_data
from typer.testing import CliRunner

from gcgtools.batch import dask_backend
from gcgtools.batch.cache import cache_info, results_folder
from gcgtools.batch.run import (
    FIRST_BATCH,
    LARGEST_BATCH,
    TIMED_WINDOW,
    map_batches,
    map_files,
    map_window,
)
from gcgtools.cli import app
from gcgtools.cli.common import load_command
from gcgtools.cli.registry import COMMANDS
from gcgtools.tables.frames import games_frame, moves_frame

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def _children() -> set[int]:
    """This process's children, but multiprocessing's resource tracker (started with the
    first spawned process, it lives as long as this process by design)."""
    found = set()
    for child in psutil.Process().children(recursive=True):
        try:
            if "resource_tracker" not in " ".join(child.cmdline()):
                found.add(child.pid)
        except psutil.Error:
            continue
    return found


def _wait_gone(pids: set[int], seconds: float = 20) -> set[int]:
    deadline = time.monotonic() + seconds
    alive = {p for p in pids if psutil.pid_exists(p)}
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = {p for p in alive if _running(p)}
    return alive


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.fixture(scope="module")
def worker_cache(tmp_path_factory) -> Path:
    """The cluster's workers' result cache (never the user's)."""
    return tmp_path_factory.mktemp("worker-cache")


# A LocalCluster closes a worker's nanny for good when, 15 s (this setting) after the
# worker was removed, no worker of its name is there: when a test happens to kill it again
# just then, the cluster is left with one worker, or none (and the next task waits for
# ever). The tests that kill workers must leave the cluster whole for the tests after them.
KEEP_NANNIES = dask_backend.KEEP_NANNIES  # as the library's own --scheduler local keeps it


@pytest.fixture(scope="module")
def module_cluster(worker_cache):
    import dask

    before = _children()
    with dask.config.set(KEEP_NANNIES):  # read by the cluster whenever a worker dies
        cluster = LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            memory_limit="1GiB",
            dashboard_address=":0",
            silence_logs=50,
            env={"GCGTOOLS_CACHE_DIR": str(worker_cache)},
        )
        client = Client(cluster, set_as_default=False)
        try:
            yield client
        finally:
            started = _children() - before
            client.close()
            cluster.close()
            assert not _wait_gone(started), "Dask worker processes outlived the cluster"


@pytest.fixture
def cluster(module_cluster):
    """The module's cluster, with both its workers (a test before may have killed one,
    in any order the tests run)."""
    module_cluster.wait_for_workers(2, timeout=120)
    return module_cluster


def cli(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _corpus() -> str:
    return str(corpus_dir())


# ------------------------------------------------------------ the batch seam
def _slow_len(name: str) -> int:
    time.sleep(0.004)
    return len(name)


def test_map_batches_on_dask_in_order_and_sized_by_time(cluster):
    names = [f"f{'x' * (i % 7)}{i}" for i in range(3000)]
    out = list(map_batches(tuple, names, window=40, scheduler=cluster))
    assert [n for _, batch in out for n in batch] == names
    assert all(count == len(b) for count, b in out)
    sizes = [count for count, _ in out]
    # small batches first (nothing known), then the largest the window allows: a
    # Dask task costs milliseconds whatever it does, and tuple() costs microseconds
    assert sizes[:4] == [FIRST_BATCH] * 4
    assert max(sizes) == min(LARGEST_BATCH, TIMED_WINDOW * 2 // 4)
    assert list(map_window(len, names, scheduler=cluster)) == [len(n) for n in names]
    assert list(map_window(len, [], scheduler=cluster)) == []


# ------------------------------------------------ the commands, pool vs Dask
def test_validate_same_output_as_the_local_pool(cluster):
    address = cluster.scheduler.address
    for fmt in ("text", "json", "github"):
        local = cli("validate", _corpus(), "-q", "-j", "2", "-f", fmt)
        dask = cli("validate", _corpus(), "-q", "-f", fmt, "--scheduler", address)
        assert dask == local
        assert local[0] == 2 and local[1]  # the corpus has unreadable files
    for fmt in ("text", "json"):
        local = cli("parse", str(EXAMPLES), "-j", "2", "-f", fmt)
        assert cli("parse", str(EXAMPLES), "-f", fmt, "--scheduler", address) == local
    # from the environment too
    env = {"DASK_SCHEDULER_ADDRESS": address}
    assert cli("validate", str(EXAMPLES), "-q", env=env) == cli("validate", str(EXAMPLES), "-q")


@needs_data
def test_analyse_same_output_as_the_local_pool(cluster, worker_cache):
    address = cluster.scheduler.address
    enable = str(DATA / "lexica" / "ENABLE.kwg")
    records = str(ROOT / "tests" / "support" / "data" / "analysis_records")
    for fmt in ("text", "json"):
        args = ("analyse", records, "--lexicon", enable, "-f", fmt, "--top", "2")
        local = cli(*args, "-j", "2", "--no-cache")
        assert local[0] == 0 and "ENABLE" in local[1]
        assert cli(*args, "--scheduler", address, "--no-cache") == local
    # through the workers' cache: the first run stores, the next one reads
    before = cache_info(results_folder(worker_cache))
    assert cli(*args, "--scheduler", address) == local
    stored = cache_info(results_folder(worker_cache))
    assert stored.entries == before.entries + 3  # one per record
    assert (stored.hits, stored.misses) == (before.hits, before.misses + 3)
    assert cli(*args, "--scheduler", address) == local
    read = cache_info(results_folder(worker_cache))
    assert (read.entries, read.hits, read.misses) == (stored.entries, stored.hits + 3,
                                                      stored.misses)  # fmt: skip


def _written(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize(
    "args",
    [["annotate"], ["fix"], ["write", "--normalise"], ["report"], ["picture", "-f", "png"],
     ["board", "-f", "svg"]],
)  # fmt: skip
def test_output_commands_write_the_same_files(cluster, tmp_path, args):
    """The workers make the outputs, this process writes them: the same files."""
    address = cluster.scheduler.address
    records = tmp_path / "records"
    shutil.copytree(EXAMPLES, records)
    (records / "empty.gcg").write_text("")  # cannot be done: listed, exit 2
    made = {}
    for name, extra in (("local", ["-j", "2"]), ("dask", ["--scheduler", address])):
        out = tmp_path / name
        code, stdout, stderr = cli(*args, str(records), "-o", f"{out}/", "-q", *extra)
        made[name] = (code, stdout.replace(str(out), "OUT"), stderr, _written(out))
    assert made["dask"] == made["local"]
    assert made["local"][0] == 2 and "empty.gcg" in made["local"][2]
    assert len(made["local"][3]) >= 8  # an output per record (a site: pages and index)


def test_board_text_same_output(cluster):
    address = cluster.scheduler.address
    for fmt in ("text", "cgp"):
        local = cli("board", str(EXAMPLES), "-f", fmt, "-j", "2")
        assert cli("board", str(EXAMPLES), "-f", fmt, "--scheduler", address) == local
        assert local[1].count("\n") >= 8  # a board or a CGP line per record


def test_stats_and_bingos_same_output(cluster):
    address = cluster.scheduler.address
    for args in (["stats", "-f", "csv"], ["stats", "--by", "game", "-f", "json"],
                 ["bingos", "-f", "json"]):  # fmt: skip
        local = cli(*args, _corpus(), "-q", "-j", "2")
        assert cli(*args, _corpus(), "-q", "--scheduler", address) == local


def test_export_byte_identical(cluster, tmp_path):
    address = cluster.scheduler.address
    for name, extra in (("local", ["-j", "2"]), ("dask", ["--scheduler", address])):
        (tmp_path / name).mkdir()  # writers never create a missing folder
        code, out, err = cli(
            "export", _corpus(), "-q", "-o", str(tmp_path / name / "moves.parquet"),
            "--games", str(tmp_path / name / "games.csv"), *extra,
        )  # fmt: skip
        assert code == 2 and "could not read" in err
        code, out, err = cli(
            "export", _corpus(), "-q", "-o", str(tmp_path / name / "dataset") + "/",
            "--games", str(tmp_path / name / "games-dataset"), "--partitioned", *extra,
        )  # fmt: skip
    for rel in ("moves.parquet", "games.csv", "dataset/part-00000.parquet",
                "games-dataset/part-00000.parquet"):  # fmt: skip
        assert (tmp_path / "local" / rel).read_bytes() == (tmp_path / "dask" / rel).read_bytes()
    assert sorted(os.listdir(tmp_path / "local" / "dataset")) == sorted(
        os.listdir(tmp_path / "dask" / "dataset")
    )


def test_scheduler_local_starts_and_stops_its_own_cluster():
    before = _children()
    code, out, _ = cli("validate", str(EXAMPLES), "-q", "--scheduler", "local", "-j", "2")
    assert (code, out) == cli("validate", str(EXAMPLES), "-q")[:2]
    assert not _wait_gone(_children() - before)


def test_scheduler_local_keeps_its_nannies_while_open():
    # a LocalCluster reads the setting whenever a worker dies: a file that kept killing
    # workers could otherwise leave it with none, and the command waiting for ever
    import dask

    setting = "distributed.deploy.lost-worker-timeout"
    before = dask.config.get(setting)
    backend = dask_backend.open_dask("local", 1)
    try:
        assert dask.config.get(setting) == dask_backend.KEEP_NANNIES[setting]
    finally:
        backend.close()
    assert dask.config.get(setting) == before


def test_unreachable_scheduler_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", "0.5s")
    code, out, err = cli("stats", str(EXAMPLES), "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2
    assert "cannot reach the Dask scheduler tcp://127.0.0.1:9" in err
    assert "Traceback" not in err + out


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("tls://127.0.0.1:1", "tls:// needs TLS certificates in Dask's configuration"),
        ("wss://127.0.0.1:1", "wss:// needs TLS certificates"),
        ("ucx://127.0.0.1:1", "ucx:// needs UCX-Py"),
        ("nosuch://127.0.0.1:1", "unknown transport 'nosuch'"),
        ("tls://127.0.0.1:1/" + "x" * 500, "tls:// needs TLS certificates"),
    ],
)
def test_scheduler_transport_that_cannot_work_is_one_line(address, said):
    code, out, err = cli("validate", str(EXAMPLES / "*.gcg"), "-q", "--scheduler", address)
    assert code == 2 and out == ""
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert said in err and len(err) < 300


def test_without_dask_the_pool_works_and_scheduler_says_how_to_install(tmp_path):
    code = (
        "import sys\n"
        "sys.modules['distributed'] = None\n"  # as if Dask were not installed
        "from gcgtools.cli import main\n"
        "sys.argv = ['gcgtools'] + sys.argv[1:]\n"
        "main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DASK_SCHEDULER_ADDRESS", None)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                              text=True, env=env, timeout=120, check=False)  # fmt: skip

    plain = run("validate", str(EXAMPLES), "-j", "1")
    assert plain.returncode in (0, 1) and "files:" in plain.stdout
    missing = run("validate", str(EXAMPLES), "--scheduler", "local")
    assert missing.returncode == 2
    assert "pip install 'gcgtools[dask]'" in missing.stderr
    assert "Traceback" not in missing.stderr


# ------------------------------------------------------------ remote archives
def _copy_examples(fs: fsspec.AbstractFileSystem, root: str) -> list[str]:
    names = []
    for path in sorted(EXAMPLES.rglob("*.gcg")):
        rel = path.relative_to(EXAMPLES).as_posix()
        fs.pipe(f"{root}/{rel}", path.read_bytes())
        names.append(rel)
    fs.pipe(f"{root}/README.txt", b"not a record")
    return names


@pytest.fixture
def memory_archive():
    fs = fsspec.filesystem("memory")
    root = f"/archive-{os.getpid()}-{time.monotonic_ns()}"
    names = _copy_examples(fs, root)
    yield f"memory://{root}", names
    fs.rm(root, recursive=True)


def _strip(text: str, prefix: str) -> str:
    return text.replace(prefix, "<root>")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_memory_archive_with_the_local_pool(memory_archive, jobs, tmp_path):
    url, names = memory_archive
    base = str(EXAMPLES)
    for args in (["validate", "-f", "json"], ["stats", "-f", "csv"]):
        code, out, _ = cli(*args, url, "-q", "-j", jobs)
        plain = cli(*args, base, "-q", "-j", jobs)
        assert code == plain[0]
        assert _strip(out, "memory://" + url.removeprefix("memory://")) == _strip(plain[1], base)
    # a glob over the URL, and a folder: only the *.gcg files
    code, out, _ = cli("validate", f"{url}/*.gcg", "-q", "-f", "json", "-j", jobs)
    files = [json.loads(line)["path"] for line in out.splitlines()]
    assert files == [f"memory://{url.removeprefix('memory://')}/{n}" for n in names if "/" not in n]
    code, out, _ = cli("export", url, "-q", "-o", str(tmp_path / "m.parquet"), "-j", jobs)
    assert code in (0, 1) and f"of {len(names)} games" in out
    moves = pd.read_parquet(tmp_path / "m.parquet")
    expected = moves_frame([base], jobs=1)
    assert len(moves) == len(expected)
    assert list(moves["score"]) == list(expected["score"])


def test_missing_url_is_unreadable(memory_archive):
    url, _ = memory_archive
    code, out, err = cli("validate", f"{url}/nothing.gcg", "-q")
    assert code == 2 and "could not read 1 file:" in err and "nothing.gcg: F001" in err
    assert "cannot read file: No such file or directory" in out + err


def test_file_urls_on_the_cluster(cluster, tmp_path):
    archive = tmp_path / "archive"
    shutil.copytree(EXAMPLES, archive)
    url = archive.as_uri()
    address = cluster.scheduler.address
    for args in (["validate", "-f", "json"], ["stats", "-f", "csv"], ["bingos", "-f", "csv"]):
        local = cli(*args, url, "-q", "-j", "2")
        assert cli(*args, url, "-q", "--scheduler", address) == local
        plain = cli(*args, str(archive), "-q", "-j", "2")
        assert local[1].replace(url, str(archive)) == plain[1]
    out = {}
    for name, extra in (("local", ["-j", "2"]), ("dask", ["--scheduler", address])):
        target = tmp_path / f"{name}.parquet"
        cli("export", f"{url}/**/*.gcg", "-q", "-o", str(target), *extra)
        out[name] = target.read_bytes()
    assert out["local"] == out["dask"]


def test_memory_archive_on_an_in_process_cluster(memory_archive):
    # memory:// lives in one process: a cluster of threads shares it
    url, names = memory_archive
    with LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                      dashboard_address=":0") as local, Client(local) as client:  # fmt: skip
        frame = games_frame([url], scheduler=client)
    assert len(frame) == len(names)
    assert frame["file"].str.startswith("memory://").all()


# ------------------------------------------------------------------ frames
def test_dask_frames_equal_the_pandas_frames(cluster):
    from gcgtools.tables import dask_frames
    from gcgtools.tables.frames import load_frames

    sources = [_corpus()]
    frames = load_frames(sources, jobs=1)
    for name, expected in (("moves_frame", frames.moves), ("games_frame", frames.games),
                           ("player_games_frame", frames.players)):  # fmt: skip
        lazy = getattr(dask_frames, name)(sources, files_per_partition=100)
        assert lazy.npartitions == 3
        assert list(lazy.columns) == list(expected.columns)
        assert dict(lazy.dtypes) == dict(expected.dtypes)
        got = cluster.compute(lazy).result().reset_index(drop=True)
        expected.attrs = {}
        pd.testing.assert_frame_equal(got, expected)
    moves = dask_frames.moves_frame(sources, files_per_partition=100)
    mean = cluster.compute(moves.groupby("player").score.mean()).result().sort_index()
    assert frames.moves is not None
    pd.testing.assert_series_equal(mean, frames.moves.groupby("player").score.mean().sort_index())
    empty = dask_frames.moves_frame([str(ROOT / "no-such-folder" / "*.gcg")])
    assert dict(empty.dtypes) == dict(frames.moves.dtypes)


def test_partitioned_export_reads_back_in_pandas_and_dask(tmp_path):
    import dask
    import dask.dataframe as dd

    code, out, _ = cli("export", str(EXAMPLES), "-q", "-o", str(tmp_path / "moves") + "/",
                       "--games", str(tmp_path / "games") + "/")  # fmt: skip
    assert code in (0, 1), out
    expected = moves_frame([str(EXAMPLES)], jobs=1)
    expected.attrs = {}
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "moves"), expected)
    with dask.config.set({"dataframe.convert-string": False}):
        lazy = dd.read_parquet(tmp_path / "moves")
        got = lazy.compute(scheduler="sync").reset_index(drop=True)
    pd.testing.assert_frame_equal(got, expected)
    # written again over the dataset: replaced whole
    cli("export", str(EXAMPLES / "club-final.gcg"), "-q", "-o", str(tmp_path / "moves"))
    assert os.listdir(tmp_path / "moves") == ["part-00000.parquet"]
    assert len(pd.read_parquet(tmp_path / "moves")) < len(expected)
    # a folder holding other files is never replaced
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    code, _, err = cli("export", str(EXAMPLES), "-q", "-o", str(tmp_path / "mine"))
    assert code == 2 and "holds other files" in err
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


def test_a_killed_worker_still_yields_every_result_once(cluster):
    names = [f"game{i:04d}.gcg" for i in range(500)]
    pids = cluster.run(os.getpid)
    results = []
    for i, value in enumerate(map_window(_slow_len, names, window=256, scheduler=cluster)):
        results.append(value)
        if i == 30:  # mid-run: kill one worker; its nanny starts a new one
            os.kill(next(iter(pids.values())), signal.SIGKILL)
    assert results == [len(n) for n in names]
    cluster.wait_for_workers(2, timeout=60)
    assert set(cluster.run(os.getpid).values()) != set(pids.values())


def test_a_file_that_keeps_killing_workers_is_left_out(cluster, tmp_path):
    from support.crash_helper import die_on_marked

    from gcgtools.batch.checks import checker

    record = (EXAMPLES / "club-final.gcg").read_text()
    for i in range(12):
        (tmp_path / f"g{i:02d}.gcg").write_text(record + ("#note #die KILL\n" * (i == 5)))
    check = checker()
    reports = list(map_files(partial(die_on_marked, check), [str(tmp_path)], scheduler=cluster))
    assert [Path(r.path).name for r in reports] == [f"g{i:02d}.gcg" for i in range(12)]
    dead = reports.pop(5)
    assert dead.unreadable and [f.code for f in dead.findings] == ["F010"]
    assert "kept killing Dask workers" in dead.findings[0].message
    assert reports == [check(r.path) for r in reports]  # the others as the pool gives them
    cluster.wait_for_workers(2, timeout=60)


def test_every_command_that_takes_paths_takes_a_scheduler():
    # every command of the registry, loaded here (not only those other tests happened to run)
    with_paths = []
    for name in COMMANDS:
        command = load_command(name)
        params = {p.name: p for p in command.params}
        if "paths" in params and params["paths"].param_type_name == "argument":
            with_paths.append(name)
            options = {o for p in command.params for o in p.opts}
            assert "--scheduler" in options, name
    assert len(with_paths) >= 13  # parse, validate, ... board


@needs_data
def test_analyse_depth_sim_same_as_the_local_pool(cluster, tmp_path):
    """Judged turns (simulation seeds from the seed, the record and the event only) are
    the same on the cluster as on the local pool."""
    source = corpus_dir() / "valid" / "domino14__macondo" / "preendgame__testdata__issue_476.gcg"
    lines = source.read_text().splitlines()
    head = [x for x in lines if x.startswith("#")]
    moves = [x for x in lines if x.startswith(">")]
    for n in (5, 7):  # two records, so that the pool runs them in two processes
        (tmp_path / f"part{n}.gcg").write_text("\n".join(head + moves[:n]) + "\n")
    args = ("analyse", str(tmp_path), "--lexicon", str(DATA / "lexica" / "ENABLE.kwg"),
            "-f", "json", "--depth", "sim", "--sim-iterations", "6", "--sim-candidates", "3",
            "--seed", "5", "--no-cache")  # fmt: skip
    local = cli(*args, "-j", "2")
    assert local[0] == 0
    judged = [json.loads(line) for line in local[1].splitlines()]
    assert all(r["depth"] == "sim" for r in judged)
    assert any("judgement" in t for r in judged for t in r["turns"])
    assert cli(*args, "--scheduler", cluster.scheduler.address) == local


@needs_data
def test_stats_profiles_same_as_the_local_pool(cluster, tmp_path):
    """The player profiles (stats --by profile) judged on the cluster are those of the
    local pool, for the same seed."""
    source = corpus_dir() / "valid" / "domino14__macondo" / "preendgame__testdata__issue_476.gcg"
    lines = source.read_text().splitlines()
    head = [x for x in lines if x.startswith("#")]
    moves = [x for x in lines if x.startswith(">")]
    for n in (5, 7):
        (tmp_path / f"part{n}.gcg").write_text("\n".join(head + moves[:n]) + "\n")
    args = ("stats", str(tmp_path), "--by", "profile", "--lexicon",
            str(DATA / "lexica" / "ENABLE.kwg"), "-f", "json", "--depth", "sim",
            "--sim-iterations", "6", "--sim-candidates", "3", "--seed", "5", "--no-cache",
            "-q")  # fmt: skip
    local = cli(*args, "-j", "2")
    assert local[0] == 0
    assert {json.loads(line)["games"] for line in local[1].splitlines()} == {2}
    assert cli(*args, "--scheduler", cluster.scheduler.address) == local
