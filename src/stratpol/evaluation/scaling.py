"""Dynamic validation (Algorithm 2) and scaling evaluation (Algorithm 3) of the validation paper.

Both draw instances of growing size uniformly over the generator inputs of that size and run a
policy on them. Scaling evaluation runs each size until the sequential t-interval on coverage is
narrow enough, stops after `zeta` consecutive sizes below `tau`, and reports the statistical
coverage per size, Scale and SumCov; with `runs_together` a network policy decides a size's runs
in groups, one forward pass a step. Every run is appended to `runs.jsonl` in the output folder,
so an interrupted evaluation resumes where it stopped; `provenance.json` says which policy and
settings produced them, and a folder of another evaluation is never resumed.
"""

from __future__ import annotations

import json
import random
import shutil
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from stratpol.atomic import write_csv_atomically, write_text_atomically
from stratpol.processes.workers import RunPool
from stratpol.evaluation.confidence import SequentialInterval
from stratpol.evaluation.goal_progress import goal_progress
from stratpol.evaluation.policies import GeneralPolicy
from stratpol.evaluation.protocol import DRAW_SETTINGS, ScalingSettings
from stratpol.evaluation.runner import process_cpu_seconds, run, run_together
from stratpol.generation.registry import DomainFolder
from stratpol.generation.sampling import sample
from stratpol.generation.size_csp import size_exists
from stratpol.planning import Domain
from stratpol.progress import finish_status, report_status
from stratpol.provenance import Provenance, claim_folder, recorded_provenance
from stratpol.records import append_record, read_records

RESULTS = ("runs.jsonl", "scaling.csv", "scaling.json", "scaling.png")  # what an evaluation folder holds


@dataclass(frozen=True)
class RunRecord:
    size: int
    index: int
    solved: bool
    plan_length: int | None
    seconds: float
    failure: str | None
    cpu_seconds: float | None = None  # the CPU seconds it took (None in logs written before they were kept)
    # a failed run: whether it had stopped gaining goal literals (GoalProgress.stalled): wandering, not
    # slow or long-winded (None: solved, or logged before run logs recorded it)
    stalled: bool | None = None

    @property
    def cpu_cost(self) -> float:
        """What the run counts against a size's budget on the CPU clock: its CPU seconds, or its
        wall-clock seconds where the log did not keep them."""
        return self.seconds if self.cpu_seconds is None else self.cpu_seconds


def _draw_text(folder: DomainFolder, size: int, index: int, seed: int) -> str:
    """Instance `index` of `size`: its own random stream, so any order of runs gives the same draws."""
    return sample(folder, size, random.Random(f"{folder.name}/{seed}/{size}/{index}")).text


def _run_group(policy: GeneralPolicy, domain: Domain, texts: dict[int, str], size: int, step_bound: int,
               forbid_revisits: bool) -> list[RunRecord]:
    """The runs of `texts` (index -> instance text): alone where there is one, else together (each
    run's CPU seconds then its share of the group's, in proportion to its wall-clock share)."""
    instances = [domain.instance_from_text(text) for text in texts.values()]
    cpu_started = process_cpu_seconds()
    outcomes = [run(policy, instances[0], step_bound, forbid_revisits=forbid_revisits)] if len(instances) == 1 \
        else run_together(policy, instances, step_bound, forbid_revisits)
    cpu, wall = process_cpu_seconds() - cpu_started, sum(outcome.seconds for outcome in outcomes)
    return [RunRecord(size, index, outcome.solved, outcome.steps if outcome.solved else None, outcome.seconds,
                      None if outcome.failure is None else outcome.failure.value,
                      cpu * outcome.seconds / wall if wall > 0 else cpu / len(outcomes),
                      None if outcome.solved else goal_progress(instance, outcome.plan).stalled)
            for index, outcome, instance in zip(texts, outcomes, instances)]


@dataclass
class SizeResult:
    size: int
    runs: int
    coverage: float
    half_width: float
    mean_plan_length: float | None
    seconds: float
    failures: dict[str, int] = field(default_factory=dict)  # how the failed runs ended: step bound, revisit, ...
    stalled: dict[str, int] = field(default_factory=dict)  # of those, per kind, the runs logged as stalled


