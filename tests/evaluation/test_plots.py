"""Scaling figures: the format of the suffix, the legend off the curves, labels that say what they show."""

from __future__ import annotations

import re

import pytest

from stratpol.errors import InputError
from stratpol.evaluation.plots import legend_names, plot_scaling, scaling_figure
from stratpol.evaluation.scaling import ScalingResult, SizeResult
from stratpol.provenance import Provenance


def _result(policy: str, domain: str = "gripper", kappa: float | None = 0.05, tau: float = 0.2) -> ScalingResult:
    sizes = [SizeResult(n, 20, max(0.0, 1 - n / 8), 0.1, 2.0 * n if n < 8 else None, 0.1) for n in range(1, 10)]
    provenance = None if kappa is None else Provenance("scaling evaluation", "hash", domain,
                                                       {"kappa": kappa, "tau": tau, "epsilon": 0.05})
    return ScalingResult(policy, domain, sizes, scale=7, sum_coverage=3.5, provenance=provenance)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def _labels(figure) -> list[str]:
    return [text.get_text() for legend in figure.legends for text in legend.get_texts()]


@pytest.mark.parametrize("suffix, start", [(".png", b"\x89PNG\r\n\x1a\n"), (".pdf", b"%PDF"), (".svg", b"<?xml")])
def test_the_suffix_names_the_format(tmp_path, suffix, start):
    path = tmp_path / f"figure{suffix}"
    plot_scaling([_result("rules")], path)
    data = path.read_bytes()
    assert data.startswith(start)
    if suffix == ".svg":
        assert b"<svg" in data[:2000]
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


@pytest.mark.parametrize("name", ["figure.jpg", "figure"])
def test_an_unsupported_suffix_is_refused_and_writes_nothing(tmp_path, name):
    with pytest.raises(InputError, match="png, .pdf or .svg"):
        plot_scaling([_result("rules")], tmp_path / name)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("count", [1, 2, 7])
def test_the_legend_sits_outside_every_panel(count):
    figure = scaling_figure([_result(f"method-{i}") for i in range(count)])
    figure.canvas.draw()
    legend, = figure.legends
    box = legend.get_window_extent()
    assert figure.axes and not any(box.overlaps(axes.get_window_extent()) for axes in figure.axes)
    assert figure.bbox.contains(box.x0, box.y0) and figure.bbox.contains(box.x1, box.y1)


def test_many_results_get_one_coverage_panel_each():
    figure = scaling_figure([_result(f"method-{i}") for i in range(7)])
    titles = [axes.get_title() for axes in figure.axes]
    assert titles == [f"method-{i}" for i in range(7)] + ["Plan length"]
    assert all(len(axes.collections) == 1 for axes in figure.axes[:7])  # its own band only


def test_no_name_repeats_its_domain():
    results = [_result("gripper"), _result("rules"), _result("ferry", domain="ferry"), _result("rules", "ferry")]
    assert legend_names(results[:2]) == ["gripper", "rules"]
    assert legend_names(results) == ["gripper", "rules (gripper)", "ferry", "rules (ferry)"]
    assert legend_names([_result("rules"), _result("rules")]) == ["rules #1", "rules #2"]
    labels = _labels(scaling_figure(results))
    assert not [label for label in labels if re.search(r"(\S+) \(\1\)", label)]


def test_the_band_and_tau_come_from_the_evaluation_settings():
    labels = _labels(scaling_figure([_result("rules", kappa=0.05, tau=0.2)]))
    assert "95% confidence band (1 - kappa, kappa = 0.05)" in labels and "tau = 0.2" in labels


def test_old_folders_fall_back_to_the_arguments():
    labels = _labels(scaling_figure([_result("rules", kappa=None)], tau=0.3, kappa=0.1))
    assert "90% confidence band (1 - kappa, kappa = 0.1)" in labels and "tau = 0.3" in labels
