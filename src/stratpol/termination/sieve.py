"""SIEVE: the sound and complete structural termination test on the policy graph.

Repeatedly split the graph into strongly connected components and, in each, drop the edges that
decrease (increase) a numerical feature that no edge of the component increases (decreases): such
edges can be taken only finitely often in any trajectory. The policy terminates iff no cycle is
left. Exponential in the number of features (see `policy_graph`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import networkx as nx

from stratpol.policy.rules import Policy, Rule
from stratpol.termination.graph import MAX_EDGES, MAX_FEATURES, Edge, PolicyGraph, policy_graph


@dataclass(frozen=True)
class SieveResult:
    """The verdict; when not terminating, `cycle` is a closed walk of (valuation, rule) steps in
    which every numerical that some step decreases (increases) is also increased (decreased), so
    it can be repeated forever."""

    terminating: bool
    cycle: tuple[tuple[dict[str, bool], Rule], ...] = ()


def sieve_edges(edges: list[Edge]) -> list[Edge]:
    """The edges left when SIEVE stops: every one lies in a strongly connected component that the
    sieve cannot break further."""
    while True:
        graph = nx.DiGraph()
        graph.add_edges_from((e.source, e.target) for e in edges)
        component = {node: i for i, nodes in enumerate(nx.strongly_connected_components(graph)) for node in nodes}
        inner = [e for e in edges if component[e.source] == component[e.target]]
        increased: dict[int, int] = {}
        decreased: dict[int, int] = {}
        for e in inner:
            c = component[e.source]
            increased[c] = increased.get(c, 0) | e.increases
            decreased[c] = decreased.get(c, 0) | e.decreases
        kept = [e for e in inner
                if not e.decreases & ~increased[component[e.source]]
                and not e.increases & ~decreased[component[e.source]]]
        if len(kept) == len(edges):
            return kept
        edges = kept


def _witness(graph: PolicyGraph, left: list[Edge]) -> tuple[tuple[dict[str, bool], Rule], ...]:
    """A balanced closed walk through the component of the first edge left."""
    digraph = nx.DiGraph()
    for e in left:
        if not digraph.has_edge(e.source, e.target):
            digraph.add_edge(e.source, e.target, edge=e)
    first = left[0]
    component = nx.node_connected_component(digraph.to_undirected(as_view=True), first.source)
    edges = [e for e in left if e.source in component]

    def path(a: int, b: int) -> list[Edge]:
        nodes = nx.shortest_path(digraph, a, b)
        return [digraph.edges[u, v]["edge"] for u, v in pairwise(nodes)]

    start = first.source
    walk = [first, *path(first.target, start)]
    while True:
        increases = decreases = 0
        for e in walk:
            increases |= e.increases
            decreases |= e.decreases
        missing_up, missing_down = decreases & ~increases, increases & ~decreases
        if not missing_up and not missing_down:
            break
        fix = next(e for e in edges if e.increases & missing_up or e.decreases & missing_down)
        walk += [*path(start, fix.source), fix, *path(fix.target, start)]
    return tuple((graph.valuation(e.source), graph.rules[e.rule]) for e in walk)


def sieve(policy: Policy, max_features: int = MAX_FEATURES, max_edges: int = MAX_EDGES) -> SieveResult:
    """Whether `policy` terminates on every instance; ValueError above `max_features` features or
    `max_edges` edges of the policy graph."""
    graph = policy_graph(policy, max_features, max_edges)
    left = sieve_edges(list(graph.edges))
    if not left:
        return SieveResult(True)
    return SieveResult(False, _witness(graph, left))
