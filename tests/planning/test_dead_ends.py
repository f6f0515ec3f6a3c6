"""Dead ends are reported exactly where a full expansion of the state space finds them."""

from __future__ import annotations

from collections import deque

from helpers import gripper_instance, oneway_instance

from stratpol.planning.dead_ends import Solvability, is_dead_end, solvability


def _alive_states(instance):
    """All reachable states and those from which a goal is reachable (backward closure)."""
    reachable, parents = {instance.initial_state}, {}
    queue = deque(reachable)
    while queue:
        state = queue.popleft()
        for _, target, _ in instance.successors(state):
            parents.setdefault(target, set()).add(state)
            if target not in reachable:
                reachable.add(target)
                queue.append(target)
    alive = {s for s in reachable if instance.is_goal(s)}
    queue = deque(alive)
    while queue:
        for parent in parents.get(queue.popleft(), ()):
            if parent not in alive:
                alive.add(parent)
                queue.append(parent)
    return reachable, alive


def test_dead_ends_match_full_expansion_on_oneway_gripper(oneway):
    instance = oneway_instance(oneway, 2)  # two grippers, one trip: solvable only carrying both
    reachable, alive = _alive_states(instance)
    assert 0 < len(alive) < len(reachable)  # the domain really has dead ends
    for state in reachable:
        expected = Solvability.ALIVE if state in alive else Solvability.DEAD_END
        assert solvability(instance, state) is expected, state


def test_gripper_has_no_dead_ends(gripper):
    instance = gripper_instance(gripper, 2)
    reachable, alive = _alive_states(instance)
    assert reachable == alive
    assert not any(is_dead_end(instance, state) for state in reachable)


def test_a_limit_gives_unknown_not_dead_end(oneway, gripper):
    instance = gripper_instance(gripper, 8)
    assert solvability(instance, instance.initial_state, state_limit=3) is Solvability.UNKNOWN
    assert not is_dead_end(instance, instance.initial_state, state_limit=3)
