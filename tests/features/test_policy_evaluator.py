"""The policy's fast path (pymimir's evaluator, lazy cheapest-first feature evaluation,
compiled rules, lazily made successors) against dlplan's own evaluation and `accepts`, on random
states of several domains."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from dlplan.core import State as DlplanState
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.evaluation import RulePolicy
from stratpol.features import Vocabulary
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.features.pool import parse_feature
from stratpol.generation import domain_folder
from stratpol.generation.sampling import sample_instances
from stratpol.policy.text import read_policy

POLICIES = Path(__file__).parents[2] / "experiments" / "results" / "policies" / "gp2024"
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
    rng = random.Random(seed)
    state = instance.initial_state
    for _ in range(steps):
        successors = instance.successors(state)
        if not successors:
            break
        state = rng.choice(successors).state
    expected = _dlplan_values(policy, elements, on_instance._bridge, state)
    compatible = {s.state for s in on_instance.compatible_successors(state)}  # lazy, partial rows first
    assert on_instance.values(state) == expected
    for successor in instance.successors(state):
        target = _dlplan_values(policy, elements, on_instance._bridge, successor.state)
        assert (successor.state in compatible) == policy.accepts(expected, target), successor.action


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
