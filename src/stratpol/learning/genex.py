"""GENEX (Algorithm 1): a greedy hitting set of chains that keeps the policy stratified.

Each step adds the chain C_f of best score (requirements newly hit per unit of chain cost), so
every chosen feature comes with the features that make it monotone; chosen chains cost 0 and
the chains are updated from them. The order the chains impose is kept acyclic, checked at each step.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from stratpol.learning.chains import INFINITE, Chains, cheapest_chains, monotone, monotone_given
from stratpol.learning.hitting_set import HittingSetProblem, LearningExamples, Requirement


@dataclass(frozen=True)
class GenexFailure:
    """Why GENEX stopped: the requirements no eligible chain hits."""

    pending: tuple[tuple[Requirement, tuple[int, ...]], ...]

    def describe(self) -> str:
        kinds = {}
        for kind, _ in self.pending:
            kinds[kind.value] = kinds.get(kind.value, 0) + 1
        first_kind, first_rows = self.pending[0]
        counts = ", ".join(f"{n} {k}" for k, n in kinds.items())
        return f"no eligible feature hits {counts} requirement(s); first: {first_kind.value} {first_rows}"


@dataclass(frozen=True)
class GenexResult:
    """The chosen features (columns of the table), the chain links (g, f): f monotone given g,
    and each feature's rank (longest chain of links above it)."""

    features: tuple[int, ...]
    links: tuple[tuple[int, int], ...]
    ranks: dict[int, int] = field(default_factory=dict)
    cost: int = 0
    steps: int = 0


def genex(examples: LearningExamples, problem: HittingSetProblem, seed: int = 0) -> GenexResult | GenexFailure:
    """Algorithm 1 on H(F, X+, X-); ties in score are broken by a random choice seeded with `seed`."""
    table = examples.table
    changes = table.changes(examples.good)
    valuations = table.valuations[examples.good[:, 0]] if len(examples.good) else np.zeros((0, len(table)), bool)
    is_monotone = monotone(changes)
    given = monotone_given(changes, valuations)
    costs = problem.costs
    count = len(costs)
    rng = random.Random(seed)

    selected = np.zeros(count, dtype=bool)
    chains: Chains = cheapest_chains(costs, is_monotone, given)
    order = nx.DiGraph()
    pending = problem.all_requirements()
    steps = 0
    while np.bitwise_count(pending).sum():
        steps += 1
        reachable = (chains.cost < INFINITE) & ~selected
        scores = _chain_scores(problem, chains, pending, reachable)
        # best score first; eligibility (an acyclic order) is checked until the best group is found
        tied: list[int] = []
        positive = np.flatnonzero(scores > 0)
        for f in positive[np.lexsort((positive, -scores[positive]))].tolist():
            if tied and scores[f] < scores[tied[0]] * (1 - 1e-12):
                break
            if _keeps_acyclic(order, chains.chain(f)):
                tied.append(f)
        if not tied:
            return _failure(problem, pending)
        choice = rng.choice(tied)
        chain = chains.chain(choice)
        order.add_nodes_from(chain)
        order.add_edges_from(zip(chain, chain[1:]))
        selected[chain] = True
        pending = pending & ~problem.hit_by(chain)
        chains = cheapest_chains(costs, is_monotone, given, frozen=chains, selected=selected)
    features = tuple(sorted(int(f) for f in np.flatnonzero(selected)))
    links = tuple(sorted((int(g), int(f)) for g, f in order.edges))
    ranks = {f: 0 for f in features}
    for f in nx.topological_sort(order):
        for _, successor in order.out_edges(f):
            ranks[successor] = max(ranks[successor], ranks[f] + 1)
    return GenexResult(features, links, ranks, int(sum(costs[list(features)])), steps)


def _chain_scores(problem: HittingSetProblem, chains: Chains, pending: np.ndarray,
                  candidates: np.ndarray) -> np.ndarray:
    """score(f) = |pending requirements hit by C_f| / cost(C_f), for the candidate features."""
    hits = chains.hits(problem.bits & pending)
    newly = np.bitwise_count(hits).sum(axis=1, dtype=np.int64)
    scores = newly / np.maximum(chains.cost, 1)
    scores[~candidates] = 0
    return scores


def _keeps_acyclic(order: nx.DiGraph, chain: list[int]) -> bool:
    """Whether adding the chain's links to the order of chosen features leaves it acyclic:
    no new link (g, f) may close a path from f back to g."""
    new_links = [(g, f) for g, f in zip(chain, chain[1:]) if not order.has_edge(g, f)]
    if not new_links:
        return True
    trial = nx.DiGraph(order)
    trial.add_edges_from(new_links)
    return not any(nx.has_path(trial, f, g) for g, f in new_links)


def _failure(problem: HittingSetProblem, pending: np.ndarray) -> GenexFailure:
    open_rows = np.flatnonzero(np.unpackbits(pending, count=problem.size)).tolist()
    return GenexFailure(tuple((problem.kinds[r], problem.sources[r]) for r in open_rows))
