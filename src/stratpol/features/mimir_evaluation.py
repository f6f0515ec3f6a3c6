"""Policy features evaluated by pymimir's C++ description-logic evaluator, straight on the planning
core's states.

dlplan stays the language of features (pools, policy files); this module translates a dlplan
expression into pymimir's constructors once per domain. On large instances it is 20-450x faster
than dlplan (dlplan's transitive closure joins every pair with every pair: 0.7 s a state on 1,000
blocks, pymimir 2 ms) and needs no state conversion. Values agree with dlplan's, which
tests/features/test_policy_evaluator.py checks on random states of several domains. What pymimir
lacks is computed here on its denotations: our own constructors, dlplan's projections `p_i_j` of a
ternary predicate (from p's own roles), and role distances, whose searches read the roads and
targets row by row. What it reads of pymimir is kept by the atoms it depends on, so that most of
a state's successors reuse the state's, and a successor's own roles and projections are made from
its source's where the transition only adds atoms.

pymimir pitfalls this module keeps away from (each crashes the interpreter): a
`DenotationRepositories` must outlive every `EvaluationContext` made on it, and its `clear()`
breaks later evaluations (so each state gets a new one); `Domain.get_name_to_constant()` aborts.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

import pymimir.advanced.languages.description_logics as dl

from stratpol.features.expression import Expression, fluent_predicates_read, parse_expression, unparse_expression
from stratpol.features.own_constructors import (
    OwnFeature,
    Role,
    StateDenotations,
    projection,
    projection_with,
    uses_own_constructors,
    with_projections_from_own_roles,
)
from stratpol.features.role_distance import DLPLAN_INFINITY, IndexedRoads, role_distance
from stratpol.features.vocabulary import GOAL_SUFFIX, projected_predicate
from stratpol.planning import Domain, Instance, State
from stratpol.features.kind import Kind

T = TypeVar("T")

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


class _InstanceObjects:
    """What features with constructors of ours read of one instance: pymimir's object indices,
    the own roles of its static ternary predicates, and its fluent atoms by predicate."""

    def __init__(self, instance: Instance) -> None:
        self.instance = instance
        self.index = {name: instance.object_index(name) for name in (*instance.domain.constants, *instance.objects)}
        self.count = 1 + max(self.index.values(), default=-1)
        self._static: dict[str, IndexedRoads] = {}
        self._static_projections: dict[tuple[str, int, int], Role] = {}
        self._seen: set[int] = set()  # the fluent atoms (by index) named so far
        self._atoms: dict[str, set[int]] = {}  # predicate -> its fluent atoms seen so far
        self._arguments: dict[int, tuple[int, ...]] = {}  # fluent atom -> its objects' indices
        # predicate -> own roles by the indices of its atoms: most transitions change none of them
        self._fluent: dict[str, dict[tuple[int, ...], IndexedRoads]] = {}
        self._projections: dict[tuple[str, int, int], dict[tuple[int, ...], Role]] = {}  # the same for projections

    def static_own_roles(self, predicate: str) -> IndexedRoads:
        if predicate not in self._static:
            self._static[predicate] = IndexedRoads(
                tuple(self.index[name] for name in arguments)
                for p, arguments in self.instance.static_atoms if p == predicate)
        return self._static[predicate]

    def static_projection(self, predicate: str, first: int, second: int) -> Role:
        key = (predicate, first, second)
        if key not in self._static_projections:
            self._static_projections[key] = projection(self.static_own_roles(predicate).triples(), first, second,
                                                       self.count)
        return self._static_projections[key]

    def name(self, indices: Sequence[int]) -> None:
        """Learn the predicates and objects of a state's fluent atoms `indices` not seen before."""
        if not self._seen.issuperset(indices):
            for i in set(indices) - self._seen:
                name, arguments = self.instance.fluent_atom(i)
                self._atoms.setdefault(name, set()).add(i)
                self._arguments[i] = tuple(self.index[a] for a in arguments)
            self._seen.update(indices)

    def fluent_atoms(self, indices: Sequence[int], predicate: str) -> tuple[int, ...]:
        """The atoms of `predicate` among a state's fluent atoms `indices` (named), in their order."""
        return tuple(filter(self._atoms.get(predicate, frozenset()).__contains__, indices))

    def fluent_own_roles(self, atoms: tuple[int, ...], predicate: str, source: tuple[int, ...] = ()) -> IndexedRoads:
        """The own roles of the fluent ternary `predicate` whose atoms true are `atoms`, made from
        those of the atoms `source` (a transition's source state) where they were made and
        the transition only adds atoms."""
        known = self._fluent.setdefault(predicate, {})
        roads = known.get(atoms)
        if roads is None:
            added, base = self._added(atoms, source, known)
            roads = IndexedRoads(self._triples(atoms)) if base is None else base.with_added(self._triples(added))
            known[atoms] = roads
        return roads

    def fluent_projection(self, atoms: tuple[int, ...], predicate: str, first: int, second: int,
                          source: tuple[int, ...] = ()) -> Role:
        """The projection (first, second) of the fluent ternary `predicate` whose atoms true are
        `atoms`, made from that of `source` as `fluent_own_roles` does."""
        known = self._projections.setdefault((predicate, first, second), {})
        role = known.get(atoms)
        if role is None:
            added, base = self._added(atoms, source, known)
            role = (projection(self._triples(atoms), first, second, self.count) if base is None
                    else projection_with(base, self._triples(added), first, second))
            known[atoms] = role
        return role

    def _added(self, atoms: tuple[int, ...], source: tuple[int, ...], known: dict[tuple[int, ...], T]) \
            -> tuple[set[int], T | None]:
        """The atoms added to `source` to make `atoms`, and what `known` holds for `source`; None
        where it holds nothing or `atoms` lacks one of `source`. Full, `known` is emptied."""
        base = known.get(source) if source else None
        added = set(atoms).difference(source) if base is not None else set()
        if base is not None and len(atoms) - len(added) != len(source):
            base = None  # an atom was deleted
        if len(known) >= _KNOWN_OWN_ROLES:
            known.clear()
        return added, base

    def _triples(self, atoms: Iterable[int]) -> Iterator[tuple[int, ...]]:
        return (self._arguments[i] for i in atoms)


