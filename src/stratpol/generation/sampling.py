"""Instances of an exact size, drawn uniformly over the generator inputs of that size."""

from __future__ import annotations

import random
from dataclasses import dataclass

from stratpol.errors import InputError
from stratpol.generation.registry import DomainFolder, domain_folder
from stratpol.generation.size_csp import inputs_of_size
from stratpol.planning import Instance

MAX_REDRAWS = 200


@dataclass(frozen=True)
class GeneratedInstance:
    """One generated problem: its PDDL text and the generator input that made it."""

    domain: str
    size: int
    arguments: dict
    text: str


def _folder(domain: str | DomainFolder) -> DomainFolder:
    return domain if isinstance(domain, DomainFolder) else domain_folder(domain)


def _identity(instance: Instance) -> tuple:
    """What makes two instances the same, whatever the order of their facts or comments."""
    return (
        tuple(sorted(instance.objects)),
        tuple(sorted(instance.static_atoms)),
        tuple(sorted(instance.initial_state.atoms)),
        instance.goal,
    )


def draw_input(domain: str | DomainFolder, n: int, rng: random.Random) -> dict:
    """A generator input of size n: sized arguments uniform over all CSP solutions, then the
    free arguments uniform in their ranges, then a generator seed."""
    folder = _folder(domain)
    solutions = inputs_of_size(folder.size_model, n)
    if not solutions:
        raise InputError(f"domain {folder.name} has no instance with {n} objects")
    sized = dict(rng.choice(solutions))
    free = {f.name: f.draw(sized, rng) for f in folder.size_model.free}
    return {**sized, **free, "seed": rng.randrange(2**31)}


def sample(domain: str | DomainFolder, n: int, rng: random.Random, exclude: set[tuple] | None = None) -> GeneratedInstance:
    """An instance with exactly n objects whose initial state is not a goal state.

    Inputs are redrawn when the instance is trivial or already in `exclude` (which receives
    the new instance, so passing the same set keeps a batch distinct).
    """
    folder = _folder(domain)
    exclude = set() if exclude is None else exclude
    for _ in range(MAX_REDRAWS):
        arguments = draw_input(folder, n, rng)
        text = folder.generator(**arguments)
        instance = folder.domain.instance_from_text(text)
        if len(instance.objects) != n:
            raise RuntimeError(f"{folder.name}: generator made {len(instance.objects)} objects "
                               f"for {arguments}, but its size model says {n}")
        identity = _identity(instance)
        if identity in exclude or instance.is_goal(instance.initial_state):
            continue
        exclude.add(identity)
        return GeneratedInstance(folder.name, n, arguments, text)
    raise InputError(f"domain {folder.name}: no new non-trivial instance with {n} objects "
                     f"after {MAX_REDRAWS} draws")


def sample_instances(domain: str | DomainFolder, n: int, count: int, seed: int) -> list[GeneratedInstance]:
    """`count` distinct instances of size n; the same seed gives byte-identical texts."""
    rng = random.Random(f"{_folder(domain).name}/{n}/{seed}")
    exclude: set[tuple] = set()
    return [sample(domain, n, rng, exclude) for _ in range(count)]
