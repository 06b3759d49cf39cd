"""Choosing the rules for a game from its pragmas and the user's options, and guessing the
tile set of a record that does not name one."""

from __future__ import annotations

from dataclasses import replace

from gcgtools.findings import Finding, make
from gcgtools.model.game import Game
from gcgtools.rules.detect import parse_end_rule, select_rules
from gcgtools.rules.rulesets import EndRule, RuleSet
from gcgtools.rules.tiles import TILE_SETS, declared_spellings

# Tried in this order when a record without tile pragmas uses letters English lacks.
GUESS_ORDER = (
    "german", "polish", "french", "spanish", "catalan", "dutch", "norwegian", "swedish", "slovene",
)  # fmt: skip


def _pragma_line(game: Game, *keywords: str) -> int:
    for p in game.pragmas:
        if p.keyword in keywords:
            return p.line
    return 0


def rules_for(
    game: Game,
    *,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> tuple[RuleSet, list[Finding]]:
    """The rule set the record implies (lexicon, tile distribution, board, game type),
    with the user's overrides applied. Doubts about the choice come back as H209
    warnings. Raises KeyError for an unknown override name."""
    rules, warnings = select_rules(
        lexicon=game.lexicon,
        tile_distribution=game.tile_distribution,
        board_layout=game.board_layout,
        game_type=game.game_type,
        tiles=tiles,
        board=board,
        end_rule=end_rule,
        challenge_bonus=challenge_bonus,
    )
    line = _pragma_line(game, "tile-distribution", "board-layout", "lexicon", "game-type") or 1
    findings = [make("H209", w, line) for w in warnings]
    if tiles is None and game.tile_distribution is None:
        guess = guess_tiles(game, rules.tiles.name)
        if guess is not None:
            rules = replace(rules, tiles=TILE_SETS[guess], name="")
            note = f"tile set {guess} chosen from the letters in the record"
            findings.append(make("H209", note, line, severity="info"))
    # the record's #tile pragmas decide how its multi-character tiles are spelled
    declared = [
        words[0] for p in game.pragmas if p.keyword == "tile" and (words := p.value.split())
    ]
    if declared:
        spelled = declared_spellings(rules.tiles, declared)
        if spelled is not rules.tiles:
            rules = replace(rules, tiles=spelled)
    return rules, findings


def resolve_rules(
    game: Game,
    rules: RuleSet | None,
    *,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> tuple[RuleSet, list[Finding]]:
    """The rules to replay ``game`` by: :func:`rules_for` the record when ``rules`` is None,
    else ``rules`` with the explicit ``end_rule`` and ``challenge_bonus`` (no findings)."""
    if rules is None:
        return rules_for(
            game, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
        )
    return with_overrides(rules, end_rule, challenge_bonus), []


def with_overrides(
    rules: RuleSet, end_rule: str | EndRule | None, challenge_bonus: int | None
) -> RuleSet:
    """``rules`` with the end rule and challenge bonus the caller gave explicitly."""
    if end_rule is not None:
        rule = parse_end_rule(end_rule)
        if rule is not rules.end_rule:
            rules = replace(rules, end_rule=rule, name="")
            if rule is EndRule.HOME:
                rules = replace(rules, passes_to_end=2, exchange_minimum_bag=1)
    if challenge_bonus is not None and challenge_bonus != rules.challenge_bonus:
        rules = replace(rules, challenge_bonus=challenge_bonus)
    return rules


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
