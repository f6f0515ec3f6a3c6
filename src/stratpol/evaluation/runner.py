"""Running a policy on an instance: one trajectory, with a step bound, judged by the planning core.

A rule policy can also be followed as a sketch (the test of the GENEX paper's Table 3): where it
has no compatible successor, IW(k) with k up to a bound looks for a state further away that the
policy accepts, and the run records each such k, the policy's effective width.
"""

from __future__ import annotations

import enum
import resource
import time
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, replace

from stratpol.evaluation.policies import GeneralPolicy, SketchController
from stratpol.planning import GroundAction, Instance, State, Successor
from stratpol.planning.dead_ends import is_dead_end
from stratpol.planning.plans import validate_plan
from stratpol.planning.search import SearchStatus, iw_to_target
from stratpol.processes.limits import require_clock


def process_cpu_seconds() -> float:
    """CPU seconds this process has used, in all its threads and in the subprocesses it has waited
    for (a planner used as a policy): what a run costs whatever else the machine is doing."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


# what a run's time limit may count, by resource_limits.TIME_LIMIT_CLOCKS' names: wall-clock or CPU seconds
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": process_cpu_seconds}


class RunFailure(enum.Enum):
    STEP_BOUND = "step bound"
    NO_SUCCESSOR = "no successor"
    REVISIT = "revisit"
    DEAD_END = "dead end"
    TIME_LIMIT = "time limit"
    PLANNER_LIMIT = "planner limit"  # a planner used as a policy ran out of its time or memory


@dataclass(frozen=True)
class RunOutcome:
    instance: str
    solved: bool
    plan: tuple[GroundAction, ...]
    cost: float
    seconds: float
    failure: RunFailure | None
    widths: tuple[int, ...] = ()  # run as a sketch: per decision, 0 for a successor the policy chose

    @property
    def steps(self) -> int:
        return len(self.plan)

    @property
    def max_width(self) -> int:
        """The run's effective width: the largest k an IW(k) search needed (0: the policy alone)."""
        return max(self.widths, default=0)

    @property
    def mean_width(self) -> float:
        """The effective width averaged over the run's decisions."""
        return sum(self.widths) / len(self.widths) if self.widths else 0.0

    @property
    def policy_failure(self) -> RunFailure | None:
        """How the policy alone would have ended this run: a sketch run that needed an IW search
        followed the policy's own choices up to the first state where it had no successor."""
        return RunFailure.NO_SUCCESSOR if self.max_width > 0 else self.failure


def default_step_bound(instance: Instance) -> int:
    """The step bound of a test run (bench learning, bench execution): 20 steps per object, plus 100."""
    return 20 * len(instance.objects) + 100


def file_step_bound(instance: Instance, plan_length_bound: int = 100) -> int:
    """The step bound of a run on an instance file (`stratpol run`, a grid's IPC runs): 10 steps per
    object, plus L."""
    return 10 * len(instance.objects) + plan_length_bound


def run(policy: GeneralPolicy, instance: Instance, step_bound: int, forbid_revisits: bool = False,
        dead_end_time_limit: float = 10.0, time_limit: float | None = None, sketch_width: int = 0,
        clock: str = "wall") -> RunOutcome:
    """Follow the policy from the initial state until a goal, or a failure.

    `time_limit` counts the seconds of `clock` (CLOCKS: wall-clock, or this process's CPU seconds,
    which other work on the machine does not change); the outcome's seconds are wall-clock.

    With `forbid_revisits` the policy must choose among unvisited states; without it, coming
    back to a visited state ends the run as a revisit (the policy would cycle). With
    `sketch_width` k > 0 (rule policies only), a state without a compatible successor is left by
    the first IW(1), ..., IW(k) search that reaches a goal or a state the policy accepts from it.
    A solved run's plan is validated by executing it again.
    """
    require_clock(clock)
    trajectory = _Trajectory(policy, instance, step_bound, forbid_revisits, dead_end_time_limit, time_limit,
                             sketch_width, CLOCKS[clock])
    while trajectory.outcome is None:
        trajectory.advance(trajectory.controller.choose(trajectory.state, trajectory.excluded))
    return trajectory.outcome


def run_together(policy: GeneralPolicy, instances: Sequence[Instance], step_bound: int,
                 forbid_revisits: bool = False) -> list[RunOutcome]:
    """`run` on each instance, all advanced a decision at a time, so that a policy that can decide
    for several runs at once (BatchPolicy: a network's one forward pass) is asked once a step. Each
    outcome's seconds are its share of the time they took together (a step's time split evenly among
    the runs that took it), so the outcomes' seconds add up to that time, as runs made one by one do."""
    trajectories, spent = [], {}  # each run's share of the time, by id of its trajectory
    for instance in instances:
        started = time.perf_counter()
        trajectories.append(_Trajectory(policy, instance, step_bound, forbid_revisits))
        spent[id(trajectories[-1])] = time.perf_counter() - started
    choose_together = getattr(policy, "choose_together", None)
    while pending := [t for t in trajectories if t.outcome is None]:
        started = time.perf_counter()
        if choose_together is None or len(pending) == 1:  # one run left decides as `run` would, to the bit
            choices = [t.controller.choose(t.state, t.excluded) for t in pending]
        else:
            choices = choose_together([(t.controller, t.state, t.excluded) for t in pending])
        for trajectory, chosen in zip(pending, choices):
            trajectory.advance(chosen)
        share = (time.perf_counter() - started) / len(pending)
        for trajectory in pending:
            spent[id(trajectory)] += share
    return [replace(t.outcome, seconds=spent[id(t)]) for t in trajectories]


