"""Head-to-head experiment grids: config -> cells (train or reuse, evaluate) -> tables and plots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.experiment.config import ExperimentConfig, load_config
from stratpol.experiment.grid import GridResult, run_grid
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
    grid = run_grid(config, jobs, cluster, progress,
                    on_row=lambda rows: write_tables(rows, config.out, config.name, plots=False),
                    domains=domains, methods=methods)
    return ExperimentResult(grid, write_tables(grid.rows, config.out, config.name))


__all__ = ["ExperimentConfig", "ExperimentResult", "GridResult", "load_config", "run_experiment", "run_grid"]
