"""WRAPPER's progress across outer iterations, in a file, so that a stopped run goes on from it.

Between outer iterations WRAPPER keeps only its strategy and Q' (every example starts again from
its plan, and GENEX is seeded), so a run resumed from them takes the steps the whole run would
have taken. The file names the run it belongs to (domain, training files, grammar, pool size,
teacher, seed and the settings that change what is learned); resuming another run's file is an
error.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.errors import InputError
from stratpol.learning.result import LearningStatistics
from stratpol.learning.settings import STRATEGIES, LearningSettings

FORMAT = "stratpol-wrapper-checkpoint-2"
# settings that change how fast a run goes, not the policies and failures of its outer iterations
_SPEED_ONLY = ("symmetry",)


@dataclass(frozen=True)
class WrapperCheckpoint:
    """Where a WRAPPER run stands after an outer iteration: the strategy and the training files of
    Q' for the next one, and the iterations done."""

    run: dict[str, object]  # what identifies the run: settings and training files
    strategy: str
    subset: tuple[int, ...]  # Q' as positions in run["instances"]
    outer_iterations: int
    inner_iterations: int


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
            "inner_iterations": checkpoint.inner_iterations}
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
        return WrapperCheckpoint(data["run"], data["strategy"], tuple(int(i) for i in data["subset"]),
                                 int(data["outer_iterations"]), int(data["inner_iterations"]))
    except OSError as error:
        raise InputError(f"cannot read the checkpoint: {error.strerror or error}", path) from None
    except (json.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError) as error:
        raise InputError(f"not a WRAPPER checkpoint ({type(error).__name__}: {error})", path) from None


def resume(saved: WrapperCheckpoint, identity: dict[str, object], path: Path, statistics: LearningStatistics,
           progress: Callable[[str], None]) -> list[int]:
    """Q' from `saved` (read from `path`), with the strategy and the iteration counts restored into
    `statistics`; an InputError where it is another run's or does not fit it."""
    differ = sorted(key for key in set(identity) | set(saved.run) if identity.get(key) != saved.run.get(key))
    if differ:
        raise InputError(f"checkpoint of another run ({', '.join(differ)} differ); remove it or name another file",
                         path)
    count = len(identity["instances"])
    if saved.strategy not in STRATEGIES or not saved.subset or not all(0 <= i < count for i in saved.subset):
        raise InputError(f"checkpoint with strategy {saved.strategy!r} and Q' {list(saved.subset)} does not fit "
                         f"{count} training instances", path)
    statistics.strategy = saved.strategy
    statistics.outer_iterations, statistics.inner_iterations = saved.outer_iterations, saved.inner_iterations
    progress(f"resumed from {path}: outer {saved.outer_iterations} done, {saved.strategy}, |Q'| = {len(saved.subset)}")
    return list(saved.subset)
