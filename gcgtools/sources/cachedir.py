"""Where gcgtools keeps what it caches: ``$GCGTOOLS_CACHE_DIR``, else the platform's user
cache folder for gcgtools (``~/.cache/gcgtools`` on Linux). The compiled lexicons
(:mod:`gcgtools.lexicon.cache`) and the result cache (:mod:`gcgtools.batch.cache`) each have
a folder inside it."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CACHE_ENV", "cache_root"]

CACHE_ENV = "GCGTOOLS_CACHE_DIR"


def cache_root() -> Path:
    """gcgtools' cache folder."""
    value = os.environ.get(CACHE_ENV, "").strip()
    if value:
        return Path(value).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("gcgtools"))
