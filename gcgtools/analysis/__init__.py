"""Analysis layer: judging the plays of a record against a lexicon (phonies, best moves,
equity lost, missed bingos). The results are the values of :mod:`gcgtools.analysis.results`.
Running it over archives is :mod:`gcgtools.batch.analyses`."""

from gcgtools.analysis.analyse import analyse_record, phony_words
from gcgtools.analysis.results import Candidate, RecordAnalysis, TurnAnalysis

__all__ = ["Candidate", "RecordAnalysis", "TurnAnalysis", "analyse_record", "phony_words"]
