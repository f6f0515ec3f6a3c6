"""Speed measurements (`stratpol bench planning`): successor generation and planner times."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from stratpol.generation import domain_folder
from stratpol.learning.wrapper import LearningStatistics
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


# The KR 2025 training and test sets (../shared/benchmarks/gp2024/<name>), learned with their own domain files.
GP2024 = ["blocks4ops-clear", "blocks4ops-on", "delivery-1pkg", "reward", "visitall", "childsnack", "spanner-1nut",
          "ferry", "miconic", "logistics-1truck", "barman-1cocktail-1shot", "8puzzle-1tile", "zenotravel-1plane",
          "sokoban-1stone-7x7"]


@dataclass(frozen=True)
class LearningRow:
    """One domain of the learning benchmark: the learner's statistics and the test coverage."""

    domain: str
    status: str  # "solved" or the failure reason
    seconds: float
    statistics: LearningStatistics = field(default_factory=LearningStatistics)
    features: int = 0
    rules: int = 0
    test_solved: int = 0
    test_total: int = 0
    test_failures: dict[str, int] = field(default_factory=dict)  # failure reason -> test runs


def learning_benchmark(benchmarks: Path, names: list[str], test_time_limit: float = 60.0,
                       learn_time_limit: float = 600.0,
                       progress: Callable[[str], None] = lambda line: None,
                       on_row: Callable[[LearningRow], None] = lambda row: None) -> list[LearningRow]:
    """Learn on each training set, then run the policy on each test instance (Tables 1 and 3);
    `on_row` receives each domain's row as soon as it is done."""
    from stratpol.errors import InputError
    from stratpol.evaluation import RulePolicy, run
    from stratpol.features import Vocabulary, load_grammar
    from stratpol.learning.teacher import Teacher
    from stratpol.learning.wrapper import LearningFailure, learn_policy
    from stratpol.planning import Domain

    rows = []
    for name in names:
        folder = Path(benchmarks) / name
        domain = Domain(folder / "domain.pddl")
        training = sorted(p for p in (folder / "training").rglob("*.pddl") if p.name != "domain.pddl")
        progress(f"{name}: learning on {len(training)} instances")
        started = time.perf_counter()
        vocabulary = Vocabulary(domain)
        try:
            instances = [domain.load_instance(p) for p in training]
            result = learn_policy(instances, vocabulary, load_grammar("default"), Teacher("siw"),
                                  time_limit=learn_time_limit, progress=lambda line, name=name: progress(f"{name}: {line}"))
        except (LearningFailure, InputError) as failure:
            rows.append(LearningRow(name, f"failed: {failure}", time.perf_counter() - started))
            on_row(rows[-1])
            continue
        seconds = time.perf_counter() - started
        tests = sorted(p for p in (folder / "testing").rglob("*.pddl") if p.name != "domain.pddl")
        policy = RulePolicy(result.policy, vocabulary, seed=0)
        solved = 0
        failures: dict[str, int] = {}
        for number, path in enumerate(tests, start=1):
            progress(f"{name}: test {number}/{len(tests)}")
            try:
                instance = domain.load_instance(path)
            except InputError:
                continue
            bound = 20 * len(instance.objects) + 100
            outcome = run(policy, instance, bound, time_limit=test_time_limit,
                          dead_end_time_limit=min(test_time_limit, 1.0))
            solved += outcome.solved
            if outcome.failure is not None:
                failures[outcome.failure.value] = failures.get(outcome.failure.value, 0) + 1
        rows.append(LearningRow(name, "solved", seconds, result.statistics, len(result.policy.features),
                                len(result.policy.rules), solved, len(tests), failures))
        on_row(rows[-1])
    return rows


def render_learning_benchmark(rows: list[LearningRow]) -> str:
    lines = ["domain                    |Q|  states    pool  |X+|  |X-|  F  R  seconds  test coverage  status"]
    for r in rows:
        coverage = f"{r.test_solved}/{r.test_total}" if r.test_total else "-"
        q = r.statistics
        lines.append(f"{r.domain:<24}{q.instances:>5}{q.states:>8}{q.pool:>8}{q.good:>6}{q.bad:>6}{r.features:>3}"
                     f"{r.rules:>3}{r.seconds:>9.1f}  {coverage:>13}  {r.status}{_failures(r.test_failures)}")
    return "\n".join(lines)


def _failures(counts: dict[str, int]) -> str:
    return "" if not counts else " (test failures: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ")"
