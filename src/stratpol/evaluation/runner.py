"""Running a policy on an instance: one trajectory, with a step bound, judged by the planning core."""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

from stratpol.evaluation.policies import GeneralPolicy
from stratpol.planning import GroundAction, Instance
from stratpol.planning.dead_ends import is_dead_end
from stratpol.planning.plans import validate_plan


class RunFailure(enum.Enum):
    STEP_BOUND = "step bound"
    NO_SUCCESSOR = "no successor"
    REVISIT = "revisit"
    DEAD_END = "dead end"
    TIME_LIMIT = "time limit"


@dataclass(frozen=True)
class RunOutcome:
    instance: str
    solved: bool
    plan: tuple[GroundAction, ...]
    cost: float
    seconds: float
    failure: RunFailure | None

    @property
    def steps(self) -> int:
        return len(self.plan)


def default_step_bound(instance: Instance) -> int:
    """The step bound of a test run (bench learning, bench execution): 20 steps per object, plus 100."""
    return 20 * len(instance.objects) + 100


def run(policy: GeneralPolicy, instance: Instance, step_bound: int, forbid_revisits: bool = False,
        dead_end_time_limit: float = 10.0, time_limit: float | None = None) -> RunOutcome:
    """Follow the policy from the initial state until a goal, or a failure.

    With `forbid_revisits` the policy must choose among unvisited states; without it, coming
    back to a visited state ends the run as a revisit (the policy would cycle). A solved run's
    plan is validated by executing it again.
    """
    started = time.perf_counter()
    controller = policy.controller(instance)
    state = instance.initial_state
    visited = {state}
    plan: list[GroundAction] = []
    cost = 0.0
    failure = None
    while not instance.is_goal(state):
        if len(plan) >= step_bound:
            failure = RunFailure.STEP_BOUND
            break
        if time_limit is not None and time.perf_counter() - started > time_limit:
            failure = RunFailure.TIME_LIMIT
            break
        chosen = controller.choose(state, visited if forbid_revisits else ())
        if chosen is None:
            failure = RunFailure.DEAD_END if is_dead_end(instance, state, dead_end_time_limit) else RunFailure.NO_SUCCESSOR
            break
        plan.append(chosen.action)
        cost += chosen.cost
        state = chosen.state
        if state in visited:
            failure = RunFailure.REVISIT
            break
        visited.add(state)
    solved = failure is None
    if solved:
        check = validate_plan(instance, plan)
        if not check.valid:
            raise RuntimeError(f"a policy run on {instance.name} reached the goal with an invalid plan: {check.reason}")
    return RunOutcome(instance.name, solved, tuple(plan), cost, time.perf_counter() - started, failure)
