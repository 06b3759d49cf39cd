"""The Dask backend of :mod:`gcgtools.batch.run`: batches run on a dask.distributed
cluster instead of the local process pool.

Only :class:`DaskBackend` differs between the two; the batching, the window of files in
flight and the order of the results are :func:`gcgtools.batch.run.map_batches`'s.
A backend is made from

* ``"local"``: a ``LocalCluster`` of ``jobs`` worker processes (one thread each: the
  replay is pure Python) on this machine, closed with the backend;
* an address such as ``"tcp://10.0.0.5:8786"``: a running ``dask scheduler``;
* a ``distributed.Client`` already connected (left open when the backend closes).

Dask is optional (``pip install 'gcgtools[dask]'``); without it :func:`open_dask` raises
:class:`SchedulerError` saying so.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from gcgtools.batch.cores import capped_jobs
from gcgtools.batch.errors import BatchError
from gcgtools.batch.pool import skipping

R = TypeVar("R")

INSTALL_HINT = (
    "--scheduler needs Dask: pip install 'gcgtools[dask]' "
    "(or pip install 'dask[distributed]' fsspec)"
)
LOCAL = "local"
CONNECT_TIMEOUT = "10s"  # to reach a scheduler


class SchedulerError(BatchError):
    """Dask is missing, or the scheduler cannot be reached."""


def dask_available() -> bool:
    """True if dask.distributed can be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


class DaskBackend:
    """Submits batches to a dask.distributed cluster; ``workers`` is the number of tasks
    it runs at once (the cluster's threads). Every task costs a few milliseconds of the
    scheduler's, the worker's and this process's time whatever it does, so batches are
    sized to take ``task_seconds`` each (``map_batches`` learns how many files that is)."""

    task_seconds = 0.5

    def __init__(self, client: Any, *, owned: tuple[Any, ...] = ()) -> None:
        self.client = client
        self.owned = owned  # the client and cluster this backend made, closed with it
        self.workers = max(1, sum(client.nthreads().values()))
        self.waiting: list[_Future] = []  # submitted, result not fetched yet
        self.crashed: dict[str, str] = {}  # files that kept killing workers, and why

    def submit(self, func: Callable[[Any], R], arg: Any) -> _Future:
        # pure=False: every batch is its own task (never merged with an equal one)
        future = _Future(self, self.client.submit(func, arg, pure=False), func, arg)
        self.waiting.append(future)
        return future

    def fetch(self, wanted: _Future) -> None:
        """Fetch ``wanted``'s result, and with it those of every other batch already
        done: one round trip to the cluster for all of them, not one per batch (the
        results are held only until :func:`map_batches` yields them, within its
        window)."""
        batch = [f for f in self.waiting if f is wanted or f.future.status == "finished"]
        if wanted not in batch:
            batch.append(wanted)
        results = self.client.gather([f.future for f in batch])
        for future, result in zip(batch, results, strict=True):
            future.value = result
            future.fetched = True
        fetched = set(map(id, batch))
        self.waiting = [f for f in self.waiting if id(f) not in fetched]

    def isolate(self, failed: _Future) -> Any:
        """The result of ``failed``, a batch that kept killing its workers (Dask gave up
        on it): each of its files runs alone (those that died too, if more than one,
        again one at a time), and the batch runs again with those that kept killing
        workers left out (each then reported by the batch's function as a file it cannot
        process: see :mod:`gcgtools.sources.quarantine`)."""
        from distributed import KilledWorker

        batch = failed.batch
        first = batch[0] if isinstance(batch, list) and batch else "?"
        if not isinstance(batch, list):
            raise SchedulerError(f"a batch from {first} kept killing Dask workers")
        suspects = self._killers(failed.func, [p for p in batch if p not in self.crashed])
        if len(suspects) > 1:  # tasks queued on a dying worker die with it: one at a time
            suspects = [path for path in suspects if self._killers(failed.func, [path])]
        self.crashed.update(dict.fromkeys(suspects, "it kept killing Dask workers"))
        again = partial(skipping, dict(self.crashed), failed.func)
        try:
            return self.client.submit(again, batch, pure=False).result()
        except KilledWorker as exc:
            raise SchedulerError(
                f"a batch of files from {first} kept killing Dask workers, even with the "
                f"files that did so alone left out: {exc}"
            ) from exc

    def _killers(self, func: Callable[[Any], Any], paths: list[str]) -> list[str]:
        """Those of ``paths`` whose task, one file each, Dask gave up on (KilledWorker).
        All run at once, so an innocent file that kept being queued on the same worker
        as a killer is among them too."""
        from distributed import KilledWorker

        futures = [(p, self.client.submit(func, [p], pure=False)) for p in paths]
        killers = []
        for path, future in futures:
            try:
                future.result()
            except KilledWorker:
                killers.append(path)
        return killers

    def cancel(self, futures: list[Any]) -> None:
        self.waiting = []
        if futures:
            try:
                self.client.cancel([f.future for f in futures])
            except Exception:  # noqa: BLE001 - the cluster may be gone already
                pass

    def close(self, *, now: bool = False) -> None:
        """Close the client and cluster this backend made (``now``: the same; a cluster's
        workers are its own processes, closed with it)."""
        for thing in self.owned:
            try:
                thing.close()
            except Exception:  # noqa: BLE001 - closing a cluster that is shutting down
                pass
        self.owned = ()

    def __enter__(self) -> DaskBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Future:
    """A Dask future whose ``result()`` goes on past a batch that kept killing its
    workers (:meth:`DaskBackend.isolate`) and turns the cluster's failures (a lost
    scheduler) into :class:`SchedulerError`; an exception raised by the batch's function
    itself is raised as it is, as the local pool does."""

    __slots__ = ("backend", "future", "func", "batch", "value", "fetched")

    def __init__(self, backend: DaskBackend, future: Any, func: Callable[[Any], Any],
                 batch: Any) -> None:  # fmt: skip
        self.backend = backend
        self.future = future
        self.func = func
        self.batch = batch
        self.value: Any = None
        self.fetched = False

    def result(self) -> Any:
        from distributed import KilledWorker
        from distributed.comm import CommClosedError

        try:
            if not self.fetched:
                self.backend.fetch(self)
            value, self.value = self.value, None
            return value
        except KilledWorker:
            self.backend.waiting = [f for f in self.backend.waiting if f is not self]
            return self.backend.isolate(self)
        except CommClosedError as exc:
            raise SchedulerError(f"lost the Dask scheduler: {exc}") from exc
        except Exception as exc:
            if type(exc).__name__ == "CancelledError":  # the scheduler forgot the task
                raise SchedulerError(f"the Dask cluster cancelled a batch: {exc}") from exc
            raise


