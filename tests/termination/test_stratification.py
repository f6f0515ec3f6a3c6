"""The staged k-stratification checker and the certificate verifier on hand-made cases."""

from __future__ import annotations

from dataclasses import replace

import pytest
from termination_helpers import GRIPPER, policy

from stratpol.policy import Feature, Kind, Policy
from stratpol.termination import Certificate, FeatureRank, check_certificate, stratification_certificate

R1, R2, R3, R4 = GRIPPER.rules
VALID = stratification_certificate(GRIPPER).certificate


def test_rules_that_entail_no_change_are_reported():
    lazy = policy("""
    boolean p
    numerical n
    {n > 0} -> {n?}
    {} -> {p}
    {p} -> {not p, n down}
    """)
    result = stratification_certificate(lazy)
    assert not result.stratified
    assert result.rules_without_change == lazy.rules[:2]
    assert result.unranked == ("p", "n")
    assert result.describe() == ("not 1-stratified; rules entailing no change: {n > 0} -> {n?}; {} -> {p};"
                                 " features without rank: p, n")


def test_features_in_no_rule_get_rank_0_and_need_no_rank():
    extended = Policy.of([*GRIPPER.features, Feature("idle", Kind.NUMERICAL), Feature("seen", Kind.BOOLEAN)],
                         [*GRIPPER.rules, policy("boolean seen\n{seen} -> {}").rules[0]])
    result = stratification_certificate(extended)
    # `seen` is only tested; the rule {seen} -> {} changes nothing
    assert not result.stratified and result.rules_without_change == (extended.rules[-1],)
    without = Policy.of(extended.features, GRIPPER.rules)
    certificate = stratification_certificate(without).certificate
    assert certificate.ranks["idle"] == certificate.ranks["seen"] == FeatureRank(0)
    assert check_certificate(without, VALID, 1) == []


def test_the_empty_policy_is_stratified():
    result = stratification_certificate(Policy.of([Feature("x", Kind.NUMERICAL)], []))
    assert result.stratified and result.certificate == Certificate({"x": FeatureRank(0)}, {})


def test_k_must_be_positive():
    with pytest.raises(ValueError, match="positive"):
        stratification_certificate(GRIPPER, k=0)


def test_larger_k_does_not_lower_the_stage_structure():
    chain = policy("""
    numerical x
    numerical y
    numerical z
    {x > 0} -> {x down, y?}
    {y > 0} -> {y down, z?}
    {z > 0} -> {z down}
    """)
    for k in (1, 2, 3):
        ranks = stratification_certificate(chain, k=k).certificate.ranks
        assert ranks == {"x": FeatureRank(0), "y": FeatureRank(1, ("x",)), "z": FeatureRank(2, ("y",))}


def ranks(**changes: FeatureRank) -> dict[str, FeatureRank]:
    return {**VALID.ranks, **changes}


@pytest.mark.parametrize("certificate, message", [
    (replace(VALID, changes={**VALID.changes, R2: "A"}), "{m > 0} -> {m down} does not entail a change of 'A'"),
    (replace(VALID, changes={**VALID.changes, R1: "m"}), "does not entail a change of 'm'"),  # m? is no change
    (replace(VALID, changes={R1: "n", R2: "m", R3: "A"}), "{not A, m = 0} -> {A} names no feature it changes"),
    (replace(VALID, changes={**VALID.changes, R1: "q"}), "names unknown feature 'q'"),
    (replace(VALID, ranks=ranks(A=FeatureRank(0))), "feature 'A' (rank 0) is not monotone"),
    (replace(VALID, ranks=ranks(A=FeatureRank(2, ("n",)))), "feature 'A' (rank 2) is not monotone given {n}"),
    (replace(VALID, ranks=ranks(A=FeatureRank(1, ()))), "feature 'A' (rank 1) is not monotone"),
    (replace(VALID, ranks=ranks(m=FeatureRank(2, ("n",)))), "'A' is given features not of strictly lower rank"),
    (replace(VALID, ranks=ranks(A=FeatureRank(2, ("m", "n")))), "is given 2 > k = 1 features"),
    (replace(VALID, ranks=ranks(n=FeatureRank(0, ("m",)))), "'n' has rank 0 but a set G"),
    (replace(VALID, ranks=ranks(n=FeatureRank(-1))), "negative rank"),
    (replace(VALID, ranks=ranks(q=FeatureRank(0))), "'q' is not a feature of the policy"),
    (replace(VALID, ranks={n: r for n, r in VALID.ranks.items() if n != "m"}), "'m' appears in a rule but has no rank"),
])
def test_verifier_finds_each_corruption(certificate, message):
    assert check_certificate(GRIPPER, VALID, 1) == []
    problems = check_certificate(GRIPPER, certificate, 1)
    assert any(message in problem for problem in problems), problems


def test_verifier_accepts_other_valid_rankings():
    # ranks need not be the checker's: any ranking with strictly lower G is a proof
    spread = replace(VALID, ranks={"n": FeatureRank(0), "m": FeatureRank(3, ("n",)), "A": FeatureRank(7, ("m",))})
    assert check_certificate(GRIPPER, spread, 1) == []
    assert check_certificate(GRIPPER, replace(VALID, ranks=ranks(A=FeatureRank(2, ("m", "n")))), 2) == []
