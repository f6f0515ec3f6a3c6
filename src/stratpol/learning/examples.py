"""WRAPPER's examples: each training instance's plan with its good and bad transitions, and the
hitting-set problem GENEX solves on a subset Q' of them."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from stratpol.features import prune_equivalent
from stratpol.features.vocabulary import InstanceBridge
from stratpol.learning.hitting_set import HittingSetProblem, LearningExamples, build_problem
from stratpol.learning.result import LearningFailure, LearningStatistics, LearningTimeout
from stratpol.learning.rows import FeatureRows
from stratpol.learning.teacher import Teacher
from stratpol.planning import Instance, State
from stratpol.planning.dead_ends import Solvability
from stratpol.progress import finish_status, report_status


@dataclass
class Example:
    """One training instance: its plan, good and bad transitions, relevant states (as rows).

    Each outer iteration starts again from the plan (`restart`), as the published learner does,
    so repairs made for one Q' do not carry over to the next, unless the run keeps them.
    """

    instance: Instance
    bridge: InstanceBridge
    plan: list[int]
    good: list[tuple[int, int]] = field(default_factory=list)
    bad: list[tuple[int, int]] = field(default_factory=list)
    relevant: list[int] = field(default_factory=list)

    def restart(self) -> None:
        self.good, self.bad, self.relevant = self._from_plan()

    def repaired(self) -> bool:
        """Whether repairs changed the example since it started again from its plan."""
        return (self.good, self.bad, self.relevant) != self._from_plan()

    def _from_plan(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
        return list(zip(self.plan, self.plan[1:])), [], self.plan[:-1]


def teacher_plans(instances: Sequence[Instance], teacher: Teacher, statistics: LearningStatistics,
                  progress: Callable[[str], None],
                  deadline: float | None = None) -> list[tuple[Instance, tuple[State, ...]]]:
    """The instances with a usable example plan and the plan's states, longest plan first (equal
    lengths by file name, as problem names can repeat across files); the others are left out,
    with the reason in `statistics.left_out`. A LearningFailure where none is left; a
    LearningTimeout where the clock time `deadline` passes first (the plans made are cached)."""
    started = time.perf_counter()
    plans: list[tuple[Instance, tuple[State, ...]]] = []
    for number, instance in enumerate(instances, start=1):
        if deadline is not None and time.perf_counter() > deadline:
            statistics.add_time("plans", started)
            raise LearningTimeout(f"time limit reached in the teacher's plans, {number - 1} of {len(instances)} "
                                  f"files planned")
        report_status(progress, "teacher plans", number - 1, len(instances), instance.source_name)
        advice = teacher.advise(instance)
        states = advice.states
        if advice.verdict is Solvability.DEAD_END:  # as the published learner: no plan, no example
            reason = "unsolvable: the teacher proves its initial state a dead end"
        elif advice.verdict is not Solvability.ALIVE:
            reason = "the teacher finds no plan in its time"
        elif len(states) < 2:
            reason = "its goal holds in its initial state"
        elif len(set(states)) < len(states):
            reason = "the teacher's plan revisits a state"
        else:
            reason = None
        if reason is not None:
            statistics.left_out[instance.source_name] = reason
            progress(f"left out {instance.source_name}: {reason}")
            continue
        plans.append((instance, states))
    finish_status(progress, "teacher plans")
    progress(f"teacher plans: {len(plans)} of {len(instances)} instances give examples")
    if not plans:
        raise LearningFailure(f"no training instance has a usable example plan ({statistics.describe_left_out()})")
    plans.sort(key=lambda item: (-len(item[1]), item[0].source_name))
    statistics.add_time("plans", started)
    return plans


@dataclass(frozen=True)
class SubsetProblem:
    """H(F, X+, X-) on the examples of Q': the rows it reads, the pool features pruning keeps, the
    reduced table with its transitions (numbered within `rows`) and the requirements."""

    rows: list[int]  # the learner's rows, row i of the problem being rows[i]
    columns: np.ndarray  # the pool features kept
    examples: LearningExamples
    problem: HittingSetProblem


def subset_problem(examples: Sequence[Example], subset: Sequence[int], rows: FeatureRows) -> SubsetProblem:
    """GENEX's problem on the examples numbered `subset`: their good and bad transitions, and each
    relevant state paired with the goal state of its plan."""
    chosen = [examples[i] for i in subset]
    good = [pair for e in chosen for pair in e.good]
    bad = [pair for e in chosen for pair in e.bad]
    goal_pairs = [(e.plan[-1], r) for e in chosen for r in e.relevant]
    # the problem reads only the rows of Q': pruning on them keeps the same columns as on all
    # rows (features equal on these rows are T-equivalent, and the first of a group is kept)
    used = sorted({r for pairs in (good, bad, goal_pairs) for pair in pairs for r in pair})
    local = {row: i for i, row in enumerate(used)}
    good, bad, goal_pairs = ([(local[s], local[t]) for s, t in pairs] for pairs in (good, bad, goal_pairs))
    table = rows.table(used)
    # what GENEX reads, so that a dropped feature never tells apart what its kept twin does not:
    # changes across good and bad transitions, valuations at their sources and at goal pairs
    columns = prune_equivalent(table, np.array(good + bad), [r for pair in goal_pairs for r in pair])
    reduced = LearningExamples.of(table.subset(columns), good, bad, goal_pairs)
    return SubsetProblem(used, columns, reduced, build_problem(reduced))
