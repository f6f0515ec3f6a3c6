"""Monotone and conditionally monotone features over a set of rules (GENEX paper, Defs. 3, 4, 7).

Booleans are treated as numericals with values 0/1. A rule *may increase* a feature if some
transition it accepts can raise the feature's value, and *entails a change* of it if every such
transition changes the feature (Def. 5, condition 1). The rules *settled* on a set of features
are those that entail no change of any of them: once those features stop changing, only these
rules can still be followed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from stratpol.policy.rules import Change, Feature, Rule


def may_increase(rule: Rule, feature: Feature) -> bool:
    """Whether `rule` may raise `feature`: n up / n?, or p? / p without the condition p."""
    change = rule.effect.get(feature.name)
    if feature.is_boolean:
        return change is Change.ANY or (change is Change.UP and rule.condition.get(feature.name) is not True)
    return change in (Change.UP, Change.ANY)


def may_decrease(rule: Rule, feature: Feature) -> bool:
    """Whether `rule` may lower `feature`: n down / n?, or p? / not p without the condition not p."""
    change = rule.effect.get(feature.name)
    if feature.is_boolean:
        return change is Change.ANY or (change is Change.DOWN and rule.condition.get(feature.name) is not False)
    return change in (Change.DOWN, Change.ANY)


def entails_change(rule: Rule, feature: Feature) -> bool:
    """Whether every transition `rule` accepts changes `feature`: n up / n down, {not p} -> {p}, {p} -> {not p}."""
    change = rule.effect.get(feature.name)
    if feature.is_boolean:
        condition = rule.condition.get(feature.name)
        return (condition is False and change is Change.UP) or (condition is True and change is Change.DOWN)
    return change in (Change.UP, Change.DOWN)


def monotone(rules: Iterable[Rule], feature: Feature) -> bool:
    """Def. 3: no rule may increase `feature`, or no rule may decrease it."""
    rules = tuple(rules)
    return not any(may_increase(r, feature) for r in rules) or not any(may_decrease(r, feature) for r in rules)


def context(rules: Iterable[Rule], feature: Feature, value: bool | None) -> tuple[Rule, ...]:
    """sigma(R, g, =) for `value` None, else sigma(R, g, 0/1): the rules across which g may stay
    unchanged (and, for 0/1, whose condition on g allows that valuation)."""
    kept = (r for r in rules if not entails_change(r, feature))
    if value is None:
        return tuple(kept)
    return tuple(r for r in kept if r.condition.get(feature.name, value) is value)


def joint_context(rules: Iterable[Rule], valuation: Sequence[tuple[Feature, bool]]) -> tuple[Rule, ...]:
    """sigma(R, G, v): the intersection over g in G of sigma(R, g, v(g)) (all of R for empty G)."""
    kept = tuple(rules)
    for feature, value in valuation:
        kept = context(kept, feature, value)
    return kept


def settled(rules: Iterable[Rule], features: Iterable[Feature]) -> tuple[Rule, ...]:
    """The rules that entail no change of any of `features`."""
    features = tuple(features)
    return tuple(r for r in rules if not any(entails_change(r, f) for f in features))


def monotone_given(rules: Iterable[Rule], feature: Feature, given: Sequence[Feature]) -> bool:
    """Defs. 4 and 7: `feature` is monotone in sigma(R, G, v) for every Boolean valuation v of G."""
    rules = tuple(rules)
    return all(monotone(joint_context(rules, tuple(zip(given, values))), feature)
               for values in product((False, True), repeat=len(given)))
