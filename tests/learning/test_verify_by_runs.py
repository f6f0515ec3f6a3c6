"""Training instances too large to verify are tested by seeded runs: a run that fails is a witness
like verification's, and the result says which instances were verified and which tested."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import stratpol
from stratpol.features import Vocabulary
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.learning.result import LearningFailure
from stratpol.learning.settings import LearningSettings
from stratpol.verification import Failure, verify, verify_by_runs

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "domains" / "gripper" / "instances"  # gripper-2, -4, -6, -10
GOLDEN = ROOT / "tests" / "data" / "golden" / "gripper.policy"


@pytest.fixture(scope="module")
def gripper():
    domain = stratpol.domain("gripper")
    return domain, stratpol.read_policy(GOLDEN, domain)


def _compatible(policy, instance):
    return PolicyEvaluator(policy, Vocabulary(instance.domain)).on(instance).compatible_successors


def test_runs_of_a_policy_that_solves_the_instance_all_reach_the_goal(gripper):
    domain, policy = gripper
    instance = domain.load_instance(INSTANCES / "gripper-10.pddl")
    verdict = verify_by_runs(instance, _compatible(policy, instance), runs=5, seed=3)
    assert verdict.solved and verdict.runs == 5 and 0 < verdict.states < verify(instance, _compatible(policy, instance)).states
    assert verdict == verify_by_runs(instance, _compatible(policy, instance), runs=5, seed=3)  # seeded
    assert verdict.to_json()["tested_by_runs"] == 5 and "solved in 5 of 5 runs" in verdict.describe()


def test_a_failing_run_is_a_witness_from_the_initial_state(gripper):
    domain, policy = gripper
    without_drops = dataclasses.replace(policy, rules=policy.rules[:-1])  # no rule drops a ball where it belongs
    instance = domain.load_instance(INSTANCES / "gripper-4.pddl")
    verdict = verify_by_runs(instance, _compatible(without_drops, instance), runs=5)
    assert not verdict.solved and verdict.failure is Failure.NOT_CLOSED
    assert verdict.witness[0] == instance.initial_state and len(verdict.witness) > 1
    successors = {s.state for s in instance.successors(verdict.witness[-2])}
    assert verdict.witness[-1] in successors  # a real trajectory


def test_learning_tests_the_instances_past_the_state_limit_by_runs(tmp_path):
    settings = LearningSettings(verify_states=1000, verify_runs=10)
    learned = stratpol.learn("gripper", [INSTANCES], settings, cache=tmp_path)
    runs = {v.instance: v.runs for v in learned.verifications}
    assert runs == {"gripper-10.pddl": 10, "gripper-6.pddl": 0, "gripper-4.pddl": 0, "gripper-2.pddl": 0}
    assert all(v.solved for v in learned.verifications)
    assert learned.describe_verification() == ("verified on 3 training instances and tested by 10 runs on 1 with "
                                               "too many states to verify (gripper-10.pddl)")
    assert learned.certificate.stratified


def test_without_runs_the_state_limit_stops_learning_as_the_paper(tmp_path):
    settings = LearningSettings(verify_states=1000, verify_runs=0)
    with pytest.raises(LearningFailure, match="gripper-10.pddl: verification passed 1,000 policy-reachable states"):
        stratpol.learn("gripper", [INSTANCES], settings, cache=tmp_path)