_KNOWN_OWN_ROLES = 4096  # own roles (projections) kept per fluent predicate (projection) and instance
_KNOWN_DENOTATIONS = 64  # denotations kept per concept or role and instance, by the atoms they read


class _Restricted(dict):
    """The rows of r_restrict(R, C), each made when first read: the pairs (a, b) of R with b in C."""

    def __init__(self, rows: Sequence[Sequence[int]], concept: frozenset[int]) -> None:
        super().__init__()
        self._rows, self._concept = rows, concept

    def __missing__(self, a: int) -> list[int]:
        row = self[a] = [b for b in self._rows[a] if b in self._concept]
        return row


class _Composed(dict):
    """The rows of r_compose(R, S), each made when first read."""

    def __init__(self, first: Sequence[Sequence[int]], second: Sequence[Sequence[int]]) -> None:
        super().__init__()
        self._first, self._second = first, second

    def __missing__(self, a: int) -> list[int]:
        row = self[a] = list({c for b in self._first[a] for c in self._second[b]})
        return row


def _per_state(element: object) -> Callable[[StateEvaluation], object]:
    """A pymimir concept's or role's denotation on a state, as Python lists."""
    return lambda evaluation: element.evaluate(evaluation.context).get_data()


class StateEvaluation:
    """pymimir's denotation memory for one state: shared sub-expressions are computed once."""

    def __init__(self, state: State, source: StateEvaluation | None = None) -> None:
        self.state = state
        self.index = state.index
        self.source = source  # the evaluation of a transition's source, where `state` is its target
        self._denotations = dl.DenotationRepositories()  # must outlive the context
        self.context = dl.EvaluationContext(state.mimir_state, self._denotations)
        self.own_roles: dict[str, IndexedRoads] = {}  # of fluent ternary predicates, read once a state
        self.atoms: dict[str, tuple[int, ...]] = {}  # the state's fluent atoms of a predicate, once read
        self.indices: list[int] | None = None  # the state's fluent atoms, once read
        self.named_by: object = None  # the instance's objects that last named them (MimirFeatures._atoms)


