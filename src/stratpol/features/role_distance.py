"""Distances along roles: dlplan's role distance, and the indexed role distance, where each object
walks its own roads.

dlplan's `n_role_distance(F, R, T)` is, over the objects k, the least distance along R from one of
F(k) to the nearest of T(k). Roads that belong to an agent are a ternary predicate (rovers'
`can_traverse ?rover ?from ?to`), and a description logic sees it only through binary projections:
along `can_traverse_1_2`, every rover's roads together, one rover's way home can first lead away
from home. `n_indexed_role_distance(F, p, T)` lets each object k walk only the roads p(k, ., .):
the same value where all agents share their roads, the agent's own distance where they do not.
dlplan has no such constructor; the feature is ours, evaluated here on dlplan's states (pools,
learning) and on pymimir's (policy runs), and written in dlplan's syntax around a predicate name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from stratpol.features.expression import INDEXED_ROLE_DISTANCE, parse_expression, unparse_expression

DLPLAN_INFINITY = 2**31 - 1  # dlplan's infinite distance (INT32_MAX)

Roads = Callable[[int], Sequence[Sequence[int]]]  # object k -> the successors of each object along k's roads


def role_distance(sources: Sequence[Sequence[int]], roads: Roads, targets: Sequence[Sequence[int]],
                  total: bool = False) -> int:
    """Over the objects k (one successor list per object, as pymimir's role denotations): the
    distance along `roads(k)` from each of k's `sources` to the nearest of k's `targets`; the least
    of them (total: their sum, as dlplan's n_sum_role_distance). A breadth-first search per object
    k (total: per source) stops at the nearest target; dlplan computes all pairwise distances
    (Floyd-Warshall, cubic in the objects: 9 ms a state on a floortile of 116 objects, 1.4 s at
    667)."""
    if not any(sources) or not any(targets):
        return DLPLAN_INFINITY
    result = 0 if total else DLPLAN_INFINITY
    for k, starts in enumerate(sources):
        if not starts:
            continue
        goals = set(targets[k])
        if not total:  # a search need not go as far as the nearest target found so far
            result = min(result, nearest(starts, roads(k), goals, result))
            continue
        for start in starts:
            distance = nearest([start], roads(k), goals)
            if distance == DLPLAN_INFINITY:
                return DLPLAN_INFINITY
            result += distance
    return result


def nearest(starts: Iterable[int], edges: Sequence[Sequence[int]], goals: set[int], bound: int = DLPLAN_INFINITY) -> int:
    """Breadth-first distance from the nearest of `starts` to the nearest of `goals`; infinity
    where it is `bound` or more."""
    frontier = list(starts)
    seen, distance = set(frontier), 0
    while frontier and goals and distance < bound:
        if not goals.isdisjoint(frontier):
            return distance
        distance += 1
        following = []
        for node in frontier:
            for successor in edges[node]:
                if successor not in seen:
                    seen.add(successor)
                    following.append(successor)
        frontier = following
    return DLPLAN_INFINITY


class IndexedRoads:
    """The roads of each object k, p(k, x, y), as successor lists over `count` objects."""

    def __init__(self, triples: Iterable[tuple[int, int, int]], count: int) -> None:
        self._roads: dict[int, list[list[int]]] = {}
        for k, x, y in triples:
            self._roads.setdefault(k, [[] for _ in range(count)])[x].append(y)
        self._none = [()] * count

    def __call__(self, k: int) -> Sequence[Sequence[int]]:
        return self._roads.get(k, self._none)


def is_indexed_role_distance(description: str) -> bool:
    return description.startswith(INDEXED_ROLE_DISTANCE + "(")


def indexed_parts(description: str) -> tuple[str, str, str]:
    """(source role, predicate, target role) of an indexed role distance, the roles in dlplan's syntax."""
    name, arguments = parse_expression(description)
    if name != INDEXED_ROLE_DISTANCE or len(arguments) != 3 or arguments[1][1]:
        raise ValueError(f"{description!r}: expected {INDEXED_ROLE_DISTANCE}(role, predicate, role)")
    source, (predicate, _), target = arguments
    return unparse_expression(source), predicate, unparse_expression(target)


def _successor_lists(pairs: Iterable[tuple[int, int]], count: int) -> list[list[int]]:
    lists: list[list[int]] = [[] for _ in range(count)]
    for a, b in pairs:
        lists[a].append(b)
    return lists


class DlplanIndexedRoleDistance:
    """The indexed role distance as a dlplan numerical element would be (evaluate on one state or
    a batch, complexity, its expression), on dlplan's states: `source` and `target` are dlplan
    roles; the predicate's atoms are read from each state's instance."""

    def __init__(self, source: object, predicate: str, target: object, predicate_index: int, static: bool) -> None:
        self._source, self._target = source, target
        self.predicate = predicate
        self._predicate_index = predicate_index
        self._static = static
        self._static_roads: dict[int, IndexedRoads] = {}  # dlplan instance index -> roads

    def compute_complexity(self) -> int:
        """As dlplan counts a role distance: one for the constructor, one for the predicate's
        primitive, and its two roles'."""
        return 2 + self._source.compute_complexity() + self._target.compute_complexity()

    def __str__(self) -> str:
        return f"{INDEXED_ROLE_DISTANCE}({self._source},{self.predicate},{self._target})"

    def evaluate(self, states, caches=None):
        """The value on a dlplan state, or the list of values on a list of states."""
        if isinstance(states, list):
            sources = self._source.evaluate(states, caches)
            targets = self._target.evaluate(states, caches)
            return [self._value(s, a, b) for s, a, b in zip(states, sources, targets)]
        if caches is None:
            return self._value(states, self._source.evaluate(states), self._target.evaluate(states))
        return self._value(states, self._source.evaluate(states, caches), self._target.evaluate(states, caches))

    def _value(self, state: object, source: object, target: object) -> int:
        count = source.get_num_objects()
        return role_distance(_successor_lists(source.to_vector(), count), self._roads(state, count),
                             _successor_lists(target.to_vector(), count))

    def _roads(self, state: object, count: int) -> IndexedRoads:
        info = state.get_instance_info()
        if self._static:
            roads = self._static_roads.get(info.get_index())
            if roads is None:
                roads = self._static_roads[info.get_index()] = IndexedRoads(
                    self._triples(info.get_static_atoms()), count)
            return roads
        atoms = info.get_atoms()
        return IndexedRoads(self._triples(atoms[i] for i in state.get_atom_indices()), count)

    def _triples(self, atoms: Iterable[object]) -> Iterable[tuple[int, int, int]]:
        for atom in atoms:
            if atom.get_predicate_index() == self._predicate_index:
                yield tuple(atom.get_object_indices())
