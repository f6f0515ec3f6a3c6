"""Writing a problem whose initial state is a given state."""

from __future__ import annotations

from helpers import blocks_instance, gripper_instance, oneway_instance, random_walk

from stratpol.planning.problem_writer import problem_with_initial_state


def test_state_round_trips_through_pddl(gripper, blocksworld):
    for instance in (gripper_instance(gripper, 3), blocks_instance(blocksworld, 5, seed=3)):
        for seed in range(5):
            state = random_walk(instance, 7, seed)
            copy = instance.domain.instance_from_text(problem_with_initial_state(instance, state))
            assert copy.initial_state.atoms == state.atoms
            assert copy.goal == instance.goal
            assert copy.static_atoms == instance.static_atoms


def test_typed_objects_and_constants_are_kept(oneway):
    instance = oneway_instance(oneway, 2)
    moved = instance.successors(instance.initial_state)
    state = next(s.state for s in moved if s.action.name == "move-to-b")
    text = problem_with_initial_state(instance, state)
    assert "(:objects left right - gripper ball1 ball2 - ball)" in text
    copy = oneway.instance_from_text(text)
    assert copy.initial_state.atoms == state.atoms
    assert ("at-robby", ("roomb",)) in copy.initial_state.atoms  # roomb is a domain constant
