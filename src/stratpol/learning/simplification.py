"""Policy simplification (GENEX paper, section 7): fewer conditions, more unknown effects.

Greedily drop a condition from a rule, then turn an effect ("must not change", or a change
such as n down) into "may change" (n?, p?), keeping each step only if the policy still
excludes every bad transition and the same termination certificate (ranks and sets G) still
proves it stratified. The result generalizes further than the projected policy, which copies
the full valuation of every example transition.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import product

from stratpol.policy import Change, Kind, Policy, Rule, accepts
from stratpol.termination import Certificate, check_certificate, entails_change
from stratpol.termination.monotonicity import joint_context, may_decrease, may_increase, settled

Transition = tuple[Mapping[str, int], Mapping[str, int]]


def simplify_policy(policy: Policy, certificate: Certificate, k: int, bad: Sequence[Transition],
                    keep_raise_conditions: bool = False) -> Policy:
    """The simplified policy; `bad` are the X- transitions as feature values before and after.

    A step changes one rule, so it is checked on that rule alone: the rule must entail a change,
    mention only ranked features and accept no bad transition, and every ranked feature must stay
    monotone in each context of its G, kept as counts of the rules that may raise or lower it
    there. The result is checked against the certificate once at the end.

    With `keep_raise_conditions`, a rule keeps its condition (n = 0 or n > 0) on a numerical
    feature n it raises. The projected rule copies the valuation of the example steps it covers:
    n = 0 there means every such step raised n from 0, and dropping it lets the rule raise n
    further, which no example did (transport: pick up a package only when none is loaded, so that
    the loaded vehicle and the goal a distance joins belong together). X- rarely holds such a
    step, so the plain simplification drops the condition."""
    kinds = policy.kinds
    features = {f.name: f for f in policy.features}
    ranked = certificate.ranks.keys()
    contexts = [(features[name], tuple(features[g] for g in rank.given), values)
                for name, rank in certificate.ranks.items()
                for values in product((False, True), repeat=len(rank.given))]
    lower = [tuple(features[g] for g in certificate.below(f.name)) for f, _, _ in contexts]

    known: dict[Rule, Counter] = {}  # a rule's moves, asked again for each trial edit of it

    def moves(rule: Rule) -> Counter:
        """(context, +1 / -1) for each context of a ranked feature where `rule` may raise / lower it."""
        found = known.get(rule)
        if found is None:
            found = known[rule] = Counter()
            for number, (feature, given, values) in enumerate(contexts):
                if settled((rule,), lower[number]) and joint_context((rule,), tuple(zip(given, values))):
                    found[number, 1] += may_increase(rule, feature)
                    found[number, -1] += may_decrease(rule, feature)
        return found

    def violates(counts: Counter) -> bool:
        """Whether some ranked feature may both rise and fall in one context of its G."""
        return any(counts[number, 1] and counts[number, -1] for number in range(len(contexts)))

    rules = list(policy.rules)
    counts = sum((moves(rule) for rule in rules), Counter())
    if violates(counts) or any(policy.accepts(before, after) for before, after in bad):
        return policy  # no step can repair a policy the certificate or X- rejects already

    def try_replace(index: int, trial: Rule) -> None:
        nonlocal counts
        if not any(entails_change(trial, f) for f in policy.features) or not trial.features() <= ranked:
            return
        if any(accepts(trial, kinds, before, after) for before, after in bad):
            return
        updated = counts - moves(rules[index]) + moves(trial)
        if not violates(updated):
            rules[index], counts = trial, updated

    # numerical conditions before Boolean ones, and the effects of the highest-ranked features
    # first. The published runs drop numerical conditions only; Boolean ones too make the rules
    # closed on more states (logistics-1truck: 1 / 27 iterations instead of 4 / 81)
    by_rank = sorted(policy.features, key=lambda f: -certificate.ranks[f.name].rank if f.name in ranked else 0)
    for index in range(len(rules)):
        conditions = sorted(rules[index].conditions, key=lambda c: kinds[c[0]] is Kind.BOOLEAN)
        for name, _ in conditions:
            rule = rules[index]
            if keep_raise_conditions and rule.effect.get(name) is Change.UP:
                continue
            try_replace(index, Rule.of({n: v for n, v in rule.conditions if n != name}, rule.effects))
    for index in range(len(rules)):
        for feature in by_rank:
            rule = rules[index]
            if rule.effect.get(feature.name) is not Change.ANY:
                try_replace(index, Rule.of(rule.conditions, {**rule.effect, feature.name: Change.ANY}))
    simplified = Policy.of(policy.features, rules)
    changes = {rule: next(f.name for f in policy.features if entails_change(rule, f)) for rule in simplified.rules}
    problems = check_certificate(simplified, Certificate(certificate.ranks, changes), k)
    if problems:  # the counts above decide as the certificate does; this guards against a bug
        raise RuntimeError(f"simplification broke the termination certificate: {problems[0]}")
    return simplified
