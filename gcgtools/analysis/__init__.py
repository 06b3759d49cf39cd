"""Analysis layer: batch runs over archives, validation reports, DataFrames and statistics."""

from gcgtools.analysis.batch import default_jobs, map_files, show_progress
from gcgtools.analysis.checks import FileReport, check_file, checker

__all__ = ["FileReport", "check_file", "checker", "default_jobs", "map_files", "show_progress"]
