"""`stratpol bench planning`: successor generation and planner times on a few generated instances."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from stratpol.generation import domain_folder
from stratpol.planning import Instance
from stratpol.planning.planners import planner

# (domain, generator arguments): Gripper with 20 and 100 balls, Blocksworld with 20 blocks.
BENCH_INSTANCES = [("gripper", {"balls": 20}), ("gripper", {"balls": 100}), ("blocksworld", {"blocks": 20, "seed": 1})]
BENCH_PLANNERS = ["siw", "gbfs", "lama-first", "astar-lmcut"]


@dataclass(frozen=True)
class SuccessorRate:
    instance: str
    expanded: int
    generated: int
    seconds: float


@dataclass(frozen=True)
class PlannerTiming:
    instance: str
    planner: str
    status: str
    plan_length: int | None
    expanded: int | None
    seconds: float


@dataclass(frozen=True)
class PlanningBenchmark:
    successor_rates: list[SuccessorRate]
    planner_timings: list[PlannerTiming]


def successor_rate(instance: Instance, max_expansions: int = 20_000, max_seconds: float = 10.0) -> SuccessorRate:
    """Breadth-first expansion through `Instance.successors`, the path every learner takes."""
    started = time.perf_counter()
    seen = {instance.initial_state}
    queue = deque(seen)
    expanded = generated = 0
    while queue and expanded < max_expansions and time.perf_counter() - started < max_seconds:
        state = queue.popleft()
        expanded += 1
        for _, target, _ in instance.successors(state):
            generated += 1
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return SuccessorRate(instance.name, expanded, generated, time.perf_counter() - started)


def planning_benchmark(time_limit: float = 60.0, progress: Callable[[str], None] = lambda line: None) -> PlanningBenchmark:
    rates, timings = [], []
    for name, arguments in BENCH_INSTANCES:
        folder = domain_folder(name)
        instance = folder.domain.instance_from_text(folder.generator(**arguments))
        progress(f"successors on {instance.name}")
        rates.append(successor_rate(instance))
        for planner_name in BENCH_PLANNERS:
            progress(f"{planner_name} on {instance.name}")
            result = planner(planner_name)(instance, time_limit=time_limit)
            length = None if result.plan is None else len(result.plan)
            timings.append(PlannerTiming(instance.name, planner_name, result.status.value, length, result.expanded, result.time))
    return PlanningBenchmark(rates, timings)


def render_planning_benchmark(report: PlanningBenchmark) -> str:
    lines = ["instance            expanded  generated  seconds  expansions/s  successors/s"]
    for r in report.successor_rates:
        lines.append(f"{r.instance:<18}{r.expanded:>10,}{r.generated:>11,}{r.seconds:>9.2f}"
                     f"{r.expanded / r.seconds:>14,.0f}{r.generated / r.seconds:>14,.0f}")
    lines += ["", "instance            planner       status         plan    expanded  seconds"]
    for t in report.planner_timings:
        plan = "-" if t.plan_length is None else str(t.plan_length)
        expanded = "-" if t.expanded is None else f"{t.expanded:,}"
        lines.append(f"{t.instance:<20}{t.planner:<14}{t.status:<15}{plan:>4}{expanded:>12}{t.seconds:>9.2f}")
    return "\n".join(lines)
