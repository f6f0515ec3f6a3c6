"""The GENEX paper's benchmark sets (../shared/benchmarks/gp2024): which domains and files, the
saved policies that belong to them, and a policy's coverage on a published test set as the paper's
Table 3 measures it (`stratpol bench testing`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from stratpol.bench.published import TABLE3
from stratpol.errors import InputError
from stratpol.evaluation.policies import RulePolicy
from stratpol.planning import Domain

# The GENEX paper's Table 1 (Bonet & Geffner, KR 2025): the 20 domains WRAPPER learns, with their
# gp2024 training sets (../shared/benchmarks/gp2024/<name>/training/easy).
TABLE1 = ["blocks4ops-clear", "delivery-1pkg", "gripper", "reward", "visitall", "childsnack", "spanner-1nut",
          "logistics-1truck", "barman-1cocktail-1shot", "blocks4ops-on", "spanner", "delivery", "ferry", "miconic",
          "8puzzle-1tile-fixed", "8puzzle-1tile", "blocks4ops", "sokoban-1stone-7x7", "logistics-1pkg",
          "zenotravel-1plane"]

# Where a domain's test set lies when its own folder has none: the spanner-1nut and delivery-1pkg
# folders carry the published several-nut and several-package test sets, so they are the test sets
# of spanner and delivery, and the one-nut and one-package policies are not run on them (the
# paper's Table 3 has no row for those two either).
TEST_FOLDERS = {"spanner": "spanner-1nut", "delivery": "delivery-1pkg"}

# The paper's test (section 8.2) follows a policy as a sketch: where it has no compatible
# successor, IW(k) with k up to 2 looks for a state that it accepts.
SKETCH_WIDTH = 2


@dataclass(frozen=True)
class Coverage:
    """A policy on a test set, measured as the paper's Table 3: every instance is followed as a
    sketch. `solved` counts the instances the policy solves alone (every decision of width 0),
    `sketch_solved` those it solves as a sketch; `max_width` is the largest k an IW(k) needed and
    `mean_width` the largest per-instance average (Table 3's max. and avg.)."""

    total: int = 0
    solved: int = 0
    sketch_solved: int = 0
    max_width: int = 0
    mean_width: float = 0.0
    failures: dict[str, int] = field(default_factory=dict)  # how the policy alone failed -> instances
    seconds: float = 0.0


def coverage_on_test_set(policy: RulePolicy, domain: Domain, tests: list[Path], time_limit: float = 60.0,
                         progress: Callable[[str], None] = lambda line: None) -> Coverage:
    """Run a rule policy as a sketch on each test file, as the paper's Table 3 does, each run
    under `time_limit` seconds."""
    from stratpol.evaluation import run
    from stratpol.evaluation.runner import default_step_bound

    started = time.perf_counter()
    solved = sketch_solved = max_width = 0
    mean_width = 0.0
    failures: dict[str, int] = {}
    for number, path in enumerate(tests, start=1):
        progress(f"test {number}/{len(tests)}")
        try:
            instance = domain.load_instance(path)
        except InputError:
            failures["unreadable"] = failures.get("unreadable", 0) + 1
            continue
        outcome = run(policy, instance, default_step_bound(instance), time_limit=time_limit,
                      dead_end_time_limit=min(time_limit, 1.0), sketch_width=SKETCH_WIDTH)
        solved += outcome.solved and outcome.max_width == 0
        sketch_solved += outcome.solved
        max_width, mean_width = max(max_width, outcome.max_width), max(mean_width, outcome.mean_width)
        if outcome.policy_failure is not None:
            failure = outcome.policy_failure.value
            failures[failure] = failures.get(failure, 0) + 1
    return Coverage(len(tests), solved, sketch_solved, max_width, mean_width, failures, time.perf_counter() - started)


def test_files(benchmarks: Path, name: str) -> list[Path]:
    """The domain's published test set (Table 3), none where its folder holds another domain's."""
    if name in TEST_FOLDERS.values():
        return []
    test_folder = benchmarks / name / "testing"
    if not test_folder.is_dir() and name in TEST_FOLDERS:
        test_folder = benchmarks / TEST_FOLDERS[name] / "testing"
    return sorted(p for p in test_folder.rglob("*.pddl") if p.name != "domain.pddl") if test_folder.is_dir() else []


@dataclass(frozen=True)
class CoverageRow:
    """One saved policy (its file's name) on the published test set of its domain."""

    policy: str
    domain: str
    coverage: Coverage


def saved_policy(policy_file: Path, domain: Domain, progress: Callable[[str], None]) -> RulePolicy | None:
    """A saved policy file read for `domain`; None, with one progress line saying why, where it is
    not a policy of that domain (bench testing and execution go on with the next file)."""
    from stratpol.features import Vocabulary
    from stratpol.policy.files import read_policy_file

    try:
        vocabulary = Vocabulary(domain)
        return RulePolicy(read_policy_file(policy_file, vocabulary.factory), vocabulary, seed=0)
    except (InputError, ValueError) as error:
        progress(f"{policy_file.name}: not a policy of {domain.path} ({str(error).splitlines()[0]})")
        return None


def testing_benchmark(policy_files: list[Path], benchmarks: Path, time_limit: float = 60.0,
                      progress: Callable[[str], None] = lambda line: None,
                      on_row: Callable[[CoverageRow], None] = lambda row: None) -> list[CoverageRow]:
    """Each saved policy on its domain's published test set (Table 3), policies of a domain without
    one left out."""
    rows = []
    for policy_file in policy_files:
        name = policy_domain(policy_file, benchmarks)
        tests = [] if name is None else test_files(benchmarks, name)
        if not tests:
            progress(f"{policy_file.name}: no published test set")
            continue
        domain = Domain(benchmarks / name / "domain.pddl")
        policy = saved_policy(policy_file, domain, progress)
        if policy is None:
            continue
        coverage = coverage_on_test_set(policy, domain, tests, time_limit,
                                        lambda line: progress(f"{policy_file.name}: {line}"))
        rows.append(CoverageRow(policy_file.name.removesuffix(".policy"), name, coverage))
        on_row(rows[-1])
    return rows


def coverage_columns(c: Coverage) -> str:
    """Solved by the policy alone and as a sketch, and the effective width (max, avg)."""
    if not c.total:
        return f"{'-':>9}{'-':>9}{'':>3}{'':>6}"
    return f"{f'{c.solved}/{c.total}':>9}{f'{c.sketch_solved}/{c.total}':>9}{c.max_width:>3}{c.mean_width:>6.2f}"


def paper_coverage_columns(name: str) -> str:
    """Table 3's coverage sits under `sketch`: the paper ran its policies as sketches."""
    paper = TABLE3.get(name)
    if paper is None:
        return ""
    return f"{'':>9}{f'{paper.coverage:g}%':>9}{paper.max_width:>3.0f}{paper.mean_width:>6.2f}"


def describe_policy_failures(counts: dict[str, int]) -> str:
    return "" if not counts else " (the policy alone: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ")"


