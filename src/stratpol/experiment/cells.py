"""One grid cell: train (or reuse) a method's artifact on a domain, then judge it with the scaling protocol.

Artifacts live in `<out>/artifacts/<domain>/<method>-s<seed>-<hash>/` and evaluations in
`<out>/evaluations/<cell>-<hash>/`, each keyed by a hash of the settings that produced it, so a rerun
reuses what is finished (the scaling evaluation resumes from its runs.jsonl, the IPC runs from
ipc.jsonl) and a changed setting never reads stale work. `neural` is imported inside the neural
methods only.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.processes.workers import RunPool
from stratpol.errors import InputError
from stratpol.evaluation.policies import GeneralPolicy, RulePolicy
from stratpol.evaluation.protocol import STOP_RULE, ScalingSettings
from stratpol.evaluation.runner import RunFailure
from stratpol.experiment.config import ExperimentConfig, RulesConfig, flat_settings
from stratpol.generation import domain_folder
from stratpol.methods import MethodKind, TrainingFailed, method
from stratpol.planning import Domain
from stratpol.provenance import fingerprint, model_hash, path_hash, recorded_provenance
from stratpol.records import append_record, read_records

LEARNED = "learned.json"  # written into an artifact folder once training is complete


@dataclass(frozen=True)
class Cell:
    domain: str
    method: str
    seed: int

    @property
    def id(self) -> str:
        return f"{self.domain}.{self.method}.s{self.seed}"


@dataclass
class CellRow:
    """What one cell measured: the scaling protocol's summary, IPC test coverage and timings."""

    domain: str
    method: str
    seed: int
    fingerprint: str
    status: str  # "ok", or "failed: reason" when training gave no policy
    scale: int = 0
    sum_coverage: float = 0.0
    largest_size: int = 0  # largest size evaluated
    mean_plan_length: float | None = None  # over solved scaling runs
    learn_seconds: float | None = None  # teacher plans + training; None for planners
    decision_ms: float | None = None  # run milliseconds per step over solved scaling runs, on decision_clock
    ipc_solved: int | None = None
    ipc_total: int | None = None
    ipc_mean_plan_length: float | None = None
    ipc_decision_ms: float | None = None
    failures: dict[str, int] | None = None  # how the failed scaling runs ended (None: not recorded)
    stalled: dict[str, int] | None = None  # of those, per kind, the runs that had stopped gaining goal literals
    artifact: str | None = None
    evaluation: str | None = None
    seconds: float = 0.0  # wall time of this cell (this run; a resumed cell counts only its resumed part)
    decision_clock: str = "wall"  # what decision_ms and ipc_decision_ms count: the budget clock (rows before: wall)


def training_settings(config: ExperimentConfig, cell: Cell) -> dict:
    """Everything that determines the trained artifact of `cell`."""
    kind = method(cell.method).kind
    settings = {MethodKind.RULES: config.rules, MethodKind.GNN: config.gnn, MethodKind.WL: config.wl,
                MethodKind.PLANNER: config.planner}[kind]
    changed = _for_domain(flat_settings(settings), ("sizes", "per_size"), cell.domain)
    changed.pop("device", None)  # where a model trains, not what it learns (its training.json says where)
    changed.pop("tie_break", None)  # how a rule policy's runs choose: the evaluation's key (cell_fingerprint)
    if "policies" in changed:  # a saved policy: its content, wherever the folder lies
        saved = config.rules.saved_policy(cell.domain)
        changed["policies"] = None if saved is None else path_hash(saved)
        changed.pop("learn_missing", None)
    seed = {} if kind is MethodKind.PLANNER else {"seed": cell.seed}
    return {"method": method(cell.method).artifact_method, "domain": cell.domain, **seed, **changed}


