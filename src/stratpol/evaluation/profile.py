"""Where a rule policy's run spends its time, against what the planning core alone allows.

A run is split into grounding (parsing the instance, building its successor generator and its
dlplan bridge), successor generation, feature evaluation (state conversion included) and rule
matching (everything else the controller and the run loop do). The same states are then expanded
again by the planning core alone: that is the fastest a policy that looks at every successor could
run on this engine.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass
from functools import partial

from stratpol.processes.limits import ChildDied, call_in_child
from stratpol.evaluation.policies import RulePolicy
from stratpol.evaluation.runner import default_step_bound
from stratpol.planning import Domain


@dataclass(frozen=True)
class ExecutionProfile:
    """One profiled policy run; seconds per phase."""

    instance: str
    objects: int
    solved: bool
    failure: str | None
    steps: int
    grounding: float
    successors: float
    features: float
    rules: float
    engine: float  # successor generation alone on the run's states
    engine_successors: int  # successors the planning core generated on those states

    @property
    def running(self) -> float:
        """Seconds of the run itself, grounding excluded."""
        return self.successors + self.features + self.rules

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.running if self.running > 0 else 0.0

    @property
    def engine_steps_per_second(self) -> float:
        return self.steps / self.engine if self.engine > 0 else 0.0

    @property
    def slowdown(self) -> float:
        """How many times slower the run is than successor generation alone on its states."""
        return self.running / self.engine if self.engine > 0 else 0.0


def profile_run(policy: RulePolicy, domain: Domain, text: str, name: str, step_bound: int | None = None,
                time_limit: float = 60.0) -> ExecutionProfile:
    """Run `policy` on the problem `text` of `domain` until a goal, a revisit, no compatible
    successor, `step_bound` steps (default: `default_step_bound`) or `time_limit` seconds, timing
    each phase."""
    started = time.perf_counter()
    instance = domain.instance_from_text(text, name)
    phase_seconds: dict[str, float] = defaultdict(float)
    controller = policy.controller(instance, phase_seconds)
    grounding = time.perf_counter() - started
    if step_bound is None:
        step_bound = default_step_bound(instance)

    # evaluation.runner.run's loop, without its plan validation and dead-end test, which would
    # count as the policy's time here
    state = instance.initial_state
    trajectory = [state]
    visited = {state}
    failure = None
    started = time.perf_counter()
    while not instance.is_goal(state):
        if len(trajectory) > step_bound:
            failure = "step bound"
            break
        if time.perf_counter() - started > time_limit:
            failure = "time limit"
            break
        chosen = controller.choose(state)
        if chosen is None:
            failure = "no successor"
            break
        state = chosen.state
        if state in visited:
            failure = "revisit"
            break
        visited.add(state)
        trajectory.append(state)
    running = time.perf_counter() - started

    started = time.perf_counter()
    generated = sum(len(instance.successors(s)) for s in trajectory[:-1])
    engine = time.perf_counter() - started
    successors, features = phase_seconds["successors"], phase_seconds["features"]
    return ExecutionProfile(name, len(instance.objects), failure is None, failure, len(trajectory) - 1, grounding,
                            successors, features, max(0.0, running - successors - features), engine, generated)


def profile_run_in_child(policy: RulePolicy, domain: Domain, text: str, name: str,
                         time_limit: float = 60.0) -> ExecutionProfile:
    """`profile_run` in a forked child process, killed if it has not answered within twice the
    time limit: one step can take longer than any limit (a state of a 1,000-object childsnack
    has millions of applicable actions), and the time limit is only checked between steps."""
    try:
        return call_in_child(partial(profile_run, time_limit=time_limit), policy, domain, text, name,
                             timeout=2 * time_limit + 10)
    except TimeoutError:
        failure = "killed"
    except ChildDied as died:  # out of memory, a crash in a library
        failure = f"died ({died.exit_code})"
    except Exception as error:  # a library's error on one instance is that run's row, not the benchmark's end
        failure = f"error: {type(error).__name__}"
    return ExecutionProfile(name, 0, False, failure, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0)
