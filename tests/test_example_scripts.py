"""The scripts in examples/ run on small inputs and do what they say."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from stratpol.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _example(name: str, *args: object, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "examples" / name), *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "STRATPOL_CACHE": str(cache)})


def test_learn_gripper_prints_a_certified_policy(tmp_path):
    run = _example("learn_gripper.py", cache=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("# stratpol policy\ndomain gripper\n")
    assert "# termination: 1-stratified" in run.stdout
    assert "# verified on 6 training instances" in run.stdout


def test_run_ipc_policy_solves_a_problem_of_its_domain(tmp_path):
    assert main(["generate", "ferry", "--size", "6", "--out", str(tmp_path / "problems")]) == 0
    (problem,) = (tmp_path / "problems").glob("*.pddl")
    run = _example("run_ipc_policy.py", "experiments/results/policies/ipc2023/ferry.policy",
                   ROOT / "domains" / "ferry" / "domain.pddl", problem, cache=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[-1].startswith(f"; ") and ": solved in " in lines[-1]
    assert all(line.startswith("(") for line in lines[:-1]) and lines[:-1]


def test_evaluate_scaling_writes_its_tables(tmp_path):
    out = tmp_path / "scaling"
    run = _example("evaluate_scaling.py", "tests/data/golden/gripper.policy", "gripper", 7, out, cache=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Scale 7, SumCov" in run.stdout
    assert (out / "scaling.json").is_file() and (out / "provenance.json").is_file()