def cell_fingerprint(config: ExperimentConfig, cell: Cell) -> str:
    evaluation = _for_domain(flat_settings(config.evaluation), ("max_sizes",), cell.domain)
    runs = {"tie_break": config.rules.tie_break} \
        if method(cell.method).kind is MethodKind.RULES and config.rules.tie_break != RulesConfig.tie_break else {}
    return fingerprint({**training_settings(config, cell), "method": cell.method, **runs}, evaluation)


def _for_domain(settings: dict, per_domain: Sequence[str], domain: str) -> dict:
    """`settings` with each per-domain table among `per_domain` cut to `domain`'s entry: only it
    decides what the domain's cells produce."""
    return {key: value.get(domain) if key in per_domain else value for key, value in settings.items()}


def artifact_folder(config: ExperimentConfig, cell: Cell) -> Path:
    """Where `cell`'s trained artifact lies: shared by the methods that read one training (gnn-v@fixed-loss
    reads gnn-v's)."""
    key = fingerprint(training_settings(config, cell))
    return config.out / "artifacts" / cell.domain / f"{method(cell.method).artifact_method}-s{cell.seed}-{key}"


def evaluation_folder(config: ExperimentConfig, cell: Cell) -> Path:
    return config.out / "evaluations" / f"{cell.id}-{cell_fingerprint(config, cell)}"


def earlier_evaluation(config: ExperimentConfig, cell: Cell, source: str) -> Path | None:
    """An evaluation folder of `cell`'s policy (`source`: its content hash, or the planner's name)
    that differs from the cell's own only in the stop rule (a changed interval, budget or largest
    size): its scaling and IPC runs are the cell's too."""
    out = evaluation_folder(config, cell)
    for folder in sorted((config.out / "evaluations").glob(f"{cell.id}-*")):
        recorded = recorded_provenance(folder)
        if folder == out or recorded is None or recorded.source != source:
            continue
        # a key the record lacks was not yet a setting when it was written: it had its default's effect
        stop_rule = {key: recorded.settings.get(key, getattr(ScalingSettings(), key)) for key in STOP_RULE}
        if folder.name == f"{cell.id}-{cell_fingerprint(_with_stop_rule(config, cell.domain, stop_rule), cell)}":
            return folder
    return None


def _with_stop_rule(config: ExperimentConfig, domain: str, stop_rule: dict) -> ExperimentConfig:
    """`config` with `domain`'s evaluation under `stop_rule` (its largest size where the domain has its own)."""
    evaluation, protocol_rule = config.evaluation, dict(stop_rule)
    max_sizes = evaluation.max_sizes
    if domain in max_sizes and "max_size" in protocol_rule:
        max_sizes = {**max_sizes, domain: protocol_rule.pop("max_size")}
    protocol = dataclasses.replace(evaluation.protocol, **protocol_rule)
    return dataclasses.replace(config, evaluation=dataclasses.replace(evaluation, protocol=protocol, max_sizes=max_sizes))


def trained_models(config: ExperimentConfig, methods: Sequence[str], domains: Sequence[str]) -> dict[tuple[str, str], Path]:
    """(method, domain) -> the model folder its cell of the first seed trained, for the cells of
    `config` whose training has finished."""
    models = {}
    for name in methods:
        for domain in domains:
            if domain not in config.domains or name not in config.methods:
                continue
            artifact = artifact_folder(config, Cell(domain, name, config.seeds[0]))
            if (artifact / LEARNED).is_file():
                models[name, domain] = method(name).trained_model(artifact)
    return models


def cell_report(cell: Cell) -> Callable[[str], None]:
    """Progress lines of `cell`'s work on stderr, each marked with the cell (workers share one stderr)."""
    return lambda line: print(f"  [{cell.id}] {line}", file=sys.stderr, flush=True)


