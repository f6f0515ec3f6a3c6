"""Scaling plots: coverage over size with its confidence band, and plan length over size.

One or two results share a coverage panel, each with its band. More results get one coverage panel
each (the others drawn faintly behind it) and share the plan-length panel: overlapping bands are
unreadable. The legend sits below the panels, so it never covers a curve.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.artist import Artist  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from stratpol.atomic import atomic_path  # noqa: E402
from stratpol.errors import InputError  # noqa: E402
from stratpol.evaluation.scaling import ScalingResult  # noqa: E402

# The formats a figure may be written in, with the metadata that keeps their bytes free of the date.
FORMATS: dict[str, dict] = {"png": {}, "pdf": {"CreationDate": None}, "svg": {"Date": None}}
OVERLAY_MAX = 2  # up to this many results share one coverage panel; more get a panel each
BAND_ALPHA = 0.2
TAU_STYLE = {"color": "grey", "linestyle": ":", "linewidth": 1}


def figure_format(path: Path) -> str:
    """The format named by `path`'s suffix (png, pdf or svg): checked before any figure is drawn."""
    kind = path.suffix.lower().removeprefix(".")
    if kind not in FORMATS:
        named = f"suffix {path.suffix!r}" if path.suffix else "no suffix"
        raise InputError(f"cannot write a figure with {named}: name it .png, .pdf or .svg", path)
    return kind


def plot_scaling(results: Sequence[ScalingResult], path: Path, tau: float = 0.3, kappa: float = 0.1) -> None:
    """Write the scaling figure of `results` to `path` in the format of its suffix (png, pdf or svg).

    `tau` and `kappa` stand in for results whose folders did not record their settings.
    """
    figure_format(path)
    save_figure(scaling_figure(results, tau, kappa), path)


def scaling_figure(results: Sequence[ScalingResult], tau: float = 0.3, kappa: float = 0.1) -> Figure:
    """The scaling figure, not yet written: coverage (with bands) and plan length over size."""
    names = legend_names(results)
    colors = [_color(i) for i in range(len(results))]
    taus = [_setting(r, "tau", tau) for r in results]
    kappas = [_setting(r, "kappa", kappa) for r in results]
    panels = len(results) > OVERLAY_MAX
    figure = plt.figure(figsize=_figure_size(len(results), panels), layout="constrained")
    draw = _draw_panels if panels else _draw_overlay
    lines = draw(figure, results, names, colors, taus)
    handles: list[Artist] = [*lines, Patch(color="grey", alpha=BAND_ALPHA, label=band_label(kappas)),
                             Line2D([], [], **TAU_STYLE, label=f"tau = {_values(taus)}")]
    if panels:
        handles.append(Line2D([], [], color="0.8", linewidth=0.8, label="the other methods"))
    figure.legend(handles=handles, loc="outside lower center", ncols=min(3, len(handles)), fontsize=8, frameon=False)
    domains = set(r.domain for r in results)
    if len(domains) == 1:
        figure.suptitle(f"Scaling evaluation on {domains.pop()}", fontsize=11)
    return figure


def legend_names(results: Sequence[ScalingResult]) -> list[str]:
    """One name per result: its policy, with the domain only where results span several domains and the
    name does not say it already (never "gripper (gripper)"); a name that repeats is numbered."""
    several = len({r.domain for r in results}) > 1
    names = [f"{r.policy} ({r.domain})" if several and r.domain not in r.policy else r.policy for r in results]
    return [name if names.count(name) == 1 else f"{name} #{names[:i + 1].count(name)}" for i, name in enumerate(names)]


def band_label(kappas: Sequence[float]) -> str:
    """The legend entry of the confidence band: its level 1 - kappa, from the evaluations' settings."""
    levels = sorted(set(kappas))
    level = f"{100 * (1 - levels[0]):g}% " if len(levels) == 1 else ""
    return f"{level}confidence band (1 - kappa, kappa = {_values(kappas)})"


def _values(values: Sequence[float]) -> str:
    return ", ".join(f"{v:g}" for v in sorted(set(values)))


def _setting(result: ScalingResult, name: str, default: float) -> float:
    """A setting the evaluation recorded in its provenance, else `default` (folders from before provenance)."""
    recorded = None if result.provenance is None else result.provenance.settings.get(name)
    return default if recorded is None else float(recorded)


def _color(index: int) -> str:
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return cycle[index % len(cycle)]


