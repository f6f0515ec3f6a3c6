"""A run's progress towards the goal: the most goal literals met and when, and whether it stalled."""

from __future__ import annotations

import pytest

from stratpol.evaluation.goal_progress import GoalProgress, goal_progress
from stratpol.generation import domain_folder


@pytest.fixture
def gripper():
    folder = domain_folder("gripper")
    return folder.domain.instance_from_text(folder.generator(balls=2))


def test_progress_counts_the_goal_literals_met_and_the_first_step_meeting_most(gripper):
    steps = [("pick", "ball1", "rooma", "left"), ("pick", "ball2", "rooma", "right"), ("move", "rooma", "roomb"),
             ("drop", "ball1", "roomb", "left"), ("move", "roomb", "rooma"), ("move", "rooma", "roomb")]
    plan = [gripper.action(name, args) for name, *args in steps]
    assert gripper.fluent_goal_count == 2 and gripper.fluent_goals_met(gripper.initial_state) == 0
    # ball1 is in room b from step 4 on; the two moves after it gain nothing
    assert goal_progress(gripper, plan) == GoalProgress(steps=6, goals=2, most_met=1, most_met_at=4)
    assert goal_progress(gripper, plan[:5]) == GoalProgress(5, 2, 1, 4)
    assert goal_progress(gripper, []) == GoalProgress(0, 2, 0, 0)


def test_a_run_stalled_where_it_met_no_more_goal_literals_in_its_second_half():
    assert GoalProgress(steps=8, goals=2, most_met=1, most_met_at=4).stalled  # nothing gained in steps 5-8
    assert not GoalProgress(steps=8, goals=2, most_met=1, most_met_at=5).stalled
    assert GoalProgress(steps=8, goals=2, most_met=0, most_met_at=0).stalled  # nothing gained at all
    assert not GoalProgress(steps=0, goals=2, most_met=0, most_met_at=0).stalled  # no steps: no run to judge
