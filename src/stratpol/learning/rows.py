"""The learner's rows of the feature table: one per (instance, state) that learning touched."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from stratpol.features import FeatureTable
from stratpol.features.pool import FeaturePool, PoolFeature
from stratpol.features.vocabulary import InstanceBridge
from stratpol.planning import State


class FeatureRows:
    """Rows numbered as learning meets their states. A row's values are computed when a learning
    problem first reads it, so memory grows with the rows the subsets Q' use, not with every
    plan state of the training set."""

    def __init__(self, pool: FeaturePool) -> None:
        self.pool = list(pool)
        self._generated = list(pool)  # the pool as given, without the features added
        self.added: list[PoolFeature] = []  # features beyond the pool (synthesis), in the order added
        self.index: dict[tuple[int, int], int] = {}
        self.entries: list[tuple[InstanceBridge, State]] = []
        self.numbers: list[int] = []  # row -> the number of its instance
        self._slot: dict[int, int] = {}  # row -> its line in _values
        self._values = np.zeros((0, len(self.pool)), dtype=np.int32)  # capacity doubles when full

    def replace_pool(self, pool: FeaturePool) -> None:
        """The same rows over another pool (an incremental pool extended), and the features added
        to the one before: every row keeps its number, its values are computed again when next read."""
        self._generated = list(pool)
        present = {f.description for f in self._generated}
        self.pool = [*self._generated, *(f for f in self.added if f.description not in present)]
        self._slot = {}
        self._values = np.zeros((0, len(self.pool)), dtype=np.int32)

    def add_features(self, features: Sequence[PoolFeature]) -> None:
        """Features found beyond the pool (synthesis), kept over every later pool too."""
        self.added.extend(features)
        self.replace_pool(FeaturePool(self._generated))

    def row(self, instance: int, bridge: InstanceBridge, state: State) -> int:
        """The row of `state` of instance number `instance` (a new one where it is new)."""
        key = (instance, state.index)
        if key not in self.index:
            self.index[key] = len(self.entries)
            self.entries.append((bridge, state))
            self.numbers.append(instance)
        return self.index[key]

    def step_changes(self, source: int, targets: Sequence[int]) -> np.ndarray:
        """Each pool feature's change across the step from row `source` to each of `targets`
        (one line per target)."""
        return self.table([source, *targets]).changes([(0, i) for i in range(1, len(targets) + 1)])

    def table(self, rows: Sequence[int]) -> FeatureTable:
        """The feature table of `rows`, in that order (its row i is rows[i])."""
        missing = sorted({r for r in rows if r not in self._slot})
        if missing:
            needed = len(self._slot) + len(missing)
            if needed > len(self._values):
                grown = np.empty((max(needed, 2 * len(self._values)), len(self.pool)), dtype=np.int32)
                grown[:len(self._slot)] = self._values[:len(self._slot)]
                self._values = grown
            first = len(self._slot)
            self._values[first:needed] = FeatureTable.evaluate(self.pool, [self.entries[r] for r in missing]).values
            self._slot.update((r, first + i) for i, r in enumerate(missing))
        return FeatureTable(self.pool, self._values[[self._slot[r] for r in rows]])