@dataclass
class ScalingResult:
    policy: str
    domain: str
    sizes: list[SizeResult] = field(default_factory=list)
    scale: int = 0
    sum_coverage: float = 0.0
    mean_plan_length: float | None = None  # over the solved runs of every size evaluated
    decision_ms: float | None = None  # run milliseconds per step, over the same runs, on the budget's clock
    provenance: Provenance | None = None  # the policy's content hash, every setting, the version

    def failure_counts(self) -> dict[str, int]:
        """How the failed runs of every size evaluated ended: failure kind -> runs."""
        return dict(sum((Counter(measured.failures) for measured in self.sizes), Counter()))

    def stalled_counts(self) -> dict[str, int]:
        """Of the failed runs of every size, per failure kind, those that had stopped gaining goal literals."""
        total = Counter()
        for measured in self.sizes:
            total.update(measured.stalled)  # update keeps a kind's 0, which a sum of Counters drops
        return dict(total)

    def describe(self) -> str:
        """A row per size (runs, coverage and half-width, mean plan length), how failed runs ended,
        then Scale and SumCov."""
        lines = ["size  runs  coverage  +-     plan length"]
        for m in self.sizes:
            length = "-" if m.mean_plan_length is None else f"{m.mean_plan_length:.1f}"
            lines.append(f"{m.size:>4}  {m.runs:>4}  {m.coverage:>8.3f}  {m.half_width:.3f}  {length:>11}")
        failed = describe_failures(self.failure_counts(), self.stalled_counts())
        return "\n".join(lines + ([f"failed runs: {failed}"] if failed else [])
                         + [f"Scale {self.scale}, SumCov {self.sum_coverage:.2f}"])


def describe_failures(counts: dict[str, int], stalled: dict[str, int] | None = None) -> str:
    """Failure kinds and their counts, the most frequent first, with how many of a kind stalled
    where that was logged: "step bound 12 (3 stalled), revisit 3" ("" for none)."""
    stalled = stalled or {}
    return ", ".join(f"{failure} {count}" + (f" ({stalled[failure]} stalled)" if failure in stalled else "")
                     for failure, count in sorted(counts.items(), key=lambda i: (-i[1], i[0])))




def read_runs(folder: Path) -> list[RunRecord]:
    """The runs an evaluation folder's runs.jsonl holds, in the order they finished (none: [])."""
    return read_records(folder / "runs.jsonl", RunRecord)


class _RunLog:
    """runs.jsonl: one line per finished run, read back on resume."""

    def __init__(self, out: Path | None) -> None:
        self.path = None if out is None else out / "runs.jsonl"
        self.done = {} if out is None else {(r.size, r.index): r for r in read_runs(out)}

    def add(self, records: list[RunRecord]) -> None:
        for record in records:
            self.done[(record.size, record.index)] = record
            if self.path is not None:
                append_record(self.path, record)


def scaling_evaluation(policy: GeneralPolicy, folder: DomainFolder, settings: ScalingSettings = ScalingSettings(),
                       out: Path | None = None, progress: Callable[[str], None] = lambda line: None,
                       source: str | None = None, force: bool = False, earlier: Path | None = None) -> ScalingResult:
    """Algorithm 3: sizes from 1 upwards until `zeta` consecutive sizes have coverage below `tau`.

    `source` identifies the policy (the content hash of its file or folder); an `out` folder that
    holds another evaluation is refused (InputError), or with `force` emptied first. `earlier`, an
    evaluation folder of the same policy under another stop rule, lends its runs to a new `out`.
    """
    provenance = settings.provenance(source or getattr(policy, "name", "policy"), folder.name)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        claim_folder(out, provenance, RESULTS, force)
        if earlier is not None:
            _take_over_runs(earlier, out, provenance, progress)
    log = _RunLog(out)
    result = ScalingResult(getattr(policy, "name", "policy"), folder.name, provenance=provenance)
    below = 0
    used: list[RunRecord] = []
    with RunPool(max(settings.jobs, 1), on_result=log.add) as pool:
        for size in range(1, settings.max_size + 1):
            if not size_exists(folder.size_model, size):
                continue
            report_status(progress, "sizes", size - 1, settings.max_size,
                          f"{below} below tau in a row" if below else "")
            measured, records = _evaluate_size(policy, folder, size, settings, log, pool, progress)
            result.sizes.append(measured)
            used += records
            below = below + 1 if measured.coverage < settings.tau else 0
            if below >= settings.zeta:
                break
    finish_status(progress, "sizes")
    solved = [r for r in used if r.solved]
    steps = sum(r.plan_length for r in solved)
    result.mean_plan_length = steps / len(solved) if solved else None
    spent = sum(r.cpu_cost if settings.budget_clock == "cpu" else r.seconds for r in solved)
    result.decision_ms = 1000 * spent / steps if steps else None
    _summarise(result, settings)
    if out is not None:
        write_tables(result, out)
    return result


