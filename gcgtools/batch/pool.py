"""The local backend of :mod:`gcgtools.batch.run`: one pool of worker processes on
this machine, which goes on when a worker process dies.

A worker that dies outright (a crash in compiled code, the out-of-memory killer) breaks
the whole pool: every batch in flight fails with it, and only one of them was to blame.
:class:`PoolBackend` then starts a new pool and finds the culprit: it runs the first
failed batch alone in a process of its own (:func:`_probe`); if that one dies too, each
of its files alone, and every file that kills its process is named to the new workers
(:mod:`gcgtools.sources.quarantine`) so that reading it reports it (validate: an F010
finding) instead of dying again. The batch then runs with those files left out, and the
other failed batches run again on the new pool. Only a batch that kills its process
with every one of its files left out stops the run (:class:`BatchError`).

No worker outlives the command: each one dies with the process that started it
(:func:`die_with_parent`: the kernel's parent-death signal on Linux, else a thread that
watches the parent), however that process ends, SIGKILL included; a pool closed because
of an exception or an interrupt (:meth:`PoolBackend.close` with ``now``) kills its workers
instead of waiting for their batches. The workers ignore SIGINT: Ctrl-C on a terminal
reaches the whole process group, and only the parent acts on it (it ends the pool).
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from gcgtools.batch.errors import BatchError
from gcgtools.sources.quarantine import add_crashed, set_crashed

R = TypeVar("R")


def skipping(crashed: Mapping[str, str], func: Callable[[Any], R], arg: Any) -> R:
    """Worker: ``func(arg)`` with the ``crashed`` files named to this process first (for a
    Dask worker, which no initializer of ours starts)."""
    add_crashed(crashed)
    return func(arg)


#: prctl(2)'s option that asks for a signal when the parent dies (Linux)
PR_SET_PDEATHSIG = 1
#: how often a worker without that option looks whether its parent is still there
WATCH_SECONDS = 0.5


def die_with_parent(parent: int) -> None:
    """Make this process (a worker) die when the process ``parent`` ends, however it
    ends: on Linux the kernel sends SIGKILL when the parent thread is gone; elsewhere a
    daemon thread checks every :data:`WATCH_SECONDS`. A parent gone already (it died
    while this process started) ends this one at once."""
    if not _kernel_watch():
        threading.Thread(target=_watch, args=(parent,), daemon=True, name="parent-watch").start()
    if os.getppid() != parent:
        os._exit(1)


def _kernel_watch() -> bool:
    """Ask the kernel for SIGKILL when the parent dies; False where it cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        # the symbols already loaded (libc's among them): looking the library up by
        # name runs programs, which a process forked from a threaded one must not
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _start_worker(crashed: Mapping[str, str], parent: int) -> None:
    die_with_parent(parent)
    _OPEN.clear()  # the parent's pools, copied by fork: not this process's to end
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends the pool on Ctrl-C
    # frozen: the objects inherited from the parent are never scanned by the worker's
    # garbage collector (nor their pages copied by writing to their headers)
    gc.freeze()
    set_crashed(crashed)


#: every pool open in this process (:func:`abort_pools` kills their workers)
_OPEN: weakref.WeakSet[PoolBackend] = weakref.WeakSet()


def abort_pools() -> None:
    """Kill the workers of every pool still open in this process, without waiting for
    their batches (an interrupted command, whose results nobody will take)."""
    for backend in list(_OPEN):
        if backend.owner == os.getpid():  # not a copy a fork made
            backend.close(now=True)


# At exit a pool still open has no one to take its results: its workers are killed
# before concurrent.futures' own exit hook would wait for their batches to finish
# (threading's exit hooks run last registered first, and before atexit's).
_at_exit = getattr(threading, "_register_atexit", None)
if _at_exit is not None:
    _at_exit(abort_pools)


