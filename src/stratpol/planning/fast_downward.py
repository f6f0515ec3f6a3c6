"""Fast Downward (FD 26.6, from the up-fast-downward wheel) as a subprocess: planners and h^LMcut.

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
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from stratpol.errors import InputError
from stratpol.planning.plans import follow_plan_text
from stratpol.planning.problem_writer import problem_with_initial_state
from stratpol.planning.search import SearchResult, SearchStatus
from stratpol.planning.task import Atom, GroundAction, Instance, State, atom_text
from stratpol.resource_limits import require_clock, wall_clock_limit

DEFAULT_MEMORY_LIMIT_MB = 4096
"""Memory (address space) given to FD when the caller does not choose; None means no limit."""

UNLIMITED_PORTFOLIO_SECONDS = 10**7
"""Time limit handed to portfolios when the caller sets none: they refuse to run without one."""

_WALL_GRACE_SECONDS = 1.0  # process start-up on top of the caller's wall-clock limit
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
_INITIAL_LMCUT = re.compile(r"Initial heuristic value for lmcut: (\S+)")
_FD_ATOM = re.compile(r"^(\S+?)\((.*)\)$")
_TRIVIAL_TASK = re.compile(r"! Generating (solvable|unsolvable) task")


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


# -- running a process -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Finished:
    code: int | None  # None: killed by our wall-clock limit
    output: str


def run_limited(command: list[str], cwd: str, wall_limit: float | None, input_text: str | None = None,
                memory_limit_mb: int | None = None) -> Finished:
    """Run `command` in its own session; kill its whole process group at the wall limit or on error.

    A memory limit is set on the child with prlimit before it gets its input: unlike a
    preexec_fn this is safe with threads, and the child reads stdin before allocating anything big.
    """
    process = subprocess.Popen(
        command, cwd=cwd, stdin=subprocess.PIPE if input_text is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        if memory_limit_mb is not None:
            limit = memory_limit_mb * 1024 * 1024
            try:
                resource.prlimit(process.pid, resource.RLIMIT_AS, (limit, limit))
            except ProcessLookupError:  # it exited already; its output says why
                pass
        try:
            output, _ = process.communicate(
                None if input_text is None else input_text.encode(), timeout=wall_limit
            )
        except subprocess.TimeoutExpired:
            _kill_group(process)
            output, _ = process.communicate()
            return Finished(None, output.decode(errors="replace"))
        return Finished(process.returncode, output.decode(errors="replace"))
    finally:
        if process.poll() is None:
            _kill_group(process)
            process.wait()


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _fd_seconds(time_limit: float) -> int:
    """FD's CPU-time limit for a wall-clock limit: whole seconds, one more than asked.

    FD rounds the remaining time down for each component, so a 1 s overall limit leaves the
    search 0 s and kills it at once; our own wall-clock kill enforces the real limit.
    """
    return math.ceil(time_limit) + 1


def _tail(output: str, lines: int = _OUTPUT_TAIL_LINES) -> str:
    return "\n".join(output.rstrip().splitlines()[-lines:])


def _failure(what: str, code: int | None, output: str) -> RuntimeError:
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
            cpu_seconds = _fd_seconds(time_limit) if clock == "wall" else math.ceil(time_limit)
            command += ["--overall-time-limit", f"{cpu_seconds}s"]
        elif alias and config in paths.portfolios:
            command += ["--overall-time-limit", f"{UNLIMITED_PORTFOLIO_SECONDS}s"]
        if memory_limit_mb is not None:
            command += ["--overall-memory-limit", f"{int(memory_limit_mb)}M"]
        if alias:
            command += ["--alias", config, str(domain_file), str(problem_file)]
        else:
            command += [str(domain_file), str(problem_file), "--search", config]
        wall_limit = None if time_limit is None else wall_clock_limit(time_limit, clock) + _WALL_GRACE_SECONDS
        finished = run_limited(command, work, wall_limit)
        expanded = _last_expanded(finished.output)
        code = finished.code
        if code is None or code in _LIMIT or (code in _KILLED_BY_LIMIT and time_limit is not None):
            return SearchResult(name, SearchStatus.LIMIT, None, None, expanded, time.perf_counter() - started)
        if code in _UNSOLVABLE:
            return SearchResult(name, SearchStatus.UNSOLVABLE, None, None, expanded, time.perf_counter() - started)
        if code in _FAILED:
            return SearchResult(name, SearchStatus.FAILED, None, None, expanded, time.perf_counter() - started)
        if code not in _SOLVED:
            raise _failure(f"Fast Downward ({config})", code, finished.output)
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


# -- h^LMcut of many states ------------------------------------------------------------------------


def _lower(atom: Atom) -> Atom:
    return atom[0].lower(), tuple(a.lower() for a in atom[1])


def _fd_atom(text: str) -> Atom:
    """`at(ball1, rooma)` -> ("at", ("ball1", "rooma")); `arm-empty()` -> ("arm-empty", ())."""
    match = _FD_ATOM.match(text.strip())
    if match is None:
        raise RuntimeError(f"unexpected atom name in FD's SAS file: {text!r}")
    args = tuple(a.strip().lower() for a in match.group(2).split(",")) if match.group(2).strip() else ()
    return match.group(1).lower(), args


@dataclass(frozen=True)
class _Variable:
    axiom_layer: int
    atoms: dict[Atom, int]  # positive atom -> its value
    default: int | None  # the NegatedAtom / <none of those> value, if the variable has one


class LmcutEvaluator:
    """h^LMcut of any state of one instance: translate once, then patch the SAS initial state per state.

    The translator keeps only what is reachable from the instance's initial state, so a state
    holding an atom it dropped raises ValueError rather than getting a wrong value. When the
    translator decides the whole task (goal relaxed-unreachable or a mutex: a dead end; goal
    always true: 0), `trivial_value` holds that answer and is returned for every state, which
    is right for the states reachable from the initial state. Thread-safe; cached per state.
    """

    SEARCH = "astar(lmcut(), bound=0)"

    def __init__(self, instance: Instance, memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
                 time_limit: float | None = None) -> None:
        self.instance = instance
        self.memory_limit_mb = memory_limit_mb
        self.time_limit = time_limit
        self._binary = str(fast_downward_paths().search_binary)
        self._cache: dict[int, float] = {}
        self._lock = threading.Lock()
        self.trivial_value: float | None = None
        self.sas_text = self._translate()
        self._parse_sas(self.sas_text)

    # -- translation --------------------------------------------------------------------------

    def _translate(self) -> str:
        paths = fast_downward_paths()
        with tempfile.TemporaryDirectory(prefix="stratpol-lmcut-") as work:
            domain_file, problem_file = Path(work, "domain.pddl"), Path(work, "problem.pddl")
            domain_file.write_text(self.instance.domain.text)
            problem_file.write_text(self.instance.text)
            sas_file = Path(work, "base.sas")
            command = [sys.executable, str(paths.driver), "--translate", "--sas-file", str(sas_file)]
            if self.memory_limit_mb is not None:
                command += ["--overall-memory-limit", f"{int(self.memory_limit_mb)}M"]
            if self.time_limit is not None:
                command += ["--overall-time-limit", f"{_fd_seconds(self.time_limit)}s"]
            # Keep variables that no goal depends on, so every reachable fluent atom has a home.
            command += [str(domain_file), str(problem_file), "--translate-options", "--keep-unimportant-variables"]
            wall = None if self.time_limit is None else self.time_limit + _WALL_GRACE_SECONDS
            finished = run_limited(command, work, wall)
            if finished.code != 0 or not sas_file.exists():
                raise _failure("the Fast Downward translator", finished.code, finished.output)
            trivial = _TRIVIAL_TASK.search(finished.output)
            self.trivial_value = None if trivial is None else (0.0 if trivial.group(1) == "solvable" else math.inf)
            return sas_file.read_text()

    def _parse_sas(self, text: str) -> None:
        lines = text.split("\n")
        position = lines.index("end_metric") + 1
        count = int(lines[position])
        position += 1
        variables = []
        for _ in range(count):
            if lines[position] != "begin_variable":
                raise RuntimeError(f"unexpected SAS line {position + 1}: {lines[position]!r}")
            axiom_layer, size = int(lines[position + 2]), int(lines[position + 3])
            atoms: dict[Atom, int] = {}
            default = None
            for value, line in enumerate(lines[position + 4:position + 4 + size]):
                if line.startswith("Atom "):
                    atoms[_fd_atom(line[5:])] = value
                elif line.startswith("NegatedAtom ") or line == "<none of those>":
                    default = value
                else:
                    raise RuntimeError(f"unexpected SAS value line: {line!r}")
            variables.append(_Variable(axiom_layer, atoms, default))
            position += 4 + size + 1
        begin = text.index("\nbegin_state\n") + len("\nbegin_state\n")
        end = text.index("end_state\n", begin)
        initial = [int(v) for v in text[begin:end].split()]
        if len(initial) != len(variables):
            raise RuntimeError("the SAS initial state does not list one value per variable")
        self._prefix, self._suffix = text[:begin], text[end:]
        self._variables = variables
        self._sas_initial = initial
        # FD lower-cases names; pymimir keeps the PDDL's case. Keyed by lower-cased atom.
        self._where: dict[Atom, tuple[int, int]] = {
            atom: (index, value) for index, var in enumerate(variables) for atom, value in var.atoms.items()
        }
        self._located: dict[Atom, tuple[int, int] | None] = {}  # memo, in the instance's spelling
        # Fluent atoms of the init the translator dropped never change in the reachable task: they
        # are true in every state it can express.
        self.constant_atoms: frozenset[Atom] = frozenset(
            a for a in self.instance.initial_state.atoms if self._locate(a) is None
        )

    def _locate(self, atom: Atom) -> tuple[int, int] | None:
        """(variable, value) of a fluent atom in the SAS task, None if the translator dropped it."""
        try:
            return self._located[atom]
        except KeyError:
            where = self._located[atom] = self._where.get(_lower(atom))
            return where

    # -- evaluation -----------------------------------------------------------------------------

    def sas_for(self, state: State) -> str:
        """The translated task with `state` as its initial state; ValueError if it cannot express `state`."""
        if state.instance is not self.instance:
            raise ValueError("the state belongs to another instance")
        values: list[int | None] = [
            self._sas_initial[i] if var.axiom_layer != -1 else None for i, var in enumerate(self._variables)
        ]
        atoms = state.atoms
        for atom in atoms:
            where = self._locate(atom)
            if where is None:
                if atom in self.constant_atoms:
                    continue
                raise ValueError(
                    f"{atom_text(atom)} is not in Fast Downward's translation of {self.instance.name}: "
                    "the translator dropped it as unreachable from the initial state"
                )
            index, value = where
            if values[index] is not None and self._variables[index].axiom_layer == -1:
                raise ValueError(f"the state breaks a mutex of the translation: {atom_text(atom)} and another "
                                 f"atom of the same variable are both true")
            values[index] = value
        missing = self.constant_atoms - atoms
        if missing:
            raise ValueError(f"the state lacks {atom_text(min(missing))}, which the translation of "
                             f"{self.instance.name} assumes is always true")
        for index, value in enumerate(values):
            if value is None:
                default = self._variables[index].default
                if default is None:
                    names = ", ".join(sorted(atom_text(a) for a in self._variables[index].atoms))
                    raise ValueError(f"the state makes none of {names} true, but the translation needs one")
                values[index] = default
        return self._prefix + "\n".join(str(v) for v in values) + "\n" + self._suffix

    def value(self, state: State) -> float:
        """h^LMcut of `state`; math.inf for a dead end LM-cut recognises."""
        if state.instance is not self.instance:
            raise ValueError("the state belongs to another instance")
        cached = self._cache.get(state.index)
        if cached is not None:
            return cached
        if self.trivial_value is not None:
            return self.trivial_value
        sas = self.sas_for(state)
        with tempfile.TemporaryDirectory(prefix="stratpol-lmcut-") as work:
            command = [self._binary, "--search", self.SEARCH, "--internal-plan-file", str(Path(work, "plan"))]
            finished = run_limited(command, work, self.time_limit, input_text=sas, memory_limit_mb=self.memory_limit_mb)
        match = _INITIAL_LMCUT.search(finished.output)
        if finished.code not in (0, 11, 12, 13) or match is None:
            if finished.code is None:
                raise TimeoutError(f"LM-cut of one state took longer than {self.time_limit} s")
            raise _failure("Fast Downward (LM-cut of one state)", finished.code, finished.output)
        result = math.inf if match.group(1) == "infinity" else float(match.group(1))
        with self._lock:
            self._cache[state.index] = result
        return result

    def values(self, states: Iterable[State], workers: int = 1) -> list[float]:
        """h^LMcut of each state, in order; `workers` > 1 runs that many FD processes at once."""
        states = list(states)
        if workers <= 1 or len(states) < 2:
            return [self.value(state) for state in states]
        with ThreadPoolExecutor(min(workers, len(states))) as pool:
            return list(pool.map(self.value, states))


_evaluators_lock = threading.Lock()
_EVALUATOR_ATTRIBUTE = "_stratpol_lmcut_evaluator"


def lmcut_evaluator(instance: Instance) -> LmcutEvaluator:
    """The shared LmcutEvaluator of `instance` (translated on first use, freed with the instance)."""
    # Kept on the instance itself: in a WeakKeyDictionary the evaluator's own reference to the
    # instance would keep the key alive forever.
    with _evaluators_lock:
        evaluator = getattr(instance, _EVALUATOR_ATTRIBUTE, None)
        if evaluator is None:
            evaluator = LmcutEvaluator(instance)
            setattr(instance, _EVALUATOR_ATTRIBUTE, evaluator)
        return evaluator


def lmcut_value(instance: Instance, state: State) -> float:
    """h^LMcut of one state of `instance` (math.inf for a recognised dead end)."""
    return lmcut_evaluator(instance).value(state)
