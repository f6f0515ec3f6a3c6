"""From a planning domain to dlplan: the vocabulary, and a fast bridge from our states.

The vocabulary holds the domain's predicates, its types as unary static predicates, a static goal
copy `p_g` of each goal predicate (so that one policy serves many goals), and the domain
constants as nominals. Every instance gets an `InstanceBridge`; every converted state keeps its
instance's own index and the state's index, because dlplan caches denotations by that pair.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from dlplan.core import DenotationsCaches, InstanceInfo, SyntacticElementFactory, VocabularyInfo
from dlplan.core import State as DlplanState

from stratpol.planning import Domain, Instance, State

GOAL_SUFFIX = "_g"


class Vocabulary:
    """dlplan's view of one domain; instances and features built from it share it."""

    def __init__(self, domain: Domain, goal_predicates: Iterable[str] | None = None) -> None:
        self.domain = domain
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
        for constant in domain.constants:
            self.info.add_constant(constant)
        self.factory = SyntacticElementFactory(self.info)
        self.caches = DenotationsCaches()
        self._instance_indices = itertools.count()

    def __reduce__(self):
        return (Vocabulary, (self.domain, self.goal_predicates))

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
        for predicate, args in sorted(instance.static_atoms):
            if predicate in vocabulary.domain.predicates or predicate in types:
                self.info.add_static_atom(predicate, list(args))
        goal = set(vocabulary.goal_predicates)
        for literal in instance.goal:
            predicate, args = literal.atom
            if literal.positive and predicate in goal:
                self.info.add_static_atom(predicate + GOAL_SUFFIX, list(args))
        self._dlplan_index: dict[int, int] = {}  # the planning core's fluent atom index -> dlplan's
        self._states: dict[int, DlplanState] = {}

    def state(self, state: State) -> DlplanState:
        """The dlplan state of `state` (memoised: the same object for the same state)."""
        converted = self._states.get(state.index)
        if converted is None:
            converted = self._states[state.index] = self.convert(state)
        return converted

    def convert(self, state: State) -> DlplanState:
        """A new dlplan state for `state`, not memoised (a policy run converts each state once),
        built from the planning core's atom indices without spelling the atoms out."""
        dlplan_index = self._dlplan_index
        atoms = state.fluent_atom_indices()
        for i in atoms:
            if i not in dlplan_index:
                predicate, args = self.instance.fluent_atom(i)
                dlplan_index[i] = self.info.add_atom(predicate, list(args)).get_index()
        return DlplanState(state.index, self.info, [dlplan_index[i] for i in atoms])

    def states(self, states: Iterable[State]) -> list[DlplanState]:
        return [self.state(s) for s in states]