class _Trajectory:
    """One run in progress, a decision at a time: where it stands, what it did, and its outcome
    once it has ended."""

    def __init__(self, policy: GeneralPolicy, instance: Instance, step_bound: int, forbid_revisits: bool,
                 dead_end_time_limit: float = 10.0, time_limit: float | None = None, sketch_width: int = 0,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.started = time.perf_counter()
        self.clock, self.clock_started = clock, clock()  # what the time limit counts
        self.controller = policy.controller(instance)
        if sketch_width > 0 and not hasattr(self.controller, "accepts"):
            raise TypeError(f"policy {policy.name} judges no pairs of states, so it cannot be run as a sketch")
        self.instance, self.step_bound, self.forbid_revisits = instance, step_bound, forbid_revisits
        self.dead_end_time_limit, self.time_limit, self.sketch_width = dead_end_time_limit, time_limit, sketch_width
        self.state = instance.initial_state
        self.visited = {self.state}
        self.plan: list[GroundAction] = []
        self.widths: list[int] = []
        self.cost = 0.0
        self.outcome: RunOutcome | None = None
        self._end_or_go_on()

    @property
    def excluded(self) -> Container[State]:
        return self.visited if self.forbid_revisits else ()

    def advance(self, chosen: Successor | None) -> None:
        """Take the controller's choice from the current state (None: it had none)."""
        failure = None
        if chosen is not None:
            steps, width = [(chosen.action, chosen.state, chosen.cost)], 0
        elif self.sketch_width > 0:
            # what is left of the limit on its clock; the IW search itself measures it in wall-clock seconds
            elapsed = self.clock() - self.clock_started
            remaining = None if self.time_limit is None else max(0.0, self.time_limit - elapsed)
            steps, width, failure = _subgoal(self.instance, self.controller, self.state, self.sketch_width,
                                             self.excluded, remaining)
        else:
            steps = None
        if steps is None:
            self._end(failure or _planner_failure(self.controller) or (
                RunFailure.DEAD_END if is_dead_end(self.instance, self.state, self.dead_end_time_limit)
                else RunFailure.NO_SUCCESSOR))
            return
        for action, self.state, step_cost in steps:
            self.plan.append(action)
            self.cost += step_cost
        if self.sketch_width > 0:
            self.widths.append(width)
        if self.state in self.visited:
            self._end(RunFailure.REVISIT)
            return
        self.visited.add(self.state)
        self._end_or_go_on()

    def _end_or_go_on(self) -> None:
        """End the run at a goal, at the step bound or past the time limit; else it goes on."""
        if self.instance.is_goal(self.state):
            self._end(None)
        elif len(self.plan) >= self.step_bound:
            self._end(RunFailure.STEP_BOUND)
        elif self.time_limit is not None and self.clock() - self.clock_started > self.time_limit:
            self._end(RunFailure.TIME_LIMIT)

    def _end(self, failure: RunFailure | None) -> None:
        if failure is None:
            check = validate_plan(self.instance, self.plan)
            if not check.valid:
                raise RuntimeError(f"a policy run on {self.instance.name} reached the goal with an invalid plan: "
                                   f"{check.reason}")
        self.outcome = RunOutcome(self.instance.name, failure is None, tuple(self.plan), self.cost,
                                  time.perf_counter() - self.started, failure, tuple(self.widths))


def _planner_failure(controller: object) -> RunFailure | None:
    """How a planner used as a policy ended where it gave no step: out of its time or memory, or
    proven unsolvable; None for other controllers and for planners that just gave up."""
    status = getattr(controller, "planner_status", None)
    return {SearchStatus.LIMIT: RunFailure.PLANNER_LIMIT, SearchStatus.UNSOLVABLE: RunFailure.DEAD_END}.get(status)


def _subgoal(instance: Instance, controller: SketchController, state: State, max_width: int,
             excluded: Container[State], time_limit: float | None
             ) -> tuple[list[tuple[GroundAction, State, float]] | None, int, RunFailure | None]:
    """The steps of the first IW(k), k = 1..max_width, from `state` to a goal or to a state the
    policy accepts from `state`, with that k; (None, 0, failure or None) when none reaches one."""
    def is_target(candidate: State) -> bool:
        return candidate != state and candidate not in excluded \
            and (instance.is_goal(candidate) or controller.accepts(state, candidate))

    for width in range(1, max_width + 1):
        result = iw_to_target(instance, state, width, is_target, time_limit=time_limit)
        if result.status is SearchStatus.SOLVED:
            steps, current = [], state
            for action in result.plan:
                current, step_cost = instance.apply(current, action)
                steps.append((action, current, step_cost))
            return steps, width, None
        if result.status is SearchStatus.LIMIT:
            return None, 0, RunFailure.TIME_LIMIT
    return None, 0, None