class PoolBackend:
    """The local backend: one pool of ``jobs`` worker processes. A task costs it little,
    so its batches have a fixed size (no ``task_seconds``)."""

    task_seconds: float | None = None

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self.owner = os.getpid()
        self.crashed: dict[str, str] = {}  # file -> how it made its worker die
        self.pending: list[_PoolFuture] = []  # submitted, result not taken yet
        self.executor = self._start()
        _OPEN.add(self)

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            initializer=_start_worker,
            initargs=(dict(self.crashed), os.getpid()),
        )

    def submit(self, func: Callable[[Any], R], arg: Any) -> _PoolFuture:
        future = _PoolFuture(self, func, arg)
        future.resubmit()
        self.pending.append(future)
        return future

    def recover(self, failed: _PoolFuture) -> Any:
        """The result of ``failed``, whose pool broke (a worker died): found in processes
        of its own; the other batches that failed with it go to a new pool."""
        broken = self.executor
        broken.shutdown(wait=True)  # every batch of the broken pool is marked failed
        result = self._isolate(failed.func, failed.arg)
        self.executor = self._start()
        for future in self.pending:
            if future is not failed and future.executor is broken and _failed(future.future):
                future.resubmit()
        return result

    def _isolate(self, func: Callable[[Any], R], batch: Any) -> R:
        """``func(batch)`` in a process of its own; if it dies, each file alone tells
        which ones kill it, and it runs again with them left out."""
        done, value = _probe(func, batch, self.crashed)
        if done:
            return value  # type: ignore[no-any-return]
        for path in batch:
            if path not in self.crashed:
                alone, why = _probe(func, [path], self.crashed)
                if not alone:
                    self.crashed[path] = why
        done, value = _probe(func, batch, self.crashed)
        if done:
            return value  # type: ignore[no-any-return]
        for path in batch:  # no file alone, but the batch does (memory, say)
            self.crashed.setdefault(path, f"its batch {value}")
        done, value = _probe(func, batch, self.crashed)
        if done:
            return value  # type: ignore[no-any-return]
        first = batch[0] if batch else "?"
        raise BatchError(
            f"worker processes keep dying on a batch from {first}, even with its files "
            f"left out: the worker {value}"
        )

    def cancel(self, futures: list[Any]) -> None:
        self.pending = []  # shutdown(cancel_futures=True) cancels them

    def close(self, *, now: bool = False) -> None:
        """Shut the pool down once its running batches are done, or ``now``: its workers
        killed (after an exception or an interrupt, when no result is wanted)."""
        _OPEN.discard(self)
        self.pending = []
        if now:
            processes = list((getattr(self.executor, "_processes", None) or {}).values())
            manager = getattr(self.executor, "_executor_manager_thread", None)
            for process in processes:
                if process.is_alive():
                    process.kill()
            self.executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.join(timeout=5)
            if manager is not None:
                _forget_manager(manager)
            return
        self.executor.shutdown(cancel_futures=True)


def _forget_manager(manager: threading.Thread) -> None:
    """Let the manager thread of a pool whose workers were killed finish, then take it
    off the list concurrent.futures wakes at exit: on Python before 3.12 that wake-up
    could write to the thread's pipe as it was being closed, a traceback printed after
    the command's own last words (about 1 exit in 50 after an exception)."""
    manager.join(timeout=5)
    if not manager.is_alive():
        wakeups = getattr(sys.modules.get("concurrent.futures.process"), "_threads_wakeups", {})
        wakeups.pop(manager, None)


def _failed(future: Future[Any]) -> bool:
    """True if ``future`` will never give a result because its pool broke."""
    if future.cancelled():
        return True
    return future.done() and isinstance(future.exception(), BrokenProcessPool)


class _PoolFuture:
    """A batch on the pool; ``result()`` recovers from a broken pool (see the module)."""

    __slots__ = ("backend", "func", "arg", "executor", "future")

    def __init__(self, backend: PoolBackend, func: Callable[[Any], Any], arg: Any) -> None:
        self.backend = backend
        self.func = func
        self.arg = arg

    def resubmit(self) -> None:
        """Hand the batch to the backend's pool (again)."""
        self.executor = self.backend.executor
        self.future: Future[Any] = self.executor.submit(self.func, self.arg)

    def result(self) -> Any:
        while True:
            try:
                value = self.future.result()
            except BrokenProcessPool:
                if self.executor is not self.backend.executor:
                    self.resubmit()  # its pool broke and was replaced already
                    continue
                value = self.backend.recover(self)
            break
        if self in self.backend.pending:
            self.backend.pending.remove(self)
        return value


def _probe(func: Callable[[Any], R], batch: Any, crashed: Mapping[str, str]) -> tuple[bool, Any]:
    """``(True, func(batch))`` run in a new process told of the ``crashed`` files, or
    ``(False, how the process died)``. An exception ``func`` raises is raised here, as
    the pool would."""
    context = multiprocessing.get_context()  # the pool's
    receive, send = context.Pipe(duplex=False)
    # daemon: ended, not waited for, when this process exits (an interrupt, say)
    process = context.Process(
        target=_probe_main, args=(func, batch, dict(crashed), send, os.getpid()), daemon=True
    )
    process.start()
    send.close()
    try:
        outcome: tuple[bool, Any] | None = receive.recv()
    except (EOFError, OSError):
        outcome = None  # it died before answering
    finally:
        receive.close()
    process.join()
    if outcome is None:
        return False, _death(process.exitcode)
    ok, value = outcome
    if not ok:
        raise value
    return True, value


def _probe_main(func: Callable[[Any], Any], batch: Any, crashed: dict[str, str],
                send: Any, parent: int) -> None:  # fmt: skip
    """The probe process: ``func(batch)``, sent back with whether it raised."""
    die_with_parent(parent)
    _OPEN.clear()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    set_crashed(crashed)
    try:
        outcome: tuple[bool, Any] = (True, func(batch))
    except Exception as exc:  # noqa: BLE001 - raised again in the parent
        outcome = (False, exc)
    try:
        send.send(outcome)
    except Exception as exc:  # noqa: BLE001 - an exception that cannot be pickled
        send.send((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
    send.close()


def _death(exitcode: int | None) -> str:
    """How a process died, from its exit code: ``killed by SIGSEGV``, ``exited with
    status 3``."""
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    if exitcode:
        return f"exited with status {exitcode}"
    return "ended without a result"
