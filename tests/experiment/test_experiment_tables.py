"""Summaries over seeds: means, the SumCov spread, failed seeds counted as zero."""

from __future__ import annotations

import dataclasses

import pytest

from stratpol.experiment.cells import CellRow
from stratpol.experiment.tables import markdown_table, summarise


def _row(method: str, seed: int, scale: int, sum_coverage: float, status: str = "ok", **more) -> CellRow:
    return CellRow("ferry", method, seed, "f", status, scale=scale, sum_coverage=sum_coverage, **more)


def test_seeds_are_averaged_and_their_spread_shown():
    rows = [_row("gnn-v", 0, 30, 25.0, decision_ms=10.0, ipc_solved=9, ipc_total=10,
                 failures={"step bound": 3, "revisit": 1}),
            _row("gnn-v", 1, 20, 19.0, decision_ms=20.0, ipc_solved=7, ipc_total=10, failures={"revisit": 4}),
            _row("rules", 0, 30, 28.0, ipc_solved=10, ipc_total=10, failures={})]
    v, rules = summarise(rows)
    assert (v.seeds, v.failed, v.scale, v.sum_coverage) == (2, 0, 25, 22.0)
    assert (v.sum_coverage_min, v.sum_coverage_max) == (19.0, 25.0)
    assert v.decision_ms == pytest.approx(15.0) and v.ipc_solved == 8 and v.ipc_total == 10
    table = markdown_table([v, rules]).splitlines()
    # the seeds' published scores beside ours: ferry's V in the Q-value paper (Table 3) and in the
    # scaling paper (Table 1, dynamic validation)
    # how the failed runs ended, summed over seeds, the most frequent first
    assert table[2] == ("| ferry | gnn-v | 25.0 | 22.00 (19.0-25.0) | - | 8.0/10 | - | - | 15.00 | revisit 5, step bound 3 "
                        "| Q-value paper 100 / 84.5; scaling paper 148 / 99.34 |")
    assert table[3] == "| ferry | rules | 30 | 28.00 | - | 10/10 | - | - | - | none | - |"
    # a cell on the CPU clock times its decisions on it, and the table says so (also where seeds mix clocks)
    cpu = [dataclasses.replace(row, decision_clock="cpu") for row in rows]
    assert "| 15.00 CPU |" in markdown_table(summarise(cpu)[:1])
    assert "| 15.00 (cpu and wall) |" in markdown_table(summarise(cpu[:1] + rows[1:2])[:1])
    # the runs that had stopped gaining goal literals, where the cells logged them (the second seed's did not)
    logged = [dataclasses.replace(rows[0], stalled={"step bound": 0, "revisit": 1}), *rows[1:]]
    assert "| revisit 5 (1 stalled), step bound 3 (0 stalled) |" in markdown_table(summarise(logged)[:1])
    # rows of cells finished before failures were recorded show none of them
    assert "| - | - |" in markdown_table(summarise([_row("rules", 0, 30, 28.0)]))


def test_a_failed_seed_counts_as_zero_and_is_named():
    rows = [_row("rules", 0, 30, 28.0), _row("rules", 1, 0, 0.0, status="failed: time limit")]
    summary, = summarise(rows)
    assert (summary.scale, summary.sum_coverage, summary.failed) == (15, 14.0, 1)
    assert "| 15.0 (1/2 failed) | 14.00 (0.0-28.0) |" in markdown_table([summary])


def test_the_bar_chart_draws_the_spread_over_seeds(tmp_path):
    from stratpol.experiment.tables import write_plots

    rows = [_row("gnn-v", 0, 30, 25.0), _row("gnn-v", 1, 20, 19.0), _row("rules", 0, 30, 28.0)]
    written = write_plots([], summarise(rows), tmp_path)
    assert written == [tmp_path / "sumcov.png"] and written[0].stat().st_size > 0


def test_the_published_scores_of_each_selection_criterion():
    from stratpol.experiment.published import published

    assert [p.describe() for p in published("transport", "gnn-v@fixed-loss")] == ["scaling paper 23 / 11.46"]
    assert [p.describe() for p in published("floortile", "gnn-q-heu")] == ["Q-value paper 62 / 45.6"]
    assert published("miconic", "gnn-v") == [] and published("ferry", "rules") == []
