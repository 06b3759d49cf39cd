"""How records are analysed, as one value: :class:`AnalysisSettings`.

The command line (or the library's edge, :func:`gcgtools.batch.analyses.analyse_paths`)
builds it once from its options; it travels down to every worker (it pickles) and names
the analysis in the result cache (:meth:`AnalysisSettings.cache_params`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gcgtools.analysis.analyse import ANALYSIS_VERSION, DEFAULT_TOP
from gcgtools.analysis.judge import Depth, JudgeSettings, settings_for
from gcgtools.lexicon.choice import LexiconChoice, fingerprint
from gcgtools.rules.options import NO_OPTIONS, RuleOptions

__all__ = ["DEFAULT_SETTINGS", "AnalysisSettings"]


@dataclass(frozen=True, slots=True)
class AnalysisSettings:
    """``top`` best moves kept per turn; through the result cache unless ``cache`` is
    False; by the rule ``options``; judged at ``depth`` (sim, full) with the ``judge``
    settings (None: those of the depth, :func:`~gcgtools.analysis.judge.settings_for`);
    with ``progress``, a progress bar (per file, or per turn for one judged record)."""

    top: int = DEFAULT_TOP
    cache: bool = True
    options: RuleOptions = NO_OPTIONS
    depth: Depth = Depth.STATIC
    judge: JudgeSettings | None = None
    progress: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "depth", Depth(self.depth))  # "sim" as well as Depth.SIM

    def deep(self) -> tuple[Depth, JudgeSettings] | None:
        """The depth and the judge settings, None for the static depth."""
        if self.depth is Depth.STATIC:
            return None
        return self.depth, self.judge if self.judge is not None else settings_for(self.depth)

    def stored_top(self) -> int:
        """The best moves a cached entry keeps: at least ``DEFAULT_TOP``, so that one entry
        serves every command (stats asks for 1, report and analyse for 5)."""
        return max(self.top, DEFAULT_TOP)

    def cache_params(self, choice: LexiconChoice) -> dict[str, Any]:
        """What names an analysis with ``choice`` in the result cache: the lexicon and
        leave files, the best moves kept, the rule options (a --tiles/--board FILE by its
        contents' identity, not its name only), the analysis version and, judged, the depth
        and every judge setting (the static entries keep their keys)."""
        params: dict[str, Any] = {
            "files": fingerprint(choice),
            "top": self.stored_top(),
            "rules": self.options.identity(),
            "analysis": ANALYSIS_VERSION,
        }
        deep = self.deep()
        if deep is not None:
            params["depth"] = str(deep[0])
            params["judge"] = deep[1].to_dict()
        return params


#: every default: the best moves of ``DEFAULT_TOP``, cached, the record's rules, static
DEFAULT_SETTINGS = AnalysisSettings()
