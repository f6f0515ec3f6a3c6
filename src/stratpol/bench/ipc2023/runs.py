"""Methods on the IPC 2023 learning track's test problems, under the competition's limits, one
record per problem appended as it ends (so an interrupted run resumes where it stopped).

Methods: `rules`, a rule policy alone (no search beyond its own steps); `sketch`, the same policy
followed as a sketch (IW(k), k <= 2, where no successor is compatible; the width is recorded);
`lama-first`, Fast Downward's LAMA, first iteration; and the neural methods of an experiment grid
(`gnn-*`, `wl-*`), each a model the grid trained on the domain's generator. Every plan is written
as an IPC plan file and counts only when `stratpol validate`'s check accepts it, read back from
that file against a fresh load of the problem.
"""

from __future__ import annotations

import functools
import hashlib
import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from stratpol.errors import InputError
from stratpol.evaluation.goal_progress import GoalProgress
from stratpol.evaluation.policies import RulePolicy
from stratpol.bench.ipc2023.anchors import LEVELS
from stratpol.planning import Domain
from stratpol.provenance import model_hash
from stratpol.records import append_record, read_records
from stratpol.processes.limits import RETURNED, TIME_LIMIT, run_under_limits

METHODS = ("rules", "sketch", "lama-first")  # the default; trained models add the neural methods
SKETCH_WIDTH = 2  # as `bench testing` and the GENEX paper's Table 3
SOLVED = "solved"
PROGRESS_FIELDS = ("steps", "goals", "goals_met", "goals_met_at")  # ProblemRecord's last, in order


@dataclass(frozen=True)
class Limits:
    """Per problem: seconds and memory (the competition's: 30 minutes, 8 GiB, one core);
    `planner_seconds`, where given, is LAMA-first's shorter limit (900 problems at 30 minutes are
    more than a small machine carries; the competition's numbers stand beside as its anchors).
    The seconds count `clock`: wall-clock (the competition's), or "cpu", the CPU seconds of the
    run's process and of the planner it starts, so that other work beside a run does not cut it short."""

    seconds: float = 1800.0
    memory_mb: int = 8192
    planner_seconds: float | None = None
    clock: str = "wall"

    def seconds_for(self, method: str) -> float:
        return self.planner_seconds if method == "lama-first" and self.planner_seconds else self.seconds

    @property
    def table_stem(self) -> str:
        """The name of the table's files (coverage.csv, .json, .png): the CPU clock's table stands
        beside the wall clock's in the same folder."""
        return "coverage" if self.clock == "wall" else "coverage-cpu"

    def describe(self, method: str | None = None) -> str:
        """The limits as a table names them and a record's setting ends with them: '60 s, 8192 MiB',
        and on the CPU clock '60 s CPU, 8192 MiB'."""
        unit = " s CPU" if self.clock == "cpu" else " s"
        planner = f" (lama-first: {self.planner_seconds:g}{unit})" if method is None and self.planner_seconds else ""
        seconds = self.seconds if method is None else self.seconds_for(method)
        return f"{seconds:g}{unit}, {self.memory_mb} MiB{planner}"


@dataclass(frozen=True)
class Problem:
    domain: str
    level: str
    path: Path


@dataclass(frozen=True)
class ProblemRecord:
    """One method on one test problem: a line of records.jsonl. `outcome` is "solved" (with a
    valid plan) or how the run ended; `setting` names the limits and the policy file's digest, so
    that a changed setting runs the problem again rather than reading stale work."""

    method: str
    domain: str
    level: str
    problem: str
    outcome: str
    plan_length: int | None
    seconds: float
    peak_mb: float
    setting: str
    max_width: int | None = None  # sketch runs: the largest k an IW(k) needed
    mean_width: float | None = None
    # a policy's unsolved run: steps taken, the goal's fluent literals, the most met in one state and
    # the first step meeting that many (GoalProgress; none in the oldest records, which lack it)
    steps: int | None = None
    goals: int | None = None
    goals_met: int | None = None
    goals_met_at: int | None = None

    @property
    def solved(self) -> bool:
        return self.outcome == SOLVED

    @property
    def progress(self) -> GoalProgress | None:
        """How far an unsolved policy run got (None: solved, a planner's run, or not recorded)."""
        if self.steps is None:
            return None
        return GoalProgress(self.steps, self.goals, self.goals_met, self.goals_met_at)


