"""DaskBackend.isolate, the search for the files of a batch that kept killing Dask
workers, against a stand-in for the cluster whose deaths are set by the test: Dask gives
up (KilledWorker) on every task that was queued on a worker each time it died, so an
innocent file run next to the killer can fail with it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from distributed import KilledWorker

from gcgtools.batch.dask_backend import DaskBackend, _Future
from gcgtools.sources.quarantine import CrashedBefore, check_not_crashed, set_crashed

KILLER = "g05.gcg"


class _Death(Exception):
    """The worker process running the task died."""


def _work(paths: list[str]) -> list[str]:
    """A batch's function: reads each file through the quarantine, dies on the killer."""
    done = []
    for path in paths:
        try:
            check_not_crashed(path)
        except CrashedBefore:
            done.append("left out " + path)
            continue
        if path == KILLER:
            raise _Death
        done.append("ok " + path)
    return done


@pytest.fixture(autouse=True)
def _no_quarantine():
    """The skipping worker names the killer in this process's quarantine: clear it."""
    yield
    set_crashed({})


class _Cluster:
    """Runs each task when its result is asked for. A task whose function dies fails,
    and so does a task of ``unlucky`` submitted while a task holding the killer is
    pending (as if queued on the same worker)."""

    def __init__(self, unlucky: set[str]) -> None:
        self.unlucky = unlucky
        self.pending: list[_Task] = []
        self.ran: list[list[str]] = []

    def nthreads(self) -> dict[str, int]:
        return {"w1": 1, "w2": 1}

    def submit(self, func: Any, arg: list[str], pure: bool = True) -> _Task:
        beside_killer = any(KILLER in t.arg for t in self.pending)
        task = _Task(self, func, arg, beside_killer and bool(self.unlucky & set(arg)))
        self.pending.append(task)
        return task


class _Task:
    def __init__(self, cluster: _Cluster, func: Any, arg: list[str], unlucky: bool) -> None:
        self.cluster, self.func, self.arg, self.unlucky = cluster, func, arg, unlucky

    def result(self) -> Any:
        self.cluster.pending.remove(self)
        self.cluster.ran.append(self.arg)
        try:
            if self.unlucky:
                raise _Death
            return self.func(self.arg)
        except _Death:
            raise KilledWorker(str(self.arg), SimpleNamespace(address="tcp://w1"), 3) from None


def _isolate(cluster: _Cluster, batch: list[str]) -> tuple[DaskBackend, Any]:
    backend = DaskBackend(cluster)
    return backend, backend.isolate(_Future(backend, None, _work, batch))


BATCH = [f"g{i:02d}.gcg" for i in range(4, 8)]


def test_only_the_killer_is_left_out_when_an_innocent_file_dies_next_to_it():
    backend, results = _isolate(_Cluster(unlucky={"g06.gcg"}), BATCH)
    assert backend.crashed == {KILLER: "it kept killing Dask workers"}
    assert results == ["ok g04.gcg", "left out g05.gcg", "ok g06.gcg", "ok g07.gcg"]


def test_suspects_are_run_again_one_at_a_time():
    cluster = _Cluster(unlucky={"g06.gcg", "g07.gcg"})
    backend, _ = _isolate(cluster, BATCH)
    assert sorted(backend.crashed) == [KILLER]
    alone_again = cluster.ran[len(BATCH) :]
    assert sorted(map(tuple, alone_again[:-1])) == [(KILLER,), ("g06.gcg",), ("g07.gcg",)]
    assert alone_again[-1] == BATCH  # then the batch, with the killer left out


def test_a_lone_suspect_is_not_run_again():
    cluster = _Cluster(unlucky=set())
    backend, _ = _isolate(cluster, BATCH)
    assert list(backend.crashed) == [KILLER]
    assert cluster.ran.count([KILLER]) == 1
