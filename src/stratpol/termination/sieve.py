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
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from stratpol.policy.rules import Policy, Rule
from stratpol.termination.graph import MAX_EDGES, MAX_FEATURES, Edge, PolicyGraph, policy_graph


@dataclass(frozen=True)
class SieveResult:
    """The verdict; when not terminating, `cycle` is a closed walk of (valuation, rule) steps in
    which every numerical that some step decreases (increases) is also increased (decreased), so
    it can be repeated forever."""

    terminating: bool
    cycle: tuple[tuple[dict[str, bool], Rule], ...] = ()


def sieve_edges(graph: PolicyGraph) -> np.ndarray:
    """The indices of the edges left when SIEVE stops: every one lies in a strongly connected
    component that the sieve cannot break further."""
    nodes = 1 << len(graph.features)
    left = np.arange(len(graph))
    while len(left):
        source, target = graph.source[left], graph.target[left]
        _, component = _components(graph, left)
        inner = component[source] == component[target]
        left, where = left[inner], component[source[inner]]
        increased = np.zeros(nodes, dtype=np.int64)
        decreased = np.zeros(nodes, dtype=np.int64)
        np.bitwise_or.at(increased, where, graph.increases[left])
        np.bitwise_or.at(decreased, where, graph.decreases[left])
        kept = ((graph.decreases[left] & ~increased[where]) == 0) & ((graph.increases[left] & ~decreased[where]) == 0)
        if kept.all() and inner.all():
            return left
        left = left[kept]
    return left


def _components(graph: PolicyGraph, edges: np.ndarray) -> tuple[int, np.ndarray]:
    """The strongly connected components of the graph's nodes over `edges` (indices): their
    number and each node's label."""
    nodes = 1 << len(graph.features)
    adjacency = csr_matrix((np.ones(len(edges), dtype=np.int32), (graph.source[edges], graph.target[edges])),
                           shape=(nodes, nodes))
    return connected_components(adjacency, directed=True, connection="strong")


def _witness(graph: PolicyGraph, left: np.ndarray) -> tuple[tuple[dict[str, bool], Rule], ...]:
    """A balanced closed walk through the component of the first edge left."""
    _, component = _components(graph, left)
    first_component = component[graph.source[left[0]]]
    edges = [graph.edge(i) for i in left if component[graph.source[i]] == first_component]
    digraph = nx.DiGraph()
    for e in edges:
        if not digraph.has_edge(e.source, e.target):
            digraph.add_edge(e.source, e.target, edge=e)
    first = edges[0]

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
    left = sieve_edges(graph)
    if not len(left):
        return SieveResult(True)
    return SieveResult(False, _witness(graph, left))
