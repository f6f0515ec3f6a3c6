"""The policy's fast path (pymimir's evaluator, lazy cheapest-first feature evaluation,
compiled rules, lazily made successors, values kept across actions that change no predicate
a feature reads) against dlplan's own evaluation and `accepts`, on random
states of several domains."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import random_walk
from dlplan.core import State as DlplanState
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.evaluation import RulePolicy, run
from stratpol.features import Vocabulary
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.features.pool import parse_feature
from stratpol.generation import domain_folder
from stratpol.generation.sampling import sample_instances
from stratpol.policy.text import read_policy

POLICIES = Path(__file__).parents[2] / "experiments" / "results" / "policies" / "gp2024"
OPTIMAL_TEACHER = POLICIES.parent / "optimal-teacher"
# domain -> (policy file, generated size): learned policies with features of every kind
CASES = {
    "ferry": ("ferry.policy", 12),
    "reward": ("reward.policy", 20),
    "delivery": ("delivery.policy", 14),
    "8puzzle-1tile": ("8puzzle-1tile.policy", 17),
    "blocks4ops-clear": ("blocks4ops-clear.policy", 8),
    "spanner-1nut": ("spanner-1nut.policy", 12),
    "childsnack": ("childsnack-gluten-free.policy", 14),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request):
    name = request.param
    file, size = CASES[name]
    folder = domain_folder(name)
    policy = read_policy(POLICIES / file)
    vocabulary = Vocabulary(folder.domain)
    (generated,) = sample_instances(folder, size, 1, seed=3)
    instance = folder.domain.instance_from_text(generated.text)
    elements = [parse_feature(vocabulary, f.kind, f.description).element for f in policy.features]
    return policy, vocabulary, instance, elements


def _dlplan_values(policy, elements, bridge, state) -> dict[str, int]:
    """dlplan's values, the state spelled out atom by atom."""
    indices = [bridge.info.add_atom(p, list(args)).get_index() for p, args in sorted(state.atoms)]
    dlplan_state = DlplanState(state.index, bridge.info, indices)
    return {f.name: int(e.evaluate(dlplan_state)) for f, e in zip(policy.features, elements)}


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 25))
def test_fast_path_agrees_with_dlplan_on_random_states(case, seed, steps):
    policy, vocabulary, instance, elements = case
    evaluator = PolicyEvaluator(policy, vocabulary)
    assert evaluator.dlplan_features == []  # pymimir evaluates them all
    on_instance = evaluator.on(instance)
    state = random_walk(instance, steps, seed)
    expected = _dlplan_values(policy, elements, on_instance._bridge, state)
    compatible = {s.state for s in on_instance.compatible_successors(state)}  # lazy, partial rows first
    assert on_instance.values(state) == expected
    for successor in instance.successors(state):
        target = _dlplan_values(policy, elements, on_instance._bridge, successor.state)
        assert (successor.state in compatible) == policy.accepts(expected, target), successor.action
        # values a transition leaves alone were copied from the source, not evaluated
        assert on_instance.values(successor.state) == target, successor.action


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 25))
def test_the_dlplan_backend_agrees_with_dlplan_state_after_state(case, seed, steps):
    # it evaluates a state's features on one denotation cache (shared sub-expressions computed
    # once), a new cache for each state
    policy, vocabulary, instance, elements = case
    on_instance = PolicyEvaluator(policy, vocabulary, backend="dlplan").on(instance)
    state = random_walk(instance, steps, seed)
    for successor in [None, *instance.successors(state)]:
        target = state if successor is None else successor.state
        assert on_instance.values(target) == _dlplan_values(policy, elements, on_instance._bridge, target)


def test_a_run_takes_the_first_compatible_successor_in_name_order(case):
    policy, vocabulary, instance, _ = case
    controller = RulePolicy(policy, vocabulary, tie_break="first").controller(instance)
    on_instance = PolicyEvaluator(policy, vocabulary).on(instance)
    state = instance.initial_state
    compatible = sorted(on_instance.compatible_successors(state), key=lambda s: str(s.action))
    chosen = controller.choose(state)
    assert chosen == (compatible[0] if compatible else None)
    excluded = controller.choose(state, exclude={chosen.state}) if chosen else None
    assert excluded == (compatible[1] if len(compatible) > 1 else None)


