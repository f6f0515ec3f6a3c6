"""The paper's Table 1 setting in our generators' sizes, and success rates of a decoder on a split.

Table 1 trains on a few small instances of each domain and reports the share of validation,
interpolation (unseen instances of training sizes) and extrapolation (larger) instances for
which the decoded plan is valid. Sizes here are object counts (`domains/<name>/README.md`); the
counts follow the paper's Table 5 where our generators allow it (the paper's Visitall goes down
to 1 cell, ours starts at 2; its extrapolation split of 219 instances is thinned to fit a budget).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from stratpol.errors import InputError
from stratpol.generation import domain_folder
from stratpol.generation.sampling import sample
from stratpol.generation.size_csp import size_exists, smallest_size
from neural.wl.decoder import Decoder
from neural.wl.features import ColourCounts
from stratpol.planning import Instance
from stratpol.planning.plans import validate_plan


@dataclass(frozen=True)
class Split:
    """Instances of the given sizes, `per_size` of each."""

    sizes: tuple[int, ...]
    per_size: int


@dataclass(frozen=True)
class DomainSetting:
    train: Split
    validation: Split
    interpolation: Split
    extrapolation: Split


PAPER_SETTINGS: dict[str, DomainSetting] = {
    # 9 training instances of 4, 6 and 7 blocks; validation 8 blocks; interpolation 5; extrapolation 9-17
    "blocksworld": DomainSetting(Split((4, 6, 7), 3), Split((8,), 3), Split((5,), 3), Split(tuple(range(9, 18)), 2)),
    # balls 2, 4, 6, 8 (size = balls + 4); validation 9, 10 balls; interpolation 3, 5, 7; extrapolation 12-42 even
    "gripper": DomainSetting(Split((6, 8, 10, 12), 1), Split((13, 14), 1), Split((7, 9, 11), 1),
                             Split(tuple(range(16, 47, 2)), 1)),
    # 12 training instances of 13-15 objects; validation 15; interpolation 13-15; extrapolation 22-37
    "logistics": DomainSetting(Split((13, 14, 15), 4), Split((15,), 4), Split((13, 14, 15), 3),
                               Split(tuple(range(22, 38)), 1)),
    # ~207 training instances up to 16 cells; validation 18, 20; interpolation 2-15; extrapolation 24-121
    "visitall": DomainSetting(Split(tuple(range(2, 17)), 14), Split((18, 20), 12), Split(tuple(range(2, 16)), 3),
                              Split(tuple(range(24, 122, 8)), 2)),
}


def default_setting(domain: str) -> DomainSetting:
    """The paper's setting for its four domains; for others the five smallest sizes and the next two."""
    if domain in PAPER_SETTINGS:
        return PAPER_SETTINGS[domain]
    model = domain_folder(domain).size_model
    sizes = [n for n in range(smallest_size(model), smallest_size(model) + 40) if size_exists(model, n)]
    return DomainSetting(Split(tuple(sizes[:5]), 5), Split(tuple(sizes[5:7]), 2), Split(tuple(sizes[:5]), 2),
                         Split(tuple(sizes[7:17]), 1))


def split_instances(domain: str, split: Split, seed: int, avoid: Iterable[str] = ()) -> list[Instance]:
    """`per_size` distinct instances of each size of `split`, none with a text in `avoid` (the training set)."""
    folder = domain_folder(domain)
    seen = set(avoid)
    instances = []
    for size in split.sizes:
        rng = random.Random(f"wl-split/{folder.name}/{size}/{seed}")
        exclude: set[tuple] = set()
        found = 0
        for _ in range(20 * split.per_size):
            if found == split.per_size:
                break
            try:
                generated = sample(folder, size, rng, exclude)
            except InputError:
                break
            if generated.text in seen:
                continue
            seen.add(generated.text)
            found += 1
            instances.append(folder.domain.instance_from_text(generated.text, name=f"{folder.name}-{size}-{found}"))
    return instances


@dataclass
class InstanceOutcome:
    instance: str
    size: int
    solved: bool
    plan_length: int | None
    seconds: float
    unseen_share: float


@dataclass
class SplitResult:
    """Success rate of the decoder on one split, with plan lengths and the share of unseen colours."""

    split: str
    instances: int
    solved: int
    success: float
    mean_plan_length: float | None
    unseen_share: float
    seconds: float
    outcomes: list[InstanceOutcome] = field(default_factory=list)


def evaluate_split(decoder: Decoder, name: str, instances: Sequence[Instance],
                   progress: Callable[[str], None] = lambda line: None) -> SplitResult:
    """Decode each instance from its initial state (step cap max(100, 10|O|)); a success is a valid plan."""
    outcomes = []
    colours = ColourCounts()
    started = time.perf_counter()
    for instance in instances:
        began = time.perf_counter()
        result = decoder.decode(instance)
        valid = result.solved and validate_plan(instance, result.plan).valid
        colours.add(result.colours.seen, result.colours.unseen)
        outcomes.append(InstanceOutcome(instance.name, len(instance.objects), valid,
                                        len(result.plan) if valid else None, time.perf_counter() - began,
                                        result.colours.unseen_share()))
        progress(f"{name} {instance.name}: {'solved in ' + str(len(result.plan)) if valid else 'failed'}")
    solved = [o for o in outcomes if o.solved]
    return SplitResult(name, len(outcomes), len(solved), len(solved) / len(outcomes) if outcomes else 0.0,
                       sum(o.plan_length for o in solved) / len(solved) if solved else None,
                       colours.unseen_share(), time.perf_counter() - started, outcomes)
