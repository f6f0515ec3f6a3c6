"""Teacher data for the neural policies: optimal plans of generated instances, labelled per state.

Each state s on an optimal trajectory gets h*(s), the teacher action, every applicable action
with its cost, and h^LMcut of the successor each action leads to (the bound of the heuristic Q
regulariser). Plans and heuristic values are cached on disk under a hash of the domain text,
the problem text and the planner, so a rerun or an interrupted run asks Fast Downward nothing twice.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.errors import InputError
from stratpol.generation import DomainFolder, domain_folder
from stratpol.generation.sampling import GeneratedInstance, sample
from stratpol.planning import GroundAction, Instance, State
from stratpol.planning.lmcut import lmcut_evaluator
from stratpol.planning.plan_cache import CachedPlan, Outcome, PlanCache
from stratpol.planning.planners import planner
from stratpol.planning.plans import validate_plan
from stratpol.planning.search import SearchStatus
from stratpol.provenance import content_hash

DEAD_END_VALUE = 1120.0
"""h^LMcut of a recognised dead end, as in the Q-value paper: far above every training plan."""

OPTIMAL_PLANNERS = ("fd-opt", "astar-lmcut")


@dataclass(frozen=True)
class LabelledState:
    """One state of an optimal trajectory with what the losses need."""

    state: State
    cost_to_go: float  # h*(s)
    actions: tuple[GroundAction, ...]  # every applicable action, sorted by name
    teacher: int  # index of the teacher's action in `actions`
    action_costs: tuple[float, ...]
    successor_heuristics: tuple[float, ...]  # h^LMcut(s') per action; DEAD_END_VALUE for dead ends

    @property
    def size(self) -> int:
        return len(self.state.instance.objects)


@dataclass(frozen=True)
class TeacherTrajectory:
    """An instance and its optimal plan: states s_0..s_T and the labels of s_0..s_{T-1}."""

    instance: Instance
    plan: tuple[GroundAction, ...]
    states: tuple[State, ...]
    labels: tuple[LabelledState, ...]

    @property
    def size(self) -> int:
        return len(self.instance.objects)


def optimal_trajectory(instance: Instance, planner_name: str = "fd-opt", time_limit: float = 60.0,
                       heuristics: bool = True, cache_dir: Path | None = None) -> TeacherTrajectory | None:
    """The labelled optimal trajectory of `instance`, or None when the planner finds no plan in time."""
    if planner_name not in OPTIMAL_PLANNERS:
        raise ValueError(f"the teacher must be an optimal planner ({', '.join(OPTIMAL_PLANNERS)}), not {planner_name!r}")
    cache, start = PlanCache(cache_dir), instance.initial_state
    cached = cache.get(instance, start, planner_name)
    if cached is None:
        result = planner(planner_name)(instance, time_limit=time_limit)
        solved = result.status is SearchStatus.SOLVED
        cached = CachedPlan(Outcome.PLAN, tuple(result.plan)) if solved else CachedPlan(Outcome.UNSOLVED)
        cache.put(instance, start, planner_name, cached.outcome, cached.plan, result.cost)
    if cached.outcome is not Outcome.PLAN:
        return None
    plan = tuple(instance.action(action.name, action.args) for action in cached.plan)
    check = validate_plan(instance, plan)
    if not check.valid:
        raise RuntimeError(f"the teacher's plan for {instance.name} is invalid: {check.reason}")
    states = [instance.initial_state]
    costs = []
    for action in plan:
        state, cost = instance.apply(states[-1], action)
        states.append(state)
        costs.append(cost)
    # h^LMcut of every successor along the plan, cached beside the plan (one Fast Downward run each)
    path = None if cache_dir is None else Path(cache_dir) / f"heuristics-{_key(instance, planner_name)}.json"
    record = json.loads(path.read_text()) if path is not None and path.is_file() else {}
    if heuristics and "heuristics" not in record:
        record["heuristics"] = _successor_heuristics(instance, states[:-1])
        if path is not None:
            write_text_atomically(path, json.dumps(record))
    labels = []
    to_go = sum(costs)
    for step, (state, action) in enumerate(zip(states, plan)):
        successors = sorted(instance.successors(state), key=lambda s: str(s.action))
        actions = tuple(s.action for s in successors)
        values = tuple(record["heuristics"][step]) if heuristics else tuple(0.0 for _ in actions)
        labels.append(LabelledState(state, to_go, actions, actions.index(action),
                                    tuple(s.cost for s in successors), values))
        to_go -= costs[step]
    return TeacherTrajectory(instance, plan, tuple(states), tuple(labels))


def teacher_data(domain: str, sizes: Iterable[int], per_size: int, seed: int = 0, planner_name: str = "fd-opt",
                 time_limit: float = 60.0, heuristics: bool = True, cache_dir: Path | None = None,
                 progress: Callable[[str], None] = lambda line: None) -> list[TeacherTrajectory]:
    """Optimal trajectories of `per_size` distinct generated instances of each size; unsolved ones dropped."""
    folder = domain_folder(domain)
    trajectories = []
    for size in sizes:
        for number, generated in enumerate(distinct_instances(folder, size, per_size, seed), start=1):
            progress(f"{folder.name}: teacher plan for size {size}, instance {number}")
            instance = folder.domain.instance_from_text(generated.text, name=f"{folder.name}-{size}-{number}")
            trajectory = optimal_trajectory(instance, planner_name, time_limit, heuristics, cache_dir)
            if trajectory is not None:
                trajectories.append(trajectory)
    return trajectories


def distinct_instances(folder: DomainFolder, size: int, count: int, seed: int) -> list[GeneratedInstance]:
    """Up to `count` distinct non-trivial instances of `size` (fewer where the size has fewer)."""
    rng = random.Random(f"{folder.name}/{size}/{seed}")
    exclude: set[tuple] = set()
    found = []
    for _ in range(count):
        try:
            found.append(sample(folder, size, rng, exclude))
        except InputError:
            break
    return found


def _successor_heuristics(instance: Instance, states: list[State]) -> list[list[float]]:
    evaluator = lmcut_evaluator(instance)
    values = []
    for state in states:
        successors = sorted(instance.successors(state), key=lambda s: str(s.action))
        values.append([_finite(evaluator.value(s.state)) for s in successors])
    return values


def _finite(value: float) -> float:
    return DEAD_END_VALUE if math.isinf(value) else float(value)


def _key(instance: Instance, planner_name: str) -> str:
    return content_hash(instance.domain.text, instance.text, planner_name)

