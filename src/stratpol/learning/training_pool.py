"""The feature pool WRAPPER learns with: generated on the states of every example plan (the
published learner), or incrementally on the states of the training files in use."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from stratpol.features import FeaturePool, Grammar, Vocabulary, generate_pool
from stratpol.features.vocabulary import InstanceBridge
from stratpol.learning.examples import Example
from stratpol.learning.result import LearningStatistics, LearningTimeout
from stratpol.learning.rows import FeatureRows
from stratpol.planning import State


def training_pool(vocabulary: Vocabulary, plans: Sequence[tuple[InstanceBridge, Sequence[State]]], grammar: Grammar,
                  deadline: float | None = None, cache_dir: Path | None = None,
                  progress: Callable[[str], None] = lambda message: None) -> FeaturePool:
    """The pool on every state of `plans` (each an instance's bridge and plan states), as the
    published learner generates it. With `deadline` the pool gets what is left of the time (where
    that is less than the grammar's limit), and says so if it is cut."""
    on = [(bridge, s) for bridge, states in plans for s in states]
    if deadline is not None:
        left = deadline - time.perf_counter()
        if left <= 0:
            raise LearningTimeout("time limit reached before the feature pool")
        if left < grammar.time_limit:
            grammar = dataclasses.replace(grammar, time_limit=max(1, int(left)))
    progress(f"feature pool: generating on {len(on):,} states (complexity {grammar.complexity_limit})")
    return generate_pool(vocabulary, on, grammar, cache_dir=cache_dir, progress=progress)


class IncrementalPool:
    """A pool generated on the states of the files WRAPPER uses, not on every plan of the training
    set: first on the plan states of Q', and again, on more states, as files join Q' (`extend`)
    or where GENEX finds no features on it (`extend` with `touched`: the states repairs added).
    Each generation is cached by its states' content hash, as a whole pool is."""

    def __init__(self, vocabulary: Vocabulary, grammar: Grammar, deadline: float | None, cache_dir: Path | None,
                 statistics: LearningStatistics, progress: Callable[[str], None]) -> None:
        self.vocabulary, self.grammar, self.deadline, self.cache_dir = vocabulary, grammar, deadline, cache_dir
        self.statistics, self.progress = statistics, progress
        self.on: set[int] = set()  # the rows the pool was generated on

    def extend(self, examples: Sequence[Example], subset: Sequence[int], rows: FeatureRows,
               touched: bool = False) -> bool:
        """Generate the pool again where the examples `subset` have states it was not generated on
        (their plan states; with `touched`, every state their transitions read); whether it did."""
        wanted = set(self.on)
        for number in subset:
            example = examples[number]
            wanted.update(example.plan)
            if touched:
                wanted.update(r for pair in (*example.good, *example.bad) for r in pair)
                wanted.update(example.relevant)
        if wanted <= self.on:
            return False
        started = time.perf_counter()
        grouped: dict[int, tuple[InstanceBridge, list[State]]] = {}
        for row in sorted(wanted):
            bridge, state = rows.entries[row]
            grouped.setdefault(rows.numbers[row], (bridge, []))[1].append(state)
        pool = training_pool(self.vocabulary, list(grouped.values()), self.grammar, self.deadline, self.cache_dir,
                             self.progress)
        rows.replace_pool(pool)
        self.on = wanted
        self.statistics.pool, self.statistics.pool_generation = len(pool), pool.generation
        self.statistics.pool_extensions += 1
        self.statistics.add_time("pool", started)
        self.progress(f"feature pool: {len(pool):,} features on the states of {len(grouped)} of {len(examples)} "
                      f"files ({pool.generation.describe()})")
        return True
