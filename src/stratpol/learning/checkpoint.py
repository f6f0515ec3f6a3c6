"""WRAPPER's progress across outer iterations, in a file, so that a stopped run goes on from it.

Between outer iterations WRAPPER keeps only its strategy, Q', the example plans Edge replanning
changed and, in a run that keeps repairs, the examples' repaired transitions (otherwise every
example starts again from its plan; GENEX is seeded), so a run resumed from them takes the steps
the whole run would have taken. States are written as their fluent atoms. The file names the
run it belongs to (domain, training files, grammar, teacher, seed and the choices that change
what is learned); resuming another run's file is an error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.errors import InputError
from stratpol.planning import Atom

FORMAT = "stratpol-wrapper-checkpoint-1"

StateAtoms = tuple[Atom, ...]  # a state's fluent atoms, sorted


@dataclass(frozen=True)
class ChangedPlan:
    """An example whose plan Edge replanning changed: the plan's states and the transitions it
    took out (which it may not take again)."""

    example: int  # position in run["instances"]
    plan: tuple[StateAtoms, ...]
    replaced: tuple[tuple[StateAtoms, StateAtoms], ...]


@dataclass(frozen=True)
class KeptRepairs:
    """An example's transitions and relevant states after the repairs of a run that keeps them
    from one outer iteration to the next."""

    example: int  # position in run["instances"]
    good: tuple[tuple[StateAtoms, StateAtoms], ...]
    bad: tuple[tuple[StateAtoms, StateAtoms], ...]
    relevant: tuple[StateAtoms, ...]
    entered: tuple[tuple[StateAtoms, StateAtoms], ...] = ()  # the policy's steps into repaired states


@dataclass(frozen=True)
class WrapperCheckpoint:
    """Where a WRAPPER run stands after an outer iteration: the strategy and the training files of
    Q' for the next one, the plans Edge replanning changed, and the iterations done."""

    run: dict[str, object]  # what identifies the run: settings and training files
    strategy: str
    subset: tuple[int, ...]  # Q' as positions in run["instances"]
    outer_iterations: int
    inner_iterations: int
    replanned: int = 0
    changed_plans: tuple[ChangedPlan, ...] = field(default_factory=tuple)
    repairs: tuple[KeptRepairs, ...] = field(default_factory=tuple)  # where the run keeps them


def write_checkpoint(path: Path, checkpoint: WrapperCheckpoint) -> None:
    """Write `checkpoint` to `path` whole (an interrupt leaves the previous one)."""
    data = {"format": FORMAT, "run": checkpoint.run, "strategy": checkpoint.strategy,
            "subset": list(checkpoint.subset), "outer_iterations": checkpoint.outer_iterations,
            "inner_iterations": checkpoint.inner_iterations, "replanned": checkpoint.replanned,
            "changed_plans": [{"example": c.example, "plan": [_state_data(s) for s in c.plan],
                               "replaced": _pairs_data(c.replaced)}
                              for c in checkpoint.changed_plans],
            "repairs": [{"example": r.example, "good": _pairs_data(r.good), "bad": _pairs_data(r.bad),
                         "relevant": [_state_data(s) for s in r.relevant], "entered": _pairs_data(r.entered)}
                        for r in checkpoint.repairs]}
    try:
        write_text_atomically(Path(path), json.dumps(data) + "\n")
    except OSError as error:
        raise InputError(f"cannot write the checkpoint: {error.strerror or error}", path) from None


def read_checkpoint(path: Path) -> WrapperCheckpoint | None:
    """The checkpoint in `path` (None where there is no such file); an InputError where it cannot be
    read or is not one. Read it before any work, so that a wrong file costs no pool."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        if data.get("format") != FORMAT:
            raise InputError(f"not a WRAPPER checkpoint (format {data.get('format')!r}, expected {FORMAT})", path)
        changed = tuple(ChangedPlan(int(c["example"]), tuple(_state(s) for s in c["plan"]), _pairs(c["replaced"]))
                        for c in data.get("changed_plans", []))  # absent: no plan changed
        repairs = tuple(KeptRepairs(int(r["example"]), _pairs(r["good"]), _pairs(r["bad"]),
                                    tuple(_state(s) for s in r["relevant"]), _pairs(r.get("entered", [])))
                        for r in data.get("repairs", []))  # absent: written before repairs could be kept
        checkpoint = WrapperCheckpoint(data["run"], data["strategy"], tuple(int(i) for i in data["subset"]),
                                       int(data["outer_iterations"]), int(data["inner_iterations"]),
                                       int(data.get("replanned", 0)), changed, repairs)
    except OSError as error:
        raise InputError(f"cannot read the checkpoint: {error.strerror or error}", path) from None
    except (json.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError) as error:
        raise InputError(f"not a WRAPPER checkpoint ({type(error).__name__}: {error})", path) from None
    return checkpoint


def check_run(checkpoint: WrapperCheckpoint, run: dict[str, object], path: Path) -> None:
    """An InputError, naming what differs, where `checkpoint` (read from `path`) is not of `run`."""
    differ = sorted(key for key in set(run) | set(checkpoint.run) if run.get(key) != checkpoint.run.get(key))
    if differ:
        raise InputError(f"checkpoint of another run ({', '.join(differ)} differ); remove it or name another file",
                         path)


def _state_data(atoms: StateAtoms) -> list[list[str]]:
    return [[predicate, *args] for predicate, args in atoms]


def _pairs_data(pairs: tuple[tuple[StateAtoms, StateAtoms], ...]) -> list:
    return [[_state_data(s), _state_data(t)] for s, t in pairs]


def _pairs(data: list) -> tuple[tuple[StateAtoms, StateAtoms], ...]:
    return tuple((_state(s), _state(t)) for s, t in data)


def _state(data: list[list[str]]) -> StateAtoms:
    return tuple((str(atom[0]), tuple(str(a) for a in atom[1:])) for atom in data)
