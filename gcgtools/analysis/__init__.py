"""Analysis layer: judging the plays of a record against a lexicon (phonies, best moves,
equity lost, missed bingos). Running it over archives is :mod:`gcgtools.batch.analyses`."""

from gcgtools.analysis.analyse import (
    Candidate,
    RecordAnalysis,
    TurnAnalysis,
    analyse_record,
    phony_words,
)

__all__ = ["Candidate", "RecordAnalysis", "TurnAnalysis", "analyse_record", "phony_words"]
