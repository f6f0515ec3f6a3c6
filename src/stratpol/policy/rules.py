"""Rule-based general policies over Boolean and numerical features (GENEX paper, section 3.4).

A rule C -> E has conditions p / not p on Boolean features and n > 0 / n = 0 on numerical ones
(uniformly: the feature's Boolean valuation is true or false) and effects p / not p / p? on
Boolean features and n up / n down / n? on numerical ones (uniformly: UP, DOWN, ANY). Features
are known here only by name, kind and an optional description; their values come from elsewhere.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from stratpol.features.kind import Kind


class Change(enum.Enum):
    """An effect: Boolean p / not p / p?, numerical n up / n down / n?."""

    UP = "up"
    DOWN = "down"
    ANY = "any"


@dataclass(frozen=True)
class Feature:
    """A named feature; `description` is its description-logic expression when it has one."""

    name: str
    kind: Kind
    description: str = ""
    complexity: int = field(default=0, compare=False)

    @property
    def is_boolean(self) -> bool:
        return self.kind is Kind.BOOLEAN


@dataclass(frozen=True)
class Rule:
    """C -> E: `conditions` maps a feature to its required Boolean valuation, `effects` to a Change.

    Stored as sorted tuples so that equal rules are equal and hash alike.
    """

    conditions: tuple[tuple[str, bool], ...] = ()
    effects: tuple[tuple[str, Change], ...] = ()

    @staticmethod
    def of(conditions: Mapping[str, bool] | Iterable[tuple[str, bool]] = (),
           effects: Mapping[str, Change] | Iterable[tuple[str, Change]] = ()) -> Rule:
        conditions = dict(conditions.items() if isinstance(conditions, Mapping) else conditions)
        effects = dict(effects.items() if isinstance(effects, Mapping) else effects)
        return Rule(tuple(sorted(conditions.items())), tuple(sorted(effects.items(), key=lambda e: e[0])))

    @property
    def condition(self) -> dict[str, bool]:
        return dict(self.conditions)

    @property
    def effect(self) -> dict[str, Change]:
        return dict(self.effects)

    def features(self) -> set[str]:
        return {name for name, _ in self.conditions} | {name for name, _ in self.effects}


def _valuation(value: int) -> bool:
    return value > 0


def accepts(rule: Rule, kinds: Mapping[str, Kind], source: Mapping[str, int], target: Mapping[str, int]) -> bool:
    """Whether the transition with feature values `source` -> `target` is compatible with `rule`.

    `kinds` names every feature of the policy: a feature the rule's effect does not mention must
    not change (its value, not just its valuation).
    """
    for name, positive in rule.conditions:
        if _valuation(source[name]) != positive:
            return False
    effect = dict(rule.effects)
    for name, kind in kinds.items():
        change = effect.get(name)
        before, after = source[name], target[name]
        if change is None:
            if (_valuation(before) != _valuation(after)) if kind is Kind.BOOLEAN else before != after:
                return False
        elif change is Change.ANY:
            continue
        elif kind is Kind.BOOLEAN:
            if _valuation(after) != (change is Change.UP):
                return False
        elif (after > before) != (change is Change.UP) or after == before:
            return False
    return True


def project(kinds: Mapping[str, Kind], source: Mapping[str, int], target: Mapping[str, int]) -> Rule:
    """The rule a transition induces on a feature set: the valuation at the source as condition,
    every feature that changes as effect (section 3.5, "projection")."""
    conditions = {name: _valuation(source[name]) for name in kinds}
    effects = {}
    for name, kind in kinds.items():
        before, after = source[name], target[name]
        if kind is Kind.BOOLEAN:
            if _valuation(before) != _valuation(after):
                effects[name] = Change.UP if _valuation(after) else Change.DOWN
        elif before != after:
            effects[name] = Change.UP if after > before else Change.DOWN
    return Rule.of(conditions, effects)


@dataclass(frozen=True)
class Policy:
    """Features and rules; a transition is a policy transition if some rule accepts it."""

    features: tuple[Feature, ...]
    rules: tuple[Rule, ...]
    domain: str | None = None  # the PDDL name of the domain whose vocabulary the features use

    def __post_init__(self) -> None:
        names = [f.name for f in self.features]
        if len(set(names)) != len(names):
            raise ValueError(f"feature names repeat: {sorted(n for n in names if names.count(n) > 1)}")
        unknown = set().union(*(r.features() for r in self.rules)) - set(names)
        if unknown:
            raise ValueError(f"rules mention unknown features {sorted(unknown)}")

    @staticmethod
    def of(features: Iterable[Feature], rules: Iterable[Rule], domain: str | None = None) -> Policy:
        """A policy with duplicate rules removed, keeping the first occurrence."""
        return Policy(tuple(features), tuple(dict.fromkeys(rules)), domain)

    @property
    def kinds(self) -> dict[str, Kind]:
        return {f.name: f.kind for f in self.features}

    def feature(self, name: str) -> Feature:
        return next(f for f in self.features if f.name == name)

    def accepting_rules(self, source: Mapping[str, int], target: Mapping[str, int]) -> list[Rule]:
        kinds = self.kinds
        return [rule for rule in self.rules if accepts(rule, kinds, source, target)]

    def accepts(self, source: Mapping[str, int], target: Mapping[str, int]) -> bool:
        kinds = self.kinds
        return any(accepts(rule, kinds, source, target) for rule in self.rules)
