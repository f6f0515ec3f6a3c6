"""The feature pool WRAPPER learns with: generated on the states of the example plans."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from stratpol.features import FeaturePool, Grammar, Vocabulary, generate_pool
from stratpol.features.vocabulary import InstanceBridge
from stratpol.learning.result import LearningTimeout
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