def render_test_benchmark(rows: list[CoverageRow]) -> str:
    """The table of `stratpol bench testing`: saved policies on the published test sets, solved
    alone and as sketches (Table 3's coverage is the paper's under `sketch`)."""
    lines = [f"{'policy':<25}{'tests':>6}{'test':>9}{'sketch':>9}{'w':>3}{'avg':>6}{'seconds':>9}"]
    for row in rows:
        c = row.coverage
        lines.append(f"{row.policy:<25}{c.total:>6}{coverage_columns(c)}{c.seconds:>9.1f}"
                     f"{describe_policy_failures(c.failures)}")
        if row.domain in TABLE3:
            lines.append(f"{'  paper':<25}{TABLE3[row.domain].instances:>6}{paper_coverage_columns(row.domain)}")
    return "\n".join(lines)


def saved_policy_files(folder: Path, benchmarks: Path, domains: Sequence[str] = ()) -> list[Path]:
    """The `.policy` files of `folder`, only those of `domains` when given; InputError if none."""

    if not folder.is_dir():
        raise InputError("policy folder not found", folder)
    files = sorted(folder.glob("*.policy"))
    if domains:
        files = [f for f in files if policy_domain(f, benchmarks) in domains]
    if not files:
        raise InputError("no .policy file" + (" of the domains asked for" if domains else ""), folder)
    return files


def policy_domain(policy_file: Path, benchmarks: Path) -> str | None:
    """The benchmark domain a saved policy belongs to: the longest domain name its file name starts
    with (`childsnack-gluten-free.policy` is a childsnack policy), None if there is none."""
    stem = policy_file.name.removesuffix(".policy")
    names = [p.name for p in benchmarks.iterdir() if (p / "domain.pddl").is_file()]
    matches = [n for n in names if stem == n or stem.startswith(n + "-")]
    return max(matches, key=len) if matches else None
