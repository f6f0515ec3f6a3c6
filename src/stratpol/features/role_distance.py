"""Distances along roles: dlplan's role distance, and the indexed role distance, where each object
walks its own roads.

dlplan's `n_role_distance(F, R, T)` is, over the objects k, the least distance along R from one of
F(k) to the nearest of T(k). Roads that belong to an agent are a ternary predicate (rovers'
`can_traverse ?rover ?from ?to`), and a description logic sees it only through binary projections:
along `can_traverse_1_2`, every rover's roads together, one rover's way home can first lead away
from home. `n_indexed_role_distance(F, p, T)` lets each object k walk only the roads p(k, ., .):
the same value where all agents share their roads, the agent's own distance where they do not.
dlplan has no such constructor; the feature is ours (features/own_constructors.py), written in
dlplan's syntax around a predicate name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

DLPLAN_INFINITY = 2**31 - 1  # dlplan's infinite distance (INT32_MAX)

Roads = Callable[[int], Sequence[Sequence[int]] | Mapping[int, Sequence[int]]]  # object k -> successors along k's roads


def role_distance(sources: Sequence[Sequence[int]], roads: Roads, targets: Sequence[Sequence[int]],
                  total: bool = False) -> int:
    """Over the objects k (one successor list per object, as pymimir's role denotations): the
    distance along `roads(k)` from each of k's `sources` to the nearest of k's `targets`; the least
    of them (total: their sum, as dlplan's n_sum_role_distance). A breadth-first search per object
    k (total: per source) stops at the nearest target; dlplan computes all pairwise distances
    (Floyd-Warshall, cubic in the objects: 9 ms a state on a floortile of 116 objects, 1.4 s at
    667)."""
    goals_of = {k: set(targets[k]) for k, starts in enumerate(sources) if starts}  # targets: rows read on demand
    if not any(goals_of.values()):
        return DLPLAN_INFINITY
    result = 0 if total else DLPLAN_INFINITY
    for k, goals in goals_of.items():
        starts = sources[k]
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


class _Successors(dict):
    """Successor lists by object, the objects without successors left out (an own role is sparse:
    a rover's images, a few of the objects)."""

    def __missing__(self, key: int) -> Sequence[int]:
        return ()


class IndexedRoads:
    """The roads of each object k, p(k, x, y): `roads(k)[x]` are the y of k's pairs (x, y)."""

    def __init__(self, triples: Iterable[tuple[int, int, int]]) -> None:
        self._roads: dict[int, _Successors] = {}
        for k, x, y in triples:
            own = self._roads.get(k)
            if own is None:
                own = self._roads[k] = _Successors()
            own.setdefault(x, []).append(y)

    def __call__(self, k: int) -> Mapping[int, Sequence[int]]:
        return self._roads.get(k, _NONE)

    def with_added(self, triples: Iterable[tuple[int, int, int]]) -> IndexedRoads:
        """These roads and the triples': a new object, sharing the roads of the objects k that get
        none (a transition adds an atom or two to hundreds: rovers' take_image)."""
        added = IndexedRoads(())
        added._roads = dict(self._roads)
        copied: set[int] = set()
        for k, x, y in triples:
            if k not in copied:
                added._roads[k] = _Successors({x: list(ys) for x, ys in self(k).items()})
                copied.add(k)
            own = added._roads[k]
            if y not in own.get(x, ()):
                own.setdefault(x, []).append(y)
        return added

    def triples(self) -> Iterator[tuple[int, int, int]]:
        """The triples (k, x, y) of the roads."""
        for k, own in self._roads.items():
            for x, ys in own.items():
                for y in ys:
                    yield k, x, y

    def objects(self) -> Iterable[int]:
        """The objects k with roads."""
        return self._roads.keys()


_NONE = _Successors()
