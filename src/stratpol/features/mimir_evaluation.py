"""Policy features evaluated by pymimir's C++ description-logic evaluator, straight on the planning
core's states.

dlplan stays the language of features (pools, policy files); this module translates a dlplan
expression into pymimir's constructors once per domain. On large instances it is 20-450x faster
than dlplan (dlplan's transitive closure joins every pair with every pair: 0.7 s a state on 1,000
blocks, pymimir 2 ms) and needs no state conversion. Values agree with dlplan's, which
tests/features/test_policy_evaluator.py checks on random states of several domains.

pymimir pitfalls this module keeps away from (each crashes the interpreter): a
`DenotationRepositories` must outlive every `EvaluationContext` made on it, and its `clear()`
breaks later evaluations (so each state gets a new one); `Domain.get_name_to_constant()` aborts.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable

import pymimir.advanced.languages.description_logics as dl

from stratpol.features.expression import Expression, parse_expression
from stratpol.features.own_constructors import OwnFeature, StateDenotations, uses_own_constructors
from stratpol.features.role_distance import DLPLAN_INFINITY, IndexedRoads, role_distance
from stratpol.features.vocabulary import GOAL_SUFFIX
from stratpol.planning import Atom, Domain, Instance, State
from stratpol.features.kind import Kind

_MIMIR_INFINITY = 2**32 - 1  # pymimir's "unreachable" distance (dlplan's is INT32_MAX)

# dlplan constructors with a pymimir counterpart taking the same arguments in the same order
_CONSTRUCTORS = {
    "c_top": "concept_top", "c_bot": "concept_bot",
    "c_some": "concept_existential_quantification", "c_all": "concept_value_restriction",
    "c_and": "concept_intersection", "c_or": "concept_union", "c_not": "concept_negation",
    "c_equal": "concept_role_value_map_equality", "c_subset": "concept_role_value_map_containment",
    "r_top": "role_universal", "r_inverse": "role_inverse", "r_and": "role_intersection", "r_or": "role_union",
    "r_not": "role_complement", "r_compose": "role_composition", "r_transitive_closure": "role_transitive_closure",
    "r_transitive_reflexive_closure": "role_reflexive_transitive_closure", "r_restrict": "role_restriction",
    "r_identity": "role_identity",
}
# dlplan constructors pymimir spells with others: a minus b is a and not b
_REWRITES = {
    "c_diff": lambda a, b: ("c_and", (a, ("c_not", (b,)))),
    "r_diff": lambda a, b: ("r_and", (a, ("r_not", (b,)))),
}


def _sort(expression: Expression) -> str:
    """"concept" or "role", from the constructor's prefix."""
    return "concept" if expression[0].startswith("c_") else "role"


class Untranslatable(ValueError):
    """A dlplan constructor pymimir has no counterpart for (e.g. b_inclusion, atoms of arity 3)."""


def _indexed_roads(atoms: Iterable[Atom], predicate: str, index: dict[str, int]) -> IndexedRoads:
    """The roads predicate(k, x, y) among `atoms`, in pymimir's object indices (`index`: name ->
    index)."""
    return IndexedRoads(tuple(index[name] for name in arguments) for p, arguments in atoms if p == predicate)


