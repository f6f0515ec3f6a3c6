"""Does a policy solve an instance? Closed, safe and acyclic over all policy-reachable states.

Theorem 1 of the GENEX paper: a policy solves an instance iff, over every state reachable by
following any compatible transition from the initial state, each non-goal state has a
compatible successor (closed), no state is a dead end (safe), and there is no cycle (acyclic).
Every compatible successor is explored, not one chosen; a failure comes with a witness path.
Where that is too many states, `verify_by_runs` follows the policy instead, choosing at random among
the compatible successors: evidence on the runs made, not a proof, and said so in the verdict.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from stratpol.planning import Instance, State, Successor
from stratpol.planning.dead_ends import Solvability, solvability
from stratpol.progress import finish_status, report_status


class Failure(enum.Enum):
    NOT_CLOSED = "not closed"  # a non-goal state without compatible successor (not a dead end)
    DEAD_END = "dead end"  # a reachable state from which the goal cannot be reached (proven)
    CYCLE = "cycle"
    LIMIT = "state limit"


@dataclass(frozen=True)
class Verification:
    """The verdict; on failure, the states from the initial state to the witness (for a cycle,
    the path closes on the state it repeats)."""

    instance: str
    solved: bool
    failure: Failure | None
    witness: tuple[State, ...]
    states: int
    renamed: bool = False  # states counted up to renamings of interchangeable objects
    runs: int = 0  # 0: every policy-reachable state explored; else the verdict of this many sampled runs

    def to_json(self) -> dict:
        """The verdict as JSON values; the witness as its length in steps."""
        return {"instance": self.instance, "solved": self.solved,
                "failure": None if self.failure is None else self.failure.value, "states": self.states,
                "witness_steps": max(len(self.witness) - 1, 0), "up_to_renaming": self.renamed,
                "tested_by_runs": self.runs}

    def describe(self) -> str:
        renamed = " up to renaming" if self.renamed else ""
        if self.runs:
            if self.solved:
                return f"{self.instance}: solved in {self.runs} of {self.runs} runs ({self.states:,} states seen)"
            return (f"{self.instance}: {self.failure.value} after {len(self.witness) - 1} steps of a run "
                    f"({self.states:,} states seen in the runs)")
        if self.solved:
            return f"{self.instance}: solved ({self.states:,} policy-reachable states{renamed})"
        return (f"{self.instance}: {self.failure.value} after {len(self.witness) - 1} steps ({self.states:,} states "
                f"seen{renamed})")


CompatibleSuccessors = Callable[[State], Sequence[Successor]]


def verify(instance: Instance, compatible: CompatibleSuccessors, max_states: int | None = None,
           dead_end_time_limit: float = 10.0, is_dead_end: Callable[[State], bool] | None = None,
           canonical: Callable[[State], Hashable] | None = None,
           progress: Callable[[str], None] = lambda message: None) -> Verification:
    """Depth-first over every compatible transition; stops at the first witness.

    A state with no compatible successor is reported a dead end only if that is proven,
    otherwise the policy is not closed there. With `is_dead_end`, the witness of a failure ends
    at the first dead end on it, the one the policy walks into. Only the states of a witness are
    tested: a state whose compatible successors all lead to goals is no dead end, and dead ends
    are closed under successors, so a witness through one goes on to fail below it (the eager
    test of every reached state, as the published learner does, gives the same verdicts).

    With `canonical` (`stratpol.planning.symmetry.canonical_key`), states of equal key count as
    one: renamings of a verified state are not explored again, and reaching a renaming of a state
    on the path is a cycle (repeating the renaming closes one). The witness is a real trajectory;
    the states counted are keys. `progress` hears how many states are explored as it goes.
    """
    key = canonical if canonical is not None else (lambda state: state)
    start = instance.initial_state
    on_path: dict[Hashable, int] = {}
    done: set[Hashable] = set()
    path: list[State] = [start]
    stack: list[tuple[Hashable, list[State]]] = []  # the key of each state on the path, its successors left

    def expand(state: State, known: Hashable) -> Verification | None:
        if instance.is_goal(state):
            done.add(known)
            return None
        targets = [s.state for s in compatible(state)]
        if not targets:
            dead = solvability(instance, state, time_limit=dead_end_time_limit) is Solvability.DEAD_END
            return _failed(Failure.DEAD_END if dead else Failure.NOT_CLOSED)
        on_path[known] = len(stack)
        stack.append((known, targets))
        return None

    def _failed(failure: Failure, extra: tuple[State, ...] = ()) -> Verification:
        return _failure_verdict(instance, failure, tuple(path) + extra, is_dead_end, len(done) + len(on_path),
                                renamed=canonical is not None)

    stage, steps = f"verifying {instance.name}, states", 0
    try:
        failure = expand(start, key(start))
        while failure is None and stack:
            seen = len(done) + len(on_path)
            if max_states is not None and seen > max_states:
                failure = _failed(Failure.LIMIT)
                break
            steps += 1
            if steps % 4096 == 0:
                report_status(progress, stage, seen, max_states)
            known, targets = stack[-1]
            if not targets:
                stack.pop()
                del on_path[known]
                done.add(known)
                path.pop()
                continue
            target = targets.pop()
            known = key(target)
            if known in on_path:
                failure = _failed(Failure.CYCLE, (target,))
                break
            if known in done:
                continue
            path.append(target)
            failure = expand(target, known)
            if failure is None and known in done:  # a goal state: nothing below it
                path.pop()
        if failure is not None:
            return failure
        return Verification(instance.source_name, True, None, (), len(done), canonical is not None)
    finally:
        finish_status(progress, stage)


def verify_by_runs(instance: Instance, compatible: CompatibleSuccessors, runs: int, seed: int = 0,
                   step_bound: int | None = None, dead_end_time_limit: float = 10.0,
                   is_dead_end: Callable[[State], bool] | None = None,
                   progress: Callable[[str], None] = lambda message: None) -> Verification:
    """`runs` walks from the initial state, each taking one of the compatible successors at random
    (seeded by `seed` and the instance's name), until a goal or the first failure, whose witness is
    the run: no compatible successor (a dead end where proven), a state the run was in before, or
    more than `step_bound` steps (default: 10 an object, plus 1,000). With `is_dead_end`, the
    witness ends at the first dead end on it, as in `verify`."""
    chooser = random.Random(f"{seed}:{instance.source_name}")
    bound = 10 * len(instance.objects) + 1000 if step_bound is None else step_bound
    seen: set[State] = set()
    stage = f"testing {instance.name} by runs"
    try:
        for number in range(runs):
            report_status(progress, stage, number, runs)
            path = [instance.initial_state]
            failure = _run_failure(instance, compatible, path, chooser, bound, dead_end_time_limit)
            seen.update(path)
            if failure is not None:
                return _failure_verdict(instance, failure, tuple(path), is_dead_end, len(seen), runs=runs)
        return Verification(instance.source_name, True, None, (), len(seen), runs=runs)
    finally:
        finish_status(progress, stage)


def _run_failure(instance: Instance, compatible: CompatibleSuccessors, path: list[State], chooser: random.Random,
                 bound: int, dead_end_time_limit: float) -> Failure | None:
    """Extend `path` by random compatible steps to a goal (None) or to how the run failed."""
    visited = set(path)
    while not instance.is_goal(path[-1]):
        targets = [s.state for s in compatible(path[-1])]
        if not targets:
            dead = solvability(instance, path[-1], time_limit=dead_end_time_limit) is Solvability.DEAD_END
            return Failure.DEAD_END if dead else Failure.NOT_CLOSED
        path.append(targets[chooser.randrange(len(targets))])
        if path[-1] in visited:
            return Failure.CYCLE
        if len(path) > bound:
            return Failure.LIMIT
        visited.add(path[-1])
    return None


def _failure_verdict(instance: Instance, failure: Failure, witness: tuple[State, ...],
                     is_dead_end: Callable[[State], bool] | None, states: int, renamed: bool = False,
                     runs: int = 0) -> Verification:
    """The verdict of a failure with its witness, which ends at the first dead end on it where
    `is_dead_end` finds one (the state the policy walked into)."""
    if is_dead_end is not None:
        first_dead = _first_dead_end(witness, is_dead_end, known_dead=failure is Failure.DEAD_END)
        if first_dead is not None:
            failure, witness = Failure.DEAD_END, witness[:first_dead + 1]
    return Verification(instance.source_name, False, failure, witness, states, renamed, runs)


def _first_dead_end(witness: Sequence[State], is_dead_end: Callable[[State], bool], known_dead: bool) -> int | None:
    """The index of the first dead end on a witness path, None if it has none. Every successor
    of a dead end is one, so the dead ends of a path are its end: they are found from there."""
    first = None
    for index in range(len(witness) - 1, -1, -1):
        if not (known_dead and index == len(witness) - 1) and not is_dead_end(witness[index]):
            break
        first = index
    return first
