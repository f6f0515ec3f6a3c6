"""Speed measurements: successor generation and planner times (`stratpol bench planning`), learning
on the published training sets (`bench learning`), saved policies on the published test sets
(`bench testing`), and learned policies' runs (`bench execution`)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from stratpol.evaluation.policies import RulePolicy
from stratpol.evaluation.profile import ExecutionProfile, profile_run_in_child
from stratpol.generation import domain_folder
from stratpol.learning.result import LearningStatistics
from stratpol.planning import Domain, Instance
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


# The GENEX paper's Table 1 (Bonet & Geffner, KR 2025): the 20 domains WRAPPER learns, with their
# gp2024 training sets (../shared/benchmarks/gp2024/<name>/training/easy).
TABLE1 = ["blocks4ops-clear", "delivery-1pkg", "gripper", "reward", "visitall", "childsnack", "spanner-1nut",
          "logistics-1truck", "barman-1cocktail-1shot", "blocks4ops-on", "spanner", "delivery", "ferry", "miconic",
          "8puzzle-1tile-fixed", "8puzzle-1tile", "blocks4ops", "sokoban-1stone-7x7", "logistics-1pkg",
          "zenotravel-1plane"]

# Where a domain's test set lies when its own folder has none: the spanner-1nut and delivery-1pkg
# folders carry the published several-nut and several-package test sets, so they are the test sets
# of spanner and delivery, and the one-nut and one-package policies are not run on them (the
# paper's Table 3 has no row for those two either).
TEST_FOLDERS = {"spanner": "spanner-1nut", "delivery": "delivery-1pkg"}


@dataclass(frozen=True)
class PaperRow:
    """One row of the paper's Table 1, or of its Table 2 with the `reason` WRAPPER found no general
    policy ("Edge": a good transition no pool feature changes across; "Timeout": killed after 12
    hours, no times recorded). Table 2 has no |G| and |r|, and its rendering garbles the strategy."""

    instances: int
    states: int
    pool: int
    strategy: str
    outer: int
    inner: int
    last_subset: int
    last_inner: int
    good: int
    bad: int
    requirements: int
    features: int | None
    rules: int | None
    preprocessing: float | None
    genex: float | None
    verification: float | None
    total: float | None
    reason: str | None = None


PAPER = {  # |Q| |S| |F| strategy outer inner |Q'| inner* |X+| |X-| |H| |G| |r| prep genex verif total
    "blocks4ops-clear": PaperRow(53, 172, 13579, "S1", 1, 1, 1, 1, 7, 0, 14, 2, 2, 0.63, 0.01, 0.18, 10.40),
    "delivery-1pkg": PaperRow(169, 981, 5765, "S1", 1, 1, 1, 1, 9, 0, 18, 4, 4, 0.27, 0.02, 3.21, 24.61),
    "gripper": PaperRow(5, 60, 6154, "S1", 1, 1, 1, 1, 19, 0, 38, 3, 4, 0.46, 0.21, 3.95, 8.22),
    "reward": PaperRow(207, 1119, 249122, "S1", 1, 1, 1, 1, 17, 0, 34, 2, 2, 26.16, 33.73, 6.97, 152.51),
    "visitall": PaperRow(460, 4288, 146085, "S1", 1, 1, 1, 1, 20, 0, 40, 2, 3, 15.68, 1.41, 991.55, 1110.15),
    "childsnack": PaperRow(10, 85, 2900, "S1", 1, 2, 1, 2, 15, 0, 30, 6, 8, 0.50, 0.08, 32.17, 35.64),
    "spanner-1nut": PaperRow(90, 540, 8001, "S1", 1, 2, 1, 2, 6, 1, 9, 3, 3, 0.52, 0.08, 0.58, 11.75),
    "logistics-1truck": PaperRow(67, 363, 262509, "S1", 1, 17, 1, 17, 32, 0, 64, 5, 8, 905.52, 803.52, 2.71,
                                 1926.61),
    "barman-1cocktail-1shot": PaperRow(90, 1350, 69040, "S1", 1, 21, 1, 21, 32, 2, 133, 11, 22, 243.14, 539.91,
                                       216.19, 1049.92),
    "blocks4ops-on": PaperRow(94, 518, 183322, "S1", 2, 2, 1, 1, 10, 0, 20, 4, 7, 24.24, 1.90, 1.14, 108.27),
    "spanner": PaperRow(270, 2160, 13679, "S1", 2, 3, 1, 2, 10, 1, 31, 3, 3, 1.96, 0.39, 176.08, 210.42),
    "delivery": PaperRow(397, 3635, 13904, "S1", 4, 21, 1, 3, 23, 0, 46, 4, 5, 42.18, 6.69, 23.03, 135.30),
    "ferry": PaperRow(180, 1416, 8547, "S1", 5, 13, 1, 6, 17, 0, 34, 4, 5, 8.69, 3.95, 3.66, 39.36),
    "miconic": PaperRow(360, 3504, 107785, "S1", 9, 30, 1, 6, 20, 0, 40, 4, 5, 253.81, 73.78, 50.87, 502.87),
    "8puzzle-1tile-fixed": PaperRow(18, 140, 11230, "S2", 7, 38, 4, 3, 40, 0, 80, 8, 14, 44.71, 25.52, 1.89, 81.54),
    "8puzzle-1tile": PaperRow(16, 122, 12417, "S2", 8, 52, 3, 6, 40, 0, 80, 8, 18, 69.14, 35.62, 2.20, 117.80),
    "blocks4ops": PaperRow(5, 129, 100897, "S2", 10, 66, 3, 5, 81, 0, 162, 7, 24, 5349.49, 7159.42, 19.62,
                           12863.98),
    "sokoban-1stone-7x7": PaperRow(8, 67, 115214, "S2", 12, 309, 5, 15, 94, 4, 671, 15, 50, 14248.40, 12712.36,
                                   896.13, 28196.51),
    "logistics-1pkg": PaperRow(24, 173, 225518, "S2", 15, 138, 4, 8, 56, 0, 112, 7, 16, 6936.58, 5913.87, 416.71,
                               16136.66),
    "zenotravel-1plane": PaperRow(73, 779, 24959, "S2", 28, 266, 7, 3, 122, 0, 244, 17, 18, 2039.20, 277.37,
                                  2905.90, 5406.45),
}


def _failure(reason: str, *counts: int, times: tuple[float, float, float, float] | None = None) -> PaperRow:
    """A Table-2 row: its ten counts, no strategy (garbled), no |G| and |r|, and the four times
    (prep, GENEX, verification, total) except for a Timeout."""
    return PaperRow(*counts[:3], "", *counts[3:], None, None, *(times or (None,) * 4), reason)


# reason, |Q| |S| |F| outer inner |Q'| inner* |X+| |X-| |H|, times; the rendering lost some decimal
# points (depot's and barman's verification, logistics' verification and total): restored so that
# the phases add up to less than the total
TABLE2 = {
    "rovers": _failure("Edge", 608, 6238, 190064, 1, 1, 1, 1, 25, 0, 50, times=(17.26, 0.53, 0.00, 225.75)),
    "tidybot": _failure("Edge", 8, 211, 59402, 1, 1, 1, 1, 40, 0, 80, times=(7.70, 0.21, 0.00, 119.06)),
    "tpp": _failure("Edge", 11, 608, 14128, 1, 1, 1, 1, 201, 0, 402, times=(9.32, 0.21, 0.00, 237.19)),
    "8puzzle-2tiles": _failure("Edge", 16, 207, 4458, 1, 2, 1, 2, 20, 0, 40, times=(0.85, 0.14, 0.18, 6.30)),
    "hiking": _failure("Edge", 180, 1215, 16723, 1, 2, 1, 2, 8, 0, 16, times=(1.41, 0.06, 4.02, 190.05)),
    "depot": _failure("Edge", 18, 851, 255079, 1, 17, 1, 17, 119, 0, 238, times=(4771.50, 379.59, 415.29, 15511.73)),
    "freecell": _failure("Timeout", 65, 2842, 146428, 1, 35, 1, 35, 133, 19, 2964),
    "barman-1cocktail": _failure("Edge", 270, 3998, 69040, 1, 94, 1, 94, 105, 6, 868,
                                 times=(3056.59, 5474.44, 36.43, 8769.37)),
    "tetris": _failure("Edge", 16, 393, 3749, 1, 142, 1, 142, 180, 1, 550, times=(5109.83, 3458.80, 7157.74, 16500.19)),
    "satellite": _failure("Timeout", 950, 6716, 171475, 2, 209, 1, 157, 168, 0, 334),
    "driverlog": _failure("Edge", 381, 3197, 172818, 6, 152, 1, 16, 31, 0, 62,
                          times=(5768.13, 1822.26, 52.39, 8088.94)),
    "zenotravel-1person": _failure("Edge", 80, 500, 42271, 12, 385, 1, 71, 80, 3, 507,
                                   times=(2262.94, 350.48, 1359.22, 4701.44)),
    "logistics": _failure("Edge", 282, 1855, 51418, 11, 72, 4, 5, 99, 0, 198, times=(987.57, 169.34, 15.41, 1310.91)),
    "blocks3ops": _failure("Timeout", 392, 2216, 236954, 17, 102, 7, 8, 106, 0, 206),
}


@dataclass(frozen=True)
class PaperCoverage:
    """One row of the paper's Table 3: test instances, coverage, and effective width (max, avg)."""

    instances: int
    coverage: float
    max_width: float
    mean_width: float


