"""WRAPPER's repairs: where verification finds a state the policy is not closed on, the teacher's
step from it becomes a good transition; where the policy walks into a dead end, its step there
becomes a bad one. A state the teacher can neither plan from nor prove a dead end within its time
is undecided: the step into it becomes a bad one too, so that learning goes on without it."""

from __future__ import annotations

import enum
from collections.abc import Callable

from stratpol.learning.examples import Example
from stratpol.learning.result import LearningFailure
from stratpol.learning.rows import FeatureRows
from stratpol.learning.teacher import Teacher
from stratpol.planning import State
from stratpol.planning.dead_ends import Solvability
from stratpol.verification import Failure, Verification


class Repair(enum.Enum):
    GOOD = "good"  # the teacher's step from a state the policy is not closed on
    BAD = "bad"  # the policy's step into a dead end
    UNDECIDED = "undecided"  # the policy's step into a state the teacher could not decide


def repair(example: Example, number: int, check: Verification, rows: FeatureRows, teacher: Teacher,
           max_states: int) -> Repair:
    """Add the good or bad transition that the verification's witness asks for (a LearningFailure
    where there is none to add), and say which. `number` is the example's instance number in `rows`."""
    path = [rows.row(number, example.bridge, s) for s in check.witness]
    if check.failure is Failure.NOT_CLOSED:
        state = check.witness[-1]
        advice = teacher.advise(example.instance, state)
        if advice.verdict is Solvability.ALIVE:
            target = rows.row(number, example.bridge, advice.states[1])
            if _like_bad(example, path[-1], target, rows):  # a step (or its twin) the policy is to avoid
                target = _step_avoiding(example, number, state, rows, teacher)
            example.good.append((path[-1], target))
            example.relevant.append(path[-1])
            return Repair.GOOD
        if advice.verdict is Solvability.UNKNOWN:
            if len(path) < 2:
                raise LearningFailure(f"{example.instance.source_name}: the initial state could be neither solved "
                                      "nor proven a dead end")
            _avoid(example, path)
            return Repair.UNDECIDED
    elif check.failure is Failure.LIMIT and check.runs:
        raise LearningFailure(f"{example.instance.source_name}: a test run passed {len(check.witness) - 1:,} steps")
    elif check.failure is Failure.LIMIT:
        renamed = " up to renaming" if check.renamed else ""
        raise LearningFailure(f"{example.instance.source_name}: verification passed {max_states:,} "
                              f"policy-reachable states{renamed} (--verify-states)")
    elif check.failure is not Failure.DEAD_END:
        raise LearningFailure(f"{example.instance.source_name}: verification ended with {check.failure.value}")
    if len(path) < 2:
        raise LearningFailure(f"{example.instance.source_name}: the initial state is a dead end")
    _avoid(example, path)
    return Repair.BAD


def _avoid(example: Example, path: list[int]) -> None:
    """The last step of the witness `path` (rows) becomes a bad transition."""
    example.bad.append((path[-2], path[-1]))
    example.relevant.extend(r for r in path[:-1] if r not in example.relevant)


def _like_bad(example: Example, source: int, target: int, rows: FeatureRows) -> bool:
    """Whether the transition is bad or a twin of a bad one: a rule policy takes both or neither."""
    bad = [t for s, t in example.bad if s == source]
    return target in bad or _twin(rows, source, target, bad)


def _twin(rows: FeatureRows, source: int, target: int, others: list[int]) -> bool:
    """Whether a step from `source` to one of `others` changes every pool feature as the step to
    `target` does (symmetric siblings, as picking a ball with one gripper or the other)."""
    if not others:
        return False
    changes = rows.step_changes(source, [target, *others])
    return bool((changes[1:] == changes[0]).all(axis=1).any())


def _step_avoiding(example: Example, number: int, state: State, rows: FeatureRows, teacher: Teacher) -> int:
    """The successor of `state` (a row) with the shortest teacher plan among those whose
    transition is not bad (a LearningFailure where none has a plan)."""
    source = rows.row(number, example.bridge, state)
    detours = _detours(example, number, state, rows, teacher, lambda step: _like_bad(example, source, step, rows))
    if not detours:
        raise LearningFailure(f"{example.instance.source_name}: every step the teacher could take from a state "
                              "leads where the policy is to keep out")
    return detours[0][1]


def _detours(example: Example, number: int, state: State, rows: FeatureRows, teacher: Teacher,
             excluded: Callable[[int], bool]) -> list[list[int]]:
    """Paths (rows) from `state` through one of its other successors (not itself, none `excluded`)
    followed by the teacher's plan from there, shortest first (in the order of the successors
    where equally long)."""
    source = rows.row(number, example.bridge, state)
    detours: list[list[int]] = []
    for successor in example.instance.successors(state):
        step = rows.row(number, example.bridge, successor.state)
        if step == source or excluded(step) or any(detour[1] == step for detour in detours):
            continue
        advice = teacher.advise(example.instance, successor.state)
        if advice.verdict is Solvability.ALIVE:
            detours.append([source, *(rows.row(number, example.bridge, s) for s in advice.states)])
    return sorted(detours, key=len)
