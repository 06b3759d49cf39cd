"""The user's rule options as one value: :class:`RuleOptions`.

``--tiles``, ``--board``, ``--rules`` and ``--challenge-bonus`` (or the library's ``tiles=``,
``board=``, ``end_rule=``, ``challenge_bonus=`` keywords) are parsed once, by
:meth:`RuleOptions.parse`, which checks every name and reads every file up front; the value
then travels through the replay, the analysis, the batches (it pickles, to worker processes
and Dask) and the result cache (:meth:`RuleOptions.identity`). Each field ``None`` means
"from the record". :func:`gcgtools.rules.resolve.resolve` turns a record and its options into
the :class:`~gcgtools.rules.rulesets.RuleSet` it is replayed by.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from gcgtools.rules.boards import BOARDS, board_layout, resolve_board
from gcgtools.rules.detect import parse_end_rule
from gcgtools.rules.rulesets import EndRule
from gcgtools.rules.tiles import TILE_SETS, resolve_tiles, tile_set

__all__ = ["END_RULES", "RuleOptionError", "RuleOptions", "rule_options"]

END_RULES = ("standard", "international", "home")


class RuleOptionError(KeyError, ValueError):
    """A rule option that names nothing known, a malformed file, or a bad number.

    A ``KeyError`` and a ``ValueError`` (what the lookups raised before there was one
    options value); ``str()`` is the one-line message, ``option`` the option's name."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class RuleOptions:
    """The rules the user chose; ``None`` in a field: from the record.

    ``tiles`` and ``board`` are a known name or the path of a tile or board file (as
    given); ``end_rule`` an :class:`EndRule`; ``challenge_bonus`` points. Build it with
    :meth:`parse`, which checks every value (the constructor does not)."""

    tiles: str | None = None
    board: str | None = None
    end_rule: EndRule | None = None
    challenge_bonus: int | None = None

    @classmethod
    def parse(
        cls,
        *,
        tiles: str | None = None,
        board: str | None = None,
        rules: str | EndRule | None = None,
        challenge_bonus: int | None = None,
    ) -> RuleOptions:
        """The options, every one checked: a tile set or board name or a well-formed file,
        an end rule ``parse_end_rule`` reads, a challenge bonus of 0 or more points.
        Raises :class:`RuleOptionError` naming the valid values (or what is wrong with
        the file)."""
        return cls(
            tiles=_checked_tiles(tiles),
            board=_checked_board(board),
            end_rule=_checked_end_rule(rules),
            challenge_bonus=_checked_bonus(challenge_bonus),
        )

    def identity(self) -> dict[str, str | int]:
        """What names these options in a cache key, the same in every process and on every
        machine: each option given, a tile or board file by its contents' SHA-256."""
        found: dict[str, str | int] = {}
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, EndRule):
                found[field.name] = value.value
            elif isinstance(value, str):
                lookup = tile_set if field.name == "tiles" else board_layout
                found[field.name] = _file_identity(value, lookup)
            elif value is not None:
                found[field.name] = value
        return found


def rule_options(options: RuleOptions | None = None, **keywords: Any) -> RuleOptions:
    """The public edge: ``options``, or the :class:`RuleOptions` the keywords ``tiles``,
    ``board``, ``end_rule`` (or ``rules``) and ``challenge_bonus`` name (checked by
    :meth:`RuleOptions.parse`). Raises ``TypeError`` for another keyword or for both."""
    unknown = set(keywords) - {"tiles", "board", "end_rule", "rules", "challenge_bonus"}
    if unknown:
        raise TypeError(f"unexpected rule option {sorted(unknown)[0]!r}")
    given = {k: v for k, v in keywords.items() if v is not None}
    if options is not None:
        if given:
            raise TypeError("give either options= or rule keywords, not both")
        return options
    if "end_rule" in given:
        given["rules"] = given.pop("end_rule")
    return RuleOptions.parse(**given) if given else NO_OPTIONS


NO_OPTIONS = RuleOptions()


def _file_identity(value: str, lookup: Any) -> str:
    """A known name (which wins over a file of that name) as itself, a file by its
    contents."""
    try:
        lookup(value)
        return value
    except KeyError:
        pass
    import hashlib  # only for a file: loading OpenSSL's hashes costs milliseconds

    try:
        with open(value, "rb") as handle:
            return "sha256:" + hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return value


def _checked_tiles(value: str | None) -> str | None:
    if value is None:
        return None
    known = ", ".join(sorted(TILE_SETS))
    return _known_or_file("tiles", value, resolve_tiles, "tile set", known)


def _checked_board(value: str | None) -> str | None:
    if value is None:
        return None
    known = "standard, super, wwf (" + ", ".join(sorted(BOARDS)) + ")"
    return _known_or_file("board", value, resolve_board, "board layout", known)


def _known_or_file(option: str, value: str, resolve: Any, what: str, known: str) -> str:
    try:
        resolve(value)
    except KeyError:
        raise RuleOptionError(
            option, f"unknown {what} {value!r}; valid: {known}, or an existing FILE"
        ) from None
    except (ValueError, OSError) as exc:
        raise RuleOptionError(option, str(exc)) from None
    return value


def _checked_end_rule(value: str | EndRule | None) -> EndRule | None:
    if value is None:
        return None
    try:
        return parse_end_rule(value)
    except (ValueError, AttributeError):
        raise RuleOptionError(
            "rules", f"unknown end rule {value!r}; valid: {', '.join(END_RULES)}"
        ) from None


def _checked_bonus(value: int | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleOptionError(
            "challenge_bonus", f"{value!r} is not a challenge bonus: 0 or more points"
        )
    return value