TABLE3 = {
    "8puzzle-1tile-fixed": PaperCoverage(100, 100.0, 2.00, 0.50),
    "8puzzle-1tile": PaperCoverage(100, 100.0, 2.00, 0.32),
    "blocks4ops-clear": PaperCoverage(30, 100.0, 0.00, 0.00),
    "blocks4ops-on": PaperCoverage(30, 100.0, 0.00, 0.00),
    "blocks4ops": PaperCoverage(30, 100.0, 2.00, 0.05),
    "childsnack": PaperCoverage(120, 41.7, 1.00, 0.20),
    "delivery": PaperCoverage(30, 100.0, 0.00, 0.00),
    "ferry": PaperCoverage(30, 100.0, 0.00, 0.00),
    "gripper": PaperCoverage(30, 100.0, 0.00, 0.00),
    "logistics-1pkg": PaperCoverage(420, 100.0, 0.00, 0.00),
    "logistics-1truck": PaperCoverage(55, 100.0, 0.00, 0.00),
    "miconic": PaperCoverage(31, 100.0, 0.00, 0.00),
    "reward": PaperCoverage(30, 100.0, 0.00, 0.00),
    "zenotravel-1plane": PaperCoverage(180, 100.0, 0.00, 0.00),
}

# The paper's test (section 8.2) follows a policy as a sketch: where it has no compatible
# successor, IW(k) with k up to 2 looks for a state that it accepts.
SKETCH_WIDTH = 2


