"""The sequential interval, scaling evaluation (stopping, Scale, SumCov, resume) and validation."""

from __future__ import annotations

import dataclasses
import json
import math
import time
from pathlib import Path

import pytest

from stratpol.evaluation import PlannerPolicy, RulePolicy
from stratpol.evaluation.confidence import SequentialInterval
from stratpol.evaluation.scaling import (
    ScalingResult, ScalingSettings, SizeResult, _summarise, dynamic_validation, read_result,
    same_draws, scaling_evaluation,
)
from stratpol.features import Vocabulary
from stratpol.generation import domain_folder
from stratpol.policy.text import read_policy

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"


def test_interval_does_not_stop_on_a_few_equal_outcomes():
    interval = SequentialInterval(epsilon=0.05, kappa=0.1)
    for _ in range(10):
        interval.add(1)
    assert not interval.done()  # zero sample variance must not end the size
    while not interval.done():
        interval.add(1)
    # with S^2 + 1/n the all-success half-width is t_{0.95, n-1} / n: 1.694 / 33 = 0.0513 at n = 33,
    # 1.692 / 34 = 0.0498 <= 0.05 at n = 34
    assert interval.runs == 34 and interval.mean == 1.0


def test_interval_half_width_matches_the_t_formula():
    interval = SequentialInterval()
    for x in [1, 0] * 50:
        interval.add(x)
    from scipy.stats import t

    variance = sum((x - 0.5) ** 2 for x in interval.outcomes) / 99 + 1 / 100
    assert interval.half_width == pytest.approx(t.ppf(0.95, 99) * math.sqrt(variance / 100))
    assert not interval.done()  # about 270 runs are needed near coverage 0.5


def test_scale_and_sumcov_stop_before_the_final_failing_sizes():
    result = ScalingResult("p", "d", [SizeResult(n, 30, c, 0.05, None, 0) for n, c in
                                      [(3, 1.0), (4, 0.9), (5, 0.2), (6, 0.5), (7, 0.1), (8, 0.0)]])
    _summarise(result, ScalingSettings(tau=0.3, zeta=2))
    assert result.scale == 6 and result.sum_coverage == pytest.approx(2.6)


@pytest.fixture(scope="module")
def gripper_policy():
    folder = domain_folder("gripper")
    return folder, RulePolicy(read_policy(GOLDEN / "gripper.policy"), Vocabulary(folder.domain), name="golden")


def test_scaling_evaluation_stops_at_tau_and_resumes(gripper_policy, tmp_path):
    folder, policy = gripper_policy
    # L = 5: a size n runs with n + 5 steps. Size 8 has 4 balls: 11 steps when the policy carries
    # two balls each trip, 13 or 15 when it sometimes takes one (random tie-breaks, independent per
    # instance), so most runs but not all fit in 13; 5 balls need at least 15 of the 14 allowed.
    settings = ScalingSettings(plan_length_bound=5, max_size=30)
    result = scaling_evaluation(policy, folder, settings, out=tmp_path)
    coverage = {m.size: m.coverage for m in result.sizes}
    assert coverage[5] == coverage[6] == coverage[7] == 1.0 and 0.8 < coverage[8] < 1.0 and coverage[9] == 0.0
    assert result.scale == 8 and max(coverage) == 10  # two sizes below tau, then stop
    # every failed run met the step bound, and the sizes count them
    failed = sum(m.runs - round(m.coverage * m.runs) for m in result.sizes)
    assert failed > 0 and result.failure_counts() == {"step bound": failed}
    assert read_result(tmp_path).failure_counts() == result.failure_counts()
    # none of them stalled: the policy was still delivering balls when the bound stopped it
    assert result.stalled_counts() == read_result(tmp_path).stalled_counts() == {"step bound": 0}
    assert result.describe().splitlines()[-2] == f"failed runs: step bound {failed} (0 stalled)"
    lines = (tmp_path / "runs.jsonl").read_text().splitlines()
    assert read_result(tmp_path).scale == 8
    assert (tmp_path / "scaling.csv").read_text().startswith("size,runs,coverage")
    again = scaling_evaluation(policy, folder, settings, out=tmp_path)  # resumes: no new runs
    assert (tmp_path / "runs.jsonl").read_text().splitlines() == lines
    assert [m.coverage for m in again.sizes] == [m.coverage for m in result.sizes]
    assert again.failure_counts() == result.failure_counts()
    assert json.loads(lines[0])["size"] == 5