# Worker settings of the clusters gcgtools starts: the statistical profiler (a thread
# walking the running task's stack every 10 ms, for the dashboard) and the system
# monitor cost CPU that the replay's pure-Python batches would rather have.
LOCAL_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.interval": "2s",
}
# A LocalCluster closes a worker's nanny for good when no worker of its name is back this
# long after the worker died (15 s by default): a file that keeps killing workers could
# then leave the cluster with none, and the command would wait for ever. The cluster reads
# the setting whenever a worker dies, so it stays in force while the cluster is open.
KEEP_NANNIES = {"distributed.deploy.lost-worker-timeout": "1h"}


class _Setting:
    """Dask settings in force from now until :meth:`close` (one of a backend's owned
    things, closed after its client and cluster)."""

    def __init__(self, values: dict[str, Any]) -> None:
        import dask

        self._set = dask.config.set(values)

    def close(self) -> None:
        self._set.__exit__(None, None, None)


def local_cluster(workers: int) -> Any:
    """A LocalCluster of ``workers`` single-threaded worker processes, as
    ``--scheduler local`` starts it: no fixed dashboard port, quiet logs, no profiler."""
    import dask
    from distributed import LocalCluster

    with dask.config.set(LOCAL_CONFIG):  # the nannies hand it to their workers
        return LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        )


# Transports that need more than an address: TLS certificates, or the UCX library.
_TLS_SCHEMES = ("tls", "wss")
_UCX_MODULES = ("ucp", "ucxx", "distributed_ucxx")


def _shown(address: str) -> str:
    """An address as messages quote it: at most 80 characters."""
    return address if len(address) <= 80 else address[:77] + "..."


def check_address(address: str) -> None:
    """Refuse, before connecting, an address whose transport cannot work as configured:
    an unknown scheme, ``tls://``/``wss://`` without TLS certificates in Dask's
    configuration (``distributed.comm.tls``), ``ucx://`` without the UCX library."""
    import importlib.util

    from distributed.comm.registry import backends
    from distributed.security import Security

    scheme = address.split("://", 1)[0] if "://" in address else "tcp"
    if scheme not in backends:
        known = ", ".join(f"{s}://" for s in sorted(backends))
        raise SchedulerError(
            f"--scheduler {_shown(address)}: unknown transport {scheme!r} ({known})"
        )
    if (
        scheme in _TLS_SCHEMES
        and Security().get_connection_args("client").get("ssl_context") is None
    ):
        raise SchedulerError(
            f"--scheduler {_shown(address)}: {scheme}:// needs TLS certificates in Dask's "
            "configuration (distributed.comm.tls.ca-file, .client.cert and .client.key)"
        )
    if scheme == "ucx" and not any(importlib.util.find_spec(m) for m in _UCX_MODULES):
        raise SchedulerError(
            f"--scheduler {_shown(address)}: ucx:// needs UCX-Py (pip install ucx-py or ucxx)"
        )


def open_dask(scheduler: Any, jobs: int | None = None) -> DaskBackend:
    """A :class:`DaskBackend` for ``scheduler``: ``"local"``, an address, or a Client."""
    try:
        from distributed import Client
    except ImportError as exc:
        raise SchedulerError(INSTALL_HINT) from exc
    if isinstance(scheduler, Client):
        return DaskBackend(scheduler)
    if scheduler == LOCAL:
        kept = _Setting(KEEP_NANNIES)
        cluster = local_cluster(capped_jobs(jobs))
        client = Client(cluster)
        return DaskBackend(client, owned=(client, cluster, kept))
    address = str(scheduler)
    check_address(address)
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError, TypeError, ImportError) as exc:
        # TypeError, ImportError: a transport Dask knows but cannot use here
        raise SchedulerError(f"cannot reach the Dask scheduler {_shown(address)}: {exc}") from exc
    if not client.nthreads():
        try:
            client.wait_for_workers(1, timeout=30)
        except (OSError, TimeoutError) as exc:
            client.close()
            raise SchedulerError(f"the Dask scheduler {_shown(address)} has no workers") from exc
    return DaskBackend(client, owned=(client,))
