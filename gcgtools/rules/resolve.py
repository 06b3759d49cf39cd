"""The rule set a record is replayed by: its pragmas, the user's :class:`RuleOptions`, and a
guess of the tile set from the record's letters when it names none."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gcgtools.findings import Code, Finding, make
from gcgtools.rules.detect import select_rules
from gcgtools.rules.options import NO_OPTIONS, RuleOptions
from gcgtools.rules.rulesets import EndRule, RuleSet
from gcgtools.rules.tiles import TILE_SETS, declared_spellings

if TYPE_CHECKING:
    from gcgtools.model.game import Game

__all__ = ["GUESS_ORDER", "guess_tiles", "resolve", "resolve_with_findings", "with_overrides"]

# Tried in this order when a record without tile pragmas uses letters English lacks.
GUESS_ORDER = (
    "german", "polish", "french", "spanish", "catalan", "dutch", "norwegian", "swedish", "slovene",
)  # fmt: skip


def resolve(game: Game, options: RuleOptions = NO_OPTIONS) -> RuleSet:
    """The rule set ``game`` is replayed by under ``options``."""
    return resolve_with_findings(game, options)[0]


def resolve_with_findings(
    game: Game, options: RuleOptions = NO_OPTIONS
) -> tuple[RuleSet, list[Finding]]:
    """:func:`resolve`, and the doubts about the choice as H209 findings."""
    rules, warnings = _select(game, options, options.tiles)
    guess = None
    if options.tiles is None and game.tile_distribution is None:
        guess = guess_tiles(game, rules.tiles.name)
        if guess is not None:  # chosen as if given: the doubts about the first choice go
            rules, warnings = _select(game, options, guess)
            rules = replace(rules, name="")
    line = _pragma_line(game, "tile-distribution", "board-layout", "lexicon", "game-type") or 1
    findings = [make(Code.UNKNOWN_RULES_NAME, w, line) for w in warnings]
    if guess is not None:
        note = f"tile set {guess} chosen from the letters in the record"
        findings.append(make(Code.UNKNOWN_RULES_NAME, note, line, severity="info"))
    # the record's #tile pragmas decide how its multi-character tiles are spelled
    declared = [
        words[0] for p in game.pragmas if p.keyword == "tile" and (words := p.value.split())
    ]
    if declared:
        spelled = declared_spellings(rules.tiles, declared)
        if spelled is not rules.tiles:
            rules = replace(rules, tiles=spelled)
    return rules, findings


def _select(game: Game, options: RuleOptions, tiles: str | None) -> tuple[RuleSet, tuple[str, ...]]:
    """:func:`~gcgtools.rules.detect.select_rules` for ``game``'s pragmas and ``options``,
    with ``tiles`` (a name or a file) for the tile set."""
    return select_rules(
        lexicon=game.lexicon,
        tile_distribution=game.tile_distribution,
        board_layout=game.board_layout,
        game_type=game.game_type,
        tiles=tiles,
        board=options.board,
        end_rule=options.end_rule,
        challenge_bonus=options.challenge_bonus,
    )


def with_overrides(rules: RuleSet, options: RuleOptions) -> RuleSet:
    """``rules`` with the end rule and challenge bonus ``options`` give (its tiles and
    board are not looked at: ``rules`` has its own)."""
    rule = options.end_rule
    if rule is not None and rule is not rules.end_rule:
        rules = replace(rules, end_rule=rule, name="")
        if rule is EndRule.HOME:
            rules = replace(rules, passes_to_end=2, exchange_minimum_bag=1)
    bonus = options.challenge_bonus
    if bonus is not None and bonus != rules.challenge_bonus:
        rules = replace(rules, challenge_bonus=bonus)
    return rules


def _pragma_line(game: Game, *keywords: str) -> int:
    for p in game.pragmas:
        if p.keyword in keywords:
            return p.line
    return 0


def _texts(game: Game) -> list[str]:
    """Every rack (but UNKNOWN), play word and tile list of the record's events."""
    events = game.events
    return [
        *[w for e in events if (w := e.word)],
        *[t for e in events if (t := e.tiles)],
        # only a text of 7 characters can be UNKNOWN: skip the upper() of the others
        *[r for e in events if (r := e.rack) and (len(r) != 7 or r.upper() != "UNKNOWN")],
    ]


def guess_tiles(game: Game, current: str) -> str | None:
    """A tile set that can spell every rack and word of the record, when ``current``
    cannot; None when ``current`` is fine or nothing fits."""

    joined = ".".join(_texts(game))  # "." is a token of its own: no tile spans two texts
    if TILE_SETS[current].spells(joined):
        return None
    return next(
        (name for name in GUESS_ORDER if name in TILE_SETS and TILE_SETS[name].spells(joined)),
        None,
    )
