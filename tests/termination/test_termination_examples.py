"""The GENEX paper's examples and the two separating examples of section 5.2, judged by both the
k-stratification checker and SIEVE."""

from __future__ import annotations

import pytest
from termination_helpers import GRIPPER, policy, realize

from stratpol.termination import FeatureRank, check_certificate, sieve, stratification_certificate

BLOCKS_CLEAR = policy("""
boolean H
numerical n
{not H, n > 0} -> {H, n down}
{H} -> {not H}
""")

# putting the block back may increase n: pick and put the same block above the target forever
BLOCKS_CLEAR_BAD = policy("""
boolean H
numerical n
{not H, n > 0} -> {H, n down}
{H} -> {not H, n?}
""")

# a and b only decrease (rank 0). p goes up only where a > 0 and b = 0 and down only where a > 0
# and b > 0 or where a = b = 0. Given a alone, sigma(a, 1) holds both the rise and the first fall;
# given b alone, sigma(b, 0) holds the rise and the second fall; given {a, b} each of the four
# contexts holds at most one of the three rules, so p has rank 1 with G = {a, b}. Every cycle would
# need a or b to rise, so the policy terminates.
TWO_NOT_ONE = policy("""
numerical a
numerical b
boolean p
{a > 0} -> {a down}
{b > 0} -> {b down}
{not p, a > 0, b = 0} -> {p}
{p, a > 0, b > 0} -> {not p}
{p, a = 0, b = 0} -> {not p}
""")

# Both bits rise and fall, so neither is monotone and there is no rank 0 to build on, for any k
# (a is monotone given b and b given a, a circle). Yet from 00 a step reaches 10 or 01, from 11
# it reaches 01 or 10, and from 01 and 10 no rule applies: every trajectory stops after one step.
NO_K = policy("""
boolean a
boolean b
{not a, not b} -> {a}
{not a, not b} -> {b}
{a, b} -> {not a}
{a, b} -> {not b}
""")


def test_blocks_clear_is_1_stratified_and_terminates():
    result = stratification_certificate(BLOCKS_CLEAR, k=1)
    assert result.stratified
    assert result.certificate.ranks == {"n": FeatureRank(0), "H": FeatureRank(1, ("n",))}
    pick, put = BLOCKS_CLEAR.rules
    assert result.certificate.changes == {pick: "H", put: "H"}
    assert check_certificate(BLOCKS_CLEAR, result.certificate, 1) == []
    assert sieve(BLOCKS_CLEAR).terminating
    assert result.describe() == "1-stratified; ranks n: 0; H: 1 given {n}"


def test_blocks_clear_with_n_unknown_is_neither():
    for k in (1, 2):
        result = stratification_certificate(BLOCKS_CLEAR_BAD, k=k)
        assert not result.stratified and result.certificate is None
        assert set(result.unranked) == {"H", "n"} and result.rules_without_change == ()
    answer = sieve(BLOCKS_CLEAR_BAD)
    assert not answer.terminating
    pick, put = BLOCKS_CLEAR_BAD.rules
    assert [rule for _, rule in answer.cycle] == [pick, put]
    assert [valuation for valuation, _ in answer.cycle] == [{"H": False, "n": True}, {"H": True, "n": False}]
    values = realize(BLOCKS_CLEAR_BAD, answer.cycle)
    assert values == [{"H": 0, "n": 1}, {"H": 1, "n": 0}, {"H": 0, "n": 1}]


def test_gripper_has_the_papers_ranking():
    result = stratification_certificate(GRIPPER, k=1)
    assert result.stratified
    assert result.certificate.ranks == {
        "n": FeatureRank(0), "m": FeatureRank(1, ("n",)), "A": FeatureRank(2, ("m",))}
    r1, r2, r3, r4 = GRIPPER.rules
    assert result.certificate.changes == {r1: "n", r2: "m", r3: "A", r4: "A"}
    assert check_certificate(GRIPPER, result.certificate, 1) == []
    assert sieve(GRIPPER).terminating


def test_two_stratified_but_not_one():
    one = stratification_certificate(TWO_NOT_ONE, k=1)
    assert not one.stratified and one.unranked == ("p",)
    two = stratification_certificate(TWO_NOT_ONE, k=2)
    assert two.stratified
    assert two.certificate.ranks == {"a": FeatureRank(0), "b": FeatureRank(0), "p": FeatureRank(1, ("a", "b"))}
    assert check_certificate(TWO_NOT_ONE, two.certificate, 2) == []
    assert check_certificate(TWO_NOT_ONE, two.certificate, 1) != []   # |G| = 2 > k
    assert sieve(TWO_NOT_ONE).terminating


# x and y only decrease (rank 0); z rises only where y falls and may change where x falls. As
# Def. 8 is written, z is monotone given neither x nor y (given x, the y-rule and the z-rule raise
# and lower it; given y, the x-rule and the z-rule) but given {x, y}. Here the x- and y-rules
# entail changes of features of rank 0, so z need only be monotone over the z-rule: rank 1, k = 1.
LEXICOGRAPHIC_TEXT = """
numerical x
numerical y
numerical z
{x > 0} -> {x down, z?}
{y > 0} -> {y down, z up}
{z > 0} -> {z down}
"""
LEXICOGRAPHIC = policy(LEXICOGRAPHIC_TEXT)


def test_rules_changing_a_lower_rank_lie_outside_the_contexts_of_higher_ranks():
    result = stratification_certificate(LEXICOGRAPHIC, k=1)
    assert result.stratified
    assert result.certificate.ranks == {"x": FeatureRank(0), "y": FeatureRank(0), "z": FeatureRank(1, ("x",))}
    assert check_certificate(LEXICOGRAPHIC, result.certificate, 1) == []
    assert sieve(LEXICOGRAPHIC).terminating
    # as Def. 8 is written, z needs both x and y
    assert not stratification_certificate(LEXICOGRAPHIC, k=1, settled_rules=False).stratified
    written = stratification_certificate(LEXICOGRAPHIC, k=2, settled_rules=False)
    assert written.certificate.ranks["z"] == FeatureRank(1, ("x", "y"))
    assert check_certificate(LEXICOGRAPHIC, written.certificate, 2) == []
    # the same policy with the y-rule allowed to raise x can cycle: x is no longer of rank 0
    cycling = policy(LEXICOGRAPHIC_TEXT.replace("{y down, z up}", "{y down, x up, z up}")
                     .replace("{x down, z?}", "{x down, y up, z?}"))
    assert not stratification_certificate(cycling, k=3).stratified and not sieve(cycling).terminating


@pytest.mark.parametrize("k", [1, 2, 3])
def test_terminating_but_not_k_stratified(k):
    result = stratification_certificate(NO_K, k=k)
    assert not result.stratified and result.unranked == ("a", "b") and result.rules_without_change == ()
    assert sieve(NO_K).terminating


def test_no_k_policy_really_stops_after_one_step():
    states = [{"a": a, "b": b} for a in (0, 1) for b in (0, 1)]
    moves = {(s["a"], s["b"], t["a"], t["b"]) for s in states for t in states if NO_K.accepts(s, t)}
    assert moves == {(0, 0, 1, 0), (0, 0, 0, 1), (1, 1, 0, 1), (1, 1, 1, 0)}