@dataclass(frozen=True)
class Coverage:
    """A policy on a test set, measured as the paper's Table 3: every instance is followed as a
    sketch. `solved` counts the instances the policy solves alone (every decision of width 0),
    `sketch_solved` those it solves as a sketch; `max_width` is the largest k an IW(k) needed and
    `mean_width` the largest per-instance average (Table 3's max. and avg.)."""

    total: int = 0
    solved: int = 0
    sketch_solved: int = 0
    max_width: int = 0
    mean_width: float = 0.0
    failures: dict[str, int] = field(default_factory=dict)  # how the policy alone failed -> instances
    seconds: float = 0.0


def coverage_on_test_set(policy: RulePolicy, domain: Domain, tests: list[Path], time_limit: float = 60.0,
                         progress: Callable[[str], None] = lambda line: None) -> Coverage:
    """Run a rule policy as a sketch on each test file, as the paper's Table 3 does, each run
    under `time_limit` seconds."""
    from stratpol.errors import InputError
    from stratpol.evaluation import run
    from stratpol.evaluation.runner import default_step_bound

    started = time.perf_counter()
    solved = sketch_solved = max_width = 0
    mean_width = 0.0
    failures: dict[str, int] = {}
    for number, path in enumerate(tests, start=1):
        progress(f"test {number}/{len(tests)}")
        try:
            instance = domain.load_instance(path)
        except InputError:
            failures["unreadable"] = failures.get("unreadable", 0) + 1
            continue
        outcome = run(policy, instance, default_step_bound(instance), time_limit=time_limit,
                      dead_end_time_limit=min(time_limit, 1.0), sketch_width=SKETCH_WIDTH)
        solved += outcome.solved and outcome.max_width == 0
        sketch_solved += outcome.solved
        max_width, mean_width = max(max_width, outcome.max_width), max(mean_width, outcome.mean_width)
        if outcome.policy_failure is not None:
            failure = outcome.policy_failure.value
            failures[failure] = failures.get(failure, 0) + 1
    return Coverage(len(tests), solved, sketch_solved, max_width, mean_width, failures, time.perf_counter() - started)


