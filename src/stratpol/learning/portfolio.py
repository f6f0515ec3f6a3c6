"""A portfolio of learning settings tried in turn within one time budget, until one learns.

One configuration for every domain without an entry of its own, as the IPC learning track runs
its learners: the entries of `learning_settings.toml`'s `[portfolio]` in their order. Each entry
gets an equal share of the time left (what an entry that stops early leaves goes to those after
it); the pools and teacher plans are cached by content hash, so entries with the same teacher and
grammar share them, and the pool may run to the end of the whole budget.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from stratpol.features import Vocabulary
from stratpol.learning.result import LearningFailure, LearningTimeout, PortfolioAttempt, WrapperResult
from stratpol.learning.settings import NamedSettings
from stratpol.learning.wrapper import learn_with_settings
from stratpol.planning import Instance


def learn_with_portfolio(instances: Sequence[Instance], vocabulary: Vocabulary, entries: Sequence[NamedSettings],
                         cache: Path | None = None, seed: int = 0, time_limit: float | None = None,
                         pool_time_limit: int | None = None, checkpoint: Path | None = None,
                         progress: Callable[[str], None] = lambda message: None) -> WrapperResult:
    """The result of the first entry of `entries` that learns, with every attempt in
    `result.attempts`; a LearningFailure naming each entry's reason where none does. With
    `checkpoint` and more than one entry, each entry keeps its own (the file name with
    `.<entry>` added)."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    attempts: list[PortfolioAttempt] = []
    last_failure: LearningFailure | None = None
    for number, entry in enumerate(entries):
        share = None if deadline is None else (deadline - time.perf_counter()) / (len(entries) - number)
        if share is not None and share <= 0:
            break
        if len(entries) > 1:
            limit = "" if share is None else f", {share:,.0f} s"
            progress(f"portfolio entry {number + 1} of {len(entries)}: {entry.name}{limit} "
                     f"({entry.settings.describe()})")
        started = time.perf_counter()
        try:
            result = learn_with_settings(
                instances, vocabulary, entry.settings, cache, seed=seed, time_limit=share,
                pool_time_limit=pool_time_limit, progress=progress, pool_deadline=deadline,
                checkpoint=None if checkpoint is None or len(entries) == 1
                else checkpoint.with_name(f"{checkpoint.name}.{entry.name}"))
        except LearningFailure as failure:
            phases = {} if failure.statistics is None else dict(failure.statistics.seconds)
            attempts.append(PortfolioAttempt(entry.name, str(failure), time.perf_counter() - started, phases))
            last_failure = failure
            if len(entries) > 1:
                progress(f"portfolio entry {entry.name} failed: {failure}")
            continue
        attempts.append(PortfolioAttempt(entry.name, "learned", time.perf_counter() - started,
                                         dict(result.statistics.seconds)))
        return dataclasses.replace(result, settings=entry, attempts=tuple(attempts))
    if len(entries) == 1 and last_failure is not None:
        last_failure.attempts = tuple(attempts)
        raise last_failure
    reasons = "; ".join(f"{a.settings}: {a.outcome}" for a in attempts)
    kind = LearningTimeout if deadline is not None and time.perf_counter() >= deadline else LearningFailure
    failure = kind(f"no portfolio entry learned a policy ({reasons})" if attempts
                   else "time limit reached before the portfolio's first entry")
    if last_failure is not None:
        failure.statistics, failure.last_policy = last_failure.statistics, last_failure.last_policy
    failure.attempts = tuple(attempts)
    raise failure
