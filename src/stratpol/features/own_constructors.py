"""Features built with constructors of ours beyond dlplan's, evaluated here on the denotations
that dlplan (pools, learning) or pymimir (policy runs) computes for their other parts.

A description logic sees a ternary predicate p(k, x, y) only through its binary projections. Ours
read it as one role per object k, "k's own role" {(x, y) | p(k, x, y)}:

- `n_indexed_role_distance(F, p, T)`: over the objects k, the distance along k's own roads from
  F(k) to the nearest of T(k) (features/role_distance.py): each rover walks its own roads.
- `c_indexed_meets(p, R)`: the objects k whose own role shares a pair with the role R: the rovers
  holding an image of a pending (objective, mode) pair, where the projections of `have_image`
  pair one image's objective with another's mode.

Around them a feature may use the Boolean and set constructors below; every part without one of
ours (a "leaf") is a dlplan concept or role, which dlplan or pymimir evaluates. pymimir has no
binary projections `p_i_j` of a ternary predicate (features/vocabulary.py), so for pymimir a
feature over one is rewritten (`with_projections_from_own_roles`) to read p's own roles.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from dlplan.core import ConceptDenotation

from stratpol.features.expression import (
    INDEXED_ROLE_DISTANCE,
    OWN_CONSTRUCTORS,
    Expression,
    parse_expression,
    unparse_expression,
)
from stratpol.features.role_distance import IndexedRoads, role_distance

Concept = frozenset[int]  # object indices
Role = Sequence[Sequence[int]]  # the successors of each object, as pymimir's role denotations


@dataclass(frozen=True)
class StateDenotations:
    """What a feature with constructors of ours reads of one state: its leaves' denotations (in
    the order of `OwnFeature.leaves`: concepts as object indices, roles as successor lists), the
    own roles of its ternary predicates, the number of objects, and where the evaluator keeps
    them, the projections (p, i, j) of a ternary predicate (else made from the own roles)."""

    leaves: Sequence[object]
    own_roles: Callable[[str], IndexedRoads]
    count: int
    projection: Callable[[str, int, int], Role] | None = None


Compiled = Callable[[StateDenotations], object]

# r_projection(p,i,j): the pairs (t_i, t_j) of p's atoms t, read from p's own roles; not a
# constructor of the language (dlplan spells it r_primitive(p_i_j,0,1)) but pymimir's stand-in
_PROJECTION = "r_projection"


def with_projections_from_own_roles(expression: Expression,
                                    projection: Callable[[str], tuple[str, int, int] | None]) -> Expression:
    """The expression with each primitive over a projection (`projection`: a predicate name ->
    (ternary predicate, first, second), None for any other name) read from the predicate's own
    roles: the same denotations."""
    name, arguments = expression
    projected = projection(arguments[0][0]) if name in ("r_primitive", "c_primitive") and arguments else None
    if projected is not None:
        predicate, first, second = projected
        role = (_PROJECTION, tuple((str(a), ()) for a in (predicate, first, second)))
        positions = tuple(a[0] for a in arguments[1:])
        if name == "r_primitive" and positions in (("0", "1"), ("1", "0")):
            return role if positions == ("0", "1") else ("r_inverse", (role,))
        if name == "c_primitive" and positions in (("0",), ("1",)):  # the objects at that position of the pairs
            return "c_some", (role if positions == ("0",) else ("r_inverse", (role,)), ("c_top", ()))
        return expression  # misshapen: left for the evaluator to reject
    return name, tuple(with_projections_from_own_roles(a, projection) for a in arguments)


def uses_own_constructors(description: str) -> bool:
    return any(f"{name}(" in description for name in OWN_CONSTRUCTORS)


class OwnFeature:
    """A feature expression with constructors of ours, compiled: its leaves (dlplan concepts and
    roles) and how its value follows from their denotations. ValueError names a constructor that
    cannot take an argument built with ours, or a misshapen argument list."""

    def __init__(self, description: str) -> None:
        self.expression = parse_expression(description)
        self.leaves: list[Expression] = []
        self.predicates: list[str] = []  # the ternary predicates read as own roles
        name = self.expression[0]
        if not name.startswith(("n_", "b_")):
            raise ValueError(f"{description!r} is not a feature (a numerical or Boolean constructor)")
        self.boolean = name.startswith("b_")
        self._value = self._compile(self.expression)

    def value(self, denotations: StateDenotations) -> int:
        return int(self._value(denotations))

    def text(self, leaf_text: Callable[[int], str]) -> str:
        """The expression with each leaf printed by `leaf_text(leaf number)` (as its evaluator
        prints it)."""
        leaves = iter(range(len(self.leaves)))

        def unparse(node: Expression) -> str:
            name, arguments = node
            if not _has_own(node):
                return leaf_text(next(leaves))
            if name in OWN_CONSTRUCTORS:
                position = OWN_CONSTRUCTORS[name]
                texts = [a[0] if i == position else unparse(a) for i, a in enumerate(arguments)]
            else:
                texts = [unparse(a) for a in arguments]
            return f"{name}({','.join(texts)})"
        return unparse(self.expression)

    def _compile(self, node: Expression) -> Compiled:
        name, arguments = node
        if not _has_own(node):
            if not name.startswith(("c_", "r_")):
                raise ValueError(f"{unparse_expression(node)!r}: expected a concept or a role")
            number = len(self.leaves)
            self.leaves.append(node)
            if name.startswith("c_"):
                return lambda d: frozenset(d.leaves[number])
            return lambda d: d.leaves[number]
        if name in OWN_CONSTRUCTORS:
            return self._own(name, arguments)
        if name == _PROJECTION:
            return self._projection(arguments[0][0], int(arguments[1][0]), int(arguments[2][0]))
        if name not in _GLUE:
            raise ValueError(f"{name} cannot take an argument built with {' or '.join(OWN_CONSTRUCTORS)}")
        arity, combine = _GLUE[name]
        if len(arguments) != arity:
            raise ValueError(f"{unparse_expression(node)!r}: {name} takes {arity} argument(s)")
        parts = [self._compile(a) for a in arguments]
        return lambda d: combine(d.count, *(part(d) for part in parts))

    def _own(self, name: str, arguments: tuple[Expression, ...]) -> Compiled:
        position = OWN_CONSTRUCTORS[name]
        expected = 3 if name == INDEXED_ROLE_DISTANCE else 2
        if len(arguments) != expected or arguments[position][1]:
            shape = "(role, predicate, role)" if name == INDEXED_ROLE_DISTANCE else "(predicate, role)"
            raise ValueError(f"{unparse_expression((name, arguments))!r}: expected {name}{shape}")
        predicate = arguments[position][0]
        self._reads(predicate)
        if name == INDEXED_ROLE_DISTANCE:
            source, target = self._compile(arguments[0]), self._compile(arguments[2])
            return lambda d: role_distance(source(d), d.own_roles(predicate), target(d))
        role = self._compile(arguments[1])
        return lambda d: _meets(d.own_roles(predicate), role(d))

    def _projection(self, predicate: str, first: int, second: int) -> Compiled:
        self._reads(predicate)
        # by own roles: the evaluators reuse one object for the same roles (a static predicate's
        # in an instance, pymimir's for the same atoms)
        known: weakref.WeakKeyDictionary[IndexedRoads, Role] = weakref.WeakKeyDictionary()

        def value(d: StateDenotations) -> Role:
            if d.projection is not None:
                return d.projection(predicate, first, second)
            own = d.own_roles(predicate)
            role = known.get(own)
            if role is None:
                role = known[own] = projection(own.triples(), first, second, d.count)
            return role
        return value

    def _reads(self, predicate: str) -> None:
        if predicate not in self.predicates:
            self.predicates.append(predicate)


def _has_own(node: Expression) -> bool:
    name, arguments = node
    return name in OWN_CONSTRUCTORS or name == _PROJECTION or any(_has_own(a) for a in arguments)


def projection(triples: Iterable[Sequence[int]], first: int, second: int, count: int) -> Role:
    """The role of the pairs (t[first], t[second]) of the triples t, as successor lists."""
    pairs: dict[int, set[int]] = {}
    for triple in triples:
        pairs.setdefault(triple[first], set()).add(triple[second])
    role: list[Sequence[int]] = [()] * count
    for a, successors in pairs.items():
        role[a] = sorted(successors)
    return role


def projection_with(role: Role, triples: Iterable[Sequence[int]], first: int, second: int) -> Role:
    """`role`, a projection, with the pairs of more triples: a new list, whose changed rows are new."""
    role = list(role)
    for triple in triples:
        a, b = triple[first], triple[second]
        if b not in role[a]:
            role[a] = sorted((*role[a], b))
    return role


def _meets(own: IndexedRoads, role: Role) -> Concept:
    """The objects k with a pair (x, y) both in k's own role and in `role`."""
    return frozenset(k for k in own.objects() if any(not set(role[x]).isdisjoint(ys) for x, ys in own(k).items()))


