"""Head-to-head experiment grids: config -> cells (train or reuse, evaluate) -> tables and plots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.errors import InputError
from stratpol.experiment.config import ExperimentConfig, load_config
from stratpol.experiment.grid import CellState, GridResult, finished_rows, grid_status, run_grid
from stratpol.experiment.tables import write_tables


@dataclass
class ExperimentResult:
    grid: GridResult
    files: list[Path]


def run_experiment(config: ExperimentConfig, jobs: int | None = None, cluster=None,
                   progress: Callable[[str], None] = lambda line: None,
                   domains: Sequence[str] | None = None, methods: Sequence[str] | None = None) -> ExperimentResult:
    """Run (or resume) every cell of `config`, or those of `domains` and `methods`, then write the
    tables and plots of all its finished cells into `config.out` (the tables also after each finished
    cell, so a long run that is cut off leaves tables of what it did)."""
    grid = run_grid(config, jobs, cluster, progress, on_row=lambda rows: write_grid_tables(config, plots=False),
                    domains=domains, methods=methods)
    return ExperimentResult(grid, write_grid_tables(config))


def write_grid_tables(config: ExperimentConfig, plots: bool = True) -> list[Path]:
    """The tables (and plots) of every cell of the grid finished on disk, under its config file as it
    reads now: other processes may finish cells of the same grid (`--domains`, `--methods`) while
    this one runs, and the file may change meanwhile (a file that no longer loads leaves `config`)."""
    try:
        config = load_config(config.path, out=config.out)
    except InputError:
        pass
    unfinished = [f"{status.cell.id}: {status.state.value}" + (f" ({status.detail})" if status.detail else "")
                  for status in grid_status(config) if status.state not in (CellState.FINISHED, CellState.FAILED)]
    return write_tables(finished_rows(config), config.out, config.name, plots, unfinished)


__all__ = ["ExperimentConfig", "ExperimentResult", "GridResult", "load_config", "run_experiment", "run_grid",
           "write_grid_tables"]
