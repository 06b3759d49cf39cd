"""Report pages of records judged at depth sim or full: the judging is the deep analysis
of :func:`gcgtools.batch.analyses.analyse_paths`, split per turn over every worker of the
local pool or the Dask cluster (one record's turns too), and each page is made in this
process from its record's finished analysis, in order, as soon as that record is judged.

Making a page costs milliseconds and judging its record seconds a turn: so the pages of
a judged archive are not spread over the workers one record each (a long record would
keep one worker busy while the others wait), but their turns are.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from gcgtools.analysis.results import RecordAnalysis
from gcgtools.batch.analyses import analyse_paths
from gcgtools.batch.run import Scheduler
from gcgtools.batch.settings import AnalysisSettings
from gcgtools.jobs.kinds import ReportJob
from gcgtools.jobs.outputs import FileJob, Naming, Outcome

__all__ = ["is_judged", "judged_pages", "with_analysis"]


def is_judged(job: ReportJob) -> bool:
    """True if ``job``'s pages are judged (depth sim or full, with a lexicon)."""
    return job.lexicon is not None and str(job.depth) != "static" and job.analysis is None


def _analyses(
    job: ReportJob, files: list[str], jobs: int | None, progress: bool, scheduler: Scheduler
) -> Iterator[RecordAnalysis]:
    settings = AnalysisSettings(
        top=job.top, options=job.rules, depth=job.depth, judge=job.judge, progress=progress
    )
    return analyse_paths(
        files, lexicon=job.lexicon, jobs=jobs, scheduler=scheduler, settings=settings
    )


def judged_pages(
    job: ReportJob,
    files: list[str],
    naming: Naming,
    *,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Scheduler = None,
) -> Iterator[Outcome]:
    """Write the judged page of each of ``files`` (already expanded) where ``naming``
    says, in order, each as soon as its record is judged; an :class:`Outcome` per file.
    The progress bar counts the judged turns."""
    analyses = _analyses(job, files, jobs, progress, scheduler)
    for path, analysis in zip(files, analyses, strict=True):
        yield FileJob(replace(job, analysis=analysis), naming)(path)


def with_analysis(
    job: ReportJob,
    path: str,
    *,
    jobs: int | None = None,
    progress: bool = False,
    scheduler: Scheduler = None,
) -> ReportJob:
    """``job`` with the judged analysis of the one record at ``path`` (its turns judged
    by every worker), for a page made in this process."""
    (analysis,) = _analyses(job, [path], jobs, progress, scheduler)
    return replace(job, analysis=analysis)
