"""Termination certificates of k-stratified policies (Defs. 5, 8) and their independent verifier.

A certificate names, for every rule, a feature whose change the rule entails, and for every
feature its rank and the set G of lower-ranked features given which it is monotone (G is empty
at rank 0). The verifier checks it against the rules without any search.

A feature of rank r must be monotone given G only over the rules settled on the features of
rank below r (the rules that entail no change of any of them), not over all rules as Def. 8
asks. The proof of Theorem 9 carries over unchanged: the features of lower rank change finitely
often, and after their last change no rule that entails one of their changes can be followed.
So a rule that changes a feature of rank r may change any feature of higher rank (n?), which
one of the published learner's simplifications relies on; every policy Def. 8 accepts is accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stratpol.policy.rules import Policy, Rule
from stratpol.policy.text import format_rule
from stratpol.termination.monotonicity import entails_change, monotone_given, settled


@dataclass(frozen=True)
class FeatureRank:
    """A feature's rank and the features G (all of lower rank) given which it is monotone."""

    rank: int
    given: tuple[str, ...] = ()


@dataclass(frozen=True)
class Certificate:
    """`ranks` maps feature names to their FeatureRank; `changes` maps each rule to a feature
    whose change it entails."""

    ranks: dict[str, FeatureRank] = field(default_factory=dict)
    changes: dict[Rule, str] = field(default_factory=dict)

    def below(self, name: str) -> tuple[str, ...]:
        """The features ranked strictly below `name`: a rule that entails a change of one of them
        lies outside every context of `name`."""
        rank = self.ranks[name].rank
        return tuple(g for g, other in self.ranks.items() if other.rank < rank)

    def describe(self) -> str:
        """One line: the features by rank, each with its G."""
        parts = []
        for name, rank in sorted(self.ranks.items(), key=lambda item: (item[1].rank, item[0])):
            given = f" given {{{', '.join(rank.given)}}}" if rank.given else ""
            parts.append(f"{name}: {rank.rank}{given}")
        return "; ".join(parts)


def check_certificate(policy: Policy, certificate: Certificate, k: int) -> list[str]:
    """The ways in which `certificate` fails to prove `policy` k-stratified; empty if it is valid."""
    rules = policy.rules
    features = {f.name: f for f in policy.features}
    problems = []
    for rule in rules:
        name = certificate.changes.get(rule)
        if name is None:
            problems.append(f"rule {format_rule(policy, rule)} names no feature it changes")
        elif name not in features:
            problems.append(f"rule {format_rule(policy, rule)} names unknown feature {name!r}")
        elif not entails_change(rule, features[name]):
            problems.append(f"rule {format_rule(policy, rule)} does not entail a change of {name!r}")
    mentioned = set().union(*(r.features() for r in rules))
    for name in sorted(mentioned - certificate.ranks.keys()):
        problems.append(f"feature {name!r} appears in a rule but has no rank")
    for name, entry in certificate.ranks.items():
        if name not in features:
            problems.append(f"ranked feature {name!r} is not a feature of the policy")
            continue
        if entry.rank < 0:
            problems.append(f"feature {name!r} has negative rank {entry.rank}")
        if entry.rank == 0 and entry.given:
            problems.append(f"feature {name!r} has rank 0 but a set G")
        if len(entry.given) > k:
            problems.append(f"feature {name!r} is given {len(entry.given)} > k = {k} features")
        lower = [g for g in entry.given if g in features and g in certificate.ranks
                 and certificate.ranks[g].rank < entry.rank]
        if len(lower) != len(entry.given):
            problems.append(f"feature {name!r} is given features not of strictly lower rank")
        elif not monotone_given(settled(rules, [features[g] for g in certificate.below(name) if g in features]),
                                features[name], [features[g] for g in entry.given]):
            what = "monotone" if not entry.given else f"monotone given {{{', '.join(entry.given)}}}"
            problems.append(f"feature {name!r} (rank {entry.rank}) is not {what}")
    return problems
