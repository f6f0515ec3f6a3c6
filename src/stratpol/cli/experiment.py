"""`stratpol experiment`: grids of methods x domains x seeds, their status and tables."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import TYPE_CHECKING

from stratpol.cli import options
from stratpol.cli.output import print_json
from stratpol.errors import InputError
from stratpol.progress import Progress

if TYPE_CHECKING:
    from stratpol.experiment import ExperimentConfig


def add_commands(commands: argparse._SubParsersAction) -> None:
    _add_experiment(commands)


def _add_experiment(commands: argparse._SubParsersAction) -> None:
    experiment = commands.add_parser("experiment", help="run a grid of methods x domains x seeds from a config "
                                                        "(resumable) and write comparison tables and plots")
    experiment.add_argument("config", help="experiment config (experiments/<name>.toml)")
    experiment.add_argument("--jobs", type=options.positive_int, metavar="J",
                            help="cells in parallel on this machine (default: the config's jobs, or 1)")
    experiment.add_argument("--evaluation-jobs", type=options.positive_int, metavar="J",
                            help="parallel runs within each cell's evaluation (scaling and IPC runs), e.g. for the "
                                 "last long cells; the results are the same (default: the config's "
                                 "evaluation_jobs, or 1)")
    experiment.add_argument("--cluster", metavar="ADDRESS",
                            help="Dask scheduler (tcp://host:8786) to run the cells on instead (default: the config's)")
    experiment.add_argument("--out", metavar="DIR", help="results folder (default: the config's out, or "
                                                         "results/<name> beside the config)")
    experiment.add_argument("--domains", nargs="+", metavar="DOMAIN",
                            help="run (or, with --status or --prune, show or prune) only the cells of these of the "
                                 "config's domains")
    experiment.add_argument("--methods", nargs="+", metavar="METHOD",
                            help="run (or show or prune) only the cells of these of the config's methods; the "
                                 "tables always hold every finished cell")
    instead = experiment.add_mutually_exclusive_group()  # each does one thing instead of running the grid
    instead.add_argument("--status", action="store_true",
                         help="print where each cell stands (finished, evaluating, trained, to run); run nothing")
    instead.add_argument("--report", action="store_true",
                         help="run nothing; write the tables and plots of the cells finished so far (while the "
                              "grid runs elsewhere too)")
    instead.add_argument("--prune", action="store_true",
                         help="run nothing; remove the evaluation folders of finished cells that their current "
                              "evaluation replaced (older settings or artifacts)")
    instead.add_argument("--train-only", action="store_true",
                         help="train the models of the unfinished cells and evaluate nothing: train on a larger "
                              "machine, copy the results folder's artifacts/ back, and the grid run here evaluates "
                              "them (with --device cuda, the R-GNNs train on the GPU)")
    experiment.add_argument("--device", choices=["auto", "cpu", "cuda"],
                            help="where this run trains the grid's R-GNNs (default: the config's [gnn] device, "
                                 "cpu); not a training setting: models trained on a GPU are the cells' models "
                                 "wherever the grid runs next")
    experiment.add_argument("--json", action="store_true", help="with --status: print it as JSON")
    experiment.set_defaults(run=_experiment)


def _experiment(args: argparse.Namespace) -> int:
    from stratpol.experiment import load_config, run_experiment
    from stratpol.experiment.grid import WorkerDied, cells

    if args.json and not args.status:
        raise InputError("--json goes with --status")
    config = load_config(args.config, out=args.out)
    if args.device:
        config = config.training_on(args.device)
    if args.evaluation_jobs:
        config = dataclasses.replace(config, evaluation_jobs=args.evaluation_jobs)
    if args.status:
        return _experiment_status(config, args.json, args.domains, args.methods)
    if args.prune:
        from stratpol.experiment.grid import prune_replaced_evaluations

        removed = prune_replaced_evaluations(config, args.domains, args.methods)
        print(f"removed {len(removed)} evaluation folders that finished cells no longer use (from {config.out})")
        return 0
    if args.report:
        if args.domains or args.methods:
            raise InputError("--report writes the tables of every finished cell: it takes no --domains or --methods")
        from stratpol.experiment import write_grid_tables
        from stratpol.experiment.grid import finished_rows

        write_grid_tables(config)
        print((config.out / "summary.md").read_text(), end="")
        print(f"{len(finished_rows(config))} of {len(cells(config))} cells finished; tables and plots in {config.out}")
        return 0
    if config.gnn.training.device != "cpu":  # no CUDA here: one line now, not a failed training per cell
        from neural.policies import pick_device

        pick_device(config.gnn.training.device)
    try:
        if args.train_only:
            return _experiment_training(config, args.jobs, args.cluster, args.domains, args.methods)
        with Progress() as progress:
            result = run_experiment(config, jobs=args.jobs, cluster=args.cluster, progress=progress,
                                    domains=args.domains, methods=args.methods)
    except WorkerDied as error:
        print(f"stratpol: error: {error}", file=sys.stderr)
        return 1
    print((config.out / "summary.md").read_text(), end="")
    grid = result.grid
    print(f"{len(grid.rows)} of {len(cells(config))} cells finished ({len(grid.computed)} run now, "
          f"{len(grid.reused)} before); tables and plots in {config.out}")
    return 0


def _experiment_training(config: ExperimentConfig, jobs: int | None, cluster: str | None,
                         domains: list[str] | None, methods: list[str] | None) -> int:
    from stratpol.experiment.grid import train_grid

    if cluster:
        raise InputError("--train-only runs on this machine: it takes no --cluster")
    with Progress() as progress:
        trained = train_grid(config, jobs, domains, methods, progress)
    failed = [artifact for artifact in trained if artifact.seconds is None]
    for artifact in trained:
        print(f"{artifact.cell.id}: {artifact.outcome} ({artifact.folder.relative_to(config.out)})")
    print(f"{len(trained) - len(failed)} of {len(trained)} models trained in {config.out / 'artifacts'}; "
          f"run the grid without --train-only to evaluate them")
    return 1 if failed else 0


def _experiment_status(config: ExperimentConfig, json_output: bool = False,
                       domains: list[str] | None = None, methods: list[str] | None = None) -> int:
    from collections import Counter

    from stratpol.experiment.grid import CellState, grid_status

    statuses = grid_status(config, domains, methods)
    if json_output:
        print_json({"config": str(config.path), "out": str(config.out),
                     "cells": [{"cell": s.cell.id, "domain": s.cell.domain, "method": s.cell.method,
                                "seed": s.cell.seed, "state": s.state.value, "detail": s.detail} for s in statuses]})
        return 0
    width = max(len(s.cell.id) for s in statuses)
    for status in statuses:
        print(f"{status.cell.id:<{width}}  {status.state.value:<10}  {status.detail}".rstrip())
    counts = Counter(s.state for s in statuses)
    print(", ".join(f"{counts[state]} {state.value}" for state in CellState if counts[state])
          + f" (results in {config.out})")
    return 0
