"""States a set of instances reaches: breadth-first from all their initial states at once.

A feature pool generated on plan states only keeps one of two features that agree there, though
they may differ on the states a policy walks into later. Where the instances are small (a finite
training set such as the 8-puzzle's, one task up to its initial state), the pool can be generated
on the states they reach instead, one per class of renamed states (`canonical_key`) and one per
such class across instances that are the same task but for the initial state.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence

from stratpol.planning.symmetry import canonical_key
from stratpol.planning.task import Instance, State


def reachable_states(instances: Sequence[Instance], limit: int,
                     known: Iterable[tuple[int, State]] = ()) -> list[tuple[int, State]]:
    """Up to `limit` states reached from the initial states of `instances`, nearest first (ties in
    instance order), as (instance number, state): one per class of renamed states of a task, and
    none of the class of a `known` one (such as a plan's)."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    tasks: dict[Hashable, int] = {}  # a number for each task, as instances with the same objects, statics and goal
    keys = [_state_key(instance, tasks) for instance in instances]
    skipped = {keys[number](state) for number, state in known}
    seen: set[Hashable] = set()
    found: list[tuple[int, State]] = []
    frontier: deque[tuple[int, State]] = deque()

    def visit(number: int, state: State) -> None:
        key = keys[number](state)
        if key not in seen:
            seen.add(key)
            if key not in skipped:
                found.append((number, state))
            frontier.append((number, state))

    for number, instance in enumerate(instances):
        visit(number, instance.initial_state)
    while frontier and len(found) < limit:
        number, state = frontier.popleft()
        for successor in instances[number].successors(state):
            visit(number, successor.state)
    return found[:limit]


def _state_key(instance: Instance, tasks: dict[Hashable, int]) -> Callable[[State], Hashable]:
    """A key equal for two states (of this instance or of another with the same objects, static
    atoms and goal: the same number in `tasks`) that are the same up to renaming."""
    task = tasks.setdefault((instance.objects, instance.static_atoms, instance.goal), len(tasks))
    renamed = canonical_key(instance)
    if renamed is None:
        return lambda state: (task, state.atoms)
    return lambda state: (task, renamed(state))
