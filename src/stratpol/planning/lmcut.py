"""h^LMcut of many states of one instance with Fast Downward: translate once, then patch the SAS
initial state per state and run FD's search binary on it (`LmcutEvaluator`)."""

from __future__ import annotations

import math
import re
import sys
import tempfile
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from stratpol.planning.fast_downward import (DEFAULT_MEMORY_LIMIT_MB, WALL_GRACE_SECONDS, fast_downward_paths,
                                              fd_cpu_seconds, fd_failure)
from stratpol.planning.task import Atom, Instance, State, atom_text
from stratpol.processes.limits import run_command

_INITIAL_LMCUT = re.compile(r"Initial heuristic value for lmcut: (\S+)")
_FD_ATOM = re.compile(r"^(\S+?)\((.*)\)$")
_TRIVIAL_TASK = re.compile(r"! Generating (solvable|unsolvable) task")


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
                command += ["--overall-time-limit", f"{fd_cpu_seconds(self.time_limit)}s"]
            # Keep variables that no goal depends on, so every reachable fluent atom has a home.
            command += [str(domain_file), str(problem_file), "--translate-options", "--keep-unimportant-variables"]
            wall = None if self.time_limit is None else self.time_limit + WALL_GRACE_SECONDS
            finished = run_command(command, work, wall)
            if finished.code != 0 or not sas_file.exists():
                raise fd_failure("the Fast Downward translator", finished.code, finished.output)
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
            finished = run_command(command, work, self.time_limit, input_text=sas, memory_limit_mb=self.memory_limit_mb)
        match = _INITIAL_LMCUT.search(finished.output)
        if finished.code not in (0, 11, 12, 13) or match is None:
            if finished.code is None:
                raise TimeoutError(f"LM-cut of one state took longer than {self.time_limit} s")
            raise fd_failure("Fast Downward (LM-cut of one state)", finished.code, finished.output)
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