def _inverse(count: int, role: Role) -> Role:
    inverse: list[list[int]] = [[] for _ in range(count)]
    for a, successors in enumerate(role):
        for b in successors:
            inverse[b].append(a)
    return inverse


def _count(count: int, x: Concept | Role) -> int:
    return len(x) if isinstance(x, frozenset) else sum(map(len, x))


def _empty(count: int, x: Concept | Role) -> bool:
    return not x if isinstance(x, frozenset) else not any(x)


# dlplan's constructors that may take an argument built with ours, as dlplan defines them:
# name -> (arity, function of the object count and the arguments' denotations)
_GLUE: dict[str, tuple[int, Callable[..., object]]] = {
    "n_count": (1, _count),
    "n_role_distance": (3, lambda count, f, r, t: role_distance(f, lambda k: r, t)),
    "n_sum_role_distance": (3, lambda count, f, r, t: role_distance(f, lambda k: r, t, total=True)),
    "b_empty": (1, _empty),
    "c_and": (2, lambda count, a, b: a & b),
    "c_or": (2, lambda count, a, b: a | b),
    "c_diff": (2, lambda count, a, b: a - b),
    "c_not": (1, lambda count, a: frozenset(range(count)) - a),
    "c_some": (2, lambda count, r, c: frozenset(a for a, bs in enumerate(r) if not c.isdisjoint(bs))),
    "c_all": (2, lambda count, r, c: frozenset(a for a, bs in enumerate(r) if c.issuperset(bs))),
    # row by row, the rows whose result must be empty skipped (roles are sparse: a goal's pairs)
    "r_and": (2, lambda count, a, b: [sorted(set(x).intersection(y)) if x and y else () for x, y in zip(a, b)]),
    "r_or": (2, lambda count, a, b: [sorted(set(x).union(y)) if x or y else () for x, y in zip(a, b)]),
    "r_diff": (2, lambda count, a, b: [sorted(set(x).difference(y)) if x else () for x, y in zip(a, b)]),
    "r_inverse": (1, _inverse),
    "r_compose": (2, lambda count, a, b: [sorted({c for y in ys for c in b[y]}) if ys else () for ys in a]),
    "r_restrict": (2, lambda count, r, c: [[b for b in bs if b in c] for bs in r]),  # (a, b) with b in c
}


