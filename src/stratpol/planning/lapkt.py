"""LAPKT's SIW and DUAL-BFWS (the `lapkt` wheel) as a subprocess: the GENEX paper's teachers.

The published learner takes its example plans from LAPKT: SIW (IW bound 2), then DUAL-BFWS
where SIW fails, and DUAL-BFWS alone for Spanner and Barman. pymimir's SIW serializes goals
differently and plans with detours (Zenotravel: empty flights back to the plane's goal city) that
no feature justifies, so the teacher matters. LAPKT keeps state between problems of one process
and can crash at exit, hence one process per call; a start state is written into the problem.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

from stratpol.errors import InputError
from stratpol.planning.fast_downward import DEFAULT_MEMORY_LIMIT_MB
from stratpol.processes.limits import run_command
from stratpol.planning.plans import follow_plan_text, validate_plan
from stratpol.planning.problem_writer import problem_with_initial_state
from stratpol.planning.search import SearchResult, SearchStatus
from stratpol.planning.task import Instance, State

# run inside the child: LAPKT's own command-line front end, its plan written to plan.ipc
_CHILD = """
import sys
from lapkt.load_planner import Planner
from lapkt.parseargs import process_arguments
sys.argv = ["lapkt"] + sys.argv[1:]
Planner(process_arguments()).solve()
"""

_EXPANDED = re.compile(r"Nodes expanded during search: (\d+)")
_WALL_GRACE_SECONDS = 2.0  # interpreter start-up and grounding (tarski + clingo) on top of the limit


def _lapkt(planner: str, options: list[str], instance: Instance, start: State | None,
           time_limit: float | None) -> SearchResult:
    started = time.perf_counter()
    if start is not None and start.instance is not instance:
        raise ValueError("the start state belongs to another instance")
    problem = instance.text if start is None or start == instance.initial_state \
        else problem_with_initial_state(instance, start)
    with tempfile.TemporaryDirectory(prefix="stratpol-lapkt-") as work:
        Path(work, "domain.pddl").write_text(instance.domain.text)
        Path(work, "problem.pddl").write_text(problem)
        command = [sys.executable, "-c", _CHILD, options[0], "-d", "domain.pddl", "-p", "problem.pddl",
                   "--plan_file", "plan.ipc", "--log_file", "log", *options[1:]]
        wall = None if time_limit is None else time_limit + _WALL_GRACE_SECONDS
        finished = run_command(command, work, wall, memory_limit_mb=DEFAULT_MEMORY_LIMIT_MB)
        if "No module named 'lapkt'" in finished.output:
            raise InputError("the planner needs the lapkt package (pip install lapkt==0.2.1)")
        seconds = time.perf_counter() - started
        expanded = sum(int(n) for n in _EXPANDED.findall(finished.output)) or None
        if finished.code is None:
            return SearchResult(planner, SearchStatus.LIMIT, None, None, expanded, seconds)
        plan_file = Path(work, "plan.ipc")
        if not plan_file.is_file():  # LAPKT writes no plan file when its search gives up
            return SearchResult(planner, SearchStatus.FAILED, None, None, expanded, seconds)
        text = plan_file.read_text()
    origin = instance.initial_state if start is None else start
    plan = follow_plan_text(instance, text, origin, planner)
    check = validate_plan(instance, plan, origin)
    if not check.valid:  # SIW that gives up writes the steps it got, possibly none
        return SearchResult(planner, SearchStatus.FAILED, None, None, expanded, time.perf_counter() - started)
    return SearchResult(planner, SearchStatus.SOLVED, plan, check.cost, expanded, time.perf_counter() - started)


def lapkt_siw(instance: Instance, start: State | None = None, time_limit: float | None = None,
              state_limit: int | None = None) -> SearchResult:
    """LAPKT's SIW with IW bound 2 (incomplete: "failed" says nothing). `state_limit` is ignored."""
    return _lapkt("lapkt-siw", ["SIW_Planner", "--iw_bound", "2"], instance, start, time_limit)


def lapkt_bfws(instance: Instance, start: State | None = None, time_limit: float | None = None,
               state_limit: int | None = None) -> SearchResult:
    """LAPKT's DUAL-BFWS (1-BFWS, then BFWS(f5) if that fails). `state_limit` is ignored."""
    return _lapkt("bfws", ["BFWS", "--search_type", "DUAL-BFWS"], instance, start, time_limit)