@dataclass(frozen=True)
class LearningRow:
    """One domain of the learning benchmark: the learner's statistics and the test coverage."""

    domain: str
    status: str  # "solved" or the failure reason
    seconds: float
    statistics: LearningStatistics = field(default_factory=LearningStatistics)
    features: int = 0
    rules: int = 0
    coverage: Coverage = field(default_factory=Coverage)  # on the published test set


def learning_benchmark(benchmarks: Path, names: list[str], test_time_limit: float = 60.0,
                       learn_time_limit: float | None = None, jobs: int = 1,
                       progress: Callable[[str], None] = lambda line: None,
                       on_row: Callable[[LearningRow], None] = lambda row: None,
                       policies: Path | None = None) -> list[LearningRow]:
    """Learn on each training set with the domain's published settings (learning_settings.toml),
    then run the policy on each test instance (Tables 1 and 3); `on_row` receives each domain's
    row as soon as it is done, and each learned policy is saved in `policies` when given. With
    `jobs` > 1, domains run in parallel worker processes, which call `progress` themselves (joblib
    sends it to them with cloudpickle)."""
    if jobs == 1:
        rows = []
        for name in names:
            rows.append(learn_and_test(benchmarks, name, test_time_limit, learn_time_limit, progress, policies))
            on_row(rows[-1])
        return rows
    from joblib import Parallel, delayed

    rows = []
    for row in Parallel(n_jobs=jobs, return_as="generator")(
            delayed(learn_and_test)(benchmarks, name, test_time_limit, learn_time_limit, progress, policies)
            for name in names):
        rows.append(row)
        on_row(row)
    return rows


def learn_and_test(benchmarks: Path, name: str, test_time_limit: float = 60.0, learn_time_limit: float | None = None,
                   progress: Callable[[str], None] = lambda line: None,
                   policies: Path | None = None) -> LearningRow:
    """One row of `learning_benchmark`."""
    from stratpol.cache import cache_root
    from stratpol.errors import InputError
    from stratpol.features import Vocabulary
    from stratpol.learning.result import LearningFailure
    from stratpol.learning.settings import learning_settings
    from stratpol.learning.wrapper import learn_with_settings
    from stratpol.policy.dlplan_format import write_policy_files

    folder = Path(benchmarks) / name
    domain = Domain(folder / "domain.pddl")
    training_folder = folder / "training" / "easy" if (folder / "training" / "easy").is_dir() else folder / "training"
    training = sorted(p for p in training_folder.rglob("*.pddl") if p.name != "domain.pddl")
    settings = learning_settings(name)
    progress(f"{name}: learning on {len(training)} instances ({settings.describe()})")
    started = time.perf_counter()
    vocabulary = Vocabulary(domain)
    try:
        instances = [domain.load_instance(p) for p in training]
        result = learn_with_settings(instances, vocabulary, settings, cache_root(), time_limit=learn_time_limit,
                                     progress=lambda line: progress(f"{name}: {line}"))
    except (LearningFailure, InputError) as failure:
        statistics = getattr(failure, "statistics", None) or LearningStatistics()
        return LearningRow(name, f"failed: {failure}", time.perf_counter() - started, statistics)
    except Exception as error:  # a library error in one domain is that domain's row, not the end of the run
        return LearningRow(name, f"error: {type(error).__name__}: {error}", time.perf_counter() - started)
    seconds = time.perf_counter() - started
    if policies is not None:
        write_policy_files(Path(policies) / f"{name}.policy", result.policy, vocabulary.factory)
    coverage = coverage_on_test_set(RulePolicy(result.policy, vocabulary, seed=0), domain,
                                    _test_files(Path(benchmarks), name), test_time_limit,
                                    lambda line: progress(f"{name}: {line}"))
    return LearningRow(name, "solved", seconds, result.statistics, len(result.policy.features),
                       len(result.policy.rules), coverage)