def _evaluate_size(policy: GeneralPolicy, folder: DomainFolder, size: int, settings: ScalingSettings, log: _RunLog,
                   pool: RunPool, progress: Callable[[str], None]) -> tuple[SizeResult, list[RunRecord]]:
    """One size, until its interval is narrow enough: the result and the runs it used, taken in
    draw order (so the stopping point does not depend on `jobs`). A task is a group of runs,
    `runs_together` for a BatchPolicy (a network decides for all of them in one pass), else one;
    the pool's workers make the groups ahead of the one waited for (the first `min_runs_per_size`
    runs are needed whatever happens, then, while the time budget lasts, `jobs` groups more), so a
    long run holds up one worker."""
    interval = SequentialInterval(settings.epsilon, settings.kappa, maximum_runs=settings.max_runs_per_size)
    records: list[RunRecord] = []
    started = time.perf_counter()
    replayed = 0.0  # the recorded seconds of runs read back from the log (wall clock)
    charged = 0.0  # the CPU seconds of the runs taken so far, a worker's share (CPU clock)
    logged = {index for at, index in log.done if at == size}  # before this call: read back, not run
    group = settings.runs_together if hasattr(policy, "choose_together") else 1
    jobs = max(settings.jobs, 1)
    submitted = 0  # groups are the runs [k * group, (k + 1) * group); those below this were asked for
    pool.take_finished()  # a run of the size before that finished meanwhile
    index = 0
    while not interval.done():
        spent = charged if settings.budget_clock == "cpu" else time.perf_counter() - started + replayed
        if _out_of_time(settings, spent, interval.runs):
            break
        # runs past the minimum are wanted only while the budget lasts: once it is spent, none
        over = settings.seconds_per_size is not None and spent > settings.seconds_per_size
        ahead = min(settings.max_runs_per_size,
                    settings.min_runs_per_size if over else max(settings.min_runs_per_size, index + jobs * group))
        while submitted * group < ahead:
            missing = [i for i in range(submitted * group, (submitted + 1) * group) if i not in logged]
            if missing:
                pool.submit(_run_group, policy, folder.domain, {i: _draw_text(folder, size, i, settings.seed)
                                                                 for i in missing},
                            size, settings.plan_length_bound + size, settings.forbid_revisits)
            submitted += 1
        while (size, index) not in log.done:
            pool.wait()
        record = log.done[(size, index)]
        if index in logged:
            replayed += record.seconds / jobs
        charged += record.cpu_cost / jobs
        records.append(record)
        interval.add(record.solved)
        index += 1
        report_status(progress, f"size {size}", interval.runs, None,
                      f"coverage {interval.mean:.2f} +- {interval.half_width:.2f} (stops at +- {settings.epsilon:g})")
    pool.drop_queued()  # runs begun for this size finish in the background, and are logged
    finish_status(progress, f"size {size}")
    progress(f"size {size}: {interval.runs} runs, coverage {interval.mean:.2f} +- {interval.half_width:.2f}")
    lengths = [r.plan_length for r in records if r.plan_length is not None]
    failures = dict(Counter(r.failure for r in records if r.failure is not None))
    logged = [r for r in records if r.stalled is not None]  # a kind logged without a stalled run counts 0
    stalled = {kind: sum(r.stalled for r in logged if r.failure == kind)
               for kind in dict.fromkeys(r.failure for r in logged)}
    return SizeResult(size, interval.runs, interval.mean, interval.half_width,
                      sum(lengths) / len(lengths) if lengths else None, time.perf_counter() - started + replayed,
                      failures, stalled), records  # a resumed size keeps the seconds its runs took, not the re-read's


