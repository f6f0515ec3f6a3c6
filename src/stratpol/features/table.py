"""Feature values on a set of states as numpy arrays: what the learner reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from dlplan.core import DenotationsCaches

from stratpol.features.vocabulary import InstanceBridge

if TYPE_CHECKING:  # the pool builds on this module
    from stratpol.features.pool import FeaturePool, PoolFeature
from stratpol.planning import State

INFINITY = np.iinfo(np.int32).max  # dlplan's value for an infinite concept distance


@dataclass
class FeatureTable:
    """values[i, j] is feature j on state i (int32; Booleans 0/1; an infinite distance is INFINITY)."""

    features: list[PoolFeature]
    values: np.ndarray

    @staticmethod
    def evaluate(features: FeaturePool | Sequence[PoolFeature],
                 states: Sequence[tuple[InstanceBridge, State]]) -> FeatureTable:
        """Evaluate every feature on every state, one batched dlplan call per feature."""
        dlplan_states = [bridge.state(state) for bridge, state in states]
        features = list(features)
        # int32 holds every value (dlplan's infinite distance is INFINITY) in half the memory of
        # int64: the published pools have up to 262,509 features over thousands of states
        values = np.empty((len(dlplan_states), len(features)), dtype=np.int32)
        # dlplan caches a batched evaluation by element, not by the list of states: a cache
        # shared between two calls with different states returns the first call's values
        caches = DenotationsCaches()
        for column, feature in enumerate(features):
            raw = feature.element.evaluate(dlplan_states, caches)
            values[:, column] = raw
        return FeatureTable(features, values)

    @property
    def valuations(self) -> np.ndarray:
        """Boolean valuation of every feature on every state (value > 0)."""
        return self.values > 0

    def changes(self, transitions: np.ndarray) -> np.ndarray:
        """Sign of each feature's change across each transition (rows of state-index pairs):
        -1 down, 0 unchanged, +1 up; Booleans change when their valuation does."""
        transitions = np.asarray(transitions, dtype=np.int64).reshape(-1, 2)
        return np.sign(self.values[transitions[:, 1]] - self.values[transitions[:, 0]]).astype(np.int8)

    def subset(self, columns: Sequence[int]) -> FeatureTable:
        columns = list(columns)
        return FeatureTable([self.features[c] for c in columns], self.values[:, columns])

    def __len__(self) -> int:
        return len(self.features)


def _first_of_each_group(signatures: np.ndarray) -> list[int]:
    """Column indices keeping the first column of every group of identical columns.

    Columns are grouped by a random linear hash (one 1-D sort instead of a sort of whole
    columns); the groups are then checked member by member, and a hash collision falls back to
    the exact sort."""
    if signatures.shape[1] == 0:
        return []
    weights = np.random.default_rng(0).integers(1, 2**63, size=signatures.shape[0], dtype=np.uint64)
    hashes = signatures.T.astype(np.uint64) @ weights  # wraps modulo 2**64, as intended
    _, first, group = np.unique(hashes, return_index=True, return_inverse=True)
    if not np.array_equal(signatures, signatures[:, first[group]]):
        _, first = np.unique(np.ascontiguousarray(signatures.T), axis=0, return_index=True)
    return sorted(first.tolist())


def prune_equivalent(table: FeatureTable, transitions: np.ndarray | None = None,
                     states: Sequence[int] = ()) -> list[int]:
    """Columns left after dropping S-equivalent features (same values on the states) and, when
    transitions are given, T-equivalent ones (same valuation at every source and at each of
    `states`, same change across every transition). The pool's order puts lower complexity
    first, so the kept one of a group is the simplest, then the earliest."""
    kept = _first_of_each_group(table.values)
    if transitions is None or len(transitions) == 0:
        return kept
    transitions = np.asarray(transitions, dtype=np.int64).reshape(-1, 2)
    reduced = table.subset(kept)
    sources = np.concatenate([transitions[:, 0], np.asarray(states, dtype=np.int64)])
    signature = np.concatenate([reduced.valuations[sources].astype(np.int8), reduced.changes(transitions)])
    return [kept[i] for i in _first_of_each_group(signature)]
