"""The teacher: example plans from a planner (kept in the plan cache), and repairs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from stratpol.planning import GroundAction, Instance, State
from stratpol.planning.dead_ends import Solvability, solvability
from stratpol.planning.plan_cache import Outcome, PlanCache
from stratpol.planning.planners import planner_chain
from stratpol.planning.plans import validate_plan
from stratpol.planning.search import SearchStatus, gbfs


@dataclass(frozen=True)
class Advice:
    """What the teacher says about a state: a plan from it, or that it is a dead end, or neither."""

    verdict: Solvability
    states: tuple[State, ...] = ()  # the plan's states, starting with the asked state
    actions: tuple[GroundAction, ...] = ()  # the plan's actions, one fewer than its states


class Teacher:
    """A planner used as teacher, with a plan cache under `cache_dir` (None: no cache)."""

    def __init__(self, planner_name: str = "siw", time_limit: float = 60.0, cache_dir: Path | None = None) -> None:
        self.planner_name = planner_name  # "a+b": b is asked where a finds no plan (the published "siw+bfws")
        self._planners = planner_chain(planner_name)
        self.time_limit = time_limit
        self.cache = PlanCache(cache_dir)
        self.calls = 0

    def advise(self, instance: Instance, start: State | None = None) -> Advice:
        """A plan from `start` (the initial state by default), or a proven dead end, or unknown.

        Each planner of the chain is asked until one finds a plan, then lazy GBFS; where all give
        up, the proven dead-end test of the planning core decides.
        """
        start = instance.initial_state if start is None else start
        if instance.is_goal(start):
            return Advice(Solvability.ALIVE, (start,))
        cached = self.cache.get(instance, start, self.planner_name)
        if cached is not None and cached.outcome is Outcome.DEAD_END:
            return Advice(Solvability.DEAD_END)
        if cached is not None and cached.outcome is Outcome.PLAN:
            return _advice(instance, start, cached.plan)
        self.calls += 1
        for solve in (*self._planners, gbfs):
            result = solve(instance, start=start, time_limit=self.time_limit)
            if result.status is SearchStatus.SOLVED or result.status is SearchStatus.UNSOLVABLE:
                break
        if result.status is SearchStatus.SOLVED:
            self.cache.put(instance, start, self.planner_name, Outcome.PLAN, result.plan, result.cost)
            return _advice(instance, start, result.plan)
        if result.status is SearchStatus.UNSOLVABLE or \
                solvability(instance, start, time_limit=self.time_limit) is Solvability.DEAD_END:
            self.cache.put(instance, start, self.planner_name, Outcome.DEAD_END)
            return Advice(Solvability.DEAD_END)
        return Advice(Solvability.UNKNOWN)


def _advice(instance: Instance, start: State, plan) -> Advice:
    check = validate_plan(instance, plan, start=start)
    if not check.valid:
        raise RuntimeError(f"the teacher's plan for {instance.name} is invalid: {check.reason}")
    states, actions, state = [start], [], start
    for step in plan:
        action = instance.action(step.name, step.args)
        state, _ = instance.apply(state, action)
        states.append(state)
        actions.append(action)
    return Advice(Solvability.ALIVE, tuple(states), tuple(actions))