def _test_files(benchmarks: Path, name: str) -> list[Path]:
    """The domain's published test set (Table 3), none where its folder holds another domain's."""
    if name in TEST_FOLDERS.values():
        return []
    test_folder = benchmarks / name / "testing"
    if not test_folder.is_dir() and name in TEST_FOLDERS:
        test_folder = benchmarks / TEST_FOLDERS[name] / "testing"
    return sorted(p for p in test_folder.rglob("*.pddl") if p.name != "domain.pddl") if test_folder.is_dir() else []


@dataclass(frozen=True)
class CoverageRow:
    """One saved policy (its file's name) on the published test set of its domain."""

    policy: str
    domain: str
    coverage: Coverage


def _saved_policy(policy_file: Path, domain: Domain, progress: Callable[[str], None]) -> RulePolicy | None:
    """A saved policy file read for `domain`; None, with one progress line saying why, where it is
    not a policy of that domain (bench testing and execution go on with the next file)."""
    from stratpol.errors import InputError
    from stratpol.features import Vocabulary
    from stratpol.policy.files import read_policy_file

    try:
        vocabulary = Vocabulary(domain)
        return RulePolicy(read_policy_file(policy_file, vocabulary.factory), vocabulary, seed=0)
    except (InputError, ValueError) as error:
        progress(f"{policy_file.name}: not a policy of {domain.path} ({str(error).splitlines()[0]})")
        return None


def testing_benchmark(policy_files: list[Path], benchmarks: Path, time_limit: float = 60.0,
                      progress: Callable[[str], None] = lambda line: None,
                      on_row: Callable[[CoverageRow], None] = lambda row: None) -> list[CoverageRow]:
    """Each saved policy on its domain's published test set (Table 3), policies of a domain without
    one left out."""
    rows = []
    for policy_file in policy_files:
        name = policy_domain(policy_file, benchmarks)
        tests = [] if name is None else _test_files(benchmarks, name)
        if not tests:
            progress(f"{policy_file.name}: no published test set")
            continue
        domain = Domain(benchmarks / name / "domain.pddl")
        policy = _saved_policy(policy_file, domain, progress)
        if policy is None:
            continue
        coverage = coverage_on_test_set(policy, domain, tests, time_limit,
                                        lambda line: progress(f"{policy_file.name}: {line}"))
        rows.append(CoverageRow(policy_file.name.removesuffix(".policy"), name, coverage))
        on_row(rows[-1])
    return rows


_HEADER = ("domain                     |Q|    |S|      |F|  cut  St  Out   In |Q'| In* |X+| |X-|  |H| |G| |r|"
           "    plans     pool    prep   genex   verif    total     test   sketch  w   avg  status")


