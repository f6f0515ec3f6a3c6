"""The comparison tables (CSV, JSON, markdown) and plots of a finished grid."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from statistics import mean

from stratpol.atomic import write_csv_atomically, write_text_atomically
from stratpol.evaluation.scaling import describe_failures
from stratpol.experiment.cells import CellRow
from stratpol.experiment.claims import compare, markdown_claims, sum_coverage_errors
from stratpol.experiment.published import published


@dataclass
class Summary:
    """One domain x method: the cell rows averaged over seeds (failed seeds count as Scale 0)."""

    domain: str
    method: str
    seeds: int
    failed: int
    scale: float
    sum_coverage: float
    sum_coverage_min: float  # over seeds: the spread that one seed hides
    sum_coverage_max: float
    mean_plan_length: float | None
    learn_seconds: float | None
    decision_ms: float | None
    ipc_solved: float | None
    ipc_total: int | None
    ipc_mean_plan_length: float | None
    failures: str | None  # how the seeds' failed scaling runs ended, summed ("": none failed; None: not recorded)
    decision_clock: str = "wall"  # what decision_ms counts: "wall", "cpu", or "cpu and wall" over seeds


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return float(mean(present)) if present else None


def summarise(rows: Sequence[CellRow]) -> list[Summary]:
    """Rows grouped by (domain, method) in their first-seen order, averaged over seeds."""
    groups: dict[tuple[str, str], list[CellRow]] = {}
    for row in rows:
        groups.setdefault((row.domain, row.method), []).append(row)
    summaries = []
    for (domain, method), group in groups.items():
        ok = [r for r in group if r.status == "ok"]
        summaries.append(Summary(
            domain, method, len(group), len(group) - len(ok),
            float(mean(r.scale for r in group)), mean(r.sum_coverage for r in group),
            min(r.sum_coverage for r in group), max(r.sum_coverage for r in group),
            _mean([r.mean_plan_length for r in ok]), _mean([r.learn_seconds for r in ok]),
            _mean([r.decision_ms for r in ok]), _mean([r.ipc_solved for r in ok]),
            next((r.ipc_total for r in ok if r.ipc_total is not None), None),
            _mean([r.ipc_mean_plan_length for r in ok]), _failures(ok),
            " and ".join(sorted({r.decision_clock for r in ok if r.decision_ms is not None})) or "wall",
        ))
    return summaries


def _failures(rows: Sequence[CellRow]) -> str | None:
    """The failure counts of the rows that recorded them, summed and described."""
    recorded = [r for r in rows if r.failures is not None]
    if not recorded:
        return None
    failures, stalled = Counter(), Counter()
    for row in recorded:
        failures.update(row.failures)
        stalled.update(row.stalled or {})  # update keeps a kind's 0, which a sum of Counters drops
    return describe_failures(failures, stalled)


def _cell(value, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _decision(s: Summary) -> str:
    """A decision's milliseconds, with the clock where it is not the wall clock."""
    clock = {"wall": "", "cpu": " CPU"}.get(s.decision_clock, f" ({s.decision_clock})")
    return _cell(s.decision_ms, 2) + (clock if s.decision_ms is not None else "")


