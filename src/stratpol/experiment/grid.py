"""Running a grid: the cells not yet finished, with joblib on this machine or on a Dask cluster.

Each finished cell's row is written atomically to `<out>/cells/<cell>.json` as soon as it arrives,
so an interrupted experiment resumes with the cells still missing (and those resume their own work).
"""

from __future__ import annotations

import enum
import json
import multiprocessing
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TypeVar

from stratpol.atomic import write_text_atomically
from stratpol.errors import InputError
from stratpol.experiment.cells import (LEARNED, Cell, CellRow, artifact_folder, cell_fingerprint, cell_report,
                                      evaluation_folder, run_cell, train_artifact)
from stratpol.experiment.config import ExperimentConfig
from stratpol.methods import MethodKind, TrainingFailed, method
from stratpol.progress import finish_status, report_status


T = TypeVar("T")


class WorkerDied(RuntimeError):
    """A local worker process was killed while it ran a cell (by a signal or for memory)."""


@dataclass
class GridResult:
    """The rows of every cell of the grid, and which of them this run computed."""

    rows: list[CellRow] = field(default_factory=list)
    computed: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)


def cells(config: ExperimentConfig) -> list[Cell]:
    """The grid in a fixed order: domain, then method, then seed (planners have one seed: they are not
    learned), without the config's excluded cells."""
    grid = []
    for domain in config.domains:
        for name in config.methods:
            if f"{domain}.{name}" in config.exclude:
                continue
            seeds = config.seeds[:1] if method(name).kind is MethodKind.PLANNER else config.seeds
            grid += [Cell(domain, name, seed) for seed in seeds]
    return grid


def selected_cells(config: ExperimentConfig, domains: Sequence[str] | None = None,
                   methods: Sequence[str] | None = None) -> list[Cell]:
    """The cells of `config` of the given domains and methods (None: all of them), to run part of a
    grid first; a name the config does not have is an error."""
    for kind, names, known in (("domains", domains, config.domains), ("methods", methods, config.methods)):
        unknown = [name for name in names or () if name not in known]
        if unknown:
            raise InputError(f"no {kind} {', '.join(unknown)} in the config (its {kind}: {', '.join(known)})",
                             config.path)
    return [cell for cell in cells(config)
            if (domains is None or cell.domain in domains) and (methods is None or cell.method in methods)]


def row_path(config: ExperimentConfig, cell: Cell) -> Path:
    return config.out / "cells" / f"{cell.id}.json"


def finished_row(config: ExperimentConfig, cell: Cell) -> CellRow | None:
    """The saved row of `cell` when it was computed with the current settings."""
    path = row_path(config, cell)
    if not path.is_file():
        return None
    row = CellRow(**json.loads(path.read_text()))
    return row if row.fingerprint == cell_fingerprint(config, cell) else None


def finished_rows(config: ExperimentConfig) -> list[CellRow]:
    """The saved rows of the cells of `config` computed with its current settings, in grid order."""
    return [row for row in (finished_row(config, cell) for cell in cells(config)) if row is not None]


def prune_replaced_evaluations(config: ExperimentConfig, domains: Sequence[str] | None = None,
                               methods: Sequence[str] | None = None) -> list[Path]:
    """Remove the evaluation folders of finished cells (of `domains` and `methods`, None: all) that
    their current evaluation has replaced (older settings or artifacts), and return them; those of
    unfinished cells stay, since a rerun may take over their runs."""
    replaced = []
    for cell in selected_cells(config, domains, methods):
        row = finished_row(config, cell)
        if row is not None and row.evaluation is not None:
            current = config.out / row.evaluation
            replaced += [f for f in sorted((config.out / "evaluations").glob(f"{cell.id}-*")) if f != current]
    for folder in replaced:
        shutil.rmtree(folder)
    return replaced