def published_problems(benchmarks: Path, domains: Sequence[str], levels: Sequence[str] = LEVELS) -> list[Problem]:
    """The test problems of each domain and level (<domain>/testing/<level>/*.pddl), in file order;
    InputError for a domain without a domain file or without any of them."""
    problems = []
    for name in domains:
        folder = Path(benchmarks) / name
        if not (folder / "domain.pddl").is_file():
            raise InputError(f"no domain.pddl for {name}", folder)
        found = [Problem(name, level, path) for level in levels
                 for path in sorted((folder / "testing" / level).glob("*.pddl")) if path.name != "domain.pddl"]
        if not found:
            raise InputError(f"no test problems at levels {', '.join(levels)}", folder / "testing")
        problems += found
    return problems


def table_scope(benchmarks: Path, out: Path, domains: Sequence[str], levels: Sequence[str], methods: Sequence[str],
                neural: bool, limits: Limits) -> tuple[list[str], list[str], list[str]]:
    """The domains, levels and methods a table of `out` under `limits` shows: those asked for, and
    those `out` holds records of under the same limits, so that a run on part of the track does not
    write files that drop the rest of it (records under other limits belong to another table).
    Recorded neural methods only where `neural` (their setting needs a grid's models)."""
    recorded = [r for r in read_records(Path(out) / "records.jsonl", ProblemRecord) if _under(r, limits)]
    seen = [r.domain for r in recorded if (Path(benchmarks) / r.domain / "domain.pddl").is_file()]
    shown_levels = [level for level in LEVELS if level in levels or any(r.level == level for r in recorded)]
    shown = list(dict.fromkeys([*methods, *(r.method for r in recorded if r.method in METHODS or neural)]))
    shown.sort(key=lambda m: METHODS.index(m) if m in METHODS else len(METHODS))  # the same columns every call
    return list(dict.fromkeys([*domains, *seen])), shown_levels, shown


def ipc2023_benchmark(benchmarks: Path, out: Path, domains: Sequence[str], levels: Sequence[str] = LEVELS,
                      methods: Sequence[str] = METHODS, policies: Path = Path("experiments/results/policies/ipc2023"),
                      limits: Limits = Limits(), jobs: int = 1, progress: Callable[[str], None] = lambda line: None,
                      run: bool = True, models: dict[tuple[str, str], Path] | None = None,
                      retry_unsolved: bool = False) -> list[ProblemRecord]:
    """Run each method on each test problem of `domains` and `levels` under `limits`, `jobs` at a
    time, appending each record to out/records.jsonl and each plan to out/plans/; problems with
    a record of the same setting are not run again (with `retry_unsolved`, those recorded unsolved
    are, and their new record replaces the old), and with `run` false none is. The rule
    methods of a domain without a policy file (policies/<domain>.policy) are left out with a
    progress line, as are the neural methods without a model in `models` ((method, domain) ->
    the trained model's folder); with `run` false, a neural method's level that its model here has
    not run (or that has no model here) takes the records under `limits` of the model that ran it
    last. Returns the records of the problems asked for."""
    problems = published_problems(benchmarks, domains, levels)
    log = Path(out) / "records.jsonl"
    done = {(r.method, r.domain, r.level, r.problem, r.setting): r for r in read_records(log, ProblemRecord)}
    if retry_unsolved and run:
        done = {k: r for k, r in done.items() if r.solved}
    loaded = {name: Domain(Path(benchmarks) / name / "domain.pddl") for name in domains}
    rule_policies = {name: _policy(Path(policies), name, loaded[name], progress)
                     for name in domains if {"rules", "sketch"} & set(methods)}
    models = _present_models(models or {}, methods, domains, progress)
    settings = {(method, name): _setting(method, limits, rule_policies.get(name), models.get((method, name)))
                for method in methods for name in domains}
    tasks = [(method, problem) for problem in problems for method in methods
             if method == "lama-first" or (method, problem.domain) in models
             or method in ("rules", "sketch") and rule_policies.get(problem.domain) is not None]

    def key(method: str, problem: Problem) -> tuple[str, ...]:
        return method, problem.domain, problem.level, problem.path.name, settings[method, problem.domain]

    records = [done[key(m, p)] for m, p in tasks if key(m, p) in done]
    to_run = [(m, p) for m, p in tasks if key(m, p) not in done]
    if not run:
        shown = {(r.method, r.domain, r.level) for r in records}
        return records + _recorded_by_other_models(done.values(), problems, methods, shown, limits)
    if records:
        progress(f"{len(records)} of {len(tasks)} runs recorded in {log}; running the other {len(to_run)}")

    def plan_file(method: str, problem: Problem) -> Path:
        return Path(out) / "plans" / method / problem.domain / problem.level / f"{problem.path.stem}.plan"

    def solve(batch: Sequence[tuple[str, Problem]], seconds: float, index: int) -> dict:
        method, problem = batch[index]
        policy = rule_policies.get(problem.domain)
        return _solve(method, loaded[problem.domain], problem, policy and policy[0], seconds, limits,
                      plan_file(method, problem), models.get((method, problem.domain)))

    def keep(record: ProblemRecord) -> None:
        append_record(log, record)
        records.append(record)
        length = f" in {record.plan_length} steps" if record.solved else _progress_text(record.progress)
        progress(f"{record.method} {record.domain}/{record.level}/{record.problem}: {record.outcome}{length}, "
                 f"{record.seconds:.1f} s, {record.peak_mb:.0f} MB ({len(records)}/{len(tasks)})")

    # Sketch runs come last. A sketch follows the policy's own choices (the same seeded tie-breaks)
    # up to the first state without a compatible successor, so where the policy alone solved a
    # problem (in this run or an earlier one, with the same policy and limits) the sketch run is
    # that run, width 0 at every decision: it is recorded, not repeated.
    for sketch, seconds in sorted({(method == "sketch", limits.seconds_for(method)) for method, _ in to_run}):
        group = [(m, p) for m, p in to_run if (m == "sketch") == sketch and limits.seconds_for(m) == seconds]
        if sketch:
            alone_setting = {name: _setting("rules", limits, rule_policies.get(name)) for name in domains}
            alone = {(r.domain, r.level, r.problem): r for r in (*done.values(), *records)
                     if r.method == "rules" and r.solved and r.setting == alone_setting.get(r.domain)}
            for method, problem in group:
                ran = alone.get((problem.domain, problem.level, problem.path.name))
                if ran is not None:
                    if plan_file("rules", problem).is_file():  # plans are not kept in git; records are
                        shutil.copyfile(plan_file("rules", problem), _parent_made(plan_file(method, problem)))
                    keep(replace(ran, method=method, setting=settings[method, problem.domain], max_width=0,
                                 mean_width=0.0))
            group = [(m, p) for m, p in group if (p.domain, p.level, p.path.name) not in alone]
        for outcome in run_under_limits(functools.partial(solve, group, seconds), len(group), seconds,
                                        limits.memory_mb, jobs, limits.clock):
            method, problem = group[outcome.index]
            answer = outcome.value if outcome.ended == RETURNED else {"outcome": outcome.ended}
            if outcome.ended == TIME_LIMIT and outcome.value:  # a run that stopped itself just past the limit
                answer.update({k: v for k, v in outcome.value.items() if k in PROGRESS_FIELDS})
            spent = outcome.cpu_seconds if limits.clock == "cpu" else outcome.seconds
            keep(ProblemRecord(method, problem.domain, problem.level, problem.path.name, answer["outcome"],
                               answer.get("plan_length"), answer.get("seconds", spent),
                               round(outcome.peak_mb, 1), settings[method, problem.domain],
                               answer.get("max_width"), answer.get("mean_width"),
                               *(answer.get(name) for name in PROGRESS_FIELDS)))
    return records