def _figure_size(count: int, panels: bool) -> tuple[float, float]:
    if not panels:
        return 11.0, 4.8
    columns, rows = _grid(count + 1)
    return 3.3 * columns, 2.7 * rows + 0.3 * (count // 3 + 2)  # room for the legend's rows


def _grid(panels: int) -> tuple[int, int]:
    columns = min(4, panels)
    return columns, -(-panels // columns)


def _summary(name: str, result: ScalingResult) -> str:
    return f"{name}: Scale {result.scale}, SumCov {result.sum_coverage:.2f}"


def _draw_overlay(figure: Figure, results: Sequence[ScalingResult], names: Sequence[str], colors: Sequence[str],
                  taus: Sequence[float]) -> list[Line2D]:
    """Two panels: every coverage curve with its band, every plan length."""
    coverage, length = figure.subplots(1, 2)
    lines = [_coverage(coverage, result, color, _summary(name, result))
             for result, name, color in zip(results, names, colors)]
    for tau in set(taus):
        coverage.axhline(tau, **TAU_STYLE)
    for result, color in zip(results, colors):
        _plan_length(length, result, color)
    _label_coverage(coverage, "Coverage")
    _label_length(length)
    return lines


def _draw_panels(figure: Figure, results: Sequence[ScalingResult], names: Sequence[str], colors: Sequence[str],
                 taus: Sequence[float]) -> list[Line2D]:
    """One coverage panel per result (its band; the other results of its domain in light grey), then
    one panel with every plan length."""
    columns, rows = _grid(len(results) + 1)
    grid = figure.subplots(rows, columns, squeeze=False).ravel()
    lines = []
    for i, (result, name, color, tau) in enumerate(zip(results, names, colors, taus)):
        axes = grid[i]
        for other in results:
            if other is not result and other.domain == result.domain:
                axes.plot([m.size for m in other.sizes], [m.coverage for m in other.sizes], color="0.8",
                          linewidth=0.8, zorder=1)
        lines.append(_coverage(axes, result, color, _summary(name, result)))
        axes.axhline(tau, **TAU_STYLE)
        _label_coverage(axes, name, first_column=i % columns == 0, bottom=i + columns > len(results))
        axes.title.set_color(color)
    length = grid[len(results)]
    for result, color in zip(results, colors):
        _plan_length(length, result, color)
    _label_length(length)
    for axes in grid[len(results) + 1:]:
        axes.remove()
    return lines


def _coverage(axes: Axes, result: ScalingResult, color: str, label: str) -> Line2D:
    """The coverage curve of `result` and its band of +- half_width, clipped to [0, 1]."""
    sizes = [m.size for m in result.sizes]
    mean = [m.coverage for m in result.sizes]
    half = [min(m.half_width, 1.0) for m in result.sizes]
    axes.fill_between(sizes, [max(0.0, c - h) for c, h in zip(mean, half)],
                      [min(1.0, c + h) for c, h in zip(mean, half)], color=color, alpha=BAND_ALPHA, linewidth=0)
    line, = axes.plot(sizes, mean, marker=".", color=color, label=label)
    return line


def _plan_length(axes: Axes, result: ScalingResult, color: str) -> None:
    points = [(m.size, m.mean_plan_length) for m in result.sizes if m.mean_plan_length is not None]
    if points:
        axes.plot(*zip(*points), marker=".", markersize=4, color=color)


def _label_coverage(axes: Axes, title: str, first_column: bool = True, bottom: bool = True) -> None:
    axes.set(ylim=(-0.02, 1.02), title=title)
    axes.title.set_fontsize(10)
    if first_column:
        axes.set_ylabel("statistical coverage")
    else:
        axes.tick_params(labelleft=False)
    if bottom:
        axes.set_xlabel("size (objects)")


def _label_length(axes: Axes) -> None:
    axes.set(xlabel="size (objects)", ylabel="mean plan length (solved runs)", title="Plan length")
    axes.title.set_fontsize(10)


def save_figure(figure: Figure, path: Path) -> None:
    """Write `figure` in the format of `path`'s suffix, atomically (the file appears whole or not at all),
    and close it."""
    try:
        kind = figure_format(path)
        with atomic_path(path) as temporary:
            figure.savefig(temporary, format=kind, dpi=120, bbox_inches="tight", metadata=FORMATS[kind])
    finally:
        plt.close(figure)