class DlplanOwnFeature:
    """A feature with constructors of ours as a dlplan element would be (evaluate on one state or
    a batch, complexity, its expression), on dlplan's states: `leaves` are the dlplan elements of
    the feature's leaves; `predicates` maps each ternary predicate it reads to its index in
    dlplan's vocabulary and whether it is static (read once per instance)."""

    def __init__(self, feature: OwnFeature, leaves: Sequence[object], predicates: dict[str, tuple[int, bool]]) -> None:
        self._feature, self._leaves, self._predicates = feature, leaves, predicates
        self._static_roles: dict[tuple[int, str], IndexedRoads] = {}  # (dlplan instance index, predicate) -> roles

    def compute_complexity(self) -> int:
        """As dlplan counts: one per constructor and per predicate, and the leaves' own."""
        def size(node: Expression) -> int:
            return 1 + sum(size(a) for a in node[1])
        own = size(self._feature.expression) - sum(size(leaf) for leaf in self._feature.leaves)
        return own + sum(leaf.compute_complexity() for leaf in self._leaves)

    def __str__(self) -> str:
        return self._feature.text(lambda number: str(self._leaves[number]))

    def evaluate(self, states, caches=None):
        """The value on a dlplan state, or the list of values on a list of states."""
        if isinstance(states, list):
            leaves = [leaf.evaluate(states, caches) for leaf in self._leaves]
            return [self._value(state, [d[i] for d in leaves]) for i, state in enumerate(states)]
        return self._value(states, [leaf.evaluate(states) if caches is None else leaf.evaluate(states, caches)
                                    for leaf in self._leaves])

    def _value(self, state: object, denotations: list[object]) -> int:
        count = len(state.get_instance_info().get_objects())
        leaves = [_python_denotation(d, count) for d in denotations]
        return self._feature.value(StateDenotations(leaves, lambda p: self._own_roles(state, p), count))

    def _own_roles(self, state: object, predicate: str) -> IndexedRoads:
        info = state.get_instance_info()
        index, static = self._predicates[predicate]
        if not static:
            atoms = info.get_atoms()
            return IndexedRoads(_triples((atoms[i] for i in state.get_atom_indices()), index))
        key = (info.get_index(), predicate)
        if key not in self._static_roles:
            self._static_roles[key] = IndexedRoads(_triples(info.get_static_atoms(), index))
        return self._static_roles[key]


def _python_denotation(denotation: object, count: int) -> object:
    """A dlplan concept denotation as its object indices, a role denotation as successor lists."""
    elements = denotation.to_vector()
    if isinstance(denotation, ConceptDenotation):
        return elements
    successors: list[list[int]] = [[] for _ in range(count)]
    for a, b in elements:
        successors[a].append(b)
    return successors


def _triples(atoms: Iterable[object], predicate_index: int) -> Iterable[tuple[int, int, int]]:
    for atom in atoms:
        if atom.get_predicate_index() == predicate_index:
            yield tuple(atom.get_object_indices())