def restore_trained_models(config: ExperimentConfig, domains: Sequence[str], methods: Sequence[str],
                           progress: Callable[[str], None] = lambda line: None) -> None:
    """Train again the models of finished cells whose artifact folder is gone: trained neural models
    are not kept in git, and a fresh checkout has only the cells' rows. Training is seeded, so it
    gives the model the cell judged (an R-GNN's weights bit for bit on the CPU, as the tests check)."""
    for cell in selected_cells(config, domains, methods):
        row = finished_row(config, cell)
        if row is None or row.artifact is None or (config.out / row.artifact / LEARNED).is_file():
            continue
        progress(f"{cell.id}: the model its row judged is not here (trained models are not kept); training it again")
        try:
            train_artifact(config, cell, progress)
        except TrainingFailed as failure:  # then its model stays missing, and callers leave it out
            progress(f"{cell.id}: training failed: {failure}")


def save_row(config: ExperimentConfig, cell: Cell, row: CellRow) -> None:
    write_text_atomically(row_path(config, cell), json.dumps(asdict(row), indent=1) + "\n")


class CellState(enum.Enum):
    """Where a cell stands, in the order a cell passes through them backwards."""

    FINISHED = "finished"
    FAILED = "failed"
    EVALUATING = "evaluating"
    TRAINED = "trained"
    TRAINING = "training"
    TO_RUN = "to run"


@dataclass(frozen=True)
class CellStatus:
    """Where one cell stands, read from the results folder without running anything."""

    cell: Cell
    state: CellState
    detail: str = ""


def grid_status(config: ExperimentConfig, domains: Sequence[str] | None = None,
                methods: Sequence[str] | None = None) -> list[CellStatus]:
    """Every cell of `config` (or those of `domains` and `methods`) in grid order: finished (with its
    scores), partly done, or not started."""
    from stratpol.evaluation.scaling import read_runs

    statuses = []
    for cell in selected_cells(config, domains, methods):
        row = finished_row(config, cell)
        if row is not None:
            failed = row.status != "ok"
            detail = row.status.removeprefix("failed: ") if failed else \
                f"Scale {row.scale}, SumCov {row.sum_coverage:.2f} ({row.seconds:.0f} s)"
            statuses.append(CellStatus(cell, CellState.FAILED if failed else CellState.FINISHED, detail))
            continue
        records = read_runs(evaluation_folder(config, cell))
        artifact = None if method(cell.method).kind is MethodKind.PLANNER else artifact_folder(config, cell)
        if records:
            detail = f"{len(records)} runs, sizes up to {max(r.size for r in records)}"
            statuses.append(CellStatus(cell, CellState.EVALUATING, detail))
        elif artifact is not None and (artifact / LEARNED).is_file():
            statuses.append(CellStatus(cell, CellState.TRAINED))
        elif artifact is not None and artifact.is_dir():
            statuses.append(CellStatus(cell, CellState.TRAINING, "or stopped while training: a rerun trains it again"))
        else:
            statuses.append(CellStatus(cell, CellState.TO_RUN))
    return statuses


def run_grid(config: ExperimentConfig, jobs: int | None = None, cluster: str | None = None,
             progress: Callable[[str], None] = lambda line: None,
             on_row: Callable[[list[CellRow]], None] = lambda rows: None,
             domains: Sequence[str] | None = None, methods: Sequence[str] | None = None) -> GridResult:
    """Every cell of `config` (or those of `domains` and `methods`): finished ones read back, the
    others run (locally, or on the Dask scheduler at `cluster`, which may also be a
    `distributed.Client`) and saved as they finish; `on_row` sees the rows finished so far, in grid
    order, after each one. The result's rows are those of every finished cell of the grid."""
    grid = cells(config)
    selected = set(selected_cells(config, domains, methods))
    result = GridResult()
    rows: dict[Cell, CellRow] = {}
    todo = []
    for cell in grid:
        row = finished_row(config, cell)
        if row is not None:
            rows[cell] = row
            result.reused.append(cell.id)
        elif cell in selected:
            todo.append(cell)
    # cells that read another method's training (gnn-v@fixed-loss) last: by then it is mostly trained
    todo.sort(key=lambda cell: method(cell.method).trained_by is not None)
    progress(f"{len(grid)} cells: {len(rows)} finished before, {len(todo)} to run")
    report_status(progress, "cells", len(rows), len(grid))
    cluster = cluster if cluster is not None else config.cluster
    finished = _on_cluster(config, todo, cluster, progress) if cluster else \
        _locally(config, todo, jobs or config.jobs)
    for cell, row in finished:
        save_row(config, cell, row)
        rows[cell] = row
        result.computed.append(cell.id)
        progress(f"{cell.id}: {row.status}, Scale {row.scale}, SumCov {row.sum_coverage:.2f} ({row.seconds:.0f} s)")
        report_status(progress, "cells", len(rows), len(grid), f"last: {cell.id}")
        on_row([rows[c] for c in grid if c in rows])
    finish_status(progress, "cells")
    result.rows = [rows[cell] for cell in grid if cell in rows]
    return result