class MimirFeatures:
    """Translates dlplan feature expressions of one domain into pymimir features; keep it alive
    while its features are used (it owns them)."""

    def __init__(self, domain: Domain) -> None:
        advanced = domain.mimir_domain
        self._domain = domain
        self._repositories = dl.Repositories()
        self._instances: weakref.WeakKeyDictionary[Instance, _InstanceObjects] = weakref.WeakKeyDictionary()
        self._predicates = {}
        for kind, predicates in (("static", advanced.get_static_predicates()),
                                 ("fluent", advanced.get_fluent_predicates()),
                                 ("derived", advanced.get_derived_predicates())):
            for predicate in predicates:
                self._predicates[predicate.get_name()] = (kind, predicate)
        self._constants = {c.get_name(): c for c in advanced.get_constants()}
        self._arities = {name: predicate.get_arity() for name, (_, predicate) in self._predicates.items()}

    def feature(self, kind: Kind, description: str) -> Callable[[StateEvaluation], int]:
        """The feature as a function of a state's evaluation, with dlplan's values (Untranslatable
        if pymimir lacks one of its constructors)."""
        expression = parse_expression(description)
        rewritten = with_projections_from_own_roles(expression, self._ternary_projection)
        if rewritten != expression:
            try:
                return self._own_feature(unparse_expression(rewritten))
            except ValueError as error:  # a constructor the glue lacks: dlplan evaluates it
                raise Untranslatable(str(error)) from None
        if uses_own_constructors(description):
            return self._own_feature(description)
        name, arguments = expression
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
            source = self._element(arguments[0])
            road, target = self._rows(arguments[1]), self._rows(arguments[2])
            total = name == "n_sum_role_distance"

            def distance_along(evaluation: StateEvaluation) -> int:
                edges = road(evaluation)
                return role_distance(source.evaluate(evaluation.context).get_data(), lambda k: edges,
                                     target(evaluation), total)
            return distance_along
        raise Untranslatable(f"numerical constructor {name}")

    def _own_feature(self, description: str) -> Callable[[StateEvaluation], int]:
        """A feature with constructors of ours (features/own_constructors.py) on the denotations
        pymimir computes for its leaves; a leaf that reads no fluent predicate, and the own roles
        of a static predicate, are read once per instance."""
        feature = OwnFeature(description)
        leaves = [self._denotation(leaf) for leaf in feature.leaves]
        kinds = {}
        for name in feature.predicates:
            kinds[name], _, goal = self._predicate(name)
            if goal or self._arity(name) != 3 or kinds[name] == "derived":  # a state's atoms hold no derived one
                raise Untranslatable(f"{name} in {description}: not a static or fluent predicate of arity 3")

        def value(evaluation: StateEvaluation) -> int:
            objects = self._objects(evaluation.state.instance)

            def own_roles(name: str) -> IndexedRoads:
                if kinds[name] == "static":
                    return objects.static_own_roles(name)
                if name not in evaluation.own_roles:
                    atoms, source = self._atoms_and_source(evaluation, name)
                    evaluation.own_roles[name] = objects.fluent_own_roles(atoms, name, source)
                return evaluation.own_roles[name]

            def projection(name: str, first: int, second: int) -> Role:
                if kinds[name] == "static":
                    return objects.static_projection(name, first, second)
                atoms, source = self._atoms_and_source(evaluation, name)
                return objects.fluent_projection(atoms, name, first, second, source)
            denotations = [leaf(evaluation) for leaf in leaves]
            return feature.value(StateDenotations(denotations, own_roles, objects.count, projection))
        return value

    def _rows(self, expression: Expression) -> Callable[[StateEvaluation], Sequence[Sequence[int]]]:
        """A role's successors by object on a state, for a search that reads the rows of the objects
        it visits (pymimir's conversion of a role to lists costs more than a search: 4 ms for
        floortile's 3,690 adjacent pairs): a restriction or composition made row by row, each kept
        as `_kept` keeps a denotation."""
        name, arguments = expression
        if name == "r_restrict" and not self._fixed(expression):
            rows, concept = self._rows(arguments[0]), self._denotation(arguments[1])
            return self._kept(expression, lambda evaluation: _Restricted(rows(evaluation),
                                                                         frozenset(concept(evaluation))))
        if name == "r_compose" and not self._fixed(expression):
            first, second = self._rows(arguments[0]), self._rows(arguments[1])
            return self._kept(expression, lambda evaluation: _Composed(first(evaluation), second(evaluation)))
        return self._denotation(expression)

    def _denotation(self, expression: Expression) -> Callable[[StateEvaluation], object]:
        """A concept's or role's denotation as pymimir computes it, as Python lists, kept by `_kept`."""
        return self._kept(expression, _per_state(self._element(expression)))

    def _kept(self, expression: Expression, compute: Callable[[StateEvaluation], T]) -> Callable[[StateEvaluation], T]:
        """`compute`, the value of `expression` on a state, made once per instance and atoms of the
        fluent predicates the expression reads: once per instance where it reads none, and once for
        the successors of a state that leave those atoms alone (rovers' take_image leaves a goal's
        communicated images alone). Made for every state where it reads a derived predicate."""
        reads = fluent_predicates_read(unparse_expression(expression), self._domain)
        if reads is None:
            return compute
        predicates = sorted(reads)
        known: weakref.WeakKeyDictionary[Instance, dict[tuple, T]] = weakref.WeakKeyDictionary()

        def value(evaluation: StateEvaluation) -> T:
            by_atoms = known.get(evaluation.state.instance)
            if by_atoms is None:
                by_atoms = known[evaluation.state.instance] = {}
            key = tuple(self._atoms(evaluation, p) for p in predicates)
            result = by_atoms.get(key)
            if result is None:
                if len(by_atoms) >= _KNOWN_DENOTATIONS:
                    by_atoms.clear()
                result = by_atoms[key] = compute(evaluation)
            return result
        return value

    def _atoms(self, evaluation: StateEvaluation, predicate: str) -> tuple[int, ...]:
        """The fluent atoms of `predicate` in the evaluated state."""
        objects = self._objects(evaluation.state.instance)
        if evaluation.named_by is not objects:
            if evaluation.indices is None:
                evaluation.indices = evaluation.state.fluent_atom_indices()
            objects.name(evaluation.indices)
            evaluation.named_by = objects
        atoms = evaluation.atoms.get(predicate)
        if atoms is None:
            atoms = evaluation.atoms[predicate] = objects.fluent_atoms(evaluation.indices, predicate)
        return atoms

    def _atoms_and_source(self, evaluation: StateEvaluation, predicate: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The fluent atoms of `predicate` in the evaluated state and in its transition's source
        (none where there is no source)."""
        source = () if evaluation.source is None else self._atoms(evaluation.source, predicate)
        return self._atoms(evaluation, predicate), source

    def _fixed(self, expression: Expression) -> bool:
        """Whether the concept or role reads no fluent predicate: one denotation per instance."""
        return fluent_predicates_read(unparse_expression(expression), self._domain) == frozenset()

    def _ternary_projection(self, name: str) -> tuple[str, int, int] | None:
        """(p, i, j) where `name` is dlplan's projection p_i_j of a static or fluent ternary p."""
        projected = projected_predicate(name, self._arities)
        if projected is None or self._arities[projected[0]] != 3 or self._predicates[projected[0]][0] == "derived":
            return None
        return projected

    def _objects(self, instance: Instance) -> _InstanceObjects:
        objects = self._instances.get(instance)
        if objects is None:
            objects = self._instances[instance] = _InstanceObjects(instance)
        return objects

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
