"""The plan cache that the learner's teacher and the neural teachers share."""

from __future__ import annotations

import pytest
from helpers import gripper_instance

from stratpol.learning.teacher import Teacher
from neural import data
from stratpol.planning.plan_cache import Outcome, PlanCache
from stratpol.planning.planners import planner


def test_plans_dead_ends_and_unsolved_starts_round_trip(gripper, tmp_path):
    instance = gripper_instance(gripper, 2)
    cache, start = PlanCache(tmp_path), instance.initial_state
    assert cache.get(instance, start, "siw") is None
    plan = planner("siw")(instance).plan
    cache.put(instance, start, "siw", Outcome.PLAN, plan, len(plan))
    assert cache.get(instance, start, "siw").plan == tuple(plan)
    cache.put(instance, start, "gbfs", Outcome.UNSOLVED)
    assert cache.get(instance, start, "gbfs").outcome is Outcome.UNSOLVED
    assert PlanCache(None).get(instance, start, "siw") is None


def test_a_plan_the_teacher_found_serves_the_neural_teacher(gripper, tmp_path, monkeypatch):
    instance = gripper_instance(gripper, 2)
    advice = Teacher("astar-lmcut", cache_dir=tmp_path).advise(instance)

    def no_planner(name):
        raise AssertionError("the plan should come from the cache")

    monkeypatch.setattr(data, "planner", no_planner)
    trajectory = data.optimal_trajectory(instance, "astar-lmcut", heuristics=False, cache_dir=tmp_path)
    assert trajectory.states == advice.states and len(trajectory.plan) == 5


@pytest.mark.parametrize("outcome", [Outcome.DEAD_END, Outcome.UNSOLVED])
def test_a_start_without_a_plan_is_remembered(gripper, tmp_path, outcome, monkeypatch):
    instance = gripper_instance(gripper, 2)
    PlanCache(tmp_path).put(instance, instance.initial_state, "astar-lmcut", outcome)
    monkeypatch.setattr(data, "planner", lambda name: pytest.fail("asked the planner"))
    assert data.optimal_trajectory(instance, "astar-lmcut", heuristics=False, cache_dir=tmp_path) is None