def markdown_table(summaries: Sequence[Summary]) -> str:
    """The headline table: one line per domain and method, with the seeds' published scores beside."""
    lines = [("| domain | method | Scale | SumCov | plan length | IPC solved | IPC plan length | learn s | ms/decision "
              "| failed runs | papers: Scale / SumCov |"),
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for s in summaries:
        scale = _cell(s.scale, 1) if s.seeds > 1 else str(int(s.scale))
        if s.failed == s.seeds:
            scale = f"{scale} (failed)"
        elif s.failed:
            scale = f"{scale} ({s.failed}/{s.seeds} failed)"
        ipc = "-" if s.ipc_total is None else f"{_cell(s.ipc_solved, 1 if s.seeds > 1 else 0)}/{s.ipc_total}"
        papers = "; ".join(p.describe() for p in published(s.domain, s.method)) or "-"
        sum_coverage = f"{s.sum_coverage:.2f}"
        if s.sum_coverage_min != s.sum_coverage_max:
            sum_coverage += f" ({s.sum_coverage_min:.1f}-{s.sum_coverage_max:.1f})"
        lines.append(f"| {s.domain} | {s.method} | {scale} | {sum_coverage} | {_cell(s.mean_plan_length)} | "
                     f"{ipc} | {_cell(s.ipc_mean_plan_length)} | {_cell(s.learn_seconds, 0)} | "
                     f"{_decision(s)} | {'-' if s.failures is None else s.failures or 'none'} | {papers} |")
    return "\n".join(lines) + "\n"


def _csv_rows(rows: Sequence, kind: type) -> list[list[str]]:
    """The header (the dataclass's fields) and one row of cells per record."""
    names = [f.name for f in fields(kind)]
    return [names] + [[_csv_value(getattr(row, name)) for name in names] for row in rows]


def _csv_value(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return describe_failures(value) if isinstance(value, dict) else str(value)


def write_tables(rows: Sequence[CellRow], out: Path, title: str = "", plots: bool = True,
                 unfinished: Sequence[str] = ()) -> list[Path]:
    """cells.csv (every cell), summary.csv / summary.json / summary.md (per domain and method), and plots;
    summary.md has below its table the cells of the grid not in `rows` (`unfinished`: a line each, where
    it stands) and the claims the grid tests (`stratpol.experiment.claims`)."""
    summaries = summarise(rows)
    claims = markdown_claims(compare(summaries, sum_coverage_errors(rows, out)))
    write_csv_atomically(out / "cells.csv", _csv_rows(rows, CellRow))
    write_csv_atomically(out / "summary.csv", _csv_rows(summaries, Summary))
    missing = f"\nCells not finished ({len(unfinished)}):\n\n" + "".join(f"- {line}\n" for line in unfinished) \
        if unfinished else ""
    texts = {
        out / "summary.json": json.dumps([asdict(s) for s in summaries], indent=1) + "\n",
        out / "summary.md": (f"# {title}\n\n" if title else "") + markdown_table(summaries) + missing
        + (f"\n{claims}" if claims else ""),
    }
    for path, text in texts.items():
        write_text_atomically(path, text)
    return [out / "cells.csv", out / "summary.csv", *texts, *(write_plots(rows, summaries, out) if plots else [])]


def write_plots(rows: Sequence[CellRow], summaries: Sequence[Summary], out: Path) -> list[Path]:
    """scaling-<domain>.png (coverage and plan length over size, every method, first seed) and sumcov.png."""
    from stratpol.evaluation.plots import plot_scaling
    from stratpol.evaluation.scaling import read_result

    paths = []
    for domain in dict.fromkeys(r.domain for r in rows):
        results, seen = [], set()
        for row in rows:
            if row.domain != domain or row.method in seen or row.evaluation is None:
                continue
            folder = out / row.evaluation
            if (folder / "scaling.json").is_file():
                results.append(read_result(folder))
                seen.add(row.method)
        if results:
            path = out / f"scaling-{domain}.png"
            plot_scaling(results, path)
            paths.append(path)
    if summaries:
        path = out / "sumcov.png"
        _bar_chart(summaries, path)
        paths.append(path)
    return paths


def _bar_chart(summaries: Sequence[Summary], path: Path) -> None:
    """SumCov per domain, one bar per method (the mean over seeds, with their range as an error bar)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from stratpol.evaluation.plots import save_figure

    domains = list(dict.fromkeys(s.domain for s in summaries))
    methods = list(dict.fromkeys(s.method for s in summaries))
    found = {(s.domain, s.method): s for s in summaries}
    width = 0.8 / len(methods)
    figure, axes = plt.subplots(figsize=(max(6.0, 1.6 * len(domains) * max(1, len(methods)) / 3), 4),
                                layout="constrained")
    for i, method in enumerate(methods):
        xs = [d + (i - (len(methods) - 1) / 2) * width for d in range(len(domains))]
        bars = [found.get((domain, method)) for domain in domains]
        heights = [0.0 if b is None else b.sum_coverage for b in bars]
        spread = [[0.0 if b is None else b.sum_coverage - b.sum_coverage_min for b in bars],
                  [0.0 if b is None else b.sum_coverage_max - b.sum_coverage for b in bars]]
        axes.bar(xs, heights, width, label=method, yerr=spread if any(map(any, spread)) else None,
                 error_kw={"elinewidth": 0.8, "capsize": 1.5})
    axes.set_xticks(range(len(domains)), domains)
    axes.set(ylabel="SumCov (statistical coverage summed over sizes)", title="Scaling evaluation")
    axes.set_ylim(0, 1.05 * max([*(s.sum_coverage_max for s in summaries), 1.0]))
    figure.legend(fontsize=8, ncols=min(8, len(methods)), loc="outside lower center", frameon=False)  # off the bars
    save_figure(figure, path)
