"""A policy carried to another spelling of its domain: the predicates its features name, renamed.

Benchmark sets spell one domain in more than one way (gp2024's spanner says `useable` where IPC
2023's says `usable`), so a policy learned on one set runs on the other when its vocabulary maps.
Only the names change; the features, rules and so the termination certificate are the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from stratpol.features.vocabulary import GOAL_SUFFIX
from stratpol.policy.rules import Policy

# the constructors of dlplan's feature syntax that name a predicate, and that name
_PREDICATE = re.compile(r"\b(c_primitive|r_primitive|b_nullary)\(([^,()]+)")


def rename_predicates(policy: Policy, renaming: Mapping[str, str], domain: str | None = None) -> Policy:
    """`policy` with each predicate OLD of `renaming` (and its goal copy OLD_g) named NEW, for the
    domain named `domain` (default: the policy's own)."""
    def renamed(match: re.Match) -> str:
        name = match.group(2)
        goal = name.endswith(GOAL_SUFFIX) and name.removesuffix(GOAL_SUFFIX) in renaming
        base = name.removesuffix(GOAL_SUFFIX) if goal else name
        return f"{match.group(1)}({renaming.get(base, base)}{GOAL_SUFFIX if goal else ''}"

    features = [replace(f, description=_PREDICATE.sub(renamed, f.description)) for f in policy.features]
    return Policy.of(features, policy.rules, domain or policy.domain)
