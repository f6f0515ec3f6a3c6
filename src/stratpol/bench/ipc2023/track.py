"""`stratpol bench ipc2023` as one call: run the methods on the track's test problems (resuming
from the records), then the coverage table of every record under the limits, written beside them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.bench.ipc2023.anchors import DOMAINS, LEVELS
from stratpol.bench.ipc2023.learned import learned_rows, learning_records, render_learned
from stratpol.bench.ipc2023.report import write_coverage
from stratpol.bench.ipc2023.runs import (METHODS, Limits, Problem, ProblemRecord, ipc2023_benchmark,
                                         published_problems, table_scope)
from stratpol.errors import InputError


@dataclass(frozen=True)
class TrackTable:
    """The coverage table's input: the records under `limits`, the published problems of its
    domains and levels, and the methods it shows; its files (csv, json, png) are in `out`."""

    records: list[ProblemRecord]
    problems: list[Problem]
    methods: list[str]
    limits: Limits
    out: Path


def grid_models(grid: Path | None, domains: Sequence[str], methods: Sequence[str],
                restore: Callable[[str], None] | None = None) -> dict[tuple[str, str], Path]:
    """(method, domain) -> the model folder the experiment grid `grid` trained for its first seed,
    for the neural `methods`; with `restore` (a progress callback), the models of finished cells
    missing here are trained again first."""
    neural = [m for m in methods if m not in METHODS]
    if not neural:
        if grid is not None:
            raise InputError("--grid names the models of neural methods, and --methods has none (gnn-v, ...)")
        return {}
    if grid is None:
        raise InputError(f"--methods {neural[0]} runs a model an experiment grid trained: name it with --grid CONFIG")
    from stratpol.experiment import load_config
    from stratpol.experiment.cells import trained_models
    from stratpol.experiment.grid import restore_trained_models

    config = load_config(Path(grid))
    if restore is not None:
        restore_trained_models(config, domains, neural, restore)
    return trained_models(config, neural, domains)


def ipc2023_track(benchmarks: Path, out: Path, policies: Path, limits: Limits, domains: Sequence[str] = (),
                  levels: Sequence[str] = LEVELS, methods: Sequence[str] = ("rules", "sketch", "lama-first"),
                  grid: Path | None = None, jobs: int = 1, run: bool = True, retry_unsolved: bool = False,
                  progress: Callable[[str], None] = lambda line: None) -> TrackTable:
    """Run `methods` on the test problems of `domains` (default: every IPC 2023 domain with a
    folder in `benchmarks`) unless `run` is off, then the table of what the records hold."""
    if not Path(benchmarks).is_dir():
        raise InputError("benchmark folder not found", benchmarks)
    domains = list(domains) or [d for d in DOMAINS if (Path(benchmarks) / d).is_dir()]
    if not domains:
        raise InputError(f"none of the IPC 2023 domains ({', '.join(DOMAINS)}) has a folder here", benchmarks)
    if run:
        ipc2023_benchmark(benchmarks, out, domains, levels, methods, policies, limits, jobs, progress,
                          models=grid_models(grid, domains, methods, restore=progress), retry_unsolved=retry_unsolved)
    shown_domains, shown_levels, shown = table_scope(benchmarks, out, domains, levels, methods, grid is not None,
                                                     limits)
    records = ipc2023_benchmark(benchmarks, out, shown_domains, shown_levels, shown, policies, limits, run=False,
                                models=grid_models(grid, shown_domains, shown))
    shown = [m for m in shown if m in methods or any(r.method == m for r in records)]
    problems = published_problems(benchmarks, shown_domains, shown_levels)
    write_coverage(records, problems, shown, limits.describe(), out, limits.table_stem)
    return TrackTable(records, problems, shown, limits, out)


def learned_table(table: TrackTable, benchmarks: Path, policies: Path, hand_records: Path,
                  hand_policies: Path) -> str | None:
    """Where `policies` holds learning records (`D.learned.json`, policies learned end to end),
    their table with the hand-assisted policies' coverage beside (the records in `hand_records` of
    the policies in `hand_policies`, under the same limits), written to learned.md beside the
    coverage table; None where there is no learning record."""
    records = learning_records(policies)
    if not records:
        return None
    domains = list(dict.fromkeys(p.domain for p in table.problems))
    levels = [level for level in LEVELS if any(p.level == level for p in table.problems)]
    hand = ([] if Path(hand_records).resolve() == Path(table.out).resolve() else
            ipc2023_benchmark(benchmarks, hand_records, domains, levels, ["rules"], hand_policies, table.limits,
                              run=False))
    text = render_learned(learned_rows(records, table.records, hand, table.problems))
    write_text_atomically(Path(table.out) / "learned.md", f"limits per problem: {table.limits.describe()}\n\n"
                          f"{text}\n")
    return text
