"""The hitting-set problem H(F, X+, X-) of the basic learning task (Definition 12).

Transitions and states are rows of a FeatureTable. Requirements are feature subsets; each
feature keeps the requirements it hits as a bitset (numpy uint8, packed), so thousands of
requirements over 100,000 features stay cheap and set operations are whole-array ones:
  Edge     one per good transition: the features that change across it;
  Deadend  one per (bad, good) pair: the features that change differently across the two or
           have another valuation at their sources (the paper compares changes only; with the
           valuation too the requirement is exact for the projected policy, whose rules carry
           the full valuation, and simplification re-checks X- on every step);
  Goal     one per (goal state, non-goal state) pair: the features whose valuation differs.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

from stratpol.features.table import FeatureTable


class Requirement(enum.Enum):
    EDGE = "Edge"
    DEADEND = "Deadend"
    GOAL = "Goal"


@dataclass(frozen=True)
class LearningExamples:
    """Good and bad transitions and goal/non-goal pairs, as row indices into `table`."""

    table: FeatureTable
    good: np.ndarray  # (m, 2)
    bad: np.ndarray  # (k, 2)
    goal_pairs: np.ndarray  # (p, 2): (goal state, non-goal state) of the same instance

    @staticmethod
    def of(table: FeatureTable, good, bad=(), goal_pairs=()) -> LearningExamples:
        shape = lambda a: np.asarray(a, dtype=np.int64).reshape(-1, 2)  # noqa: E731
        return LearningExamples(table, shape(good), shape(bad), shape(goal_pairs))


@dataclass(frozen=True)
class HittingSetProblem:
    """`bits[f]` is the bitset of requirements feature f hits (np.packbits order)."""

    bits: np.ndarray  # uint8 (features, ceil(requirements / 8))
    kinds: tuple[Requirement, ...]
    sources: tuple[tuple[int, ...], ...]  # per requirement: the example rows it came from
    costs: np.ndarray  # per feature

    @property
    def size(self) -> int:
        return len(self.kinds)

    def all_requirements(self) -> np.ndarray:
        """The bitset with every requirement."""
        return np.packbits(np.ones(self.size, dtype=bool))

    def hit_by(self, features) -> np.ndarray:
        """The bitset of requirements hit by some of `features`."""
        features = list(features)
        if not features:
            return np.zeros(self.bits.shape[1], dtype=np.uint8)
        return np.bitwise_or.reduce(self.bits[features], axis=0)

    def unhittable(self) -> list[int]:
        """Requirements no feature hits: the problem has no solution."""
        hit = np.unpackbits(self.hit_by(range(len(self.bits))), count=self.size).astype(bool)
        return np.flatnonzero(~hit).tolist()

    def is_hit_by(self, features) -> bool:
        return bool(np.bitwise_count(self.hit_by(features)).sum() == self.size)

    def dense(self) -> np.ndarray:
        """hits[r, f] as a boolean matrix (for small problems and the exact solver)."""
        return np.unpackbits(self.bits, axis=1, count=self.size).astype(bool).T


def requirement_hits(values: np.ndarray, kind: Requirement, rows: np.ndarray) -> np.ndarray:
    """Whether the feature of `values` (one per row of the table) hits each requirement of `kind`
    read from the rows `rows`: (r, 2) transitions for Edge, (r, 2) goal pairs for Goal, (r, 4) bad
    then good transition for Deadend; the definitions `build_problem` applies to a whole table."""
    rows = np.asarray(rows, dtype=np.int64)
    truth = values > 0
    if kind is Requirement.EDGE:
        return values[rows[:, 1]] != values[rows[:, 0]]
    if kind is Requirement.GOAL:
        return truth[rows[:, 0]] != truth[rows[:, 1]]
    changes = np.sign(values[rows[:, 1]] - values[rows[:, 0]]) != np.sign(values[rows[:, 3]] - values[rows[:, 2]])
    return changes | (truth[rows[:, 0]] != truth[rows[:, 2]])


def build_problem(examples: LearningExamples, separate_goals: bool = True) -> HittingSetProblem:
    """H(F, X+, X-) with cost(f) = complexity(f) + 1 (so every feature costs something)."""
    table = examples.table
    good_changes = table.changes(examples.good)
    rows = [good_changes != 0]
    kinds = [Requirement.EDGE] * len(examples.good)
    sources: list[tuple[int, ...]] = [tuple(e) for e in examples.good.tolist()]
    if len(examples.bad):
        bad_changes = table.changes(examples.bad)
        valuations = table.valuations
        good_sources = valuations[examples.good[:, 0]]
        for b, bad in enumerate(examples.bad.tolist()):
            # the rule projected from a good transition accepts the bad one only if no chosen
            # feature changes differently or has another valuation at the source
            differs = (bad_changes[b][None, :] != good_changes) | (valuations[bad[0]][None, :] != good_sources)
            rows.append(differs)
            kinds += [Requirement.DEADEND] * len(examples.good)
            sources += [tuple(bad) + tuple(g) for g in examples.good.tolist()]
    if separate_goals and len(examples.goal_pairs):
        valuations = table.valuations
        pairs = examples.goal_pairs
        rows.append(valuations[pairs[:, 0]] != valuations[pairs[:, 1]])
        kinds += [Requirement.GOAL] * len(pairs)
        sources += [tuple(p) for p in pairs.tolist()]
    hits = np.concatenate(rows) if rows else np.zeros((0, len(table)), dtype=bool)
    bits = np.packbits(hits.T, axis=1) if len(hits) else np.zeros((len(table), 0), dtype=np.uint8)
    costs = np.array([f.complexity + 1 for f in table.features], dtype=np.int64)
    return HittingSetProblem(bits, tuple(kinds), tuple(sources), costs)
