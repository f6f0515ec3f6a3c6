"""Policy simplification: conditions dropped and effects loosened only while X- and the
termination certificate allow it."""

from __future__ import annotations

from stratpol.learning.simplification import simplify_policy
from stratpol.policy.text import format_policy, parse_policy
from stratpol.termination import Certificate, check_certificate, stratification_certificate
from stratpol.termination.certificate import FeatureRank

POLICY = parse_policy("""numerical n0 = n_count(c_primitive(a,0))
numerical n1 = n_count(c_primitive(b,0))
numerical n2 = n_count(c_primitive(d,0))
boolean b0 = b_empty(c_primitive(c,0))

{n0 > 0, n1 = 0, b0} -> {n0 down}
{n0 = 0, n1 > 0, not b0} -> {n1 down, n2 down, b0}
""")
# n2 ranked above n0, n1 and b0: a rule that changes one of those may change n2 at will;
# every other feature is monotone on its own (rank 0)
RANKS = {"n0": FeatureRank(0), "n1": FeatureRank(0), "b0": FeatureRank(0), "n2": FeatureRank(1, ("n0",))}


def _rules(policy):
    return format_policy(policy).split("\n\n", 1)[1].strip().splitlines()


def test_conditions_are_dropped_and_effects_loosened_while_the_certificate_holds():
    simplified = simplify_policy(POLICY, Certificate(RANKS), 1, [])
    # both rules change a feature of rank 0, below n2's rank: neither lies in a context of n2
    assert _rules(simplified) == ["{} -> {n0 down, n2?}", "{} -> {n1 down, n2?, b0}"]
    changes = {rule: name for rule, name in zip(simplified.rules, ["n0", "n1"])}
    assert check_certificate(simplified, Certificate(RANKS, changes), 1) == []


def test_without_the_rank_above_n0_no_effect_is_loosened():
    certified = stratification_certificate(POLICY, k=1)
    simplified = simplify_policy(POLICY, certified.certificate, 1, [])
    assert _rules(simplified) == ["{} -> {n0 down}", "{} -> {n1 down, n2 down, b0}"]


def test_a_bad_transition_keeps_the_condition_that_excludes_it():
    bad = [({"n0": 3, "n1": 2, "n2": 0, "b0": 1}, {"n0": 2, "n1": 2, "n2": 0, "b0": 1})]  # n0 falls, n1 > 0
    simplified = simplify_policy(POLICY, Certificate(RANKS), 1, bad)
    assert not POLICY.accepts(*bad[0]) and not simplified.accepts(*bad[0])
    assert _rules(simplified)[0] == "{n1 = 0} -> {n0 down, n2?}"


def test_a_change_becomes_unknown_in_a_rule_that_changes_a_feature_of_lower_rank():
    policy = parse_policy("""numerical n0 = n_count(c_primitive(a,0))
numerical n1 = n_count(c_primitive(b,0))

{n0 > 0} -> {n0 down, n1 up}
{n1 > 0} -> {n1 down}
""")
    ranks = {"n0": FeatureRank(0), "n1": FeatureRank(1, ("n0",))}
    simplified = simplify_policy(policy, Certificate(ranks), 1, [])
    # the first rule may now change n1 either way (it changes n0, of lower rank, so it lies
    # outside n1's contexts); n0 must not become unknown in the second rule (n0 is rank 0)
    assert _rules(simplified) == ["{} -> {n0 down, n1?}", "{} -> {n1 down}"]


def test_keep_raise_conditions_keeps_the_zero_a_raising_rule_was_learned_from():
    # transport's pick-up: raise the loaded count n1 only where none is loaded; n0 falls on a drop
    policy = parse_policy("""numerical n0 = n_count(c_primitive(a,0))
numerical n1 = n_count(c_primitive(b,0))

{n0 > 0, n1 = 0} -> {n1 up}
{n0 > 0, n1 > 0} -> {n0 down, n1 down}
""")
    ranks = {"n0": FeatureRank(0), "n1": FeatureRank(1, ("n0",))}
    plain = simplify_policy(policy, Certificate(ranks), 1, [])
    kept = simplify_policy(policy, Certificate(ranks), 1, [], keep_raise_conditions=True)
    assert _rules(plain)[0] == "{} -> {n1 up}"
    # n0 > 0 goes (the rule does not raise n0), n1 = 0 stays; the falling rule loses both
    assert _rules(kept) == ["{n1 = 0} -> {n1 up}", "{} -> {n0 down, n1?}"]
    before, after = {"n0": 2, "n1": 1}, {"n0": 2, "n1": 2}  # a second load
    assert plain.accepts(before, after) and not kept.accepts(before, after)
