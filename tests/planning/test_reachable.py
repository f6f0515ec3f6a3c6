"""States reached breadth-first from several initial states, one per class of renamed states."""

from __future__ import annotations

import pytest

from stratpol.generation import domain_folder
from stratpol.planning.reachable import reachable_states
from stratpol.planning.symmetry import canonical_key

# a 2x3 sliding puzzle: tile t1 has a goal, t2-t5 are interchangeable, so a state up to renaming
# is where t1 and the blank are: 6 x 5 = 30 classes, all reachable (the 2x3 grid has a cycle)
_PUZZLE = """(define (problem puzzle-{name})
  (:domain n-puzzle-typed)
  (:objects p11 p12 p13 p21 p22 p23 - position t1 t2 t3 t4 t5 - tile)
  (:init {placement}
    (neighbor p11 p12) (neighbor p12 p11) (neighbor p12 p13) (neighbor p13 p12)
    (neighbor p21 p22) (neighbor p22 p21) (neighbor p22 p23) (neighbor p23 p22)
    (neighbor p11 p21) (neighbor p21 p11) (neighbor p12 p22) (neighbor p22 p12)
    (neighbor p13 p23) (neighbor p23 p13))
  (:goal (at t1 {goal})))"""


def _puzzle(name: str, tiles: str, goal: str = "p11"):
    """`tiles`: the tile numbers of p11 p12 p13 p21 p22 p23, 0 for the blank."""
    cells = ["p11", "p12", "p13", "p21", "p22", "p23"]
    placement = " ".join(f"(empty {c})" if t == "0" else f"(at t{t} {c})" for c, t in zip(cells, tiles))
    text = _PUZZLE.format(name=name, placement=placement, goal=goal)
    return domain_folder("8puzzle-1tile").domain.instance_from_text(text, name)


def test_one_state_per_class_of_renamed_states_nearest_first():
    instance = _puzzle("a", "123450")
    found = reachable_states([instance], 1000)
    assert len(found) == 30
    assert found[0] == (0, instance.initial_state)
    key = canonical_key(instance)
    assert len({key(state) for _, state in found}) == 30
    first = reachable_states([instance], 4)
    assert first == found[:4]
    successors = {s.state for s in instance.successors(instance.initial_state)}  # the blank at p23 has two
    assert {state for _, state in first[1:3]} == successors and first[3][1] not in successors


def test_instances_of_one_task_share_their_classes_and_known_classes_are_left_out():
    one, other = _puzzle("a", "123450"), _puzzle("b", "012345")
    shared = reachable_states([one, other], 1000)
    assert len(shared) == 30
    assert [number for number, _ in shared[:2]] == [0, 1]  # both initial states, in instance order
    left = reachable_states([one, other], 1000, known=[(1, other.initial_state)])
    assert len(left) == 29 and (1, other.initial_state) not in left
    another_goal = _puzzle("c", "012345", goal="p23")
    assert len(reachable_states([one, another_goal], 1000)) == 60  # another task: its own classes
    with pytest.raises(ValueError, match="at least 1"):
        reachable_states([one], 0)
