"""What a record's header says about when it was played and how strong its players are:
the ``date`` and ``rating`` columns of the tables, which the player profiles read (the
chart of the Mistake Index over time, the rating fit).

The GCG format has no pragma for either, so gcgtools reads:

* the **date** (ISO ``YYYY-MM-DD``): from a ``#date`` pragma, else the first ISO date in
  the ``#title`` or a ``#description`` (``#title Club night 2024-03-05``). A year alone
  (``#title 2019 NSC Round 7``) is not a date: the games are then in archive order;
* the **rating** of a seat: from a ``#rating1``/``#rating2`` (``#ratingN``) pragma whose
  value is a whole number from 0 to :data:`MAX_RATING` (``#rating1 1850``); anything
  else is ignored.

Both are optional. Other programs keep ``#date`` and ``#ratingN`` as unknown pragmas
(so does ``gcgtools validate``, with a warning).
"""

from __future__ import annotations

import datetime as dt
import re

from gcgtools.model.game import Game

__all__ = ["MAX_RATING", "record_date", "record_ratings"]

#: the highest rating read from a record (higher values are ignored as typing errors)
MAX_RATING = 4000
_ISO_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_RATING = re.compile(r"rating(\d+)")


def _iso_date(text: str | None) -> str | None:
    """The first valid ISO date in ``text`` (``2024-02-30`` is not one)."""
    for match in _ISO_DATE.finditer(text or ""):
        try:
            return dt.date(*(int(part) for part in match.groups())).isoformat()
        except ValueError:
            continue
    return None


def record_date(game: Game) -> str | None:
    """The date the record gives (``YYYY-MM-DD``), or None (see the module docstring)."""
    for text in (game.pragma("date"), game.title, *game.descriptions):
        found = _iso_date(text)
        if found is not None:
            return found
    return None


def record_ratings(game: Game) -> dict[int, int]:
    """The rating of each seat the record gives, by 0-based seat index (``#rating1`` is
    seat 0); the first pragma of a seat counts."""
    out: dict[int, int] = {}
    for pragma in game.pragmas:
        match = _RATING.fullmatch(pragma.keyword)
        value = (pragma.value or "").strip()
        number = value.isascii() and value.isdigit()
        if match is None or not number or not 0 <= int(value) <= MAX_RATING:
            continue
        seat = int(match.group(1)) - 1
        if seat >= 0:
            out.setdefault(seat, int(value))
    return out
