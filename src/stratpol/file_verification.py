"""A rule policy verified on problem files, one verdict per file in order: with several jobs,
files are verified at once in forked workers, and with `distinct_instances` a file that is a
renaming of an earlier one gets that one's verdict instead of a search of its own."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.planning import Domain, Instance
from stratpol.planning.isomorphism import first_renamings
from stratpol.planning.symmetry import canonical_key
from stratpol.processes.workers import can_fork_here, in_forked_workers
from stratpol.progress import finish_status, report_status
from stratpol.verification import Verification, verify


@dataclass(frozen=True)
class FileVerdict:
    """One file's verdict: solved, the verdict's line and its JSON."""

    solved: bool
    line: str
    data: dict


def verify_policy(evaluator: PolicyEvaluator, instance: Instance, max_states: int | None = None,
                  symmetry: bool = False, progress: Callable[[str], None] = lambda message: None) -> Verification:
    """The verification of the policy on one problem (with `symmetry`, one state per renaming of
    interchangeable objects)."""
    canonical = canonical_key(instance) if symmetry else None
    return verify(instance, evaluator.on(instance).compatible_successors, max_states=max_states,
                  canonical=canonical, progress=progress)


def verify_files(evaluator: PolicyEvaluator, domain: Domain, files: Sequence[str | Path], max_states: int | None = None,
                 symmetry: bool = False, distinct_instances: bool = False, jobs: int = 1,
                 progress: Callable[[str], None] = lambda message: None) -> Iterator[FileVerdict]:
    """The verdict on each of `files`, in order, as each is known."""
    if distinct_instances:  # each file read once: the forked verifiers inherit them
        loaded = [domain.load_instance(path) for path in files]
        firsts = first_renamings(loaded, progress)
    else:
        loaded, firsts = None, list(range(len(files)))
    distinct = [number for number, first in enumerate(firsts) if first == number]

    def verdict(number: int, report: Callable[[str], None] = lambda message: None) -> FileVerdict:
        instance = loaded[number] if loaded is not None else domain.load_instance(files[number])
        result = verify_policy(evaluator, instance, max_states, symmetry, report)
        return FileVerdict(result.solved, result.describe(), result.to_json())

    forked = jobs > 1 and len(distinct) > 1 and can_fork_here()
    if not forked:
        verdicts = (verdict(number, progress) for number in distinct)
    else:
        verdicts = in_forked_workers(lambda n: verdict(distinct[n]), len(distinct), jobs)
    known: dict[int, FileVerdict] = {}
    try:
        for number, first in enumerate(firsts):
            if first == number:
                if forked:
                    report_status(progress, "verification", len(known) + 1, len(distinct))
                known[number] = next(verdicts)
                yield known[number]
                continue
            original = known[first]
            name = os.path.basename(files[number])
            yield FileVerdict(original.solved, f"{name}: {'solved' if original.solved else 'not solved'}, as "
                              f"{original.data['instance']} (a renaming of it)",
                              {**original.data, "instance": name, "renaming_of": original.data["instance"]})
    finally:
        verdicts.close()
        if forked:
            finish_status(progress, "verification")
