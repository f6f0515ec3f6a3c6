"""The "monotone given" relation GENEX chains through, against its definition (Def. 4)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.learning.chains import INFINITE, cheapest_chains, monotone, monotone_given


def _by_definition(changes: np.ndarray, valuations: np.ndarray) -> np.ndarray:
    """f monotone given g: over the transitions leaving g unchanged at 0, if any, f moves in
    exactly one direction, and likewise over those leaving g unchanged above 0."""
    count = changes.shape[1]
    dense = np.zeros((count, count), dtype=bool)
    for g in range(count):
        for f in range(count):
            if f == g:
                continue
            ok = True
            for positive in (False, True):
                rows = (changes[:, g] == 0) & (valuations[:, g] == positive)
                moved = changes[rows, f]
                if rows.any():
                    ok &= (moved > 0).any() != (moved < 0).any()
            dense[g, f] = ok
    return dense


def _random_transitions(rng, transitions: int, features: int) -> tuple[np.ndarray, np.ndarray]:
    """Random changes in {-1, 0, 1} and source valuations of `features` over `transitions`."""
    changes = rng.integers(-1, 2, size=(transitions, features), dtype=np.int8)
    return changes, rng.random((transitions, features)) < 0.5


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 20), st.integers(1, 14), st.integers(0, 2**32 - 1))
def test_monotone_given_matches_the_definition(transitions, features, seed):
    rng = np.random.default_rng(seed)
    changes, valuations = _random_transitions(rng, transitions, features)
    relation = monotone_given(changes, valuations)
    expected = _by_definition(changes, valuations)
    assert np.array_equal(relation[np.arange(features)], expected)
    assert sorted(map(tuple, relation.pairs().tolist())) == sorted(map(tuple, np.argwhere(expected).tolist()))
    block = rng.permutation(features)[: max(1, features // 2)]
    assert np.array_equal(relation[block], expected[block])


def test_features_with_one_context_share_one_row():
    # two features never change and hold the same value everywhere: one row serves both
    changes = np.array([[0, 0, 1], [0, 0, -1]], dtype=np.int8)
    valuations = np.array([[True, True, False], [True, True, True]])
    relation = monotone_given(changes, valuations)
    assert relation.row_of[0] == relation.row_of[1]
    assert not relation[np.array([0])][0, 2]  # feature 2 goes up and down where 0 is unchanged and true
    # feature 1 never moves where 0 is unchanged: no progress there, so not monotone given 0
    assert not relation[np.array([0])][0, 1] and not relation[np.array([0])][0, 0]


def test_a_feature_that_changes_everywhere_gives_every_feature_a_chain():
    # g changes on every transition: both its contexts are empty, so every f is monotone given g
    changes = np.array([[1, 1, 0], [-1, -1, 0]], dtype=np.int8)
    valuations = np.array([[False, True, True], [True, True, True]])
    relation = monotone_given(changes, valuations)
    assert relation[np.array([0])][0].tolist() == [False, True, True]


def _chains_by_rounds(costs, is_monotone, dense, selected, start=None):
    """Reference relaxation on the dense relation: each round, f takes the cheapest (then lowest)
    g among the features improved in the round before; from `start` (costs, predecessors) the
    first round relaxes from the features selected since."""
    count = len(costs)
    if start is None:
        cost = np.where(is_monotone, costs, INFINITE).astype(np.int64)
        predecessor = np.full(count, -1)
        frontier = [g for g in range(count) if selected[g] or cost[g] < INFINITE]
    else:
        cost, predecessor = start[0].copy(), start[1].copy()
        frontier = [g for g in range(count) if selected[g] and cost[g] > 0]
    cost[selected] = 0
    while frontier:
        better = []
        for f in range(count):
            options = [(cost[g], g) for g in frontier if dense[g, f]]
            if options and not selected[f]:
                value, g = min(options)
                if value + costs[f] < cost[f]:
                    better.append((f, value + costs[f], g))
        for f, value, g in better:
            cost[f], predecessor[f] = value, g
        frontier = [f for f, _, _ in better]
    return cost, predecessor


def _random_chain_problem(seed: int, transitions: int, features: int):
    """Random transitions with their costs, monotone features, "monotone given" relation (fast
    and dense), and the generator for further random choices."""
    rng = np.random.default_rng(seed)
    changes, valuations = _random_transitions(rng, transitions, features)
    costs = rng.integers(1, 4, size=features)
    return rng, costs, monotone(changes), monotone_given(changes, valuations), _by_definition(changes, valuations)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 10), st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_cheapest_chains_match_the_relaxation_on_the_dense_relation(transitions, features, seed):
    rng, costs, is_monotone, relation, dense = _random_chain_problem(seed, transitions, features)
    selected = rng.random(features) < 0.2  # chosen features cost 0
    chains = cheapest_chains(costs, is_monotone, relation, selected=selected)
    cost, predecessor = _chains_by_rounds(costs, is_monotone, dense, selected)
    assert chains.cost.tolist() == cost.tolist() and chains.predecessor.tolist() == predecessor.tolist()


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 10), st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_chains_after_a_selection_relax_from_the_selected_features(transitions, features, seed):
    rng, costs, is_monotone, relation, dense = _random_chain_problem(seed, transitions, features)
    before = rng.random(features) < 0.1
    after = before | (rng.random(features) < 0.2)
    earlier = cheapest_chains(costs, is_monotone, relation, selected=before)
    chains = cheapest_chains(costs, is_monotone, relation, frozen=earlier, selected=after)
    cost, predecessor = _chains_by_rounds(costs, is_monotone, dense, after, (earlier.cost, earlier.predecessor))
    assert chains.cost.tolist() == cost.tolist() and chains.predecessor.tolist() == predecessor.tolist()
    # the same cheapest costs as relaxing from scratch; only ties between predecessors may differ
    assert cost.tolist() == _chains_by_rounds(costs, is_monotone, dense, after)[0].tolist()
