"""The rules a replay runs by: :func:`rules_for` (the public, keyword form of
:func:`gcgtools.rules.resolve.resolve_with_findings`) and :func:`resolve_rules` (a given rule
set, or the record's)."""

from __future__ import annotations

from gcgtools.findings import Finding
from gcgtools.model.game import Game
from gcgtools.rules.options import NO_OPTIONS, RuleOptions, rule_options
from gcgtools.rules.resolve import resolve_with_findings, with_overrides
from gcgtools.rules.rulesets import EndRule, RuleSet

__all__ = ["resolve_rules", "rules_for"]


def rules_for(
    game: Game,
    options: RuleOptions | None = None,
    *,
    tiles: str | None = None,
    board: str | None = None,
    end_rule: str | EndRule | None = None,
    challenge_bonus: int | None = None,
) -> tuple[RuleSet, list[Finding]]:
    """The rule set the record implies (lexicon, tile distribution, board, game type),
    with the user's overrides applied: ``options``, or the keywords ``tiles``, ``board``,
    ``end_rule`` and ``challenge_bonus`` (see :class:`~gcgtools.rules.options.RuleOptions`).
    Doubts about the choice come back as H209 warnings. Raises
    :class:`~gcgtools.rules.options.RuleOptionError` (a ``KeyError`` and a ``ValueError``)
    for an unknown override."""
    chosen = rule_options(
        options, tiles=tiles, board=board, end_rule=end_rule, challenge_bonus=challenge_bonus
    )
    return resolve_with_findings(game, chosen)


def resolve_rules(
    game: Game, rules: RuleSet | None, options: RuleOptions = NO_OPTIONS
) -> tuple[RuleSet, list[Finding]]:
    """The rules to replay ``game`` by: the record's under ``options`` when ``rules`` is
    None, else ``rules`` with the end rule and challenge bonus of ``options`` (no
    findings)."""
    if rules is None:
        return resolve_with_findings(game, options)
    return with_overrides(rules, options), []
