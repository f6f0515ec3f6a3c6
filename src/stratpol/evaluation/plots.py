"""Scaling plots: coverage over size with its confidence band, and plan length over size."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

from stratpol.evaluation.scaling import ScalingResult  # noqa: E402


def plot_scaling(results: Sequence[ScalingResult], path: Path, tau: float = 0.3) -> None:
    """One PNG with two panels; several policies (or domains) share the axes."""
    figure, (coverage, length) = plt.subplots(1, 2, figsize=(11, 4))
    for result in results:
        sizes = [m.size for m in result.sizes]
        mean = [m.coverage for m in result.sizes]
        band = [min(m.half_width, 1.0) for m in result.sizes]
        label = f"{result.policy} ({result.domain}): Scale {result.scale}, SumCov {result.sum_coverage:.2f}"
        line, = coverage.plot(sizes, mean, marker=".", label=label)
        coverage.fill_between(sizes, [max(0, m - b) for m, b in zip(mean, band)],
                              [min(1, m + b) for m, b in zip(mean, band)], color=line.get_color(), alpha=0.2)
        points = [(m.size, m.mean_plan_length) for m in result.sizes if m.mean_plan_length is not None]
        if points:
            length.plot(*zip(*points), marker=".", color=line.get_color(), label=result.policy)
    coverage.axhline(tau, color="grey", linestyle=":", linewidth=1)
    coverage.set(xlabel="size (objects)", ylabel="statistical coverage", ylim=(-0.02, 1.02), title="Coverage")
    length.set(xlabel="size (objects)", ylabel="mean plan length (solved runs)", title="Plan length")
    coverage.legend(fontsize=7, loc="lower left")
    save_figure(figure, path)


def save_figure(figure, path: Path) -> None:
    """Lay out, write atomically (a PNG appears whole or not at all) and close `figure`."""
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp.png")
    figure.savefig(temporary, dpi=120)
    plt.close(figure)
    temporary.replace(path)
