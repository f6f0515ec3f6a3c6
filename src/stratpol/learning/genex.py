"""GENEX (Algorithm 1): a greedy hitting set of chains that keeps the policy stratified.

Each step adds the chain C_f of best score (requirements newly hit per unit of chain cost), so
every chosen feature comes with the features that make it monotone; chosen chains cost 0 and
the chains are updated from them. The order the chains impose stays acyclic: a new link always
points into a feature not chosen yet, and the policy is 1-stratified.
`lexicographic_genex` (not the paper's either) ranks the features as the termination checker does.
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
    """The chosen features (columns of the table), the links (g, f): f monotone given g, and each
    feature's rank (longest chain of links above it, or its place in a lexicographic choice)."""

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
        # the best score's group, in the order (score, index). A chain's new links all point into
        # features not chosen yet, which have no links out, so the order stays acyclic by
        # construction (the topological sort below would raise otherwise)
        choice = _best(scores, rng)
        if choice is None:
            return _failure(problem, pending)
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


def _best(scores: np.ndarray, rng: random.Random) -> int | None:
    """A feature of the best positive score, drawn among those tied with it in index order; None
    where no score is positive."""
    positive = np.flatnonzero(scores > 0)
    if not len(positive):
        return None
    ranked = positive[np.lexsort((positive, -scores[positive]))].tolist()
    return rng.choice([f for f in ranked if scores[f] >= scores[ranked[0]] * (1 - 1e-12)])


def _failure(problem: HittingSetProblem, pending: np.ndarray) -> GenexFailure:
    open_rows = np.flatnonzero(np.unpackbits(pending, count=problem.size)).tolist()
    return GenexFailure(tuple((problem.kinds[r], problem.sources[r]) for r in open_rows))


def lexicographic_genex(examples: LearningExamples, problem: HittingSetProblem, seed: int = 0,
                        contexts: bool = True) -> GenexResult | GenexFailure:
    """GENEX with the termination checker's ranking instead of chains (not the paper's).

    The features are chosen one after another, and a feature is eligible when it is monotone over
    the good transitions that no feature chosen before it changes: on the others an earlier
    feature already moves the one way it moves. This is the checker's ranking over settled rules
    (`stratification_certificate`), one feature per stage, so the policy is certified as chains
    certify it, and more features qualify: a feature that moves both ways on the good
    transitions, but only one way on those that leave every feature ranked above it unchanged
    (Satellite: the pointing goals that turns towards images and calibration targets leave).
    With `contexts`, a feature is also eligible when it is monotone given one chosen feature g
    there (in each of g's two truth values at the source): a 1-stratification as well.
    Scores and ties are GENEX's: requirements newly hit per unit of cost."""
    table = examples.table
    changes = table.changes(examples.good)
    valuations = table.valuations[examples.good[:, 0]] if len(examples.good) else np.zeros((0, len(table)), bool)
    costs = problem.costs
    rng = random.Random(seed)
    selected = np.zeros(len(costs), dtype=bool)
    unsettled = np.ones(len(changes), dtype=bool)
    chosen: list[int] = []
    links: list[tuple[int, int]] = []
    pending = problem.all_requirements()
    while np.bitwise_count(pending).sum():
        left = changes[unsettled]
        eligible = monotone(left)
        given = np.full(len(costs), -1)
        if contexts:
            for g in chosen:
                truth = valuations[unsettled, g]
                both = monotone(left[truth]) & monotone(left[~truth])
                given[both & ~eligible & (given < 0)] = g
        eligible = (eligible | (given >= 0)) & ~selected
        newly = np.bitwise_count(problem.bits & pending).sum(axis=1, dtype=np.int64)
        scores = np.where(eligible, newly / np.maximum(costs, 1), 0.0)
        choice = _best(scores, rng)
        if choice is None:
            return _failure(problem, pending)
        if given[choice] >= 0:
            links.append((int(given[choice]), choice))
        chosen.append(choice)
        selected[choice] = True
        pending = pending & ~problem.hit_by([choice])
        unsettled &= changes[:, choice] == 0
    ranks = {f: rank for rank, f in enumerate(chosen)}
    return GenexResult(tuple(sorted(chosen)), tuple(sorted(links)), ranks, int(costs[chosen].sum()), len(chosen))
