"""Interchangeable objects and blocks: swapping two of them keeps the static atoms and the goal."""

from __future__ import annotations

import itertools

from stratpol.generation import domain_folder
from stratpol.planning.symmetry import canonical_key, interchangeable_blocks, interchangeable_objects


def _instance(domain: str, **arguments):
    folder = domain_folder(domain)
    return folder.domain.instance_from_text(folder.generator(**arguments))


def test_cars_and_tents_of_hiking_are_interchangeable_couples_swap_with_their_persons():
    # a couple swaps only together with its two persons (partners couple guy girl): no transposition
    instance = _instance("hiking", couples=2, cars=3, places=3)
    assert set(interchangeable_objects(instance)) == {("car0", "car1", "car2"), ("tent0", "tent1")}
    assert set(interchangeable_blocks(instance)) == {
        (("car0",), ("car1",), ("car2",)), (("tent0",), ("tent1",)),
        (("couple0", "guy0", "girl0"), ("couple1", "guy1", "girl1"))}


def test_the_blocks_do_not_depend_on_the_order_of_the_objects():
    text = domain_folder("hiking").generator(couples=3, cars=1, places=2)
    persons = " guy0 girl0 guy1 girl1 guy2 girl2 - person\n"
    assert persons in text  # persons declared first: guy0 leads a class before couple0 takes it along
    reordered = text.replace(persons, "").replace("(:objects\n", "(:objects\n" + persons)
    instance = domain_folder("hiking").domain.instance_from_text(reordered)
    assert instance.objects[0] == "guy0"
    assert set(interchangeable_blocks(instance)) == {
        (("tent0",), ("tent1",), ("tent2",)),
        (("guy0", "couple0", "girl0"), ("guy1", "couple1", "girl1"), ("guy2", "couple2", "girl2"))}
    assert set(interchangeable_blocks(domain_folder("hiking").domain.instance_from_text(text))) == {
        (("tent0",), ("tent1",), ("tent2",)),
        (("couple0", "guy0", "girl0"), ("couple1", "guy1", "girl1"), ("couple2", "guy2", "girl2"))}


def test_the_keys_of_all_hiking_states_are_their_classes_under_the_permutations_of_blocks():
    """Every reachable state of hiking with 2 couples, cars and places; its orbits under the 8
    permutations of the blocks (by brute force) are what the keys tell apart, no more, no less."""
    instance = _instance("hiking", couples=2, cars=2, places=2)
    reached, frontier = {instance.initial_state}, [instance.initial_state]
    while frontier:
        for successor in instance.successors(frontier.pop()):
            if successor.state not in reached:
                reached.add(successor.state)
                frontier.append(successor.state)
    classes = interchangeable_blocks(instance)
    renamings = []
    for order in itertools.product(*(itertools.permutations(members) for members in classes)):
        renamings.append({o: p for members, images in zip(classes, order)
                          for block, image in zip(members, images) for o, p in zip(block, image)})

    def orbit(state):
        return min(sorted((p, tuple(r.get(a, a) for a in args)) for p, args in state.atoms) for r in renamings)

    key = canonical_key(instance)
    orbits = {}
    for state in reached:
        orbits.setdefault(key(state), set()).add(tuple(orbit(state)))
    assert len(reached) == 4004 and len(renamings) == 8
    assert all(len(found) == 1 for found in orbits.values())  # one key, one orbit: sound
    assert len({o for found in orbits.values() for o in found}) == len(orbits) == 1034  # and complete here


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