def run_cell(config: ExperimentConfig, cell: Cell, progress: Callable[[str], None] | None = None) -> CellRow:
    """Train or reuse the artifact of `cell`, evaluate it, and return its row (the caller saves it)."""
    started = time.perf_counter()
    report = progress or cell_report(cell)
    row = CellRow(cell.domain, cell.method, cell.seed, cell_fingerprint(config, cell), "ok")
    try:
        policy, row.learn_seconds, artifact = _policy(config, cell, report)
    except TrainingFailed as failure:
        row.status = f"failed: {failure}"
        row.seconds = time.perf_counter() - started
        return row
    row.artifact = None if artifact is None else str(artifact.relative_to(config.out))
    # a folder left by an older artifact of this cell starts afresh (the source differs), unless the
    # artifact was trained again to the same model (a fresh checkout): then its runs are this one's
    source = cell.method if artifact is None else model_hash(artifact)
    if isinstance(policy, RulePolicy):
        source = policy.source(source)
    earlier = earlier_evaluation(config, cell, source)
    _scaling(config, cell, policy, row, source, earlier, report)
    _ipc(config, cell, policy, row, earlier, report)
    row.seconds = time.perf_counter() - started
    return row


def _policy(config: ExperimentConfig, cell: Cell, report) -> tuple[GeneralPolicy, float | None, Path | None]:
    entry = method(cell.method)
    if entry.train is None:  # a planner: nothing to train
        return _named(entry.load(config, cell.domain, cell.seed, None), cell), None, None
    folder, seconds = train_artifact(config, cell, report)
    return _named(entry.load(config, cell.domain, cell.seed, entry.trained_model(folder)), cell), seconds, folder


def train_artifact(config: ExperimentConfig, cell: Cell, report: Callable[[str], None]) -> tuple[Path, float]:
    """The artifact folder of `cell`, trained unless it is (cells that share an artifact train it
    once), and the seconds its training took. Raises TrainingFailed."""
    folder = artifact_folder(config, cell)
    learned = folder / LEARNED
    with _training_lock(folder):
        if learned.is_file():
            report(f"reusing {folder}")
        else:
            started = time.perf_counter()
            try:
                method(cell.method).train(config, cell.domain, cell.seed, folder, report)
            except InputError as error:  # e.g. the teacher solved no training instance: one failed cell
                raise TrainingFailed(error.message) from None
            write_text_atomically(learned, json.dumps({"seconds": time.perf_counter() - started,
                                                       "settings": training_settings(config, cell)}, indent=1) + "\n")
    return folder, json.loads(learned.read_text())["seconds"]