def test_parallel_runs_give_the_same_result(gripper_policy, tmp_path):
    folder, policy = gripper_policy
    settings = ScalingSettings(plan_length_bound=5, max_size=8, epsilon=0.2)
    one = scaling_evaluation(policy, folder, settings, out=tmp_path / "one")
    two = scaling_evaluation(policy, folder, dataclasses.replace(settings, jobs=2), out=tmp_path / "two")
    assert [(m.size, m.runs, m.coverage) for m in one.sizes] == [(m.size, m.runs, m.coverage) for m in two.sizes]
    # the workers may have made a run or two ahead that no size used (logged all the same, in the
    # order they finished); every run both made is the same run
    alone, parallel = ({run[:2]: run for run in _runs(tmp_path / name)} for name in ("one", "two"))
    assert alone.items() <= parallel.items()
    # and an evaluation begun with one job resumes with two: the runs read back are not made again
    lines = (tmp_path / "one" / "runs.jsonl").read_text().splitlines()
    (tmp_path / "one" / "runs.jsonl").write_text("\n".join(lines[:len(lines) // 2]) + "\n")
    resumed = scaling_evaluation(policy, folder, dataclasses.replace(settings, jobs=2), out=tmp_path / "one")
    assert [(m.size, m.runs, m.coverage) for m in resumed.sizes] == [(m.size, m.runs, m.coverage) for m in one.sizes]
    assert (tmp_path / "one" / "runs.jsonl").read_text().splitlines()[:len(lines) // 2] == lines[:len(lines) // 2]
    assert alone.items() <= {run[:2]: run for run in _runs(tmp_path / "one")}.items()


def _runs(folder: Path) -> list[tuple]:
    """What each recorded run did (its size, index and outcome; not its seconds)."""
    return [tuple(value for key, value in json.loads(line).items() if key not in ("seconds", "cpu_seconds"))
            for line in (folder / "runs.jsonl").read_text().splitlines()]


def test_runs_together_leave_a_rule_policy_and_the_fingerprints_of_earlier_evaluations_alone(gripper_policy, tmp_path):
    # runs_together groups the runs of a network policy (BatchPolicy); a rule policy runs each alone
    folder, policy = gripper_policy
    settings = ScalingSettings(plan_length_bound=5, max_size=9, epsilon=0.2)
    scaling_evaluation(policy, folder, settings, out=tmp_path / "alone")
    scaling_evaluation(policy, folder, dataclasses.replace(settings, runs_together=4), out=tmp_path / "together")
    assert _runs(tmp_path / "alone") == _runs(tmp_path / "together")
    # the setting came later: at its default it stays out of a provenance, so that the evaluations
    # recorded before keep their fingerprints; another value is another evaluation's draws
    default = settings.provenance("golden", "gripper")
    assert "runs_together" not in default.settings
    grouped = dataclasses.replace(settings, runs_together=4).provenance("golden", "gripper")
    assert grouped.fingerprint != default.fingerprint and not same_draws(grouped, default)


def test_a_size_takes_its_minimum_of_runs_before_its_time_budget_ends_it(gripper_policy, tmp_path):
    folder, policy = gripper_policy
    hurried = ScalingSettings(max_size=7, seconds_per_size=1e-9)
    assert [m.runs for m in scaling_evaluation(policy, folder, hurried).sizes] == [1, 1, 1]
    patient = dataclasses.replace(hurried, min_runs_per_size=4)
    assert [m.runs for m in scaling_evaluation(policy, folder, patient, out=tmp_path).sizes] == [4, 4, 4]
    # with the budget spent, workers make no run beyond the minimum that no size would use
    scaling_evaluation(policy, folder, dataclasses.replace(patient, jobs=2), out=tmp_path / "parallel")
    assert sorted(run[:2] for run in _runs(tmp_path / "parallel")) == sorted(run[:2] for run in _runs(tmp_path))


class _SlowPolicy:
    """The inner policy with a pause before each run's first decision."""

    name = "slow"

    def __init__(self, inner, seconds: float):
        self.inner, self.seconds = inner, seconds

    def controller(self, instance):
        time.sleep(self.seconds)
        return self.inner.controller(instance)


def test_a_resumed_evaluation_counts_the_recorded_seconds_against_each_size_budget(gripper_policy, tmp_path):
    folder, policy = gripper_policy
    # 0.2 s a run, 0.3 s a size: two runs a size (a margin of 0.1 s a run for a loaded machine); read
    # back, the two runs spend the budget again (a clock started over would run a third, and more on
    # every resume)
    settings = ScalingSettings(max_size=6, seconds_per_size=0.3)
    first = scaling_evaluation(_SlowPolicy(policy, 0.2), folder, settings, out=tmp_path, source="slow")
    lines = (tmp_path / "runs.jsonl").read_text().splitlines()
    again = scaling_evaluation(_SlowPolicy(policy, 0.2), folder, settings, out=tmp_path, source="slow")
    assert [m.runs for m in first.sizes] == [m.runs for m in again.sizes] == [2, 2]
    assert (tmp_path / "runs.jsonl").read_text().splitlines() == lines
    # and each size reports the seconds its recorded runs took, not the moment of reading them back
    assert all(m.seconds >= 0.4 for m in again.sizes)


class _BusyPolicy(_SlowPolicy):
    """The inner policy with a computation of `seconds` before each run's first decision."""

    name = "busy"

    def controller(self, instance):
        started = time.process_time()
        while time.process_time() - started < self.seconds:
            pass
        return self.inner.controller(instance)


def test_a_cpu_clock_budget_counts_what_the_runs_compute_not_how_long_they_wait(gripper_policy, tmp_path):
    # 0.2 s a run, 0.3 s a size: on the wall clock two runs a size, waiting or computing; on the CPU
    # clock a run that waits (as one beside other work on the machine does) costs nothing, so the
    # size runs as if it had no budget (to its 5 runs here), while one that computes gets two
    folder, policy = gripper_policy
    wall = ScalingSettings(max_size=6, seconds_per_size=0.3, max_runs_per_size=5)
    cpu = dataclasses.replace(wall, budget_clock="cpu")
    assert [m.runs for m in scaling_evaluation(_SlowPolicy(policy, 0.2), folder, wall).sizes] == [2, 2]
    waiting = scaling_evaluation(_SlowPolicy(policy, 0.2), folder, cpu, out=tmp_path / "waiting", source="slow")
    assert [m.runs for m in waiting.sizes] == [5, 5]
    assert [m.runs for m in scaling_evaluation(_BusyPolicy(policy, 0.2), folder, cpu).sizes] == [2, 2]
    # each run is logged with its CPU seconds beside its wall-clock seconds
    logged = [json.loads(line) for line in (tmp_path / "waiting" / "runs.jsonl").read_text().splitlines()]
    assert all(0 <= run["cpu_seconds"] < 0.1 and run["seconds"] >= 0.2 for run in logged)
    # and a decision's time is on the same clock: a waiting run's decisions cost no CPU time to speak of
    steps = sum(run["plan_length"] for run in logged if run["solved"])
    assert waiting.decision_ms < 1000 * 0.1 * len(logged) / steps
    assert scaling_evaluation(_SlowPolicy(policy, 0.2), folder, wall).decision_ms > 1000 * 0.2 / max(
        run["plan_length"] for run in logged if run["solved"])
    # the clock came later: at its default it stays out of a provenance; the CPU clock is another
    # stop rule over the same draws, so it may take over the runs of a wall-clock evaluation
    assert "budget_clock" not in wall.provenance("slow", "gripper").settings
    assert same_draws(cpu.provenance("slow", "gripper"), wall.provenance("slow", "gripper"))
    assert cpu.provenance("slow", "gripper").fingerprint != wall.provenance("slow", "gripper").fingerprint


def test_another_stop_rule_takes_over_the_runs_of_the_same_draws(gripper_policy, tmp_path):
    folder, policy = gripper_policy
    few = ScalingSettings(max_size=6, max_runs_per_size=3)
    scaling_evaluation(policy, folder, few, out=tmp_path / "few", source="golden")
    earlier = (tmp_path / "few" / "runs.jsonl").read_text().splitlines()
    lines: list[str] = []
    more = dataclasses.replace(few, max_runs_per_size=5)
    result = scaling_evaluation(policy, folder, more, out=tmp_path / "more", source="golden",
                                earlier=tmp_path / "few", progress=lines.append)
    runs = (tmp_path / "more" / "runs.jsonl").read_text().splitlines()
    assert runs[:len(earlier)] == earlier and len(runs) == 10 and [m.runs for m in result.sizes] == [5, 5]
    assert f"took over 6 runs of {tmp_path / 'few'}" in lines
    # another step bound draws the same instances but runs them otherwise: nothing is taken over
    lines.clear()
    shorter = dataclasses.replace(more, plan_length_bound=5)
    scaling_evaluation(policy, folder, shorter, out=tmp_path / "shorter", source="golden", earlier=tmp_path / "few",
                       progress=lines.append)
    assert not any("took over" in line for line in lines)
    # and so does another policy
    scaling_evaluation(policy, folder, more, out=tmp_path / "other", source="other", earlier=tmp_path / "few",
                       progress=lines.append)
    assert not any("took over" in line for line in lines)


def test_dynamic_validation(gripper_policy):
    folder, policy = gripper_policy
    result = dynamic_validation(policy, folder, start_size=5, plan_length_bound=20)
    # sizes 6.. with 20 steps: 2 balls need 5 steps, 7 balls need 21
    assert result.coverage[6] == 1.0 and result.coverage[max(result.coverage)] <= 0.3
    assert result.score == sum(result.coverage.values())


def test_planner_baseline_is_evaluated_the_same_way(tmp_path):
    folder = domain_folder("blocksworld")
    result = scaling_evaluation(PlannerPolicy("gbfs"), folder, ScalingSettings(max_size=4, epsilon=0.2), out=tmp_path)
    assert [m.size for m in result.sizes] == [2, 3, 4] and all(m.coverage == 1.0 for m in result.sizes)


class _CoinPolicy:
    """Solves even sizes always, odd sizes with probability 1/2 (a fixed coin per instance text)."""

    name = "coin"

    def __init__(self, inner):
        self.inner = inner

    def controller(self, instance):
        import hashlib

        odd = len(instance.objects) % 2 == 1
        heads = hashlib.sha256(instance.text.encode()).digest()[0] % 2 == 0
        inner = self.inner.controller(instance)
        return inner if not odd or heads else _Refuse()


class _Refuse:
    def choose(self, state, exclude=()):
        return None


def test_estimates_on_odd_sizes_are_within_epsilon_of_one_half(gripper_policy):
    # blocksworld instances differ, so the coin varies; the true coverage on odd sizes is 1/2
    folder = domain_folder("blocksworld")
    policy = _CoinPolicy(PlannerPolicy("gbfs"))
    close = 0
    for seed in range(5):
        result = scaling_evaluation(policy, folder, ScalingSettings(max_size=4, seed=seed, epsilon=0.1))
        coverage = {m.size: m.coverage for m in result.sizes}
        assert coverage[2] == coverage[4] == 1.0
        close += abs(coverage[3] - 0.5) <= 0.1
    assert close >= 4  # the interval holds with confidence 0.9 per run
