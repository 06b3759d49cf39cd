"""Counted words, said one way everywhere: ``1 error``, ``2 errors``, ``1 phony``,
``3 phonies``, ``1 game``, ``1 file``: never "1 errors", "phonys" or a noun with "(s)".

This module sits below every layer (like :mod:`gcgtools.findings`), so that a finding's
message, a summary line and a progress bar's label count things the same way.
"""

from __future__ import annotations

__all__ = ["IRREGULAR", "LEXICON_HINT", "NO_LEXICON", "no_lexicon", "plural", "plural_form"]

#: Plurals that do not just add an "s".
IRREGULAR = {
    "phony": "phonies",
    "entry": "entries",
    "match": "matches",
    "this": "these",
    "is": "are",
    "was": "were",
    "analysis": "analyses",
}

#: What every command says when it has no lexicon to analyse with: these words, then why
#: (when there is more to say) and how to give one (:func:`no_lexicon`).
NO_LEXICON = "no lexicon"
LEXICON_HINT = (
    "give --lexicon FILE (.kwg, .txt, .txt.gz), or --lexica DIR (or $GCGTOOLS_LEXICA) "
    "holding the record's #lexicon"
)


def plural_form(word: str, count: int) -> str:
    """``word`` as it reads after ``count``: the singular for 1 (and -1), else the
    plural (:data:`IRREGULAR`, else the word plus ``s``)."""
    if abs(count) == 1:
        return word
    return IRREGULAR.get(word, word + "s")


def plural(count: int, word: str) -> str:
    """``count`` and the word that fits it: ``plural(1, "error")`` is ``1 error``,
    ``plural(3, "phony")`` is ``3 phonies``, ``plural(0, "file")`` is ``0 files``."""
    return f"{count} {plural_form(word, count)}"


def no_lexicon(reason: str | None = None) -> str:
    """The one wording of "there is no lexicon": ``no lexicon: REASON; give --lexicon
    FILE, or --lexica DIR holding the record's #lexicon`` (without a reason, just the
    hint)."""
    if reason:
        return f"{NO_LEXICON}: {reason}; {LEXICON_HINT}"
    return f"{NO_LEXICON}: {LEXICON_HINT}"