@contextlib.contextmanager
def _training_lock(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on `folder`'s training (a lock file beside it) while the block runs: a
    second cell of the same artifact waits, then finds it trained."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _named(policy: GeneralPolicy, cell: Cell) -> GeneralPolicy:
    policy.name = cell.method  # tables and figures name a policy by its method
    return policy


def _scaling(config: ExperimentConfig, cell: Cell, policy: GeneralPolicy, row: CellRow, source: str,
             earlier: Path | None, report) -> None:
    from stratpol.evaluation.plots import plot_scaling
    from stratpol.evaluation.scaling import scaling_evaluation

    settings = dataclasses.replace(config.evaluation.protocol_for(cell.domain), seed=cell.seed,
                                   jobs=config.evaluation_jobs)
    out = evaluation_folder(config, cell)
    result = scaling_evaluation(policy, domain_folder(cell.domain), settings, out, progress=report, source=source,
                                force=True, earlier=earlier)
    plot_scaling([result], out / "scaling.png")  # tau and kappa from the result's provenance
    row.evaluation = str(out.relative_to(config.out))  # rows stay valid when the results folder moves
    row.scale, row.sum_coverage = result.scale, result.sum_coverage
    row.largest_size = result.sizes[-1].size if result.sizes else 0
    row.mean_plan_length, row.decision_ms = result.mean_plan_length, result.decision_ms
    row.decision_clock = settings.budget_clock
    row.failures, row.stalled = result.failure_counts(), result.stalled_counts()


@dataclass(frozen=True)
class IpcRun:
    """One run on an IPC test file, a line of the evaluation folder's ipc.jsonl."""

    file: str  # relative to the domain's IPC folder
    objects: int
    solved: bool
    steps: int
    seconds: float
    failure: str | None
    clock: str = "wall"  # what its time limit counted (the evaluation's budget clock; logs before: wall)
    cpu_seconds: float | None = None  # None in logs written before they were kept

    def seconds_on(self, clock: str) -> float:
        """The run's seconds on `clock`: its CPU seconds on the CPU clock where its log kept them."""
        return self.cpu_seconds if clock == "cpu" and self.cpu_seconds is not None else self.seconds


def ipc_instances(config: ExperimentConfig, domain: str) -> list[Path]:
    """The first `ipc_instances` problem files of each configured level of the domain's IPC test set."""
    folder = config.ipc_folder(domain)
    if folder is None:
        return []
    files: list[Path] = []
    for level in config.evaluation.ipc_levels:
        files += sorted((folder / "testing" / level).glob("*.pddl"))[:config.evaluation.ipc_instances]
    return files


def _ipc_run(policy: GeneralPolicy, domain: Domain, path: Path, root: Path, plan_length_bound: int,
             time_limit: float, clock: str) -> IpcRun:
    """One IPC run, its time limit on `clock`; `domain` is the policy's (pickled with it into a
    worker, it stays the policy's)."""
    from stratpol.evaluation import run
    from stratpol.evaluation.runner import file_step_bound, process_cpu_seconds

    instance = domain.load_instance(path)
    cpu_started = process_cpu_seconds()
    outcome = run(policy, instance, file_step_bound(instance, plan_length_bound), time_limit=time_limit, clock=clock)
    return IpcRun(str(path.relative_to(root)), len(instance.objects), outcome.solved, outcome.steps, outcome.seconds,
                  None if outcome.failure is None else outcome.failure.value, clock,
                  process_cpu_seconds() - cpu_started)


def _ipc(config: ExperimentConfig, cell: Cell, policy: GeneralPolicy, row: CellRow, earlier: Path | None,
         report) -> None:
    """One run per IPC test instance (resumable through ipc.jsonl, or taken over from the `earlier`
    evaluation of the cell), step bound 10 * objects + L; `evaluation_jobs` of them at once, each
    logged as it ends. The time limit counts the evaluation's budget clock: a logged run that
    another clock's limit stopped (logs written before IPC runs followed it counted wall-clock
    seconds) runs again."""
    files = ipc_instances(config, cell.domain)
    if not files:
        return
    log = evaluation_folder(config, cell) / "ipc.jsonl"
    if not log.exists() and earlier is not None and (earlier / log.name).exists():
        shutil.copyfile(earlier / log.name, log)
    clock = config.evaluation.protocol.budget_clock
    done = {record.file: record for record in read_records(log, IpcRun)
            if record.clock == clock or record.failure != RunFailure.TIME_LIMIT.value}
    root = config.ipc_folder(cell.domain)
    domain = domain_folder(cell.domain).domain

    def logged(record: IpcRun) -> None:
        done[record.file] = record
        append_record(log, record)
        report(f"IPC {record.file}: {'solved in ' + str(record.steps) + ' steps' if record.solved else record.failure}"
               f" ({record.seconds:.1f} s)")

    missing = [path for path in files if str(path.relative_to(root)) not in done]
    with RunPool(config.evaluation_jobs, on_result=logged) as pool:
        for path in missing:
            pool.submit(_ipc_run, policy, domain, path, root, config.evaluation.protocol.plan_length_bound,
                        config.evaluation.ipc_time_limit, clock)
        for _ in missing:
            pool.wait()
    records = [done[str(p.relative_to(root))] for p in files]
    solved = [r for r in records if r.solved]
    steps = sum(r.steps for r in records)
    row.ipc_solved, row.ipc_total = len(solved), len(records)
    row.ipc_mean_plan_length = sum(r.steps for r in solved) / len(solved) if solved else None
    row.ipc_decision_ms = 1000 * sum(r.seconds_on(clock) for r in records) / steps if steps else None
