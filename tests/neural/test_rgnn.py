"""The R-GNN on relational batches: shapes, renaming invariance, batching, the smooth maximum."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F
from helpers import blocks_instance, gripper_instance
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.generation import domain_folder
from neural.encoding import StateEncoder, action_relation, goal_relation
from neural.policies import GNNPolicy
from neural.rgnn import (ONE_EXP_MISH_FROM, Mish, RelationalGNN, RGNNConfig, _apply_mlp, _apply_norm,
                                  _one_exp_mish, _smooth_maximum)


def _model(encoder: StateEncoder, head: str, seed: int = 0) -> RelationalGNN:
    torch.manual_seed(seed)
    return RelationalGNN(RGNNConfig(encoder.relations, head, hidden=8, layers=4)).eval()


def test_schema_has_goal_and_action_relations(gripper):
    relations = StateEncoder(gripper, actions=True).relations
    assert relations["at"] == 2 and relations["ball"] == 1  # types are unary relations
    assert relations[goal_relation("at", True)] == 2 and relations[goal_relation("at", False)] == 2
    assert relations[action_relation("pick")] == 4  # the action node and pick's three arguments
    assert not any(name.startswith("action:") for name in StateEncoder(gripper, actions=False).relations)


def test_batch_layout(gripper):
    instance = gripper_instance(gripper, 3)
    state = instance.initial_state
    actions = instance.applicable_actions(state)
    batch = StateEncoder(gripper, actions=True).encode([(state, actions), (state, actions[:2])])
    objects = len(instance.objects)
    assert batch.graphs == 2 and batch.node_count == 2 * objects + len(actions) + 2
    assert batch.action_counts == [len(actions), 2]
    assert batch.object_nodes.tolist() == list(range(objects)) + list(range(objects + len(actions),
                                                                            2 * objects + len(actions)))
    # all three goal atoms are unachieved initially: 3 atoms of arity 2 per state
    assert batch.relations[goal_relation("at", False)].numel() == 2 * 3 * 2
    assert goal_relation("at", True) not in batch.relations


def test_value_and_q_shapes(gripper):
    instance = gripper_instance(gripper, 2)
    successors = instance.successors(instance.initial_state)
    value = StateEncoder(gripper, actions=False)
    values = _model(value, "value")(value.encode([(s.state, ()) for s in successors]))
    assert values.shape == (len(successors),)
    q = StateEncoder(gripper, actions=True)
    actions = [s.action for s in successors]
    assert _model(q, "q")(q.encode([(instance.initial_state, actions)])).shape == (len(actions),)


def _renamed(text: str, names: dict[str, str]) -> str:
    return re.sub(r"\b(" + "|".join(map(re.escape, names)) + r")\b", lambda m: names[m.group(1)], text)


@pytest.mark.parametrize("head", ["value", "q"])
def test_renaming_objects_changes_nothing(head):
    folder = domain_folder("blocksworld")
    instance = blocks_instance(folder.domain, 5, seed=3)
    names = {name: f"z{len(instance.objects) - number}" for number, name in enumerate(instance.objects)}
    renamed = folder.domain.instance_from_text(_renamed(instance.text, names))
    assert set(renamed.objects) == set(names.values())
    encoder = StateEncoder(folder.domain, actions=head == "q")
    model = _model(encoder, head)
    state, twin = instance.initial_state, renamed.initial_state
    actions = instance.applicable_actions(state)
    twin_actions = [renamed.action(a.name, [names[x] for x in a.args]) for a in actions]
    with torch.no_grad():
        first = model(encoder.encode([(state, actions)]))
        second = model(encoder.encode([(twin, twin_actions)]))
    assert torch.allclose(first, second, atol=1e-5)


def test_a_batch_gives_what_single_states_give(gripper):
    instance = gripper_instance(gripper, 3)
    states = [s.state for s in instance.successors(instance.initial_state)]
    encoder = StateEncoder(gripper, actions=True)
    model = _model(encoder, "q")
    items = [(s, instance.applicable_actions(s)) for s in states]
    with torch.no_grad():
        together = model(encoder.encode(items))
        alone = torch.cat([model(encoder.encode([item])) for item in items])
    assert torch.allclose(together, alone, atol=1e-5)


def test_smooth_maximum_is_close_to_the_maximum():
    messages = torch.tensor([[1.0, -2.0], [3.0, -1.0], [0.5, 0.5]])
    targets = torch.tensor([0, 0, 1])
    result = _smooth_maximum(messages, targets, 2, beta=12.0)
    assert torch.allclose(result, torch.tensor([[3.0, -1.0], [0.5, 0.5]]), atol=0.01)
    assert (result[0] >= torch.tensor([3.0, -1.0])).all()  # never below the hard maximum


def test_the_smooth_maximum_without_autograd_is_the_same_to_the_bit():
    # without autograd it works in the messages' own memory: the values must not change
    generator = torch.Generator().manual_seed(0)
    messages = torch.randn(500, 8, generator=generator) * 10
    targets = torch.randint(0, 40, (500,), generator=generator)
    expected = _smooth_maximum(messages, targets, 40, beta=12.0)
    with torch.no_grad():
        assert torch.equal(_smooth_maximum(messages.clone(), targets, 40, beta=12.0), expected.detach())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False, width=32), min_size=1, max_size=64))
def test_the_one_exp_mish_is_torchs_mish(values):
    x = torch.tensor(values + [-200.0, -88.0, -20.0, 0.0, 19.9, 20.0, 20.1, 1e4])
    assert torch.allclose(_one_exp_mish(x), F.mish(x), rtol=2e-6, atol=1e-37)


def test_mish_takes_the_one_exp_form_only_without_autograd_on_large_tensors():
    x = torch.linspace(-30.0, 30.0, ONE_EXP_MISH_FROM)
    with torch.no_grad():
        assert torch.equal(Mish()(x), _one_exp_mish(x)) and torch.equal(Mish()(x[:-1]), F.mish(x[:-1]))
    assert torch.equal(Mish()(x), F.mish(x))


@pytest.mark.parametrize("rows", [3, ONE_EXP_MISH_FROM])  # torch's mish kernel, then the one-exp form
def test_the_forward_pass_computes_what_the_modules_compute(gripper, rows):
    # the forward pass calls the MLPs' and the norm's functions, not the modules: the same values
    # to the bit, with autograd (training) and without (decisions)
    model = _model(StateEncoder(gripper, actions=True), "q")
    x = torch.randn(rows, 16, generator=torch.Generator().manual_seed(1))
    for grad in (True, False):
        with torch.set_grad_enabled(grad):
            assert torch.equal(_apply_mlp(model.update, x), model.update(x))
            assert torch.equal(_apply_norm(model.norm, x[:, :8]), model.norm(x[:, :8]))


@pytest.mark.parametrize("chunk_nodes", [1, 40, 10**6])
def test_a_value_decision_in_chunks_scores_what_one_pass_scores(chunk_nodes, monkeypatch):
    folder = domain_folder("blocksworld")
    instance = blocks_instance(folder.domain, 9, seed=4)
    state = instance.initial_state
    successors = instance.successors(state)
    encoder = StateEncoder(folder.domain, actions=False)
    policy = GNNPolicy(_model(encoder, "value"), encoder)
    with torch.no_grad():
        one_pass = policy.model(encoder.encode([(s.state, ()) for s in successors]))
    monkeypatch.setattr("neural.policies.CHUNK_NODES", chunk_nodes)
    monkeypatch.setattr("neural.policies.MIN_CHUNK_STATES", 1)
    scores = policy.scores(state, successors)
    assert scores.shape == (len(successors),)
    assert torch.allclose(scores, one_pass + 1.0, atol=1e-5)  # blocksworld's actions cost 1


@pytest.mark.parametrize("head", ["value", "q"])
def test_decisions_made_together_score_and_choose_as_each_alone(head):
    # run_together asks a GNN policy once a step for all runs: one forward pass (V: chunks of it)
    # over every state, whose scores are each decision's own up to the last bits (other matmul shapes)
    from stratpol.evaluation.runner import run_together

    folder = domain_folder("blocksworld")
    instances = [blocks_instance(folder.domain, blocks, seed=blocks) for blocks in (4, 6, 9)]
    encoder = StateEncoder(folder.domain, actions=head == "q")
    policy = GNNPolicy(_model(encoder, head, seed=2), encoder)
    states = [instance.initial_state for instance in instances]
    successors = [sorted(instance.successors(state), key=lambda s: str(s.action))
                  for instance, state in zip(instances, states)]
    alone = [policy.scores(state, of_state) for state, of_state in zip(states, successors)]
    together = policy.scores_together(list(zip(states, successors)))
    assert [len(s) for s in together] == [len(s) for s in successors]
    assert all(torch.allclose(a, b, atol=1e-5) for a, b in zip(alone, together))
    blocked = {s.state for s in successors[1]}  # every successor of the second state excluded
    chosen = policy.choose_together([(policy.controller(instance), state, blocked)
                                     for instance, state in zip(instances, states)])
    assert chosen[1] is None
    for index in (0, 2):
        allowed = [s.state not in blocked for s in successors[index]]
        best = min(score for score, ok in zip(alone[index].tolist(), allowed) if ok)
        picked = successors[index].index(chosen[index])
        assert allowed[picked] and alone[index][picked].item() <= best + 1e-5

    class Counting(GNNPolicy):
        def choose_together(self, decisions):
            calls.append(len(decisions))
            return super().choose_together(decisions)

    calls: list[int] = []
    outcomes = run_together(Counting(policy.model, encoder), instances, step_bound=12)
    assert calls[0] == 3 and len(outcomes) == 3 and all(o.steps <= 12 for o in outcomes)


def test_a_scaling_evaluation_decides_a_groups_runs_together(tmp_path):
    # with runs_together = 3 a network policy is asked once a step for the pending runs of a group of
    # three; each run keeps its own index and result, and its seconds are its share of the group's
    # time, so that the seconds of a size's runs add up to what the size took, as runs made alone do
    from stratpol.evaluation.scaling import ScalingSettings, read_runs, scaling_evaluation

    folder = domain_folder("gripper")
    encoder = StateEncoder(folder.domain, actions=True)
    calls: list[int] = []

    class Counting(GNNPolicy):
        def choose_together(self, decisions):
            calls.append(len(decisions))
            return super().choose_together(decisions)

    policy = Counting(_model(encoder, "q", seed=1), encoder)
    settings = ScalingSettings(plan_length_bound=10, max_size=7, max_runs_per_size=6, tau=0.01, runs_together=3)
    result = scaling_evaluation(policy, folder, settings, out=tmp_path)
    assert max(calls) == 3 and [m.runs for m in result.sizes] == [6, 6, 6]
    runs = read_runs(tmp_path)
    assert sorted((r.size, r.index) for r in runs) == [(size, index) for size in (5, 6, 7) for index in range(6)]
    for measured in result.sizes:
        assert sum(r.seconds for r in runs if r.size == measured.size) <= measured.seconds
    alone = scaling_evaluation(GNNPolicy(policy.model, encoder), folder, dataclasses.replace(settings, runs_together=1))
    assert [(m.size, m.coverage, m.mean_plan_length) for m in alone.sizes] == \
        [(m.size, m.coverage, m.mean_plan_length) for m in result.sizes]


def test_a_batch_is_the_same_whatever_the_string_hash_seed():
    # states hold their atoms in sets, which iterate by string hash: the encoder sorts them, so that
    # the order of the additions in message passing, and so a training run, repeat exactly
    script = ("from stratpol.generation import domain_folder\n"
              "from neural.encoding import StateEncoder\n"
              "ferry = domain_folder('ferry')\n"
              "instance = ferry.domain.instance_from_text(ferry.generator(cars=4, locations=3, seed=1))\n"
              "batch = StateEncoder(ferry.domain, actions=False).encode([(instance.initial_state, ())])\n"
              "print({name: ids.tolist() for name, ids in sorted(batch.relations.items())})\n")
    outputs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outputs) == 1
