"""Which way the pool's features moved across the good transitions: what WRAPPER scores a step
by where it may choose one (ordered repairs, detours in Edge replanning) without a GENEX call."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from stratpol.learning.hitting_set import LearningExamples


@dataclass(frozen=True)
class FeatureDirections:
    """Features (pool columns) and whether each increased, and whether it decreased, across some
    good transition."""

    columns: np.ndarray
    up: np.ndarray
    down: np.ndarray

    @classmethod
    def of(cls, examples: LearningExamples, columns: Sequence[int],
           features: Sequence[int] | None = None) -> FeatureDirections:
        """Over `examples.good`, for `features` (columns of `examples.table`; all by default), where
        `examples.table` holds the pool's `columns`."""
        chosen = np.arange(len(columns)) if features is None else np.asarray(features, dtype=np.int64)
        changes = examples.table.changes(examples.good)[:, chosen]
        return cls(np.asarray(columns)[chosen], (changes > 0).any(axis=0), (changes < 0).any(axis=0))

    def key(self, changes: np.ndarray) -> tuple[int, int]:
        """For one step's changes of the pool's features: (how many features move against the one
        direction they moved in, 0 where one moves along it else 1); lower is better."""
        moves = changes[self.columns]
        against = ((moves > 0) & self.down & ~self.up) | ((moves < 0) & self.up & ~self.down)
        along = ((moves > 0) & self.up & ~self.down) | ((moves < 0) & self.down & ~self.up)
        return int(against.sum()), 0 if along.any() else 1

    def orders(self, changes: np.ndarray) -> bool:
        """Whether some feature moves across the step and stays monotone with it: one a rule could
        order the step by, as far as the good transitions alone tell (not chains)."""
        moves = changes[self.columns]
        return bool((((moves > 0) & ~self.down) | ((moves < 0) & ~self.up)).any())
