"""The error of the batch layer, in a module of its own so that a command catching it
(:func:`gcgtools.cli.common.batch_command`) imports no pool of processes."""

from __future__ import annotations


class BatchError(RuntimeError):
    """The batches cannot go on (worker processes keep dying; on Dask, see
    :class:`~gcgtools.batch.dask_backend.SchedulerError`)."""
