"""Checkpoint selection on a fixed validation set, the way prior work selected GNN policies.

The scaling paper (seeds/000, Section 4) trains once and, after each epoch, selects by three criteria
side by side: the loss on a fixed validation set, the coverage on that set, and dynamic validation.
`train_gnn` does the dynamic one; this module holds the fixed set and its two criteria, whose best
checkpoints land in `<model>/selected-by/<criterion>/` (`stratpol.method_settings.selected_checkpoint`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.evaluation import GeneralPolicy, run_together
from stratpol.generation import domain_folder
from stratpol.generation.size_csp import size_exists
from neural.data import TeacherTrajectory, teacher_data

FIXED_SIZES = 3  # the paper's fixed sets cover the three sizes above the largest training size


@dataclass(frozen=True)
class FixedScores:
    """A model's scores on the fixed validation set: mean loss, and the share of instances solved."""

    loss: float
    coverage: float

    def better_than(self, other: FixedScores | None, criterion: str) -> bool:
        """Strictly better by `criterion` (ties keep the earlier checkpoint, as dynamic validation does)."""
        if other is None:
            return True
        return self.loss < other.loss if criterion == "fixed-loss" else self.coverage > other.coverage


def fixed_validation_set(domain: str, largest_training_size: int, per_size: int, seed: int, planner_name: str,
                         time_limit: float, heuristics: bool, cache_dir: Path | None = None,
                         progress: Callable[[str], None] = lambda line: None) -> list[TeacherTrajectory]:
    """`per_size` instances of each of the three sizes above the largest training size, with optimal
    plans for the loss (instances the teacher does not solve are dropped, as in training)."""
    folder = domain_folder(domain)
    sizes = []
    size = largest_training_size
    while len(sizes) < FIXED_SIZES and size < largest_training_size + 100:  # generators may skip sizes
        size += 1
        if size_exists(folder.size_model, size):
            sizes.append(size)
    return teacher_data(domain, sizes, per_size, seed, planner_name, time_limit, heuristics, cache_dir, progress)


def fixed_coverage(policy: GeneralPolicy, trajectories: Sequence[TeacherTrajectory], plan_length_bound: int) -> float:
    """The share of the fixed set's instances `policy` solves within the validation's step bound
    (the runs go together, as dynamic validation's)."""
    solved = sum(outcome.solved for outcome in run_together(policy, [t.instance for t in trajectories],
                                                            plan_length_bound))
    return solved / len(trajectories)
