"""The k-stratification test (Def. 8, proof of Theorem 10): build the ranking stage by stage.

Stage 0 ranks the monotone features; stage i ranks each unranked feature that is monotone given
some set G of at most k features ranked before stage i, over the rules settled on every feature
ranked before stage i (see `certificate`). Ranking a feature earlier only removes rules from the
later stages, so ranking each as early as it can be finds a ranking whenever one exists.
Features and subsets are tried in the policy's feature order, so the result is deterministic;
which features get which rank does not depend on that order. Features that no rule changes are
monotone and get rank 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from stratpol.policy.rules import Policy, Rule
from stratpol.policy.text import format_rule
from stratpol.termination.certificate import Certificate, FeatureRank
from stratpol.termination.monotonicity import entails_change, monotone, monotone_given, settled


@dataclass(frozen=True)
class StratificationResult:
    """The verdict for one k: a certificate when stratified, else what is missing."""

    stratified: bool
    k: int
    certificate: Certificate | None = None
    rules_without_change: tuple[Rule, ...] = ()
    unranked: tuple[str, ...] = ()
    policy: Policy | None = field(default=None, repr=False, compare=False)

    def describe(self) -> str:
        """One line for humans: the ranking, or why there is none."""
        if self.stratified:
            return f"{self.k}-stratified; ranks {self.certificate.describe()}"
        reasons = []
        if self.rules_without_change:
            shown = [format_rule(self.policy, r) if self.policy else str(r) for r in self.rules_without_change]
            reasons.append(f"rules entailing no change: {'; '.join(shown)}")
        if self.unranked:
            reasons.append(f"features without rank: {', '.join(self.unranked)}")
        return f"not {self.k}-stratified; " + "; ".join(reasons)


def stratification_certificate(policy: Policy, k: int = 1, settled_rules: bool = True) -> StratificationResult:
    """Whether `policy` is k-stratified, with a certificate (ranks, sets G, changed features) if so.

    `settled_rules` False asks for monotonicity over all rules, as Def. 8 is written: fewer
    policies pass, and a passing one gets its features spread over more ranks (a valid
    certificate either way), which leaves simplification more effects it may make unknown."""
    if k < 1:
        raise ValueError(f"k must be positive, not {k}")
    rules, features = policy.rules, policy.features
    changes: dict[Rule, str] = {}
    for rule in rules:
        name = next((f.name for f in features if entails_change(rule, f)), None)
        if name is not None:
            changes[rule] = name
    without = tuple(dict.fromkeys(r for r in rules if r not in changes))

    ranks = {f.name: FeatureRank(0) for f in features if monotone(rules, f)}
    stage = 0
    while len(ranks) < len(features):
        stage += 1
        pool = [f for f in features if f.name in ranks]
        # a set G that failed before may hold now: fewer rules are left
        left = settled(rules, pool) if settled_rules else rules
        found: dict[str, FeatureRank] = {}
        for feature in features:
            if feature.name in ranks:
                continue
            for size in range(1, k + 1):
                # sets holding a feature of the last stage first: the certificate names what
                # made the feature monotone (as the paper's examples do)
                candidates = sorted(combinations(pool, size),
                                    key=lambda g: max(ranks[h.name].rank for h in g) != stage - 1)
                given = next((g for g in candidates if monotone_given(left, feature, g)), None)
                if given is not None:
                    found[feature.name] = FeatureRank(stage, tuple(g.name for g in given))
                    break
        if not found:
            break
        ranks.update(found)

    unranked = tuple(f.name for f in features if f.name not in ranks)
    if without or unranked:
        return StratificationResult(False, k, None, without, unranked, policy)
    return StratificationResult(True, k, Certificate(ranks, changes), policy=policy)


def lowest_stratification(policy: Policy, max_k: int = 2) -> StratificationResult:
    """The verdict for the smallest k up to `max_k` for which `policy` is k-stratified (the verdict
    for `max_k` where there is none): how a learned policy's termination is reported."""
    for k in range(1, max_k + 1):
        result = stratification_certificate(policy, k=k)
        if result.stratified:
            return result
    return result
