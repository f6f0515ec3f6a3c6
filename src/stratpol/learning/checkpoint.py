"""WRAPPER's progress across outer iterations, in a file, so that a stopped run goes on from it.

Between outer iterations WRAPPER keeps only its strategy, Q' and, in a run that keeps repairs,
the examples' repaired transitions (otherwise every example starts again from its plan; GENEX is
seeded), so a run resumed from them takes the steps the whole run would have taken. States are
written as their fluent atoms. The file names the run it belongs to (domain, training files,
grammar, pool size, teacher, seed and the settings that change what is learned); resuming
another run's file is an error.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.errors import InputError
from stratpol.learning.examples import Example
from stratpol.learning.result import LearningStatistics
from stratpol.learning.rows import FeatureRows
from stratpol.learning.settings import STRATEGIES, LearningSettings
from stratpol.planning import Atom

FORMAT = "stratpol-wrapper-checkpoint-2"
# settings that change how fast a run goes, not the policies and failures of its outer iterations
_SPEED_ONLY = ("symmetry",)

StateAtoms = tuple[Atom, ...]  # a state's fluent atoms, sorted
Pairs = tuple[tuple[StateAtoms, StateAtoms], ...]


@dataclass(frozen=True)
class KeptRepairs:
    """An example's transitions and relevant states after the repairs of a run that keeps them
    from one outer iteration to the next."""

    example: int  # position in run["instances"]
    good: Pairs
    bad: Pairs
    relevant: tuple[StateAtoms, ...]


@dataclass(frozen=True)
class WrapperCheckpoint:
    """Where a WRAPPER run stands after an outer iteration: the strategy and the training files of
    Q' for the next one, the iterations done, and the repairs a run that keeps them has made."""

    run: dict[str, object]  # what identifies the run: settings and training files
    strategy: str
    subset: tuple[int, ...]  # Q' as positions in run["instances"]
    outer_iterations: int
    inner_iterations: int
    repairs: tuple[KeptRepairs, ...] = ()


def kept_repairs(examples: Sequence[Example], rows: FeatureRows) -> tuple[KeptRepairs, ...]:
    """The repairs of the examples that have any, for a checkpoint of a run that keeps them."""
    def atoms(row: int) -> StateAtoms:
        return tuple(sorted(rows.entries[row][1].atoms))

    def pairs(transitions: list[tuple[int, int]]) -> Pairs:
        return tuple((atoms(s), atoms(t)) for s, t in transitions)

    return tuple(KeptRepairs(number, pairs(e.good), pairs(e.bad), tuple(atoms(r) for r in e.relevant))
                 for number, e in enumerate(examples) if e.repaired())


def run_identity(settings: LearningSettings, domain: str, instances: Sequence[str], grammar: str, pool: int,
                 teacher: str, seed: int) -> dict[str, object]:
    """What a checkpoint must match to be this run's: what decides the policies and failures of each
    outer iteration (`teacher` and `grammar` as the run uses them, which may differ from the names
    in `settings`)."""
    chosen = {key: value for key, value in dataclasses.asdict(settings).items()
              if key not in ("grammar", "teacher", *_SPEED_ONLY)}
    return {"domain": domain, "instances": list(instances), "grammar": grammar, "pool": pool, "teacher": teacher,
            "seed": seed, **chosen}


def write_checkpoint(path: Path, checkpoint: WrapperCheckpoint) -> None:
    """Write `checkpoint` to `path` whole (an interrupt leaves the previous one)."""
    data = {"format": FORMAT, "run": checkpoint.run, "strategy": checkpoint.strategy,
            "subset": list(checkpoint.subset), "outer_iterations": checkpoint.outer_iterations,
            "inner_iterations": checkpoint.inner_iterations,
            "repairs": [{"example": r.example, "good": _pairs_data(r.good), "bad": _pairs_data(r.bad),
                         "relevant": [_state_data(s) for s in r.relevant]} for r in checkpoint.repairs]}
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
        repairs = tuple(KeptRepairs(int(r["example"]), _pairs(r["good"]), _pairs(r["bad"]),
                                    tuple(_state(s) for s in r["relevant"])) for r in data["repairs"])
        return WrapperCheckpoint(data["run"], data["strategy"], tuple(int(i) for i in data["subset"]),
                                 int(data["outer_iterations"]), int(data["inner_iterations"]), repairs)
    except OSError as error:
        raise InputError(f"cannot read the checkpoint: {error.strerror or error}", path) from None
    except (json.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError) as error:
        raise InputError(f"not a WRAPPER checkpoint ({type(error).__name__}: {error})", path) from None


def resume(saved: WrapperCheckpoint, identity: dict[str, object], path: Path, examples: Sequence[Example],
           rows: FeatureRows, statistics: LearningStatistics, progress: Callable[[str], None]) -> list[int]:
    """Q' from `saved` (read from `path`), with the strategy and the iteration counts restored into
    `statistics` and the kept repairs into `examples`; an InputError where it is another run's or
    does not fit it."""
    differ = sorted(key for key in set(identity) | set(saved.run) if identity.get(key) != saved.run.get(key))
    if differ:
        raise InputError(f"checkpoint of another run ({', '.join(differ)} differ); remove it or name another file",
                         path)
    count = len(identity["instances"])
    if (saved.strategy not in STRATEGIES or not saved.subset or not all(0 <= i < count for i in saved.subset)
            or not all(0 <= r.example < count for r in saved.repairs)):
        raise InputError(f"checkpoint with strategy {saved.strategy!r}, Q' {list(saved.subset)} and repairs of "
                         f"{[r.example for r in saved.repairs]} does not fit {count} training instances", path)
    for kept in saved.repairs:
        example = examples[kept.example]
        example.good = [(_row(s, kept.example, example, rows, path), _row(t, kept.example, example, rows, path))
                        for s, t in kept.good]
        example.bad = [(_row(s, kept.example, example, rows, path), _row(t, kept.example, example, rows, path))
                       for s, t in kept.bad]
        example.relevant = [_row(atoms, kept.example, example, rows, path) for atoms in kept.relevant]
    statistics.strategy = saved.strategy
    statistics.outer_iterations, statistics.inner_iterations = saved.outer_iterations, saved.inner_iterations
    progress(f"resumed from {path}: outer {saved.outer_iterations} done, {saved.strategy}, |Q'| = {len(saved.subset)}")
    return list(saved.subset)


def _row(atoms: StateAtoms, number: int, example: Example, rows: FeatureRows, path: Path) -> int:
    """The row of the state of `example` (instance number `number`) whose fluent atoms a checkpoint lists."""
    try:
        state = example.instance.state_from_atoms(atoms)
    except InputError as error:
        raise InputError(f"a repair of {example.instance.source_name}: {error.message}", path) from None
    return rows.row(number, example.bridge, state)


def _state_data(atoms: StateAtoms) -> list[list[str]]:
    return [[predicate, *args] for predicate, args in atoms]


def _pairs_data(pairs: Pairs) -> list:
    return [[_state_data(s), _state_data(t)] for s, t in pairs]


def _pairs(data: list) -> Pairs:
    return tuple((_state(s), _state(t)) for s, t in data)


def _state(data: list[list[str]]) -> StateAtoms:
    return tuple((str(atom[0]), tuple(str(a) for a in atom[1:])) for atom in data)
