"""Properties of k-stratification and SIEVE over random policies (up to 6 features of mixed kinds
and 10 rules): stratified policies terminate, certificates verify and corrupted ones do not, the
verdict is monotone in k and blind to order, and SIEVE's answers hold on concrete trajectories."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from termination_helpers import assert_real_witness, concrete_cycle, policies

from stratpol.policy import Policy
from stratpol.termination import (
    Certificate,
    FeatureRank,
    check_certificate,
    entails_change,
    monotone,
    monotone_given,
    settled,
    sieve,
    stratification_certificate,
)

MANY = settings(max_examples=1000, deadline=None)
SOME = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@MANY
@given(policies(), st.integers(1, 3))
def test_certificates_verify_and_stratified_policies_terminate(policy, k):
    result = stratification_certificate(policy, k)
    answer = sieve(policy)
    if result.stratified:
        assert check_certificate(policy, result.certificate, k) == []
        assert answer.terminating, answer.cycle   # Theorem 9
    else:
        assert result.rules_without_change or result.unranked
    if result.rules_without_change:
        assert not answer.terminating


@MANY
@given(policies())
def test_a_larger_k_ranks_more_features_no_later(policy):
    before = stratification_certificate(policy, 1)
    for k in (2, 3):
        after = stratification_certificate(policy, k)
        assert set(after.unranked) <= set(before.unranked)
        assert after.stratified or not before.stratified
        if before.stratified:
            for name, rank in after.certificate.ranks.items():
                assert rank.rank <= before.certificate.ranks[name].rank
        before = after


@SOME
@given(policies(), st.randoms(use_true_random=False))
def test_the_verdict_ignores_the_order_of_rules_and_features(policy, rng: random.Random):
    shuffled = Policy.of(rng.sample(policy.features, len(policy.features)), rng.sample(policy.rules, len(policy.rules)))
    for k in (1, 2):
        one, other = stratification_certificate(policy, k), stratification_certificate(shuffled, k)
        assert one.stratified == other.stratified
        assert set(one.unranked) == set(other.unranked)
        assert set(one.rules_without_change) == set(other.rules_without_change)
        if one.stratified:
            assert {n: r.rank for n, r in one.certificate.ranks.items()} == \
                   {n: r.rank for n, r in other.certificate.ranks.items()}
            assert check_certificate(policy, other.certificate, k) == []
    assert sieve(policy).terminating == sieve(shuffled).terminating


@SOME
@given(policies(), st.data())
def test_monotone_given_a_set_stays_monotone_given_a_superset(policy, data):
    features = policy.features
    feature = data.draw(st.sampled_from(features))
    larger = data.draw(st.lists(st.sampled_from(features), unique=True, max_size=4))
    smaller = [g for g in larger if data.draw(st.booleans())]
    if monotone_given(policy.rules, feature, smaller):
        assert monotone_given(policy.rules, feature, larger)


def corruptions(policy: Policy, certificate: Certificate, k: int) -> list[Certificate]:
    """Changes to a valid certificate, each of which must make it invalid."""
    ranks, changes = certificate.ranks, certificate.changes
    names = [f.name for f in policy.features]
    features = {f.name: f for f in policy.features}
    mentioned = set().union(*(r.features() for r in policy.rules))
    out = [replace(certificate, ranks={**ranks, "nowhere": FeatureRank(0)})]
    for rule in policy.rules:
        out.append(replace(certificate, changes={r: f for r, f in changes.items() if r != rule}))
        out += [replace(certificate, changes={**changes, rule: f.name})
                for f in policy.features if not entails_change(rule, f)]
    for name in mentioned:
        out.append(replace(certificate, ranks={n: r for n, r in ranks.items() if n != name}))
    for name, entry in ranks.items():
        others = [n for n in names if n != name]
        if entry.rank == 0 and others:
            out.append(replace(certificate, ranks={**ranks, name: FeatureRank(0, (others[0],))}))
        if entry.rank > 0:
            # not monotone, or it would have rank 0
            out.append(replace(certificate, ranks={**ranks, name: FeatureRank(0)}))
            lower = [features[n] for n, r in ranks.items() if r.rank < entry.rank]
            if not monotone(settled(policy.rules, lower), features[name]):  # else G may go
                out.append(replace(certificate, ranks={**ranks, name: FeatureRank(entry.rank)}))
            for g in entry.given:
                out.append(replace(certificate, ranks={**ranks, g: FeatureRank(entry.rank, ranks[g].given)}))
            if len(others) > k:
                out.append(replace(certificate, ranks={**ranks, name: FeatureRank(entry.rank, tuple(others[:k + 1]))}))
    return out


@SOME
@given(policies(), st.integers(1, 2), st.data())
def test_corrupted_certificates_fail(policy, k, data):
    result = stratification_certificate(policy, k)
    assume(result.stratified)
    bad = data.draw(st.sampled_from(corruptions(policy, result.certificate, k)))
    assert check_certificate(policy, bad, k) != []


@MANY
@given(policies())
def test_sieve_witnesses_repeat_forever_on_concrete_values(policy):
    answer = sieve(policy)
    if not answer.terminating:
        assert_real_witness(policy, answer.cycle)


@settings(max_examples=500, deadline=None)
@given(policies(max_features=3, max_rules=6))
def test_sieve_termination_holds_on_bounded_concrete_graphs(policy):
    # values 0..2 for numericals; a cycle there is an infinite trajectory SIEVE must not miss
    if sieve(policy).terminating:
        assert not concrete_cycle(policy, 2)


@MANY
@given(policies(), st.integers(1, 2))
def test_the_ranking_of_def_8_as_written_is_a_certificate_too(policy, k):
    written = stratification_certificate(policy, k, settled_rules=False)
    if written.stratified:
        assert stratification_certificate(policy, k).stratified
        assert check_certificate(policy, written.certificate, k) == []
