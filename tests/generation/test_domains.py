"""Every domain folder, checked the same way: exact sizes, uniform inputs, parsing, solvability,
and agreement with the public benchmark files.

A domain's generator.py may declare, besides SIZE_MODEL and generate():
  SOLVABLE = False            its generator can make unsolvable instances (said in its README)
  BENCHMARKS = ("ipc2023/x",)  benchmark folders under ../shared/benchmarks whose files it parses
  def header_arguments(header: dict[str, str]) -> dict[str, int] | None
                              the sized arguments named by a benchmark file's `;; a=1, ...` header
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from stratpol.generation import domain_folder, domain_names
from stratpol.generation.sampling import sample_instances
from stratpol.generation.size_csp import inputs_of_size, smallest_size
from stratpol.planning import search

BENCHMARKS = Path(__file__).resolve().parents[3] / "shared" / "benchmarks"
DOMAINS = domain_names()


def _brute_force(size_model, sizes: range) -> dict[int, list[dict]]:
    """All admitted inputs with size in `sizes`, found by trying every argument vector."""
    top = sizes.stop - 1
    ranges = [range(a.low, (top if a.high is None else min(a.high, top)) + 1) for a in size_model.arguments]
    found: dict[int, list[dict]] = {n: [] for n in sizes}
    names = [a.name for a in size_model.arguments]
    for vector in itertools.product(*ranges):
        values = dict(zip(names, vector))
        n = size_model.size(values)
        if n in found and size_model.admits(values):
            found[n].append(values)
    return found


def _sizes(size_model) -> range:
    start = smallest_size(size_model)
    assert start is not None, "no size up to 1000 has an instance"
    span = {1: 40, 2: 30, 3: 20, 4: 12}.get(len(size_model.arguments), 8)
    return range(0, start + span + 1)


@pytest.mark.parametrize("name", DOMAINS)
def test_csp_solutions_equal_brute_force(name):
    model = domain_folder(name).size_model
    sizes = _sizes(model)
    expected = _brute_force(model, sizes)
    order = [a.name for a in model.arguments]
    for n in sizes:
        key = lambda s: [s[a] for a in order]  # noqa: E731
        assert inputs_of_size(model, n) == sorted(expected[n], key=key), f"size {n}"


@pytest.mark.parametrize("name", DOMAINS)
def test_sampled_instances_have_exact_size_and_are_deterministic(name):
    folder = domain_folder(name)
    start = smallest_size(folder.size_model)
    sizes = [n for n in range(start, start + 8) if inputs_of_size(folder.size_model, n)][:3]
    for n in sizes:
        batch = [sample_instances(folder, n, count=1, seed=seed)[0] for seed in (7, 8)]
        assert batch[0].text == sample_instances(folder, n, count=1, seed=7)[0].text
        for generated in batch:
            instance = folder.domain.instance_from_text(generated.text)
            assert len(instance.objects) == n
            assert not instance.is_goal(instance.initial_state)


@pytest.mark.parametrize("name", DOMAINS)
def test_small_instances_are_solved(name):
    folder = domain_folder(name)
    solvable = getattr(folder.module, "SOLVABLE", True)
    start = smallest_size(folder.size_model)
    rng = random.Random(3)
    solved = 0
    for n in [n for n in range(start, start + 6) if inputs_of_size(folder.size_model, n)][:3]:
        generated = sample_instances(folder, n, count=1, seed=rng.randrange(1000))[0]
        result = search.gbfs(folder.domain.instance_from_text(generated.text), time_limit=20)
        if solvable:
            assert result.status is search.SearchStatus.SOLVED, (n, generated.arguments)
        solved += result.solved
    if not solvable:
        assert (folder.path / "README.md").read_text().lower().count("unsolvable") > 0


@pytest.mark.parametrize("name", DOMAINS)
def test_domain_folder_is_complete(name):
    folder = domain_folder(name)
    assert (folder.path / "README.md").is_file()
    assert folder.size_model.formula().startswith("n = ")


def _header(text: str) -> dict[str, str]:
    for line in text.splitlines():
        if line.startswith(";") and "=" in line:
            return dict(re.findall(r"([\w-]+)=([^,\s]+)", line))
        if line.strip() and not line.startswith(";"):
            break
    return {}


BENCHMARK_CASES = [
    (name, folder) for name in DOMAINS for folder in getattr(domain_folder(name).module, "BENCHMARKS", ())
]


@pytest.mark.skipif(not BENCHMARKS.is_dir(), reason="../shared/benchmarks is not here")
@pytest.mark.parametrize("name, benchmark", BENCHMARK_CASES)
def test_benchmark_files_parse_and_match_the_size_formula(name, benchmark):
    folder = domain_folder(name)
    files = sorted(p for p in (BENCHMARKS / benchmark).rglob("*.pddl") if p.name != "domain.pddl")
    assert files, benchmark
    header_arguments = getattr(folder.module, "header_arguments", None)
    headers = 0
    for path in files:
        objects = folder.domain.problem_objects(path)  # parsed, not grounded: some files are huge
        header = _header(path.read_text())
        headers += bool(header)
        arguments = None if header_arguments is None or not header else header_arguments(header)
        if arguments is not None:
            assert folder.size_model.size(arguments) == len(objects), path
    if header_arguments is not None and headers:  # a folder with generator headers is checked
        assert any(header_arguments(_header(p.read_text())) for p in files[:200])