def _take_over_runs(earlier: Path, out: Path, provenance: Provenance, progress: Callable[[str], None]) -> None:
    """Copy `earlier`'s runs into `out` when `out` has none and both evaluate the same policy on the
    same draws: a changed stop rule then adds runs instead of repeating them."""
    recorded = recorded_provenance(earlier)
    # none to take where its runs.jsonl was not kept (results committed without it)
    if (out / "runs.jsonl").exists() or not (earlier / "runs.jsonl").exists() or recorded is None \
            or not same_draws(recorded, provenance):
        return
    shutil.copyfile(earlier / "runs.jsonl", out / "runs.jsonl")
    progress(f"took over {len(read_runs(out))} runs of {earlier}")


def same_draws(a: Provenance, b: Provenance) -> bool:
    """Whether two scaling evaluations' runs are interchangeable: the same policy, domain, stratpol
    version and draw settings (their stop rules may differ)."""
    return (a.what == b.what == "scaling evaluation" and (a.source, a.domain, a.version) == (b.source, b.domain, b.version)
            and all(a.settings.get(key) == b.settings.get(key) for key in DRAW_SETTINGS))


def _out_of_time(settings: ScalingSettings, seconds: float, runs: int) -> bool:
    """Whether a size's time budget ends it after `seconds` on it: never before its minimum of runs,
    since a coverage of one or two runs would decide Scale by chance for a policy slow enough to take
    only those. Runs read back from the log count their recorded seconds, so that a resumed
    evaluation does not start each size's clock over and run it again (instance drawing aside)."""
    return (settings.seconds_per_size is not None and runs >= settings.min_runs_per_size
            and seconds > settings.seconds_per_size)


def _summarise(result: ScalingResult, settings: ScalingSettings) -> None:
    """Scale: the largest size before the final run of sizes below tau; SumCov: coverage summed up to it."""
    end = len(result.sizes)
    trailing = 0
    for measured in reversed(result.sizes):
        if measured.coverage >= settings.tau:
            break
        trailing += 1
    if trailing >= settings.zeta:
        end -= trailing
    kept = result.sizes[:end]
    result.scale = kept[-1].size if kept else 0
    result.sum_coverage = sum(m.coverage for m in kept)


def write_tables(result: ScalingResult, out: Path) -> None:
    """scaling.csv (one row per size) and scaling.json (everything), written atomically."""
    header = ("size", "runs", "coverage", "half_width", "mean_plan_length", "seconds")
    write_csv_atomically(out / "scaling.csv", [header] + [
        (m.size, m.runs, f"{m.coverage:.4f}", f"{m.half_width:.4f}",
         "" if m.mean_plan_length is None else f"{m.mean_plan_length:.2f}", f"{m.seconds:.2f}")
        for m in result.sizes])
    data = asdict(result)
    data["provenance"] = None if result.provenance is None else result.provenance.to_json()
    write_text_atomically(out / "scaling.json", json.dumps(data, indent=1))


def read_result(folder: Path) -> ScalingResult:
    data = json.loads((folder / "scaling.json").read_text())
    sizes = [SizeResult(**m) for m in data.pop("sizes")]
    recorded = data.pop("provenance", None)  # None in folders written before stratpol recorded it
    return ScalingResult(sizes=sizes, provenance=None if recorded is None else Provenance.from_json(recorded), **data)


@dataclass
class ValidationResult:
    score: float
    coverage: dict[int, float]


LARGEST_VALIDATION_SIZE = 500  # dynamic validation goes no further up, however well a policy does


def dynamic_validation(policy: GeneralPolicy, folder: DomainFolder, start_size: int, plan_length_bound: int,
                       instances_per_size: int = 10, tau: float = 0.3, max_size: int = LARGEST_VALIDATION_SIZE,
                       forbid_revisits: bool = False, seed: int = 0) -> ValidationResult:
    """Algorithm 2: from start_size + 1 upwards, m instances per size, until coverage <= tau. The m
    runs of a size go together (run_together): a network decides for all of them in one pass."""
    coverage: dict[int, float] = {}
    for size in range(start_size + 1, max_size + 1):
        if not size_exists(folder.size_model, size):
            continue
        instances = [folder.domain.instance_from_text(_draw_text(folder, size, index, seed))
                     for index in range(instances_per_size)]
        outcomes = run_together(policy, instances, plan_length_bound, forbid_revisits)
        coverage[size] = sum(outcome.solved for outcome in outcomes) / instances_per_size
        if coverage[size] <= tau:
            break
    return ValidationResult(sum(coverage.values()), coverage)