@dataclass(frozen=True)
class TrainedArtifact:
    """The outcome of training one artifact folder without evaluating it."""

    cell: Cell  # the first selected cell that reads this artifact
    folder: Path
    seconds: float | None  # the training's own seconds (None: it failed)
    failure: str = ""

    @property
    def outcome(self) -> str:
        return f"failed: {self.failure}" if self.seconds is None else f"trained ({self.seconds:.0f} s)"


def train_grid(config: ExperimentConfig, jobs: int | None = None, domains: Sequence[str] | None = None,
               methods: Sequence[str] | None = None,
               progress: Callable[[str], None] = lambda line: None) -> list[TrainedArtifact]:
    """Train (or find trained) the artifacts of the unfinished cells of `domains` and `methods`, and
    evaluate nothing: to train on one machine (a larger one, or one with a GPU: `training_on`) and
    evaluate where the grid runs next, with the artifacts folder copied there. Artifacts that several cells read are trained once."""
    todo: dict[Path, Cell] = {}
    for cell in selected_cells(config, domains, methods):
        if method(cell.method).kind is not MethodKind.PLANNER and finished_row(config, cell) is None:
            todo.setdefault(artifact_folder(config, cell), cell)
    progress(f"{len(todo)} artifacts to train or reuse")
    cells_todo = list(todo.values())
    results = []
    for done, artifact in enumerate(_in_workers(_train_only, config, cells_todo, jobs or config.jobs), start=1):
        results.append(artifact)
        progress(f"{artifact.cell.id}: {artifact.outcome}")
        report_status(progress, "artifacts", done, len(cells_todo), f"last: {artifact.cell.id}")
    finish_status(progress, "artifacts")
    return results


def _train_only(config: ExperimentConfig, cell: Cell) -> TrainedArtifact:
    """`train_artifact` of `cell`, a failed training returned rather than raised."""
    try:
        folder, seconds = train_artifact(config, cell, cell_report(cell))
    except TrainingFailed as failure:
        return TrainedArtifact(cell, artifact_folder(config, cell), None, str(failure))
    return TrainedArtifact(cell, folder, seconds)


def _locally(config: ExperimentConfig, todo: list[Cell], jobs: int) -> Iterator[tuple[Cell, CellRow]]:
    for row in _in_workers(run_cell, config, todo, jobs):
        yield Cell(row.domain, row.method, row.seed), row


def _in_workers(work: Callable[[ExperimentConfig, Cell], T], config: ExperimentConfig, todo: list[Cell],
                jobs: int) -> Iterator[T]:
    """`work(config, cell)` for each cell of `todo`, in `jobs` joblib worker processes, results as
    they finish; a killed worker raises WorkerDied."""
    if jobs == 1:  # in this process: simplest to debug, and no worker start-up
        for cell in todo:
            yield work(config, cell)
        return
    from joblib import Parallel, delayed
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    _quiet_resource_tracker()
    parallel = Parallel(n_jobs=jobs, return_as="generator_unordered")
    try:
        yield from parallel(delayed(work)(config, cell) for cell in todo)
    except TerminatedWorkerError as error:  # killed from outside, or out of memory
        codes = str(error).rsplit("The exit codes of the workers are", 1)[-1].split("\n")[0].strip()
        raise WorkerDied(f"a worker process died ({codes or 'no exit code'}); what finished is saved: "
                         f"run the same command to resume") from None


