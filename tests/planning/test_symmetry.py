"""Interchangeable objects: swapping two of them keeps the static atoms and the goal."""

from __future__ import annotations

from stratpol.generation import domain_folder
from stratpol.planning.symmetry import canonical_key, interchangeable_objects


def _instance(domain: str, **arguments):
    folder = domain_folder(domain)
    return folder.domain.instance_from_text(folder.generator(**arguments))


def test_cars_and_tents_of_hiking_are_interchangeable_couples_are_not():
    # a couple swaps only together with its two persons (partners couple guy girl): no transposition
    assert set(interchangeable_objects(_instance("hiking", couples=2, cars=3, places=3))) == {
        ("car0", "car1", "car2"), ("tent0", "tent1")}


def test_balls_with_the_same_goal_and_the_grippers_of_gripper():
    assert set(interchangeable_objects(_instance("gripper", balls=3))) == {("ball1", "ball2", "ball3"), ("left", "right")}


def test_blocks_with_a_full_goal_state_have_none():
    instance = _instance("blocks3ops", blocks=5, seed=1)
    assert interchangeable_objects(instance) == () and canonical_key(instance) is None


def test_renamed_states_share_a_key_and_others_do_not():
    instance = _instance("gripper", balls=2)
    key = canonical_key(instance)
    start = instance.initial_state
    picks = {str(s.action): s.state for s in instance.successors(start)}
    # picking ball1 with the left gripper or ball2 with the right one: renamings of each other
    assert key(picks["(pick ball1 rooma left)"]) == key(picks["(pick ball2 rooma right)"])
    assert key(picks["(pick ball1 rooma left)"]) != key(start)
