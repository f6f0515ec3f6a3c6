"""Shared by the termination tests: random policies, and independent checks of SIEVE's answers
against concrete integer trajectories judged by `stratpol.policy.rules.accepts`."""

from __future__ import annotations

from itertools import product

import networkx as nx
from hypothesis import strategies as st

from stratpol.policy import Change, Feature, Kind, Policy, Rule, accepts
from stratpol.policy.text import parse_policy

CONDITIONS = [None, None, None, True, False]
EFFECTS = [None, None, None, Change.UP, Change.DOWN, Change.DOWN, Change.ANY]


def policy(text: str) -> Policy:
    """A policy in the readable format (features first, then rules)."""
    return parse_policy(text)


# the four-rule Gripper policy of section 5.1 of the GENEX paper
GRIPPER = policy("""
boolean A
numerical m
numerical n
{n > 0} -> {n down, m?}
{m > 0} -> {m down}
{A, m > 0} -> {not A}
{not A, m = 0} -> {A}
""")


@st.composite
def policies(draw, max_features: int = 6, max_rules: int = 10) -> Policy:
    """Random policies over features f0, f1, ... of mixed kinds. Effects lean towards decreases so
    that a fair share of the draws is stratified."""
    kinds = draw(st.lists(st.sampled_from(Kind), min_size=1, max_size=max_features))
    features = [Feature(f"f{i}", kind) for i, kind in enumerate(kinds)]
    rules = []
    for _ in range(draw(st.integers(0, max_rules))):
        conditions = {f.name: c for f in features if (c := draw(st.sampled_from(CONDITIONS))) is not None}
        effects = {f.name: e for f in features if (e := draw(st.sampled_from(EFFECTS))) is not None}
        rules.append(Rule.of(conditions, effects))
    return Policy.of(features, rules)


def realize(policy: Policy, cycle) -> list[dict[str, int]]:
    """Concrete integer feature values along a SIEVE witness, one more than steps, the last equal
    to the first: proof that the closed walk can be repeated forever (see the sieve tests)."""
    length = len(cycle)
    values: list[dict[str, int]] = [{} for _ in range(length + 1)]
    for feature in policy.features:
        name = feature.name
        bits = [bool(cycle[i % length][0].get(name, False)) for i in range(length + 1)]
        kinds = [cycle[i][1].effect.get(name) for i in range(length)]
        xs = _realize_numerical(bits, kinds) if not feature.is_boolean else [int(b) for b in bits]
        for i, x in enumerate(xs):
            values[i][name] = x
    return values


def _realize_numerical(bits: list[bool], changes: list[Change | None]) -> list[int]:
    length = len(changes)
    if not any(bits):
        return [0] * (length + 1)
    if all(bits):
        ups = [i for i, c in enumerate(changes) if c is Change.UP]
        downs = [i for i, c in enumerate(changes) if c is Change.DOWN]
        anys = [i for i, c in enumerate(changes) if c is Change.ANY]
        delta = [0] * length
        if ups and downs:
            for i in ups:
                delta[i] = len(downs)
            for i in downs:
                delta[i] = -len(ups)
        elif ups or downs:  # a balanced witness has an n? step to make up for them
            for i in ups or downs:
                delta[i] = 1 if ups else -1
            delta[anys[0]] = -len(ups) if ups else len(downs)
        start = 1 + sum(abs(d) for d in delta)
        xs = [start]
        for d in delta:
            xs.append(xs[-1] + d)
        return xs
    # from a zero on, each stretch 0 -> positive ... -> 0 rises by one more than it falls inside
    offset = bits.index(False)
    at = [(offset + t) % length for t in range(length + 1)]
    ys = [0] * (length + 1)
    t = 0
    while t < length:
        j = t + 1
        while bits[at[j]]:
            j += 1
        if j > t + 1:
            inside = [changes[at[s]] for s in range(t + 1, j - 1)]
            ys[t + 1] = 1 + sum(c is Change.DOWN for c in inside)
            for s, c in enumerate(inside, start=t + 1):
                ys[s + 1] = ys[s] + {Change.UP: 1, Change.DOWN: -1}.get(c, 0)
        t = j
    return [ys[(i - offset) % length] for i in range(length + 1)]


def concrete_cycle(policy: Policy, bound: int) -> bool:
    """Whether the concrete graph over values 0..bound (Booleans 0/1), with transitions judged
    by `accepts`, has a cycle."""
    kinds = policy.kinds
    ranges = [range(2) if kind is Kind.BOOLEAN else range(bound + 1) for kind in kinds.values()]
    states = [dict(zip(kinds, values)) for values in product(*ranges)]
    graph = nx.DiGraph()
    for i, source in enumerate(states):
        usable = [r for r in policy.rules if all((source[name] > 0) is value for name, value in r.conditions)]
        for j, target in enumerate(states):
            if any(accepts(rule, kinds, source, target) for rule in usable):
                graph.add_edge(i, j)
    return not nx.is_directed_acyclic_graph(graph)


def assert_real_witness(policy: Policy, cycle) -> None:
    """The witness is a closed walk that concrete values can follow forever: each step's rule
    accepts the step, and the values come back to where they started."""
    assert cycle
    values = realize(policy, cycle)
    assert values[0] == values[-1]
    kinds = policy.kinds
    for i, (valuation, rule) in enumerate(cycle):
        assert {name: values[i][name] > 0 for name in valuation} == valuation
        assert accepts(rule, kinds, values[i], values[i + 1]), (i, values)