def render_learning_benchmark(rows: list[LearningRow], with_paper: bool = True) -> str:
    """Table 1 of the paper, ours and (below each row) the paper's; `cut` says whether a limit
    truncated the pool (T: time, F: feature limit, M: the free memory; the published reward and
    sokoban pools were cut by dlplan's feature limit of 1,000,000 elements too). `genex` holds
    the policy's projection, certificate and simplification too (the published --simplify_policy)."""
    lines = [_HEADER]
    for r in rows:
        q = r.statistics
        cut = {"time limit": "T", "feature limit": "F", "memory limit": "M"}.get(q.pool_generation.truncated or "", "-")
        c = r.coverage
        seconds = q.seconds
        lines.append(
            f"{r.domain:<25}{q.instances:>5}{q.states:>7}{q.pool:>9}  {cut:>3} {q.strategy:>3}{q.outer_iterations:>5}"
            f"{q.inner_iterations:>5}{q.last_subset:>5}{q.last_inner:>4}{q.good:>5}{q.bad:>5}{q.requirements:>5}"
            f"{r.features:>4}{r.rules:>4}{seconds.get('plans', 0):>9.1f}{seconds.get('pool', 0):>9.1f}"
            f"{seconds.get('preprocessing', 0):>8.1f}{seconds.get('genex', 0) + seconds.get('simplification', 0):>8.1f}"
            f"{seconds.get('verification', 0):>8.1f}{r.seconds:>9.1f}{_coverage_columns(c)}  {r.status}"
            f"{_failures(c.failures)}")
        paper = (PAPER.get(r.domain) or TABLE2.get(r.domain)) if with_paper else None
        if paper is not None:
            lines.append(_paper_line(r.domain, paper))
    return "\n".join(lines)


def _paper_line(name: str, paper: PaperRow) -> str:
    """The paper's row under ours: Table 1's with its Table-3 coverage, Table 2's with its reason."""
    def number(value: float | None, width: int, digits: int = 1) -> str:
        return f"{'-' if value is None else f'{value:.{digits}f}':>{width}}"

    label = "  paper" if paper.reason is None else "  paper (Table 2)"
    tail = _paper_coverage_columns(name) if paper.reason is None else f"{'':>27}  {paper.reason}"
    return (f"{label:<25}{paper.instances:>5}{paper.states:>7}{paper.pool:>9}  {'':>3} {paper.strategy:>3}"
            f"{paper.outer:>5}{paper.inner:>5}{paper.last_subset:>5}{paper.last_inner:>4}{paper.good:>5}"
            f"{paper.bad:>5}{paper.requirements:>5}{number(paper.features, 4, 0)}{number(paper.rules, 4, 0)}"
            f"{'':>9}{'':>9}{number(paper.preprocessing, 8)}{number(paper.genex, 8)}{number(paper.verification, 8)}"
            f"{number(paper.total, 9)}{tail}")


def _coverage_columns(c: Coverage) -> str:
    """Solved by the policy alone and as a sketch, and the effective width (max, avg)."""
    if not c.total:
        return f"{'-':>9}{'-':>9}{'':>3}{'':>6}"
    return f"{f'{c.solved}/{c.total}':>9}{f'{c.sketch_solved}/{c.total}':>9}{c.max_width:>3}{c.mean_width:>6.2f}"


def _paper_coverage_columns(name: str) -> str:
    """Table 3's coverage sits under `sketch`: the paper ran its policies as sketches."""
    paper = TABLE3.get(name)
    if paper is None:
        return ""
    return f"{'':>9}{f'{paper.coverage:g}%':>9}{paper.max_width:>3.0f}{paper.mean_width:>6.2f}"


def _failures(counts: dict[str, int]) -> str:
    return "" if not counts else " (the policy alone: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ")"


def render_test_benchmark(rows: list[CoverageRow]) -> str:
    """The table of `stratpol bench testing`: saved policies on the published test sets, solved
    alone and as sketches (Table 3's coverage is the paper's under `sketch`)."""
    lines = [f"{'policy':<25}{'tests':>6}{'test':>9}{'sketch':>9}{'w':>3}{'avg':>6}{'seconds':>9}"]
    for row in rows:
        c = row.coverage
        lines.append(f"{row.policy:<25}{c.total:>6}{_coverage_columns(c)}{c.seconds:>9.1f}{_failures(c.failures)}")
        if row.domain in TABLE3:
            lines.append(f"{'  paper':<25}{TABLE3[row.domain].instances:>6}{_paper_coverage_columns(row.domain)}")
    return "\n".join(lines)


EXECUTION_SIZES = (50, 200, 1000)


@dataclass(frozen=True)
class ExecutionRow:
    """One profiled run of `stratpol bench execution`: a generated instance or a published test file."""

    domain: str
    source: str  # "generated" or "test"
    profile: ExecutionProfile


