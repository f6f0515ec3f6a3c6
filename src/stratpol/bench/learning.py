"""`stratpol bench learning`: GENEX and WRAPPER on the GENEX paper's training sets with each
domain's published settings, the learned policy on the test set, and the paper's row under ours
(Tables 1 and 3)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from stratpol.bench.paper_sets import (Coverage, coverage_columns, coverage_on_test_set, describe_policy_failures,
                                       paper_coverage_columns, test_files)
from stratpol.bench.published import PAPER, TABLE2, PaperRow
from stratpol.evaluation.policies import RulePolicy
from stratpol.learning.result import LearningStatistics
from stratpol.planning import Domain


@dataclass(frozen=True)
class LearningRow:
    """One domain of the learning benchmark: the learner's statistics and the test coverage."""

    domain: str
    status: str  # "solved" or the failure reason
    seconds: float
    statistics: LearningStatistics = field(default_factory=LearningStatistics)
    features: int = 0
    rules: int = 0
    coverage: Coverage = field(default_factory=Coverage)  # on the published test set


def learning_benchmark(benchmarks: Path, names: list[str], test_time_limit: float = 60.0,
                       learn_time_limit: float | None = None, jobs: int = 1,
                       progress: Callable[[str], None] = lambda line: None,
                       on_row: Callable[[LearningRow], None] = lambda row: None,
                       policies: Path | None = None) -> list[LearningRow]:
    """Learn on each training set with the domain's published settings (learning_settings.toml),
    then run the policy on each test instance (Tables 1 and 3); `on_row` receives each domain's
    row as soon as it is done, and each learned policy is saved in `policies` when given. With
    `jobs` > 1, domains run in parallel worker processes, which call `progress` themselves (joblib
    sends it to them with cloudpickle)."""
    if jobs == 1:
        rows = []
        for name in names:
            rows.append(learn_and_test(benchmarks, name, test_time_limit, learn_time_limit, progress, policies))
            on_row(rows[-1])
        return rows
    from joblib import Parallel, delayed

    rows = []
    for row in Parallel(n_jobs=jobs, return_as="generator")(
            delayed(learn_and_test)(benchmarks, name, test_time_limit, learn_time_limit, progress, policies)
            for name in names):
        rows.append(row)
        on_row(row)
    return rows


def learn_and_test(benchmarks: Path, name: str, test_time_limit: float = 60.0, learn_time_limit: float | None = None,
                   progress: Callable[[str], None] = lambda line: None,
                   policies: Path | None = None) -> LearningRow:
    """One row of `learning_benchmark`."""
    from stratpol.errors import InputError
    from stratpol.features import Vocabulary
    from stratpol.learner import learn
    from stratpol.learning.result import LearningFailure
    from stratpol.learning.settings import learning_settings
    from stratpol.policy.dlplan_format import write_policy_files

    folder = Path(benchmarks) / name
    domain = Domain(folder / "domain.pddl")
    training_folder = folder / "training" / "easy" if (folder / "training" / "easy").is_dir() else folder / "training"
    training = sorted(p for p in training_folder.rglob("*.pddl") if p.name != "domain.pddl")
    settings = learning_settings(name)
    progress(f"{name}: learning on {len(training)} instances ({settings.describe()})")
    started = time.perf_counter()
    try:
        result = learn(domain, training, settings, time_limit=learn_time_limit,
                       progress=lambda line: progress(f"{name}: {line}"))
    except (LearningFailure, InputError) as failure:
        statistics = getattr(failure, "statistics", None) or LearningStatistics()
        return LearningRow(name, f"failed: {failure}", time.perf_counter() - started, statistics)
    except Exception as error:  # a library error in one domain is that domain's row, not the end of the run
        return LearningRow(name, f"error: {type(error).__name__}: {error}", time.perf_counter() - started)
    vocabulary = Vocabulary(domain)
    seconds = time.perf_counter() - started
    if policies is not None:
        write_policy_files(Path(policies) / f"{name}.policy", result.policy, vocabulary.factory)
    coverage = coverage_on_test_set(RulePolicy(result.policy, vocabulary, seed=0), domain,
                                    test_files(Path(benchmarks), name), test_time_limit,
                                    lambda line: progress(f"{name}: {line}"))
    return LearningRow(name, "solved", seconds, result.statistics, len(result.policy.features),
                       len(result.policy.rules), coverage)


_HEADER = ("domain                     |Q|    |S|      |F|  cut  St  Out   In |Q'| In* |X+| |X-|  |H| |G| |r|"
           "    plans     pool    prep   genex   verif    total     test   sketch  w   avg  status")


def render_learning_benchmark(rows: list[LearningRow], with_paper: bool = True) -> str:
    """Table 1 of the paper, ours and (below each row) the paper's; `cut` says whether a limit
    truncated the pool (T: time, F: feature limit, M: the free memory; the published reward and
    sokoban pools were cut by dlplan's feature limit of 1,000,000 elements too). `genex` holds
    the policy's projection, certificate and simplification too (the published --simplify_policy)."""
    lines = [_HEADER]
    for r in rows:
        q = r.statistics
        cut = {"time limit": "T", "feature limit": "F", "memory limit": "M"}.get(q.pool_generation.truncated or "", "-")
        c = r.coverage
        seconds = q.seconds
        lines.append(
            f"{r.domain:<25}{q.instances:>5}{q.states:>7}{q.pool:>9}  {cut:>3} {q.strategy:>3}{q.outer_iterations:>5}"
            f"{q.inner_iterations:>5}{q.last_subset:>5}{q.last_inner:>4}{q.good:>5}{q.bad:>5}{q.requirements:>5}"
            f"{r.features:>4}{r.rules:>4}{seconds.get('plans', 0):>9.1f}{seconds.get('pool', 0):>9.1f}"
            f"{seconds.get('preprocessing', 0):>8.1f}{seconds.get('genex', 0) + seconds.get('simplification', 0):>8.1f}"
            f"{seconds.get('verification', 0):>8.1f}{r.seconds:>9.1f}{coverage_columns(c)}  {r.status}"
            f"{describe_policy_failures(c.failures)}")
        paper = (PAPER.get(r.domain) or TABLE2.get(r.domain)) if with_paper else None
        if paper is not None:
            lines.append(_paper_line(r.domain, paper))
    return "\n".join(lines)


def _paper_line(name: str, paper: PaperRow) -> str:
    """The paper's row under ours: Table 1's with its Table-3 coverage, Table 2's with its reason."""
    def number(value: float | None, width: int, digits: int = 1) -> str:
        return f"{'-' if value is None else f'{value:.{digits}f}':>{width}}"

    label = "  paper" if paper.reason is None else "  paper (Table 2)"
    tail = paper_coverage_columns(name) if paper.reason is None else f"{'':>27}  {paper.reason}"
    return (f"{label:<25}{paper.instances:>5}{paper.states:>7}{paper.pool:>9}  {'':>3} {paper.strategy:>3}"
            f"{paper.outer:>5}{paper.inner:>5}{paper.last_subset:>5}{paper.last_inner:>4}{paper.good:>5}"
            f"{paper.bad:>5}{paper.requirements:>5}{number(paper.features, 4, 0)}{number(paper.rules, 4, 0)}"
            f"{'':>9}{'':>9}{number(paper.preprocessing, 8)}{number(paper.genex, 8)}{number(paper.verification, 8)}"
            f"{number(paper.total, 9)}{tail}")