def _rule_order_agrees_with_dlplan(policy, vocabulary, instance, elements, seed, steps) -> None:
    """The lazy pass (rules after the best so far never checked) against every successor's
    accepting rules, found by dlplan's values, on a random state."""
    on_instance = PolicyEvaluator(policy, vocabulary).on(instance)
    state = random_walk(instance, steps, seed)
    actions = sorted(instance.applicable_actions(state), key=str)
    source = _dlplan_values(policy, elements, on_instance._bridge, state)
    ranked = []  # (earliest accepting rule, action order) per compatible successor
    for order, action in enumerate(actions):
        target = _dlplan_values(policy, elements, on_instance._bridge, instance.apply(state, action)[0])
        accepting = policy.accepting_rules(source, target)
        if accepting:
            ranked.append((policy.rules.index(accepting[0]), order))
    chosen = on_instance.first_by_rule_order(state, actions)
    assert (chosen.action if chosen else None) == (actions[min(ranked)[1]] if ranked else None)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 25))
def test_rule_order_takes_the_first_successor_of_the_earliest_rule_that_accepts_one(case, seed, steps):
    _rule_order_agrees_with_dlplan(*case, seed, steps)


@pytest.fixture(scope="module")
def gripper_from_optimal_plans():
    folder = domain_folder("gripper")
    policy = read_policy(OPTIMAL_TEACHER / "gripper.policy")
    vocabulary = Vocabulary(folder.domain)
    instance = folder.domain.instance_from_text(folder.generator(balls=7))
    return policy, vocabulary, instance, [parse_feature(vocabulary, f.kind, f.description).element
                                          for f in policy.features]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 25))
def test_rule_order_where_the_rules_overlap(gripper_from_optimal_plans, seed, steps):
    # with a ball in hand in rooma the policy accepts both a second pick (its second rule) and the
    # move (its third), and "move" comes first by name
    _rule_order_agrees_with_dlplan(*gripper_from_optimal_plans, seed, steps)


def test_in_rule_order_the_gripper_policy_always_carries_two_balls(gripper_from_optimal_plans):
    # its plans are then optimal (3 trips with two balls, one with the seventh: 21 steps); by name
    # it leaves with one ball each time (4 steps a ball, less the last move back)
    policy, vocabulary, instance, _ = gripper_from_optimal_plans
    steps = {tie_break: run(RulePolicy(policy, vocabulary, tie_break), instance, 100).steps
             for tie_break in ("first", "rule-order")}
    assert steps == {"first": 27, "rule-order": 21}


CONSTRUCTORS = [  # every dlplan constructor the pymimir translation knows, on blocks
    "n_count(c_diff(c_primitive(clear,0),c_primitive(clear_g,0)))",
    "n_count(r_diff(r_transitive_reflexive_closure(r_primitive(on,0,1)),r_primitive(on,0,1)))",
    "n_count(c_or(c_primitive(holding,0),c_projection(r_primitive(on,0,1),1)))",
    "n_count(r_compose(r_primitive(on,0,1),r_inverse(r_primitive(on,0,1))))",
    "n_count(r_and(r_top,r_not(r_primitive(on,1,0))))",
    "n_count(c_subset(r_primitive(on,0,1),r_primitive(on_g,0,1)))",
    "n_count(r_identity(c_primitive(clear,0)))",
    "n_count(r_restrict(r_or(r_primitive(on,0,1),r_primitive(on_g,0,1)),c_primitive(clear,0)))",
    "n_count(c_and(c_all(r_primitive(on,0,1),c_bot),c_not(c_top)))",
    "n_count(c_some(r_primitive(on,0,1),c_primitive(on,1)))",
    "n_concept_distance(c_primitive(clear,0),r_primitive(on,0,1),c_primitive(on-table,0))",
    "n_concept_distance(c_primitive(holding,0),r_primitive(on,0,1),c_primitive(on-table,0))",
    "n_role_distance(r_primitive(on,0,1),r_or(r_primitive(on,0,1),r_inverse(r_primitive(on,0,1))),r_restrict(r_top,c_primitive(clear_g,0)))",
    "n_role_distance(r_identity(c_primitive(clear,0)),r_primitive(on,0,1),r_restrict(r_top,c_primitive(on-table,0)))",
    "n_role_distance(r_identity(c_primitive(holding,0)),r_primitive(on,0,1),r_primitive(on_g,0,1))",
    "n_sum_role_distance(r_primitive(on,0,1),r_primitive(on,0,1),r_restrict(r_top,c_primitive(on-table,0)))",
    "n_sum_role_distance(r_identity(c_primitive(clear,0)),r_primitive(on,0,1),r_restrict(r_top,c_primitive(clear_g,0)))",
    "n_sum_role_distance(r_identity(c_primitive(clear,0)),r_primitive(on,0,1),r_restrict(r_top,c_primitive(on-table,0)))",
    "b_empty(c_primitive(holding,0))",
    "b_nullary(arm-empty)",
]


