"""A rule policy put to work on instances: its features evaluated on states through dlplan."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from stratpol.features.pool import parse_feature
from stratpol.features.vocabulary import InstanceBridge, Vocabulary
from stratpol.planning import Instance, State, Successor
from stratpol.policy import Policy, accepts


class PolicyEvaluator:
    """Parses the policy's feature expressions once for a domain's vocabulary."""

    def __init__(self, policy: Policy, vocabulary: Vocabulary) -> None:
        self.policy = policy
        self.vocabulary = vocabulary
        self._elements = []
        for feature in policy.features:
            if not feature.description:
                raise ValueError(f"feature {feature.name} has no description-logic expression")
            self._elements.append(parse_feature(vocabulary, feature.kind, feature.description).element)

    def on(self, instance: Instance) -> InstancePolicy:
        return InstancePolicy(self, self.vocabulary.bridge(instance))


class InstancePolicy:
    """The policy on one instance: feature values per state (memoised) and compatible successors."""

    def __init__(self, evaluator: PolicyEvaluator, bridge: InstanceBridge) -> None:
        self.policy = evaluator.policy
        self.instance = bridge.instance
        self._bridge = bridge
        self._elements = evaluator._elements
        self._names = [f.name for f in self.policy.features]
        self._kinds = self.policy.kinds
        self._values: dict[int, dict[str, int]] = {}

    def values(self, state: State) -> dict[str, int]:
        known = self._values.get(state.index)
        if known is None:
            dlplan_state = self._bridge.state(state)
            known = {name: int(element.evaluate(dlplan_state)) for name, element in zip(self._names, self._elements)}
            self._values[state.index] = known
        return known

    def compatible_successors(self, state: State) -> list[Successor]:
        """The successors whose transition some rule accepts."""
        return list(self._compatible(state, self.instance.successors(state)))

    def first_compatible(self, state: State, candidates: Iterable[Successor]) -> Successor | None:
        """The first of `candidates` (successors of `state`) that some rule accepts; the ones after
        it are never evaluated, which is what makes a run cheap where a state has thousands of
        successors (spanner's gate: one tighten successor per nut and spanner)."""
        return next(self._compatible(state, candidates), None)

    def _compatible(self, state: State, candidates: Iterable[Successor]) -> Iterator[Successor]:
        source = self.values(state)
        rules = [r for r in self.policy.rules if all((source[n] > 0) == v for n, v in r.conditions)]
        if not rules:
            return
        for successor in candidates:
            target = self.values(successor.state)
            if any(accepts(r, self._kinds, source, target) for r in rules):
                yield successor
