"""The policy graph and SIEVE on small hand-made policies."""

from __future__ import annotations

import pytest
from termination_helpers import assert_real_witness, policy

from stratpol.policy import Change, Feature, Kind, Policy, Rule
from stratpol.termination import Edge, edge_count, policy_graph, sieve


def edges(text: str) -> set[tuple[int, int, int, int, int]]:
    graph = policy_graph(policy(text))
    return {(e.source, e.target, e.rule, e.increases, e.decreases) for e in graph.edges}


def test_numerical_effects_in_the_graph():
    # nodes are bitmasks: bit 0 is n
    assert edges("numerical n\n{} -> {n down}") == {(1, 0, 0, 0, 1), (1, 1, 0, 0, 1)}
    assert edges("numerical n\n{} -> {n up}") == {(0, 1, 0, 1, 0), (1, 1, 0, 1, 0)}
    assert edges("numerical n\n{} -> {n?}") == {(0, 0, 0, 0, 0), (0, 1, 0, 1, 0), (1, 0, 0, 0, 1), (1, 1, 0, 1, 1)}
    assert edges("numerical n\n{n = 0} -> {n down}") == set()


def test_boolean_effects_and_unmentioned_features():
    # bit 0 is p, bit 1 is n; n is not in the effect, so its valuation stays
    assert edges("boolean p\nnumerical n\n{n > 0} -> {p}") == {(2, 3, 0, 0, 0), (3, 3, 0, 0, 0)}
    assert edges("boolean p\nnumerical n\n{n > 0} -> {p?}") == {
        (2, 2, 0, 0, 0), (2, 3, 0, 0, 0), (3, 2, 0, 0, 0), (3, 3, 0, 0, 0)}


def test_edge_count_is_exact():
    for text in ["numerical n\n{} -> {n?}", "boolean p\nnumerical n\n{n > 0} -> {p?}\n{p} -> {n down}"]:
        graph = policy_graph(policy(text))
        assert edge_count(policy(text), graph.features) == len(graph.edges)


def test_valuations_and_features_of_the_graph():
    text = "boolean p\nnumerical n\nnumerical unused\n{p} -> {not p}"
    graph = policy_graph(policy(text))
    assert [f.name for f in graph.features] == ["p"]   # features in no rule never change
    assert graph.valuation(1) == {"p": True}
    assert graph.edges == (Edge(1, 0, 0, 0, 0),)


def test_feature_guard():
    many = [Feature(f"x{i}", Kind.NUMERICAL) for i in range(17)]
    with pytest.raises(ValueError, match="at most 16 features"):
        sieve(Policy.of(many, [Rule.of({}, {f.name: Change.DOWN for f in many})]))
    unknown = Policy.of(many, [Rule.of({}, {f.name: Change.ANY for f in many})])
    with pytest.raises(ValueError, match="edges"):  # 4^17 edges: each n? has 4 (source, target) pairs
        sieve(unknown, max_features=17)
    touching_one = Policy.of(many, [Rule.of({"x0": True}, {"x0": Change.DOWN})])
    assert sieve(touching_one).terminating


def test_decreasing_counter_terminates_and_a_loop_does_not():
    assert sieve(policy("numerical n\n{n > 0} -> {n down}")).terminating
    up_and_down = policy("numerical n\n{n > 0} -> {n down}\n{} -> {n up}")
    answer = sieve(up_and_down)
    assert not answer.terminating
    assert_real_witness(up_and_down, answer.cycle)


def test_sieve_needs_more_than_one_round():
    # round 1 drops the x-decreasing edges of the first rule; only then is the remaining self-loop
    # at (x > 0, y > 0) alone in its component, where y only decreases
    two_rounds = policy("""
    numerical x
    numerical y
    {x > 0, y = 0} -> {x down, y up}
    {y > 0} -> {y down}
    """)
    assert sieve(two_rounds).terminating


@pytest.mark.parametrize("text", [
    "numerical n\n{n > 0} -> {n?}",                 # may leave n as it is
    "boolean p\n{} -> {p}",                         # p may stay true
    "boolean p\nnumerical n\n{p} -> {p, n?}",
    "boolean p\nboolean q\n{p} -> {not p, q}\n{q} -> {not q, p}",
])
def test_rules_without_entailed_change_or_boolean_loops_do_not_terminate(text):
    loop = policy(text)
    answer = sieve(loop)
    assert not answer.terminating
    assert_real_witness(loop, answer.cycle)


def test_witness_balances_every_numerical():
    # the shortest cycle x -> y -> x only decreases z; the witness must add the rule raising z
    text = policy("""
    boolean x
    numerical z
    {x} -> {not x, z down}
    {not x} -> {x}
    {not x, z = 0} -> {z up}
    """)
    answer = sieve(text)
    assert not answer.terminating
    assert {rule for _, rule in answer.cycle} == set(text.rules)
    assert_real_witness(text, answer.cycle)
