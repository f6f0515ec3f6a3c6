"""The supervised command: its exit code and output pass through, and an interrupt stops it soon
even while it is inside a long C call that holds off Python's signal handlers."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOKOBAN = ROOT.parent / "shared" / "benchmarks" / "ipc2023" / "sokoban"

# sum over a range runs in C without looking at signals: about two minutes here
_LONG_C_CALL = """
import sys
from stratpol.processes.supervisor import run_supervised

def command():
    print("started", flush=True)
    sum(range(10**10))
    return 0

sys.exit(run_supervised(command, lambda: print("interrupted", file=sys.stderr)))
"""


def _started(process: subprocess.Popen) -> None:
    assert process.stdout.readline().strip() == "started"
    time.sleep(0.5)  # inside the C call


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
def test_an_interrupt_stops_a_command_inside_a_long_c_call(number):
    process = subprocess.Popen([sys.executable, "-c", _LONG_C_CALL], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    _started(process)
    sent = time.monotonic()
    process.send_signal(number)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert stderr.strip() == "interrupted"
    assert time.monotonic() - sent < 10  # the call alone would take minutes


def test_the_exit_code_and_output_pass_through():
    code = ("import sys; from stratpol.processes.supervisor import run_supervised\n"
            "sys.exit(run_supervised(lambda: print('out') or 3, lambda: None))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout) == (3, "out\n")


@pytest.mark.skipif(not SOKOBAN.is_dir(), reason="needs ../shared/benchmarks/ipc2023")
def test_stratpol_run_stops_on_sigterm_while_pymimir_grounds_a_large_problem():
    stratpol = Path(sys.executable).parent / "stratpol"
    process = subprocess.Popen([str(stratpol), "run", "experiments/results/policies/ipc2023-sketches/sokoban.policy",
                                "--domain", str(SOKOBAN / "domain.pddl"), str(SOKOBAN / "testing/hard/p10.pddl")],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6)  # parsed, and inside the engine
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert stderr.strip().splitlines()[-1] == "stratpol: interrupted"
    assert time.monotonic() - sent < 10