@pytest.mark.parametrize("description", CONSTRUCTORS)
def test_every_translated_constructor_agrees_with_dlplan(description):
    from stratpol.policy import Feature, Kind, Policy

    folder = domain_folder("blocks4ops-clear")
    vocabulary = Vocabulary(folder.domain)
    kind = Kind.BOOLEAN if description.startswith("b_") else Kind.NUMERICAL
    policy = Policy.of([Feature("f", kind, description)], [])
    evaluator = PolicyEvaluator(policy, vocabulary)
    assert evaluator.dlplan_features == []
    element = parse_feature(vocabulary, kind, description).element
    (generated,) = sample_instances(folder, 7, 1, seed=5)
    instance = folder.domain.instance_from_text(generated.text)
    on_instance = evaluator.on(instance)
    for seed in range(8):
        state = random_walk(instance, 3 * seed, seed)
        assert on_instance.values(state) == _dlplan_values(policy, [element], on_instance._bridge, state)


# role distances whose roads and targets pymimir's translation reads row by row as the search asks:
# a fixed role (adjacent, the goal's at_g) read once, restricted by a concept or composed
ROWS = [
    "n_role_distance(r_primitive(at,0,1),r_restrict(r_primitive(adjacent,0,1),c_not(c_some(r_inverse(r_primitive(at,0,1)),c_primitive(package,0)))),r_compose(r_primitive(carrying,0,1),r_primitive(at_g,0,1)))",
    "n_role_distance(r_primitive(at,0,1),r_primitive(adjacent,0,1),r_compose(r_restrict(r_primitive(at_g,0,1),c_not(c_some(r_inverse(r_primitive(at,0,1)),c_primitive(truck,0)))),r_inverse(r_primitive(adjacent,0,1))))",
]


def test_role_distances_read_row_by_row_agree_with_dlplan():
    from stratpol.policy import Feature, Kind, Policy

    folder = domain_folder("delivery")
    vocabulary = Vocabulary(folder.domain)
    policy = Policy.of([Feature(f"n{i}", Kind.NUMERICAL, d) for i, d in enumerate(ROWS)], [])
    evaluator = PolicyEvaluator(policy, vocabulary)
    assert evaluator.dlplan_features == []
    elements = [parse_feature(vocabulary, Kind.NUMERICAL, d).element for d in ROWS]
    (generated,) = sample_instances(folder, 14, 1, seed=3)
    instance = folder.domain.instance_from_text(generated.text)
    on_instance = evaluator.on(instance)
    seen = []
    for seed in range(10):
        state = random_walk(instance, 3 * seed, seed)
        seen.append(on_instance.values(state))
        assert seen[-1] == _dlplan_values(policy, elements, on_instance._bridge, state)
    assert all(len({values[f"n{i}"] for values in seen}) >= 3 for i in range(len(ROWS)))  # not constant


def test_a_feature_reads_the_fluent_predicates_of_its_primitives():
    from stratpol.features.expression import fluent_predicates_read

    domain = domain_folder("ferry").domain
    assert domain.effect_predicates["sail"] == {"at-ferry"}
    assert domain.effect_predicates["board"] == {"at", "on", "empty-ferry"}
    # at_g is the goal copy, location a type: fixed within an instance
    read = fluent_predicates_read("n_count(c_and(c_equal(r_primitive(at,0,1),r_primitive(at_g,0,1)),"
                                  "c_some(r_primitive(at,0,1),c_primitive(at-ferry,0))))", domain)
    assert read == {"at", "at-ferry"}
    assert fluent_predicates_read("b_nullary(empty-ferry)", domain) == {"empty-ferry"}
    assert fluent_predicates_read("n_count(c_primitive(location,0))", domain) == frozenset()
    assert fluent_predicates_read("n_count(c_primitive(unknown,0))", domain) is None
