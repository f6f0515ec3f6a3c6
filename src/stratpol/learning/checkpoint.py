"""WRAPPER's progress across outer iterations, in a file, so that a stopped run goes on from it.

Between outer iterations WRAPPER keeps only its strategy and Q' (every example starts again from
its plan, and GENEX is seeded), so a run resumed from its last Q' takes the steps the whole run
would have taken. The file names the run it belongs to (domain, training files, grammar, teacher,
seed and the choices that change what is learned); resuming another run's file is an error.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.errors import InputError

FORMAT = "stratpol-wrapper-checkpoint-1"


@dataclass(frozen=True)
class WrapperCheckpoint:
    """Where a WRAPPER run stands after an outer iteration: the strategy and the training files of
    Q' for the next one, and the iterations done."""

    run: dict[str, object]  # what identifies the run: settings and training files
    strategy: str
    subset: tuple[int, ...]  # Q' as positions in run["instances"]
    outer_iterations: int
    inner_iterations: int


def write_checkpoint(path: Path, checkpoint: WrapperCheckpoint) -> None:
    """Write `checkpoint` to `path` whole (an interrupt leaves the previous one)."""
    data = {"format": FORMAT, **asdict(checkpoint), "subset": list(checkpoint.subset)}
    write_text_atomically(Path(path), json.dumps(data, indent=1) + "\n")


def read_checkpoint(path: Path, run: dict[str, object]) -> WrapperCheckpoint | None:
    """The checkpoint in `path` (None where there is no such file); an InputError where it is not
    one or belongs to another run than `run`."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        if data.get("format") != FORMAT:
            raise InputError(f"not a WRAPPER checkpoint (format {data.get('format')!r}, expected {FORMAT})", path)
        checkpoint = WrapperCheckpoint(data["run"], data["strategy"], tuple(int(i) for i in data["subset"]),
                                       int(data["outer_iterations"]), int(data["inner_iterations"]))
    except (json.JSONDecodeError, AttributeError, KeyError, TypeError, ValueError) as error:
        raise InputError(f"not a WRAPPER checkpoint ({type(error).__name__}: {error})", path) from None
    differ = sorted(key for key in set(run) | set(checkpoint.run) if run.get(key) != checkpoint.run.get(key))
    if differ:
        raise InputError(f"checkpoint of another run ({', '.join(differ)} differ); remove it or name another file",
                         path)
    return checkpoint
