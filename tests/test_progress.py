"""Progress: a live display on a terminal, plain lines in a log, stage status from the library."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

from stratpol.evaluation import RulePolicy
from stratpol.evaluation.scaling import ScalingSettings, scaling_evaluation
from stratpol.features import Vocabulary
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.generation import domain_folder
from stratpol.policy.text import read_policy
from stratpol.progress import Progress, report_status
from stratpol.verification import verify

GOLDEN_GRIPPER = Path(__file__).resolve().parent / "data" / "golden" / "gripper.policy"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_log_gets_lines_and_a_status_line_at_most_every_interval():
    log = io.StringIO()
    with Progress(stream=log, interval=3600) as progress:
        assert not progress.live  # StringIO is not a terminal
        progress("teacher plans: 6 of 6 instances give examples")
        for done in range(100):
            progress.status("inner iterations", done, None, "outer 1")
    assert log.getvalue() == "  teacher plans: 6 of 6 instances give examples\n"
    with Progress(stream=log, interval=0) as progress:
        progress.status("sizes", 4, 12, "Scale 4")
    assert log.getvalue().endswith("  sizes: 4/12, Scale 4\n")


def test_verification_reports_the_states_it_has_explored_in_numbers_people_read():
    log = io.StringIO()
    folder = domain_folder("gripper")
    instance = folder.domain.instance_from_text(folder.generator(balls=8))
    compatible = PolicyEvaluator(read_policy(GOLDEN_GRIPPER), Vocabulary(folder.domain)).on(instance).compatible_successors
    with Progress(stream=log, interval=0) as progress:  # a status line every 4,096 steps
        assert verify(instance, compatible, max_states=1_000_000, progress=progress).solved
    assert re.search(r"^  verifying gripper-8, states: \d{1,3},\d{3}/1,000,000$", log.getvalue(), re.MULTILINE)


def test_a_terminal_gets_a_live_display_that_ends_with_the_work():
    terminal = Terminal()
    with Progress(stream=terminal) as progress:
        assert progress.live
        progress.status("cells", 3, 10)
        progress.line("gripper.rules.s0: ok")
        progress.finish("cells")
    assert "gripper.rules.s0: ok" in terminal.getvalue()


def test_scaling_evaluation_reports_runs_and_half_width_within_a_size():
    folder = domain_folder("gripper")
    vocabulary = Vocabulary(folder.domain)
    policy = RulePolicy(read_policy(GOLDEN_GRIPPER), vocabulary, seed=0)
    log = io.StringIO()
    with Progress(stream=log, interval=0) as progress:
        scaling_evaluation(policy, folder, ScalingSettings(max_size=6, epsilon=0.3), progress=progress)
    lines = log.getvalue().splitlines()
    assert any(line.startswith("  size 5: ") and "coverage" in line and "stops at +- 0.3" in line for line in lines)
    assert any(line.startswith("  sizes: ") and "/6" in line for line in lines)
    report_status(print, "sizes", 1, 2)  # a plain callback ignores status


def test_the_command_line_writes_plain_lines_to_a_log(tmp_path):
    run = subprocess.run([sys.executable, "-m", "stratpol.cli", "evaluate", str(GOLDEN_GRIPPER), "--domain", "gripper",
                          "--max-size", "6", "--epsilon", "0.3", "--out", str(tmp_path / "e")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "\x1b[" not in run.stderr and "  size 5: " in run.stderr
