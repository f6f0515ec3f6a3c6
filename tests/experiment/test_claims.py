"""The claims a grid tests: which methods each compares, the margin sampling allows, the tally."""

from __future__ import annotations

import json
import math
from dataclasses import asdict

import pytest

from stratpol.evaluation.scaling import ScalingResult, SizeResult
from stratpol.experiment.cells import CellRow
from stratpol.experiment.claims import compare, markdown_claims, sum_coverage_error, sum_coverage_errors
from stratpol.experiment.tables import summarise, write_tables


def _row(domain: str, method: str, sum_coverage: float, seed: int = 0, **more) -> CellRow:
    return CellRow(domain, method, seed, "f", "ok", scale=int(sum_coverage), sum_coverage=sum_coverage, **more)


def _sizes(*measured: tuple[int, int, float]) -> list[SizeResult]:
    return [SizeResult(size, runs, coverage, 0.0, None, 0.0) for size, runs, coverage in measured]


def test_the_error_of_sumcov_adds_each_sizes_binomial_variance_up_to_scale():
    # size 1: 10 of 10 solved, Agresti-Coull p = 12/14; size 2: 3 of 6, p = 5/10; size 3 is past Scale
    sizes = _sizes((1, 10, 1.0), (2, 6, 0.5), (3, 10, 0.0))
    expected = math.sqrt((12 / 14) * (2 / 14) / 14 + 0.5 * 0.5 / 10)
    assert sum_coverage_error(sizes, scale=2) == pytest.approx(expected)
    # a size all solved still counts its runs' uncertainty, the less the more runs it had
    assert 0 < sum_coverage_error(_sizes((1, 100, 1.0)), 1) < sum_coverage_error(_sizes((1, 10, 1.0)), 1)


def test_errors_come_from_the_seeds_spread_or_the_one_evaluation(tmp_path):
    folder = tmp_path / "evaluations" / "ferry.rules"
    folder.mkdir(parents=True)
    result = ScalingResult("rules", "ferry", _sizes((1, 10, 1.0), (2, 10, 0.0)), scale=1)
    (folder / "scaling.json").write_text(json.dumps(asdict(result)))
    rows = [_row("ferry", "rules", 1.0, evaluation="evaluations/ferry.rules"),
            _row("ferry", "gnn-v", 30.0, seed=0), _row("ferry", "gnn-v", 20.0, seed=1),
            _row("ferry", "gnn-q", 5.0)]  # its evaluation folder is not here
    errors = sum_coverage_errors(rows, tmp_path)
    assert errors[("ferry", "rules")] == pytest.approx(sum_coverage_error(_sizes((1, 10, 1.0)), 1))
    assert errors[("ferry", "gnn-v")] == pytest.approx(math.sqrt(50) / math.sqrt(2))  # stdev 7.07 over root 2
    assert ("ferry", "gnn-q") not in errors


def test_each_claim_compares_the_methods_it_names_with_the_margin_of_their_errors():
    summaries = summarise([_row("ferry", "rules", 80.0), _row("ferry", "gnn-v", 40.0), _row("ferry", "gnn-q", 8.0),
                           _row("ferry", "gnn-q-exp", 84.0), _row("ferry", "gnn-q-heu", 82.0),
                           _row("ferry", "wl-xgb-delta", 20.0), _row("ferry", "lama-first", 90.0)])
    errors = {("ferry", method): 1.5 for method in ("rules", "gnn-v", "gnn-q", "gnn-q-exp", "gnn-q-heu")}
    rules, against_v, against_q = compare(summaries, errors)
    # the best neural method is the best R-GNN or WL model: LAMA-first is a planner, not one of them
    assert (rules.method, rules.against, rules.difference) == ("rules", "gnn-q-exp", -4.0)
    # two standard errors of the difference: 2 * hypot(1.5, 1.5) = 4.24 covers the 4 SumCov: level
    assert rules.margin == pytest.approx(4.243, abs=1e-3) and rules.verdict == "level"
    assert rules.paper is None
    # regularised Q is the better of Omega_exp and Omega_heu; the Q-value paper's Table 3 beside
    assert (against_v.method, against_v.against, against_v.verdict) == ("gnn-q-exp", "gnn-v", "above")
    assert against_v.paper == ("gnn-q-exp", 85.2, "gnn-v", 84.5) and against_v.paper_verdict == "above"
    assert (against_q.against, against_q.verdict, against_q.paper.against_sum_coverage) == ("gnn-q", "above", 12.9)
    # without the errors of both cells there is no margin, and only equal SumCov is level
    below, *_ = compare(summaries, {})
    assert below.margin is None and below.verdict == "below"


def test_the_tables_tally_each_claim_and_sit_below_the_summary(tmp_path):
    rows = [_row("ferry", "rules", 80.0), _row("ferry", "gnn-q-exp", 84.0),
            _row("gripper", "rules", 50.0), _row("gripper", "gnn-v", 40.0)]
    text = markdown_claims(compare(summarise(rows), {}))
    assert "| ferry | rules 80.00 | gnn-q-exp 84.00 | -4.00 | below |" in text
    assert "| gripper | rules 50.00 | gnn-v 40.00 | +10.00 | above |" in text
    assert "At or above on 1 of 2 domains." in text
    assert "Regularised Q" not in text  # no domain has both regularised Q and V
    write_tables(rows, tmp_path, "grid", plots=False)
    assert text in (tmp_path / "summary.md").read_text()
    # a grid with nothing to compare has no claims
    assert markdown_claims(compare(summarise(rows[:1]), {})) == ""
