"""Analysis layer: judging the plays of a record against a lexicon (phonies, best moves,
equity lost, missed bingos). The results are the values of :mod:`gcgtools.analysis.results`.
Running it over archives is :mod:`gcgtools.batch.analyses`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gcgtools.lazy import lazy_names

# The names are imported on first use (PEP 562): importing one module of the layer, such
# as gcgtools.analysis.simulate for ``moves --sim``, does not load the whole analysis
# (analyse, results, facts and the endgame solvers).
_LAZY = {
    "Candidate": "gcgtools.analysis.results",
    "RecordAnalysis": "gcgtools.analysis.results",
    "TurnAnalysis": "gcgtools.analysis.results",
    "analyse_record": "gcgtools.analysis.analyse",
    "phony_words": "gcgtools.analysis.analyse",
}

if TYPE_CHECKING:
    from gcgtools.analysis.analyse import analyse_record, phony_words
    from gcgtools.analysis.results import Candidate, RecordAnalysis, TurnAnalysis

__getattr__, __dir__ = lazy_names(__name__, _LAZY)

__all__ = ["Candidate", "RecordAnalysis", "TurnAnalysis", "analyse_record", "phony_words"]
