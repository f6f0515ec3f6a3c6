"""Policy simplification (GENEX paper, section 7): fewer conditions, more unknown effects.

Greedily drop a condition on a numerical feature from a rule, then turn an effect "must not
change" into "may change" (n?, p?), keeping each step only if the policy still excludes every
bad transition and the same termination certificate (ranks and sets G) still proves it
stratified. The result generalizes further than the projected policy, which copies the full
valuation of every example transition.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from stratpol.policy import Change, Kind, Policy, Rule, accepts
from stratpol.termination import Certificate, check_certificate, entails_change

Transition = tuple[Mapping[str, int], Mapping[str, int]]


def simplify_policy(policy: Policy, certificate: Certificate, k: int, bad: Sequence[Transition]) -> Policy:
    """The simplified policy; `bad` are the X- transitions as feature values before and after."""
    kinds = policy.kinds

    def admissible(rules: list[Rule]) -> bool:
        candidate = Policy.of(policy.features, rules)
        changes = {}
        for rule in candidate.rules:
            changed = next((f.name for f in candidate.features if entails_change(rule, f)), None)
            if changed is None:
                return False
            changes[rule] = changed
        if check_certificate(candidate, Certificate(certificate.ranks, changes), k):
            return False
        return not any(accepts(rule, kinds, before, after) for rule in candidate.rules for before, after in bad)

    rules = list(policy.rules)
    for index in range(len(rules)):
        for name, _ in rules[index].conditions:
            if kinds[name] is not Kind.NUMERICAL:
                continue
            rule = rules[index]
            trial = Rule.of({n: v for n, v in rule.conditions if n != name}, rule.effects)
            if admissible(rules[:index] + [trial] + rules[index + 1:]):
                rules[index] = trial
    for index in range(len(rules)):
        for feature in policy.features:
            rule = rules[index]
            if feature.name in rule.effect:
                continue
            trial = Rule.of(rule.conditions, {**rule.effect, feature.name: Change.ANY})
            if admissible(rules[:index] + [trial] + rules[index + 1:]):
                rules[index] = trial
    return Policy.of(policy.features, rules)
