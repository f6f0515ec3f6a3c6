"""Fast Downward (FD 26.6, from the up-fast-downward wheel) as a subprocess: its installation and
its planners (h^LMcut of many states is `stratpol.planning.lmcut`).

Every call works in a fresh temporary directory, so concurrent calls (threads or processes)
never share files, and nothing is written to the working directory. The planners share the
signature of the in-process ones in `stratpol.planning.search`, so a registry can treat them alike.

Status mapping of FD's exit codes (driver/returncodes.py): a plan found (0-3) is SOLVED;
unsolvability proven by the translator (10) or by a complete search (11) is UNSOLVABLE; running
out of time or memory (20-24, a kill by a CPU limit, our wall-clock limit) is LIMIT; an
incomplete search giving up (12) or no plan within a bound (13) is FAILED. Anything else (a
crash, an input error, an unsupported feature) raises RuntimeError with the tail of FD's output.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import re
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from stratpol.errors import InputError
from stratpol.planning.plans import follow_plan_text
from stratpol.planning.problem_writer import problem_with_initial_state
from stratpol.planning.search import SearchResult, SearchStatus
from stratpol.planning.task import GroundAction, Instance, State
from stratpol.processes.limits import require_clock, run_command, wall_clock_limit

DEFAULT_MEMORY_LIMIT_MB = 4096
"""Memory (address space) given to FD when the caller does not choose; None means no limit."""

UNLIMITED_PORTFOLIO_SECONDS = 10**7
"""Time limit handed to portfolios when the caller sets none: they refuse to run without one."""

WALL_GRACE_SECONDS = 1.0  # process start-up on top of the caller's wall-clock limit
_OUTPUT_TAIL_LINES = 25

# FD exit codes, from driver/returncodes.py of FD 26.6.
_SOLVED = {0, 1, 2, 3}
_UNSOLVABLE = {10, 11}  # TRANSLATE_UNSOLVABLE, SEARCH_UNSOLVABLE
_FAILED = {12, 13}  # SEARCH_UNSOLVED_INCOMPLETE, SEARCH_UNSOLVABLE_WITHIN_BOUND
_LIMIT = {20, 21, 22, 23, 24}  # translate/search out of memory/time
# The driver passes a killed component on as sys.exit(-signal), i.e. 256 - signal; the hard
# CPU limit (soft + 1 s) kills with SIGKILL, the soft one sends SIGXCPU.
_KILLED_BY_LIMIT = {256 - signal.SIGKILL, 256 - signal.SIGXCPU, -signal.SIGKILL, -signal.SIGXCPU}
_EXIT_NAMES = {
    0: "SUCCESS", 1: "SEARCH_PLAN_FOUND_AND_OUT_OF_MEMORY", 2: "SEARCH_PLAN_FOUND_AND_OUT_OF_TIME",
    3: "SEARCH_PLAN_FOUND_AND_OUT_OF_MEMORY_AND_TIME", 10: "TRANSLATE_UNSOLVABLE", 11: "SEARCH_UNSOLVABLE",
    12: "SEARCH_UNSOLVED_INCOMPLETE", 13: "SEARCH_UNSOLVABLE_WITHIN_BOUND", 20: "TRANSLATE_OUT_OF_MEMORY",
    21: "TRANSLATE_OUT_OF_TIME", 22: "SEARCH_OUT_OF_MEMORY", 23: "SEARCH_OUT_OF_TIME",
    24: "SEARCH_OUT_OF_MEMORY_AND_TIME", 30: "TRANSLATE_CRITICAL_ERROR", 31: "TRANSLATE_INPUT_ERROR",
    32: "SEARCH_CRITICAL_ERROR", 33: "SEARCH_INPUT_ERROR", 34: "SEARCH_UNSUPPORTED", 35: "DRIVER_CRITICAL_ERROR",
    36: "DRIVER_INPUT_ERROR", 37: "DRIVER_UNSUPPORTED",
}

_EXPANDED = re.compile(r"Expanded (\d+) state\(s\)")
_PLAN_COST = re.compile(r"^;\s*cost\s*=\s*(\S+)", re.MULTILINE)


# -- locating the installation ---------------------------------------------------------------------


@dataclass(frozen=True)
class FastDownwardPaths:
    """Where the driver script, the search binary and the portfolio files of FD live."""

    home: Path
    driver: Path
    search_binary: Path
    portfolios: frozenset[str]


@functools.cache
def fast_downward_paths() -> FastDownwardPaths:
    """Locate FD inside the installed up-fast-downward wheel (the package itself is not imported)."""
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("Fast Downward is not available: the package up-fast-downward is not installed")
    home = Path(list(spec.submodule_search_locations)[0]) / "downward"
    driver = home / "fast-downward.py"
    binary = home / "builds" / "release" / "bin" / "downward"
    for path in (driver, binary):
        if not path.exists():
            raise RuntimeError(f"Fast Downward is incomplete: {path} is missing")
    portfolios = frozenset(p.stem.replace("_", "-") for p in (home / "driver" / "portfolios").glob("*.py"))
    return FastDownwardPaths(home, driver, binary, portfolios)


# -- running FD ------------------------------------------------------------------------------------


def fd_cpu_seconds(time_limit: float) -> int:
    """FD's CPU-time limit for a wall-clock limit: whole seconds, one more than asked.

    FD rounds the remaining time down for each component, so a 1 s overall limit leaves the
    search 0 s and kills it at once; our own wall-clock kill enforces the real limit.
    """
    return math.ceil(time_limit) + 1


def _tail(output: str, lines: int = _OUTPUT_TAIL_LINES) -> str:
    return "\n".join(output.rstrip().splitlines()[-lines:])


def fd_failure(what: str, code: int | None, output: str) -> RuntimeError:
    name = _EXIT_NAMES.get(code, "killed by a signal" if code is not None and code < 0 else "unexpected")
    return RuntimeError(f"{what} failed with exit code {code} ({name}); last lines of its output:\n{_tail(output)}")


# -- planning ---------------------------------------------------------------------------------------


def _start_state(instance: Instance, start: State | None) -> State | None:
    if start is None:
        return None
    if start.instance is not instance:
        raise ValueError("the start state belongs to another instance")
    return None if start == instance.initial_state else start


def _problem_text(instance: Instance, start: State | None) -> str:
    state = _start_state(instance, start)
    return instance.text if state is None else problem_with_initial_state(instance, state)


def is_alias(config: str) -> bool:
    """Whether `config` names a driver alias (e.g. lama-first) rather than being a search string."""
    return re.fullmatch(r"[A-Za-z0-9_-]+", config.strip()) is not None


def run_fast_downward(instance: Instance, config: str, start: State | None = None, time_limit: float | None = None,
                      memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB, *,
                      planner: str | None = None, clock: str = "wall") -> SearchResult:
    """Run FD on `instance` from `start` (default: its initial state) with an alias or a search string.

    `time_limit`: wall-clock seconds (FD's CPU limit is set just above it), or with `clock` "cpu"
    FD's own CPU-time limit (wall-clock seconds then stop it only at `wall_clock_limit`'s
    backstop); `memory_limit_mb` None = no limit.
    """
    require_clock(clock)
    started = time.perf_counter()
    paths = fast_downward_paths()
    config = config.strip()
    if not config:
        raise InputError("empty Fast Downward configuration")
    if time_limit is not None and time_limit <= 0:
        raise InputError(f"the time limit must be positive, not {time_limit}")
    if memory_limit_mb is not None and memory_limit_mb <= 0:
        raise InputError(f"the memory limit must be positive, not {memory_limit_mb}")
    alias = is_alias(config)
    name = planner if planner is not None else (config if alias else "fd")
    problem = _problem_text(instance, start)
    with tempfile.TemporaryDirectory(prefix="stratpol-fd-") as work:
        domain_file, problem_file = Path(work, "domain.pddl"), Path(work, "problem.pddl")
        domain_file.write_text(instance.domain.text)
        problem_file.write_text(problem)
        plan_file = Path(work, "plan")
        command = [sys.executable, str(paths.driver), "--plan-file", str(plan_file),
                   "--sas-file", str(Path(work, "output.sas"))]
        if time_limit is not None:
            cpu_seconds = fd_cpu_seconds(time_limit) if clock == "wall" else math.ceil(time_limit)
            command += ["--overall-time-limit", f"{cpu_seconds}s"]
        elif alias and config in paths.portfolios:
            command += ["--overall-time-limit", f"{UNLIMITED_PORTFOLIO_SECONDS}s"]
        if memory_limit_mb is not None:
            command += ["--overall-memory-limit", f"{int(memory_limit_mb)}M"]
        if alias:
            command += ["--alias", config, str(domain_file), str(problem_file)]
        else:
            command += [str(domain_file), str(problem_file), "--search", config]
        wall_limit = None if time_limit is None else wall_clock_limit(time_limit, clock) + WALL_GRACE_SECONDS
        finished = run_command(command, work, wall_limit)
        expanded = _last_expanded(finished.output)
        code = finished.code
        if code is None or code in _LIMIT or (code in _KILLED_BY_LIMIT and time_limit is not None):
            return SearchResult(name, SearchStatus.LIMIT, None, None, expanded, time.perf_counter() - started)
        if code in _UNSOLVABLE:
            return SearchResult(name, SearchStatus.UNSOLVABLE, None, None, expanded, time.perf_counter() - started)
        if code in _FAILED:
            return SearchResult(name, SearchStatus.FAILED, None, None, expanded, time.perf_counter() - started)
        if code not in _SOLVED:
            raise fd_failure(f"Fast Downward ({config})", code, finished.output)
        plan_text = _best_plan_text(plan_file)
        if plan_text is None:
            raise RuntimeError(f"Fast Downward ({config}) reported a plan but wrote no plan file; "
                               f"last lines of its output:\n{_tail(finished.output)}")
    plan, cost = _read_fd_plan(instance, plan_text, instance.initial_state if start is None else start)
    return SearchResult(name, SearchStatus.SOLVED, plan, cost, expanded, time.perf_counter() - started)


def _last_expanded(output: str) -> int | None:
    found = _EXPANDED.findall(output)
    return int(found[-1]) if found else None


def _best_plan_text(plan_file: Path) -> str | None:
    """The plan file, or for anytime configurations and portfolios the last (best) `plan.N`."""
    if plan_file.exists():
        return plan_file.read_text()
    numbered = []
    for path in plan_file.parent.glob(plan_file.name + ".*"):
        suffix = path.name[len(plan_file.name) + 1:]
        if suffix.isdigit():
            numbered.append((int(suffix), path))
    return max(numbered)[1].read_text() if numbered else None


def _read_fd_plan(instance: Instance, text: str, start: State) -> tuple[tuple[GroundAction, ...], float]:
    """Our ground actions for an FD plan file, and its cost (see `follow_plan_text`)."""
    cost_match = _PLAN_COST.search(text)
    if cost_match is None:
        raise RuntimeError(f"incomplete Fast Downward plan file (no '; cost = ' line):\n{_tail(text)}")
    return follow_plan_text(instance, text, start, "Fast Downward"), float(cost_match.group(1))


def lama_first(instance: Instance, start: State | None = None, time_limit: float | None = None,
               state_limit: int | None = None) -> SearchResult:
    """FD's LAMA (first iteration only): fast satisficing plans. `state_limit` is ignored (FD has none)."""
    return run_fast_downward(instance, "lama-first", start, time_limit, planner="lama-first")


def astar_lmcut(instance: Instance, start: State | None = None, time_limit: float | None = None,
                state_limit: int | None = None) -> SearchResult:
    """FD's A* with LM-cut: optimal plans. `state_limit` is ignored (FD has none)."""
    return run_fast_downward(instance, "astar(lmcut())", start, time_limit, planner="astar-lmcut")


def merge_and_shrink(instance: Instance, start: State | None = None, time_limit: float | None = None,
                     state_limit: int | None = None) -> SearchResult:
    """FD's optimal merge-and-shrink portfolio (seq-opt-merge-and-shrink). `state_limit` is ignored."""
    return run_fast_downward(instance, "seq-opt-merge-and-shrink", start, time_limit, planner="fd-opt")
