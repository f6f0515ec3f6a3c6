"""dlplan's feature syntax read as a tree, and what a feature reads of a state.

A description-logic feature sees a state only through the atoms of the predicates its primitives
name, so a transition whose action changes none of them leaves the feature's value as it was: a
policy run need not evaluate it on that successor.
"""

from __future__ import annotations

import re

from stratpol.features.vocabulary import GOAL_SUFFIX, projected_predicate
from stratpol.planning import Domain

Expression = tuple[str, tuple]  # (constructor or name, arguments)

_TOKEN = re.compile(r"\s*([^\s(),]+|[(),])")
# the constructors through which a predicate enters a feature, its name their first argument
_PRIMITIVES = frozenset({"c_primitive", "r_primitive", "b_nullary"})
# the constructors of ours (features/own_constructors.py), each reading a ternary predicate as
# one role per object, and the position of that predicate's name among their arguments
INDEXED_ROLE_DISTANCE = "n_indexed_role_distance"
INDEXED_MEETS = "c_indexed_meets"
OWN_CONSTRUCTORS = {INDEXED_ROLE_DISTANCE: 1, INDEXED_MEETS: 0}


def parse_expression(text: str) -> Expression:
    """dlplan's syntax as nested (name, arguments) tuples: `n_count(c_primitive(at,0))`."""
    tokens = _TOKEN.findall(text)
    position = 0

    def node() -> Expression:
        nonlocal position
        name = tokens[position]
        position += 1
        arguments = []
        if position < len(tokens) and tokens[position] == "(":
            position += 1
            while tokens[position] != ")":
                arguments.append(node())
                if tokens[position] == ",":
                    position += 1
            position += 1
        return name, tuple(arguments)

    try:
        tree = node()
    except IndexError:
        raise ValueError(f"unbalanced feature expression {text!r}") from None
    if position != len(tokens):
        raise ValueError(f"trailing text in feature expression {text!r}")
    return tree


def unparse_expression(expression: Expression) -> str:
    """The text of a parsed expression, in dlplan's syntax."""
    name, arguments = expression
    return f"{name}({','.join(map(unparse_expression, arguments))})" if arguments else name


# dlplan orders the two arguments of these by the order its factory first built them, so one
# feature prints differently after different histories (a fresh pool against a cached one)
_COMMUTATIVE = frozenset({"c_and", "c_or", "r_and", "r_or"})


def canonical_expression(text: str) -> str:
    """`text` with the arguments of each commutative constructor in alphabetical order: one text
    per feature, whatever the factory that printed it had built before. Texts without such a
    constructor (a fifth of a large pool) are returned without a parse."""
    if "_and(" not in text and "_or(" not in text:
        return text

    def canonical(node: Expression) -> str:
        name, arguments = node
        texts = [canonical(argument) for argument in arguments]
        if name in _COMMUTATIVE:
            texts.sort()
        return f"{name}({','.join(texts)})" if texts else name

    return canonical(parse_expression(text))


def fluent_predicates_read(description: str, domain: Domain) -> frozenset[str] | None:
    """The fluent predicates whose atoms the feature `description` reads, or None where that
    cannot be told (a derived predicate, which any change may change, or a name the domain lacks).
    Static predicates, types and goal copies `p_g` are fixed within an instance and not listed; a
    projection `p_i_j` reads p."""
    names: set[str] = set()

    def visit(node: Expression) -> None:
        name, arguments = node
        if name in _PRIMITIVES and arguments:
            names.add(arguments[0][0])
        elif name in OWN_CONSTRUCTORS:
            names.add(arguments[OWN_CONSTRUCTORS[name]][0])
        for argument in arguments:
            visit(argument)

    visit(parse_expression(description))
    fluent = set()
    for name in names:
        projected = projected_predicate(name, domain.predicates)
        if projected is not None:  # a binary projection p_i_j reads the atoms of p
            name = projected[0]
        if name in domain.derived_predicates:
            return None
        if name in domain.static_predicates or name in domain.types:
            continue
        if name in domain.predicates:
            fluent.add(name)
        elif not (name.endswith(GOAL_SUFFIX) and name[:-len(GOAL_SUFFIX)] in domain.predicates):
            return None
    return frozenset(fluent)
