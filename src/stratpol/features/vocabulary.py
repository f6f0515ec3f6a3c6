"""From a planning domain to dlplan: the vocabulary, and a fast bridge from our states.

The vocabulary holds the domain's predicates, its types as unary static predicates, a static goal
copy `p_g` of each goal predicate (so that one policy serves many goals), and the domain
constants as nominals. dlplan's generator starts only from unary and binary predicates, so a
predicate of arity 3 or more (tpp's `loaded ?g ?t ?l`) is invisible to it; the vocabulary adds its
binary projections `p_i_j` (`loaded_0_2` relates a goods to its loaded level), whose atoms every
converted state carries. Every instance gets an `InstanceBridge`; every converted state keeps its
instance's own index and the state's index, because dlplan caches denotations by that pair.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping

from dlplan.core import DenotationsCaches, InstanceInfo, SyntacticElementFactory, VocabularyInfo
from dlplan.core import State as DlplanState

from stratpol.planning import Domain, Instance, State

GOAL_SUFFIX = "_g"
_PROJECTION = re.compile(r"(.+)_(\d+)_(\d+)")  # projection_name's form


def projection_name(predicate: str, first: int, second: int) -> str:
    """The binary predicate relating the arguments at `first` and `second` of `predicate`."""
    return f"{predicate}_{first}_{second}"


def binary_projections(predicate: str, arity: int) -> list[tuple[str, int, int]]:
    """(name, first, second) of each binary projection of a predicate of arity 3 or more."""
    if arity < 3:
        return []
    return [(projection_name(predicate, i, j), i, j) for i, j in itertools.combinations(range(arity), 2)]


def projected_predicate(name: str, predicates: Mapping[str, int]) -> tuple[str, int, int] | None:
    """(predicate, first, second) where `name` is the binary projection `p_i_j` of one of
    `predicates` (name -> arity), of arity 3 or more, that does not declare `name` itself."""
    if name in predicates:
        return None
    match = _PROJECTION.fullmatch(name)
    if match is None:
        return None
    predicate, first, second = match[1], int(match[2]), int(match[3])
    if predicates.get(predicate, 0) < 3 or not first < second < predicates[predicate]:
        return None
    return predicate, first, second


class Vocabulary:
    """dlplan's view of one domain; instances and features built from it share it."""

    def __init__(self, domain: Domain, goal_predicates: Iterable[str] | None = None, projections: bool = True) -> None:
        self.domain = domain
        self._with_projections = projections
        goal = set(domain.predicates) if goal_predicates is None else set(goal_predicates)
        unknown = goal - set(domain.predicates)
        if unknown:
            raise ValueError(f"goal predicates {sorted(unknown)} are not predicates of {domain.name}")
        self.goal_predicates = tuple(p for p in domain.predicates if p in goal)
        self.info = VocabularyInfo()
        for predicate, arity in domain.predicates.items():
            self.info.add_predicate(predicate, arity, predicate in domain.static_predicates)
        for type_name in domain.types:
            if type_name not in domain.predicates:
                self.info.add_predicate(type_name, 1, True)
        for predicate in self.goal_predicates:
            self.info.add_predicate(predicate + GOAL_SUFFIX, domain.predicates[predicate], True)
        # predicate of arity >= 3 -> its binary projections (name, first, second); a projection
        # whose name the domain already uses is left out
        self.projections: dict[str, list[tuple[str, int, int]]] = {}
        if projections:
            goal_copies = {p + GOAL_SUFFIX: domain.predicates[p] for p in self.goal_predicates}
            declared = {*domain.predicates, *domain.types, *goal_copies}
            for predicate, arity in (*domain.predicates.items(), *goal_copies.items()):
                projected = [p for p in binary_projections(predicate, arity) if p[0] not in declared]
                static = predicate in goal_copies or predicate in domain.static_predicates
                for name, _, _ in projected:
                    self.info.add_predicate(name, 2, static)
                if projected:
                    self.projections[predicate] = projected
        for constant in domain.constants:
            self.info.add_constant(constant)
        self.factory = SyntacticElementFactory(self.info)
        self.caches = DenotationsCaches()
        self._instance_indices = itertools.count()
        self._unprojected: Vocabulary | None = None

    def __reduce__(self):
        return (Vocabulary, (self.domain, self.goal_predicates, self._with_projections))

    def without_projections(self) -> Vocabulary:
        """This vocabulary without the projections (itself where the domain has none): what the
        published grammar generates from."""
        if not self.projections:
            return self
        if self._unprojected is None:
            self._unprojected = Vocabulary(self.domain, self.goal_predicates, projections=False)
        return self._unprojected

    def bridge(self, instance: Instance) -> InstanceBridge:
        """A new bridge for `instance`, with an instance index no other bridge of this vocabulary has."""
        if instance.domain is not self.domain:
            raise ValueError(f"instance {instance.name} belongs to another parsed domain")
        return InstanceBridge(self, instance, next(self._instance_indices))


