"""Instances of an exact size, drawn uniformly over the generator inputs of that size."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from stratpol.errors import InputError
from stratpol.generation.registry import DomainFolder, domain_folder
from stratpol.generation.size_csp import inputs_of_size

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


def _content(text: str) -> str:
    """The text without comments and layout, to recognise the same instance twice."""
    return " ".join(re.sub(r";[^\n]*", " ", text).split())


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


def sample(domain: str | DomainFolder, n: int, rng: random.Random, exclude: set[str] | None = None) -> GeneratedInstance:
    """An instance with exactly n objects whose initial state is not a goal state.

    Inputs are redrawn when the instance is trivial or its content is in `exclude` (which
    receives the new instance's content, so passing the same set keeps a batch distinct).
    """
    folder = _folder(domain)
    exclude = set() if exclude is None else exclude
    for _ in range(MAX_REDRAWS):
        arguments = draw_input(folder, n, rng)
        text = folder.generator(**arguments)
        content = _content(text)
        if content in exclude:
            continue
        instance = folder.domain.instance_from_text(text)
        if len(instance.objects) != n:
            raise RuntimeError(f"{folder.name}: generator made {len(instance.objects)} objects "
                               f"for {arguments}, but its size model says {n}")
        if instance.is_goal(instance.initial_state):
            continue
        exclude.add(content)
        return GeneratedInstance(folder.name, n, arguments, text)
    raise InputError(f"domain {folder.name}: no new non-trivial instance with {n} objects "
                     f"after {MAX_REDRAWS} draws")


def sample_instances(domain: str | DomainFolder, n: int, count: int, seed: int) -> list[GeneratedInstance]:
    """`count` distinct instances of size n; the same seed gives byte-identical texts."""
    rng = random.Random(f"{_folder(domain).name}/{n}/{seed}")
    exclude: set[str] = set()
    return [sample(domain, n, rng, exclude) for _ in range(count)]
