"""Decoding: a model trained on a handful of Gripper plans decodes valid plans, also as an evaluation policy."""

from __future__ import annotations

import json
import pickle

import pytest

from stratpol.errors import InputError
from stratpol.evaluation.runner import run
from stratpol.generation import domain_folder
from neural.wl import load_decoder, load_wl_policy, read_config
from neural.wl.decoder import step_cap
from stratpol.planning.plans import validate_plan
from stratpol.provenance import model_hash, path_hash


def _gripper(balls: int):
    folder = domain_folder("gripper")
    return folder.domain.instance_from_text(folder.generator(balls=balls))


def test_xgb_delta_decodes_valid_plans_on_unseen_instances(wl_trained):
    decoder = load_decoder(wl_trained("xgb", "delta"))
    for balls in (3, 5, 7):  # 3 and 5 interpolate between the training sizes, 7 is one ball beyond
        instance = _gripper(balls)
        result = decoder.decode(instance)
        assert result.solved, f"{balls} balls"
        check = validate_plan(instance, result.plan)
        assert check.valid, check.reason
        assert len(result.plan) <= step_cap(instance)


@pytest.mark.parametrize("model,mode", [("xgb", "state"), ("lstm", "state"), ("lstm", "delta")])
def test_every_decoded_path_is_executable(wl_trained, model, mode):
    decoder = load_decoder(wl_trained(model, mode))
    instance = _gripper(4)
    result = decoder.decode(instance, max_steps=30)
    assert len(result.plan) == result.steps or result.solved
    state = instance.initial_state
    for step in result.path:  # each step is a real successor of the state before it
        assert step in instance.successors(state)
        state = step.state
    assert result.solved == instance.is_goal(state)
    if result.solved:
        assert validate_plan(instance, result.plan).valid


def test_decoding_is_deterministic_and_survives_reloading(wl_trained):
    folder = wl_trained("lstm", "delta")
    instance = _gripper(5)
    first = load_decoder(folder).decode(instance, max_steps=40)
    second = load_decoder(folder).decode(instance, max_steps=40)
    assert first.plan == second.plan


def test_the_policy_runs_under_the_evaluation_protocol_and_pickles(wl_trained):
    policy = load_wl_policy(wl_trained("xgb", "delta"))
    assert policy.name == "wl-xgb-delta"
    instance = _gripper(5)
    outcome = run(policy, instance, step_bound=100)
    assert outcome.solved, outcome.failure
    copy = pickle.loads(pickle.dumps(policy))
    assert run(copy, _gripper(5), step_bound=100).plan == outcome.plan


def test_a_folder_without_a_model_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="wl-model.json"):
        load_wl_policy(tmp_path)
    (tmp_path / "wl-model.json").write_text('{"model": "forest", "mode": "delta"}')
    with pytest.raises(InputError, match="not a WL model"):
        read_config(tmp_path)


def test_a_model_trained_again_is_the_same_model(wl_trained, wl_train, tmp_path):
    # its seconds go to training.json, which model_hash leaves out: a grid's evaluation of the first
    # training resumes with the second
    first, again = wl_trained("xgb", "delta"), tmp_path / "again"
    report = wl_train("xgb", "delta", again)
    assert json.loads((again / "training.json").read_text())["seconds"] == report.seconds
    assert "seconds" not in read_config(first).fit
    assert model_hash(first) == model_hash(again) and path_hash(first) != path_hash(again)