class InstanceBridge:
    """Converts the states of one instance to dlplan states, caching atom indices."""

    def __init__(self, vocabulary: Vocabulary, instance: Instance, index: int) -> None:
        self.vocabulary = vocabulary
        self.instance = instance
        self.index = index
        self.info = InstanceInfo(index, vocabulary.info)
        for name in (*vocabulary.domain.constants, *instance.objects):
            self.info.add_object(name)
        types = set(vocabulary.domain.types)
        static = [(p, args) for p, args in sorted(instance.static_atoms)
                  if p in vocabulary.domain.predicates or p in types]
        goal = set(vocabulary.goal_predicates)
        static += [(literal.atom[0] + GOAL_SUFFIX, literal.atom[1]) for literal in instance.goal
                   if literal.positive and literal.atom[0] in goal]
        projected = set()
        for predicate, args in static:
            self.info.add_static_atom(predicate, list(args))
            projected.update(self._projected(predicate, args))
        for predicate, args in sorted(projected):
            self.info.add_static_atom(predicate, list(args))
        self._dlplan_index: dict[int, int] = {}  # the planning core's fluent atom index -> dlplan's
        self._projected_indices: dict[int, tuple[int, ...]] = {}  # ... -> dlplan's of its projections
        self._states: dict[int, DlplanState] = {}

    def _projected(self, predicate: str, args) -> list[tuple[str, tuple[str, str]]]:
        """The projected atoms of an atom (none unless its predicate has arity 3 or more)."""
        return [(name, (args[i], args[j])) for name, i, j in self.vocabulary.projections.get(predicate, ())]

    def state(self, state: State) -> DlplanState:
        """The dlplan state of `state` (memoised: the same object for the same state)."""
        converted = self._states.get(state.index)
        if converted is None:
            converted = self._states[state.index] = self.convert(state)
        return converted

    def convert(self, state: State) -> DlplanState:
        """A new dlplan state for `state`, not memoised (a policy run converts each state once),
        built from the planning core's atom indices without spelling the atoms out."""
        dlplan_index, projected = self._dlplan_index, self._projected_indices
        atoms = state.fluent_atom_indices()
        for i in atoms:
            if i not in dlplan_index:
                predicate, args = self.instance.fluent_atom(i)
                dlplan_index[i] = self.info.add_atom(predicate, list(args)).get_index()
                if predicate in self.vocabulary.projections:
                    projected[i] = tuple(self.info.add_atom(name, list(pair)).get_index()
                                         for name, pair in self._projected(predicate, args))
        indices = [dlplan_index[i] for i in atoms]
        if projected:  # two atoms can share a projection (loaded_0_1 of one goods at two levels)
            indices += sorted({j for i in atoms for j in projected.get(i, ())})
        return DlplanState(state.index, self.info, indices)

    def states(self, states: Iterable[State]) -> list[DlplanState]:
        return [self.state(s) for s in states]


def digest_states(digest, bridges_and_states: Iterable[tuple[InstanceBridge, State]]) -> None:
    """Add the states, and once each the text of the instance they belong to, to a hashlib digest
    (the content hash of cached pools)."""
    seen_instances = set()
    for bridge, state in bridges_and_states:
        if bridge.index not in seen_instances:
            seen_instances.add(bridge.index)
            digest.update(bridge.instance.text.encode())
        digest.update(repr(sorted(state.atoms)).encode())
