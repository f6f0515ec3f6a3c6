"""From the features GENEX chose to the policy WRAPPER verifies: pi(G, X+), its termination
certificate, and its simplification under that certificate."""

from __future__ import annotations

from stratpol.learning.genex import GenexResult
from stratpol.learning.hitting_set import LearningExamples
from stratpol.learning.projection import choice_certificate, projected_policy, transition_values
from stratpol.learning.simplification import simplify_policy
from stratpol.policy import Policy
from stratpol.termination import check_certificate, stratification_certificate


def genex_policy(examples: LearningExamples, result: GenexResult, lexicographic: bool, simplify: bool = True,
                 keep_raise_conditions: bool = False) -> Policy:
    """The projected policy of `result`, simplified (where asked) under the ranking GENEX chose:
    the order chosen, one feature to a rank, for `lexicographic_genex`; Def. 8 as written for
    GENEX's chains, which guarantee it. `keep_raise_conditions`: see `simplify_policy`."""
    policy = projected_policy(examples, result.features, result.ranks)
    if lexicographic:  # the order chosen, one feature to a rank: simplification may do the most
        certificate = choice_certificate(examples, policy, result.features, result.ranks, result.links)
        problems = check_certificate(policy, certificate, 1)
    else:
        # ranked as Def. 8 is written: the ranks spread wider than the checker's own, so
        # simplification may make more effects unknown
        certified = stratification_certificate(policy, k=1, settled_rules=False)
        certificate, problems = certified.certificate, [] if certified.stratified else [certified.describe()]
    if problems:  # a bug guard
        raise RuntimeError(f"GENEX returned a policy that is not stratified: {problems[0]}")
    if not simplify:
        return policy
    return simplify_policy(policy, certificate, 1, transition_values(examples, policy, examples.bad.tolist()),
                           keep_raise_conditions)
