"""The policy graph of SIEVE: a node per Boolean valuation of the features, an edge per rule and
successor valuation the rule's effects allow (Srivastava et al. 2011; Bonet and Geffner 2020).

Nodes are bitmasks over the features that appear in some rule (the others never change, so the
full graph is copies of this one). Each edge records the numerical features it may increase and
may decrease: n up always increases; n down (only from n > 0) always decreases, to n = 0 or n > 0;
n? from n = 0 stays or increases, from n > 0 decreases to 0, or goes to n > 0 and may then
increase, decrease or stay. Booleans change exactly with their valuation, so SIEVE ignores them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stratpol.policy.rules import Change, Feature, Policy, Rule

MAX_FEATURES = 16
MAX_EDGES = 20_000_000  # five int32 arrays: 400 MB


@dataclass(frozen=True)
class Edge:
    """source -> target under rules[rule]; `increases`/`decreases` are bitmasks of numericals."""

    source: int
    target: int
    rule: int
    increases: int
    decreases: int


@dataclass(frozen=True)
class PolicyGraph:
    """The features (bit i is features[i]), the rules and the edges of a policy graph, one array
    entry per edge (a 12-feature policy has millions of them)."""

    features: tuple[Feature, ...]
    rules: tuple[Rule, ...]
    source: np.ndarray
    target: np.ndarray
    rule: np.ndarray
    increases: np.ndarray
    decreases: np.ndarray

    def __len__(self) -> int:
        return len(self.source)

    @property
    def edges(self) -> tuple[Edge, ...]:
        """The edges as objects, in the arrays' order."""
        return tuple(Edge(*map(int, row)) for row in zip(self.source, self.target, self.rule, self.increases,
                                                          self.decreases))

    def edge(self, index: int) -> Edge:
        return Edge(int(self.source[index]), int(self.target[index]), int(self.rule[index]),
                    int(self.increases[index]), int(self.decreases[index]))

    def valuation(self, node: int) -> dict[str, bool]:
        """The Boolean valuation a node stands for."""
        return {f.name: bool(node >> i & 1) for i, f in enumerate(self.features)}


def _successors(feature: Feature, change: Change, value: bool) -> list[tuple[bool, bool, bool]]:
    """(new valuation, may increase, may decrease) for one feature under one effect."""
    if feature.is_boolean:
        targets = {Change.UP: (True,), Change.DOWN: (False,), Change.ANY: (False, True)}[change]
        return [(target, False, False) for target in targets]
    if change is Change.UP:
        return [(True, True, False)]
    if change is Change.DOWN:
        return [(False, False, True), (True, False, True)] if value else []
    return [(False, False, True), (True, True, True)] if value else [(False, False, False), (True, True, False)]


def edge_count(policy: Policy, features: tuple[Feature, ...]) -> int:
    """The number of edges `policy_graph` would build over `features`, without building them."""
    total = 0
    for rule in policy.rules:
        conditions, effects = rule.condition, rule.effect
        count = 1
        for feature in features:
            values = (conditions[feature.name],) if feature.name in conditions else (False, True)
            change = effects.get(feature.name)
            count *= len(values) if change is None else sum(len(_successors(feature, change, v)) for v in values)
        total += count
    return total


def policy_graph(policy: Policy, max_features: int = MAX_FEATURES, max_edges: int = MAX_EDGES) -> PolicyGraph:
    """All edges of the policy graph; ValueError above `max_features` features (2^n nodes) or
    `max_edges` edges (each effect n down or n? doubles a rule's edges)."""
    mentioned = set().union(*(r.features() for r in policy.rules))
    features = tuple(f for f in policy.features if f.name in mentioned)
    if len(features) > max_features:
        raise ValueError(f"SIEVE needs 2^{len(features)} nodes; at most {max_features} features are allowed")
    if (count := edge_count(policy, features)) > max_edges:
        raise ValueError(f"the policy graph would have {count} edges; at most {max_edges} are allowed")
    bit = {f.name: i for i, f in enumerate(features)}
    nodes = np.arange(1 << len(features), dtype=np.int32)
    parts = []
    for index, rule in enumerate(policy.rules):
        care = sum(1 << bit[name] for name, _ in rule.conditions)
        want = sum(1 << bit[name] for name, positive in rule.conditions if positive)
        source = nodes[nodes & care == want]
        target, increases, decreases = source.copy(), np.zeros_like(source), np.zeros_like(source)
        for name, change in rule.effects:  # each effect multiplies the edges by its options
            i = bit[name]
            value = (source >> i & 1).astype(bool)
            grown = []
            for at in (False, True):
                rows = np.flatnonzero(value == at)
                for new, up, down in _successors(features[i], change, at):
                    moved = target[rows] | 1 << i if new else target[rows] & ~(1 << i)
                    grown.append((source[rows], moved, increases[rows] | up << i, decreases[rows] | down << i))
            source, target, increases, decreases = (np.concatenate([g[j] for g in grown]).astype(np.int32)
                                                    for j in range(4))
        parts.append((source, target, np.full(len(source), index, dtype=np.int32), increases, decreases))
    arrays = [np.concatenate([p[j] for p in parts]) if parts else np.zeros(0, np.int32) for j in range(5)]
    return PolicyGraph(features, policy.rules, *arrays)