def _progress_text(progress: GoalProgress | None) -> str:
    if progress is None:
        return ""
    return (f" at step {progress.steps}, {progress.most_met} of {progress.goals} goal literals by step "
            f"{progress.most_met_at}{' (stalled)' if progress.stalled else ''}")


def _parent_made(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _policy(folder: Path, name: str, domain: Domain, progress: Callable[[str], None]
            ) -> tuple[RulePolicy, str] | None:
    """The domain's rule policy and its file's digest; None, with a progress line, without one;
    InputError naming the file where its features do not read in the domain's vocabulary."""
    from stratpol.features import Vocabulary
    from stratpol.policy.files import read_policy_file

    path = folder / f"{name}.policy"
    if not path.is_file():
        progress(f"{name}: no policy {path}; its rules and sketch runs are left out")
        return None
    vocabulary = Vocabulary(domain)
    try:
        policy = RulePolicy(read_policy_file(path, vocabulary.factory), vocabulary, seed=0)
    except ValueError as error:
        raise InputError(f"not a policy of {domain.path}: {error}", path) from None
    return policy, hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def _recorded_by_other_models(recorded: Iterable[ProblemRecord], problems: Sequence[Problem],
                              methods: Sequence[str], shown: set[tuple[str, str, str]],
                              limits: Limits) -> list[ProblemRecord]:
    """For each neural method's level that the model here has not run (or no model is here:
    trained models are not kept in git), the records under `limits` of the model that ran that
    level last: a table of a fresh checkout, or of a model trained again, keeps the recorded
    runs, and no level mixes the runs of two trainings."""
    wanted = {(m, p.domain, p.level, p.path.name) for p in problems for m in methods
              if m not in METHODS and (m, p.domain, p.level) not in shown}
    mine = [r for r in recorded if (r.method, r.domain, r.level, r.problem) in wanted and _under(r, limits)]
    last_model = {(r.method, r.domain, r.level): r.setting for r in mine}  # records are in the order run
    latest = {(r.method, r.domain, r.level, r.problem): r for r in mine
              if r.setting == last_model[r.method, r.domain, r.level]}
    return list(latest.values())


def _under(record: ProblemRecord, limits: Limits) -> bool:
    """Whether `record` ran under `limits` (its setting ends with them, see `_setting`)."""
    return record.setting.endswith(", " + limits.describe(record.method))


def _present_models(models: dict[tuple[str, str], Path], methods: Sequence[str], domains: Sequence[str],
                    progress: Callable[[str], None]) -> dict[tuple[str, str], Path]:
    """The neural methods' models that are there; a progress line for each one that is not."""
    present = {}
    for method in methods:
        if method in METHODS:
            continue
        for name in domains:
            folder = models.get((method, name))
            if folder is None or not Path(folder).is_dir():
                progress(f"{name}: no trained {method} model{f' ({folder})' if folder else ''}; its runs are left out")
            else:
                present[method, name] = Path(folder)
    return present


def _setting(method: str, limits: Limits, policy: tuple[RulePolicy, str] | None, model: Path | None = None) -> str:
    if method == "lama-first":
        return f"lama-first, {limits.describe(method)}"
    if method not in METHODS:
        return f"model {model_hash(model)[:12] if model else '-'}, {limits.describe(method)}"
    width = f", IW(k <= {SKETCH_WIDTH})" if method == "sketch" else ""
    return f"policy {policy[1] if policy else '-'}{width}, {limits.describe(method)}"


def _solve(method: str, domain: Domain, problem: Problem, policy: RulePolicy | None, seconds: float, limits: Limits,
           plan_file: Path, model: Path | None = None) -> dict:
    """One run, in the child `run_under_limits` forked: solve, write the plan, validate it from
    the file. The seconds count loading and solving on the limits' clock (a forked child's CPU
    seconds start at 0), not the validation. A neural model reads the problem with the domain file
    it was trained on (the generator's, the same domain)."""
    from stratpol.evaluation import run
    from stratpol.evaluation.goal_progress import goal_progress
    from stratpol.evaluation.runner import CLOCKS, file_step_bound
    from stratpol.planning.fast_downward import run_fast_downward
    from stratpol.planning.plans import write_plan

    clock = CLOCKS[limits.clock]
    started = clock()
    if model is not None:
        from stratpol.generation import domain_folder
        from stratpol.methods import load_trained

        policy = load_trained(model, problem.domain)
        instance = domain_folder(problem.domain).domain.load_instance(problem.path)
    else:
        instance = domain.load_instance(problem.path)
    remaining = max(1.0, seconds - (clock() - started))
    answer: dict = {}
    steps_taken = None  # a policy's steps where it did not solve: how far it got is recorded
    if method == "lama-first":
        result = run_fast_downward(instance, "lama-first", time_limit=remaining, memory_limit_mb=limits.memory_mb,
                                   planner="lama-first", clock=limits.clock)
        plan, outcome = result.plan, SOLVED if result.plan is not None else result.status.value
    else:
        ran = run(policy, instance, file_step_bound(instance), time_limit=remaining, clock=limits.clock,
                  dead_end_time_limit=min(remaining, 1.0), sketch_width=SKETCH_WIDTH if method == "sketch" else 0)
        plan, outcome = (ran.plan if ran.solved else None), (SOLVED if ran.solved else ran.failure.value)
        if method == "sketch":
            answer.update(max_width=ran.max_width, mean_width=round(ran.mean_width, 4))
        steps_taken = None if ran.solved else ran.plan
    answer["seconds"] = round(clock() - started, 3)
    if steps_taken is not None:  # replayed past the seconds, in a few ms
        reached = goal_progress(instance, steps_taken)
        answer.update(zip(PROGRESS_FIELDS, (reached.steps, reached.goals, reached.most_met, reached.most_met_at)))
    if plan is None:
        return answer | {"outcome": outcome}
    write_plan(plan_file, plan)
    check = validated(domain, problem.path, plan_file)
    return answer | {"outcome": SOLVED if check is None else f"invalid plan: {check}", "plan_length": len(plan)}


def validated(domain: Domain, problem: Path, plan_file: Path) -> str | None:
    """`stratpol validate`'s check of a plan file: None when valid, else why not."""
    from stratpol.planning.plans import read_plan, validate_plan

    check = validate_plan(domain.load_instance(problem), read_plan(plan_file))
    return None if check.valid else check.reason
