"""The projected policy pi(G, X+): each good transition, projected onto the chosen features."""

from __future__ import annotations

from collections.abc import Sequence

from stratpol.learning.hitting_set import LearningExamples
from stratpol.policy import Feature, Kind, Policy, project
from stratpol.termination import Certificate, FeatureRank, entails_change


def policy_features(examples: LearningExamples, columns: Sequence[int], ranks: dict[int, int]) -> list[Feature]:
    """Policy features for table columns, ordered by rank then complexity, named b0.. / n0..."""
    ordered = sorted(columns, key=lambda c: (ranks.get(c, 0), examples.table.features[c].complexity, c))
    counters = {Kind.BOOLEAN: 0, Kind.NUMERICAL: 0}
    features = []
    for column in ordered:
        pooled = examples.table.features[column]
        prefix = "b" if pooled.kind is Kind.BOOLEAN else "n"
        features.append(Feature(f"{prefix}{counters[pooled.kind]}", pooled.kind, pooled.description, pooled.complexity))
        counters[pooled.kind] += 1
    return features


def projected_policy(examples: LearningExamples, columns: Sequence[int], ranks: dict[int, int]) -> Policy:
    """pi(G, X+): one rule per good transition (duplicates merged), over the columns G."""
    features = policy_features(examples, columns, ranks)
    by_description = {f.description: f for f in features}
    named = [(by_description[examples.table.features[c].description].name, c) for c in columns]
    kinds = {f.name: f.kind for f in features}
    values = examples.table.values
    rules = []
    for source, target in examples.good.tolist():
        before = {name: int(values[source, c]) for name, c in named}
        after = {name: int(values[target, c]) for name, c in named}
        rules.append(project(kinds, before, after))
    return Policy.of(features, rules)


def transition_values(examples: LearningExamples, policy: Policy, pairs) -> list[tuple[dict[str, int], dict[str, int]]]:
    """Feature values of the policy's features before and after each (source, target) row pair."""
    column = {f.description: c for c, f in enumerate(examples.table.features)}
    named = [(f.name, column[f.description]) for f in policy.features]
    values = examples.table.values
    return [({n: int(values[s, c]) for n, c in named}, {n: int(values[t, c]) for n, c in named})
            for s, t in pairs]


def choice_certificate(examples: LearningExamples, policy: Policy, columns: Sequence[int], ranks: dict[int, int],
                       links: Sequence[tuple[int, int]]) -> Certificate:
    """The certificate of a lexicographic choice (`lexicographic_genex`): each feature its own rank
    in the order chosen, given the chosen feature it was linked to, if any.

    The checker ranks each feature as early as it can, several to a rank; this ranking is the
    strictest, so that simplification may leave every feature ranked below the first a rule
    changes unknown (n?), as the choice made them: what the rule does to them was not asked."""
    by_description = {f.description: f.name for f in policy.features}
    name = {c: by_description[examples.table.features[c].description] for c in columns}
    given = {f: g for g, f in links}
    feature_ranks = {name[c]: FeatureRank(ranks[c], (name[given[c]],) if c in given else ()) for c in columns}
    first = sorted(policy.features, key=lambda f: feature_ranks[f.name].rank)
    # a rule changing no feature names none, which check_certificate reports
    changes = {rule: next((f.name for f in first if entails_change(rule, f)), None) for rule in policy.rules}
    return Certificate(feature_ranks, changes)