def _check_workers_may_start_processes(client, jobs: int) -> None:
    """InputError, before any cell is submitted, when a worker of the cluster is a daemonic process:
    its cells could not start the `jobs` processes of their evaluations (Dask's default)."""
    from stratpol.processes.workers import DASK_WORKERS_WITH_CHILDREN

    daemonic = sorted(address for address, is_daemonic in client.run(_is_daemonic).items() if is_daemonic)
    if daemonic:
        raise InputError(f"evaluation_jobs {jobs} starts processes in each Dask worker, and {len(daemonic)} of "
                         f"the cluster's {len(client.scheduler_info()['workers'])} workers ({daemonic[0]} "
                         f"first) are daemonic processes, which may not: start them with "
                         f"{DASK_WORKERS_WITH_CHILDREN}, or set evaluation_jobs = 1")


def _check_workers_run_one_cell_at_a_time(client) -> None:
    """InputError, before any cell is submitted, when a worker of the cluster runs several threads:
    a CPU-clock time budget counts its process's CPU time, which cells side by side would share."""
    threaded = sorted(address for address, threads in client.nthreads().items() if threads > 1)
    if threaded:
        raise InputError(f"budget_clock \"cpu\" counts a Dask worker's CPU time for the cell it runs, and "
                         f"{len(threaded)} of the cluster's {len(client.nthreads())} workers ({threaded[0]} first) "
                         f"run several cells at once: start them with --nthreads 1 (more of them for more "
                         f"cells at once), or use budget_clock \"wall\"")


def _is_daemonic() -> bool:
    return multiprocessing.current_process().daemon


def _quiet_resource_tracker() -> None:
    """Turn off the warnings of loky's resource tracker, a process of its own that inherits our environment.

    When a worker is killed, the tracker removes the semaphores it left and warns about each on stderr,
    after stratpol's one error line; the clean-up is harmless, and its warnings all start "resource_tracker".
    """
    option = "ignore:resource_tracker:UserWarning"
    current = os.environ.get("PYTHONWARNINGS", "")
    if option not in current.split(","):
        os.environ["PYTHONWARNINGS"] = ",".join(filter(None, [current, option]))


def _on_cluster(config: ExperimentConfig, todo: list[Cell], cluster,
                progress: Callable[[str], None] = lambda line: None) -> Iterator[tuple[Cell, CellRow]]:
    """Submit every cell to a Dask scheduler; rows come back as they finish. Workers need the same
    stratpol installation and a shared file system holding `config.out` (artifacts, runs)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise InputError("--cluster needs dask.distributed (pip install -r requirements/cluster.txt)") from None
    owned = not isinstance(cluster, Client)
    try:
        client = Client(cluster, timeout="30s") if owned else cluster
    except OSError as error:
        raise InputError(f"cannot reach the Dask scheduler at {cluster}: {error}") from None
    try:
        if config.evaluation_jobs > 1:
            _check_workers_may_start_processes(client, config.evaluation_jobs)
        if config.evaluation.protocol.budget_clock == "cpu":
            _check_workers_run_one_cell_at_a_time(client)
        futures = {client.submit(run_cell, config, cell, pure=False, key=f"stratpol-{cell.id}-{id(todo)}"): cell
                   for cell in todo}
        for done, future in enumerate(as_completed(futures), start=1):
            running = sum(len(keys) for keys in client.processing().values())
            report_status(progress, "cells on the cluster", done, len(futures),
                          f"{running} running on {len(client.scheduler_info()['workers'])} workers")
            yield futures[future], future.result()
        finish_status(progress, "cells on the cluster")
    finally:
        if owned:
            client.close()