class StateEvaluation:
    """pymimir's denotation memory for one state: shared sub-expressions are computed once."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.index = state.index
        self._denotations = dl.DenotationRepositories()  # must outlive the context
        self.context = dl.EvaluationContext(state.mimir_state, self._denotations)


class MimirFeatures:
    """Translates dlplan feature expressions of one domain into pymimir features; keep it alive
    while its features are used (it owns them)."""

    def __init__(self, domain: Domain) -> None:
        advanced = domain.mimir_domain
        self._repositories = dl.Repositories()
        self._predicates = {}
        for kind, predicates in (("static", advanced.get_static_predicates()),
                                 ("fluent", advanced.get_fluent_predicates()),
                                 ("derived", advanced.get_derived_predicates())):
            for predicate in predicates:
                self._predicates[predicate.get_name()] = (kind, predicate)
        self._constants = {c.get_name(): c for c in advanced.get_constants()}

    def feature(self, kind: Kind, description: str) -> Callable[[StateEvaluation], int]:
        """The feature as a function of a state's evaluation, with dlplan's values (Untranslatable
        if pymimir lacks one of its constructors)."""
        if uses_own_constructors(description):
            return self._own_feature(description)
        name, arguments = parse_expression(description)
        r = self._repositories
        if kind is Kind.BOOLEAN:
            if name == "b_nullary":
                predicate_kind, predicate, goal = self._predicate(arguments[0][0])
                if goal:
                    raise Untranslatable("b_nullary of a goal predicate")
                boolean = getattr(r, f"get_or_create_boolean_atomic_state_{predicate_kind}")(predicate)
                return lambda evaluation: int(boolean.evaluate(evaluation.context).get_data())
            if name == "b_empty":
                (argument,) = arguments
                nonempty = getattr(r, "get_or_create_boolean_nonempty_" + _sort(argument))(self._element(argument))
                return lambda evaluation: int(not nonempty.evaluate(evaluation.context).get_data())
            raise Untranslatable(f"Boolean constructor {name}")
        if name == "n_count":
            (argument,) = arguments
            count = getattr(r, "get_or_create_numerical_count_" + _sort(argument))(self._element(argument))
            return lambda evaluation: count.evaluate(evaluation.context).get_data()
        if name == "n_concept_distance":
            distance = r.get_or_create_numerical_distance(*map(self._element, arguments))

            def value(evaluation: StateEvaluation) -> int:
                d = distance.evaluate(evaluation.context).get_data()
                return DLPLAN_INFINITY if d >= _MIMIR_INFINITY else d
            return value
        if name in ("n_role_distance", "n_sum_role_distance"):
            source, road, target = (self._element(argument) for argument in arguments)
            total = name == "n_sum_role_distance"

            def distance_along(evaluation: StateEvaluation) -> int:
                edges = road.evaluate(evaluation.context).get_data()
                return role_distance(source.evaluate(evaluation.context).get_data(), lambda k: edges,
                                     target.evaluate(evaluation.context).get_data(), total)
            return distance_along
        raise Untranslatable(f"numerical constructor {name}")

    def _own_feature(self, description: str) -> Callable[[StateEvaluation], int]:
        """A feature with constructors of ours (features/own_constructors.py) on the denotations
        pymimir computes for its leaves; the own roles of a static predicate are read once per
        instance."""
        feature = OwnFeature(description)
        leaves = [self._element(leaf) for leaf in feature.leaves]
        kinds = {}
        for name in feature.predicates:
            kinds[name], _, goal = self._predicate(name)
            if goal or self._arity(name) != 3 or kinds[name] == "derived":  # a state's atoms hold no derived one
                raise Untranslatable(f"{name} in {description}: not a static or fluent predicate of arity 3")
        # per instance: pymimir's object indices by name, their count, the own roles of static predicates
        known: weakref.WeakKeyDictionary[Instance, tuple[dict[str, int], int, dict[str, IndexedRoads]]] = \
            weakref.WeakKeyDictionary()

        def value(evaluation: StateEvaluation) -> int:
            state = evaluation.state
            instance = state.instance
            if instance not in known:
                names = (*instance.domain.constants, *instance.objects)
                index = {name: instance.object_index(name) for name in names}
                known[instance] = (index, 1 + max(index.values(), default=-1), {})
            index, count, static = known[instance]

            def own_roles(name: str) -> IndexedRoads:
                if kinds[name] != "static":
                    return _indexed_roads(state.atoms, name, index)
                if name not in static:
                    static[name] = _indexed_roads(instance.static_atoms, name, index)
                return static[name]
            denotations = [leaf.evaluate(evaluation.context).get_data() for leaf in leaves]
            return feature.value(StateDenotations(denotations, own_roles, count))
        return value

    def _predicate(self, name: str) -> tuple[str, object, bool]:
        """(static/fluent/derived, pymimir predicate, whether it is the goal copy p_g of p)."""
        if name in self._predicates:
            return (*self._predicates[name], False)
        if name.endswith(GOAL_SUFFIX) and name[:-len(GOAL_SUFFIX)] in self._predicates:
            return (*self._predicates[name[:-len(GOAL_SUFFIX)]], True)
        raise Untranslatable(f"unknown predicate {name}")

    def _atomic(self, what: str, name: str) -> object:
        kind, predicate, goal = self._predicate(name)
        if goal:
            return getattr(self._repositories, f"get_or_create_{what}_atomic_goal_{kind}")(predicate, True)
        return getattr(self._repositories, f"get_or_create_{what}_atomic_state_{kind}")(predicate)

    def _arity(self, name: str) -> int:
        return self._predicate(name)[1].get_arity()

    def _element(self, expression: Expression) -> object:
        """The pymimir concept or role of a dlplan concept (c_...) or role (r_...) expression."""
        name, a = expression
        if name in _REWRITES:
            return self._element(_REWRITES[name](*a))
        if name in _CONSTRUCTORS:
            return getattr(self._repositories, "get_or_create_" + _CONSTRUCTORS[name])(*map(self._element, a))
        if name == "c_primitive":
            predicate, position = a[0][0], int(a[1][0])
            if self._arity(predicate) == 1:
                return self._atomic("concept", predicate)
            return self._projection(self._primitive_role(predicate, 0, 1), position)
        if name == "c_projection":
            return self._projection(self._element(a[0]), int(a[1][0]))
        if name == "c_one_of":
            if a[0][0] not in self._constants:
                raise Untranslatable(f"c_one_of({a[0][0]}): not a domain constant")
            return self._repositories.get_or_create_concept_nominal(self._constants[a[0][0]])
        if name == "r_primitive":
            return self._primitive_role(a[0][0], int(a[1][0]), int(a[2][0]))
        raise Untranslatable(f"constructor {name}")

    def _projection(self, role: object, position: int) -> object:
        """The objects at `position` (0 or 1) of the role's pairs."""
        r = self._repositories
        if position == 1:
            role = r.get_or_create_role_inverse(role)
        return r.get_or_create_concept_existential_quantification(role, r.get_or_create_concept_top())

    def _primitive_role(self, predicate: str, first: int, second: int) -> object:
        if self._arity(predicate) != 2:
            raise Untranslatable(f"role over {predicate}, of arity {self._arity(predicate)}")
        role = self._atomic("role", predicate)
        if (first, second) == (1, 0):
            return self._repositories.get_or_create_role_inverse(role)
        if (first, second) != (0, 1):
            raise Untranslatable(f"r_primitive({predicate},{first},{second})")
        return role