def saved_policy_files(folder: Path, benchmarks: Path, domains: Sequence[str] = ()) -> list[Path]:
    """The `.policy` files of `folder`, only those of `domains` when given; InputError if none."""
    from stratpol.errors import InputError

    if not folder.is_dir():
        raise InputError("policy folder not found", folder)
    files = sorted(folder.glob("*.policy"))
    if domains:
        files = [f for f in files if policy_domain(f, benchmarks) in domains]
    if not files:
        raise InputError("no .policy file" + (" of the domains asked for" if domains else ""), folder)
    return files


def policy_domain(policy_file: Path, benchmarks: Path) -> str | None:
    """The benchmark domain a saved policy belongs to: the longest domain name its file name starts
    with (`childsnack-gluten-free.policy` is a childsnack policy), None if there is none."""
    stem = policy_file.name.removesuffix(".policy")
    names = [p.name for p in benchmarks.iterdir() if (p / "domain.pddl").is_file()]
    matches = [n for n in names if stem == n or stem.startswith(n + "-")]
    return max(matches, key=len) if matches else None


def execution_benchmark(policy_files: list[Path], benchmarks: Path, sizes: tuple[int, ...] = EXECUTION_SIZES,
                        time_limit: float = 60.0, progress: Callable[[str], None] = lambda line: None,
                        on_row: Callable[[ExecutionRow], None] = lambda row: None) -> list[ExecutionRow]:
    """Profile each policy on generated instances of about `sizes` objects (the smallest size at
    least that large our generator makes) and on the largest file of its published test set."""
    from stratpol.generation import domain_names
    from stratpol.generation.sampling import sample_instances
    from stratpol.generation.size_csp import size_exists

    rows = []

    def profiled(policy_file: Path, domain_name: str, source: str, domain: Domain, text: str, name: str,
                 objects: int) -> None:
        rule_policy = _saved_policy(policy_file, domain, progress)
        if rule_policy is None:
            return
        progress(f"{policy_file.name}: {name}")
        profile = profile_run_in_child(rule_policy, domain, text, name, time_limit)
        row = ExecutionRow(domain_name, source, replace(profile, objects=objects))
        rows.append(row)
        on_row(row)

    for policy_file in policy_files:
        name = policy_domain(policy_file, benchmarks)
        if name is None:
            progress(f"{policy_file.name}: no domain of that name in {benchmarks}")
            continue
        if name in domain_names():
            folder = domain_folder(name)
            for wanted in sizes:
                size = next((n for n in range(wanted, wanted + 100) if size_exists(folder.size_model, n)), None)
                if size is None:
                    continue
                (generated,) = sample_instances(folder, size, 1, seed=0)
                profiled(policy_file, name, "generated", folder.domain, generated.text, f"{name}-{size}", size)
        tests = _test_files(benchmarks, name)
        if tests:
            domain = Domain(benchmarks / name / "domain.pddl")
            objects = {path: len(domain.problem_objects(path)) for path in tests}
            largest = max(tests, key=objects.get)
            profiled(policy_file, name, "test", domain, largest.read_text(), largest.name, objects[largest])
    return rows


def render_execution_benchmark(rows: list[ExecutionRow]) -> str:
    """The table of `stratpol bench execution`: seconds per phase, steps per second of the run and
    of successor generation alone on the same states, and the ratio of the two."""
    lines = [f"{'domain':<20} {'instance':<30} {'objects':>7} {'steps':>6} {'outcome':>12} {'ground':>7} {'succ':>7}"
             f" {'feat':>7} {'rules':>7} {'steps/s':>8} {'engine':>8} {'slower':>7} {'succ/s engine':>13}"]
    for row in rows:
        p = row.profile
        rate = p.engine_successors / p.engine if p.engine > 0 else 0.0
        lines.append(f"{row.domain:<20} {p.instance[:30]:<30} {p.objects:>7} {p.steps:>6} {p.failure or 'solved':>12}"
                     f" {p.grounding:>7.2f} {p.successors:>7.2f} {p.features:>7.2f} {p.rules:>7.2f}"
                     f" {p.steps_per_second:>8.0f} {p.engine_steps_per_second:>8.0f} {p.slowdown:>6.1f}x {rate:>13.0f}")
    return "\n".join(lines)
