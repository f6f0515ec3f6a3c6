"""`stratpol bench execution`: learned policies profiled on large generated instances and on the
largest file of their published test set (seconds per phase against successor generation alone)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from stratpol.bench.paper_sets import policy_domain, saved_policy, test_files
from stratpol.evaluation.profile import ExecutionProfile, profile_run_in_child
from stratpol.generation import domain_folder
from stratpol.planning import Domain

EXECUTION_SIZES = (50, 200, 1000)


@dataclass(frozen=True)
class ExecutionRow:
    """One profiled run of `stratpol bench execution`: a generated instance or a published test file."""

    domain: str
    source: str  # "generated" or "test"
    profile: ExecutionProfile


def execution_benchmark(policy_files: list[Path], benchmarks: Path, sizes: tuple[int, ...] = EXECUTION_SIZES,
                        time_limit: float = 60.0, progress: Callable[[str], None] = lambda line: None,
                        on_row: Callable[[ExecutionRow], None] = lambda row: None) -> list[ExecutionRow]:
    """Profile each policy on generated instances of about `sizes` objects (the smallest size at
    least that large our generator makes) and on the largest file of its published test set."""
    from stratpol.generation import domain_names
    from stratpol.generation.sampling import sample_instances
    from stratpol.generation.size_csp import size_exists

    rows = []

    def profiled(policy_file: Path, domain_name: str, source: str, domain: Domain, text: str, name: str,
                 objects: int) -> None:
        rule_policy = saved_policy(policy_file, domain, progress)
        if rule_policy is None:
            return
        progress(f"{policy_file.name}: {name}")
        profile = profile_run_in_child(rule_policy, domain, text, name, time_limit)
        row = ExecutionRow(domain_name, source, replace(profile, objects=objects))
        rows.append(row)
        on_row(row)

    for policy_file in policy_files:
        name = policy_domain(policy_file, benchmarks)
        if name is None:
            progress(f"{policy_file.name}: no domain of that name in {benchmarks}")
            continue
        if name in domain_names():
            folder = domain_folder(name)
            for wanted in sizes:
                size = next((n for n in range(wanted, wanted + 100) if size_exists(folder.size_model, n)), None)
                if size is None:
                    continue
                (generated,) = sample_instances(folder, size, 1, seed=0)
                profiled(policy_file, name, "generated", folder.domain, generated.text, f"{name}-{size}", size)
        tests = test_files(benchmarks, name)
        if tests:
            domain = Domain(benchmarks / name / "domain.pddl")
            objects = {path: len(domain.problem_objects(path)) for path in tests}
            largest = max(tests, key=objects.get)
            profiled(policy_file, name, "test", domain, largest.read_text(), largest.name, objects[largest])
    return rows


def render_execution_benchmark(rows: list[ExecutionRow]) -> str:
    """The table of `stratpol bench execution`: seconds per phase, steps per second of the run and
    of successor generation alone on the same states, and the ratio of the two."""
    lines = [f"{'domain':<20} {'instance':<30} {'objects':>7} {'steps':>6} {'outcome':>12} {'ground':>7} {'succ':>7}"
             f" {'feat':>7} {'rules':>7} {'steps/s':>8} {'engine':>8} {'slower':>7} {'succ/s engine':>13}"]
    for row in rows:
        p = row.profile
        rate = p.engine_successors / p.engine if p.engine > 0 else 0.0
        lines.append(f"{row.domain:<20} {p.instance[:30]:<30} {p.objects:>7} {p.steps:>6} {p.failure or 'solved':>12}"
                     f" {p.grounding:>7.2f} {p.successors:>7.2f} {p.features:>7.2f} {p.rules:>7.2f}"
                     f" {p.steps_per_second:>8.0f} {p.engine_steps_per_second:>8.0f} {p.slowdown:>6.1f}x {rate:>13.0f}")
    return "\n".join(lines)
