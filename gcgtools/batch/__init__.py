"""Batch layer: one function over many files, on a local pool of processes or a Dask cluster
behind one interface (:func:`~gcgtools.batch.run.map_files`), the per-record result cache
(:mod:`~gcgtools.batch.cache`) and analyses of whole archives
(:mod:`~gcgtools.batch.analyses`)."""

from gcgtools.batch.cores import default_jobs
from gcgtools.batch.run import map_files

__all__ = ["default_jobs", "map_files"]
