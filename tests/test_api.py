"""The public API: `import stratpol` is light, and its verbs agree with the commands they mirror."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import stratpol

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "golden" / "gripper.policy"
GRIPPER4 = ROOT / "domains" / "gripper" / "instances" / "gripper-4.pddl"


def test_import_stratpol_loads_no_engine():
    code = "import sys, stratpol; print(sorted(m for m in ('pymimir', 'dlplan', 'torch') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "[]"


def test_every_public_name_loads():
    for name in stratpol.__all__:
        assert getattr(stratpol, name) is not None
    assert "learn" in dir(stratpol)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        stratpol.nothing


def test_a_saved_policy_checks_verifies_and_runs():
    domain = stratpol.domain("gripper")
    policy = stratpol.read_policy(GOLDEN, domain)
    assert stratpol.check(policy).stratified
    problem = domain.load_instance(GRIPPER4)
    verdict = stratpol.verify(policy, problem)
    assert verdict.solved and verdict.failure is None
    outcome = stratpol.run(policy, problem, tie_break="first")
    assert outcome.solved and outcome.steps == len(outcome.plan) > 0


def test_the_same_policy_in_dlplan_format_reads_with_its_domain(tmp_path):
    domain = stratpol.domain("gripper")
    policy = stratpol.read_policy(GOLDEN, domain)
    from stratpol.features import Vocabulary
    from stratpol.policy.dlplan_format import write_policy_files

    write_policy_files(tmp_path / "p.policy", policy, Vocabulary(domain).factory)
    again = stratpol.read_policy(tmp_path / "p.policy.dlplan", "gripper")
    assert len(again.rules) == len(policy.rules) and stratpol.verify(again, domain.load_instance(GRIPPER4)).solved
