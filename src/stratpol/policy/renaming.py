"""A policy carried to another spelling of its domain: the predicates its features name, renamed.

Benchmark sets spell one domain in more than one way (gp2024's spanner says `useable` where IPC
2023's says `usable`), so a policy learned on one set runs on the other when its vocabulary maps.
Only the names change; the features, rules and so the termination certificate are the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from stratpol.features.expression import OWN_CONSTRUCTORS, Expression, parse_expression, unparse_expression
from stratpol.features.vocabulary import GOAL_SUFFIX
from stratpol.policy.rules import Policy

# the constructors of a feature that name a predicate, and the position of that name
_PREDICATE_POSITION = {"c_primitive": 0, "r_primitive": 0, "b_nullary": 0, **OWN_CONSTRUCTORS}


def rename_predicates(policy: Policy, renaming: Mapping[str, str], domain: str | None = None) -> Policy:
    """`policy` with each predicate OLD of `renaming` (and its goal copy OLD_g) named NEW, for the
    domain named `domain` (default: the policy's own)."""
    def renamed(name: str) -> str:
        goal = name.endswith(GOAL_SUFFIX) and name.removesuffix(GOAL_SUFFIX) in renaming
        base = name.removesuffix(GOAL_SUFFIX) if goal else name
        return renaming.get(base, base) + (GOAL_SUFFIX if goal else "")

    def visit(node: Expression) -> Expression:
        name, arguments = node
        arguments = tuple(map(visit, arguments))
        position = _PREDICATE_POSITION.get(name)
        if position is not None and len(arguments) > position:
            predicate = arguments[position][0]
            arguments = (*arguments[:position], (renamed(predicate), ()), *arguments[position + 1:])
        return name, arguments

    features = [replace(f, description=unparse_expression(visit(parse_expression(f.description))))
                if f.description else f for f in policy.features]
    return Policy.of(features, policy.rules, domain or policy.domain)
