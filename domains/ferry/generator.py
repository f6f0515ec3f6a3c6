"""Ferry instances as the IPC 2023 learning-track generator makes them.

`ferry.py -c C -l L`: the ferry starts empty at a uniform random location; every car starts at a
uniform random location and must end at a uniform random location other than its start.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

cars, locations = Argument("cars", 1), Argument("locations", 2)
SIZE_MODEL = SizeModel([cars, locations], objects=cars + locations)


def generate(cars: int, locations: int, seed: int = 42) -> str:
    """PDDL text of a random task: C >= 1 cars, L >= 2 locations."""
    if cars < 1 or locations < 2:
        raise ValueError(f"ferry needs cars >= 1 and locations >= 2, not {cars=}, {locations=}")
    rng = random.Random(seed)
    car = [f"car{i}" for i in range(1, cars + 1)]
    loc = [f"loc{i}" for i in range(1, locations + 1)]
    ferry_at = rng.choice(loc)
    origin = [rng.choice(loc) for _ in car]
    destination = [rng.choice([l for l in loc if l != o]) for o in origin]

    init = ["(empty-ferry)", f"(at-ferry {ferry_at})"]
    init += [f"(at {c} {o})" for c, o in zip(car, origin)]
    goal = [f"(at {c} {d})" for c, d in zip(car, destination)]
    nl = "\n    "
    return f""";; cars={cars}, locations={locations}, seed={seed}
(define (problem ferry-{cars}-{locations}-{seed})
  (:domain ferry)
  (:objects
    {" ".join(car)} - car
    {" ".join(loc)} - location)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""


BENCHMARKS = ("ipc2023/ferry", "gp2024/ferry")


def header_arguments(header: dict[str, str]) -> dict[str, int] | None:
    """Sized arguments from a `;; cars=.., locations=.., ...` header (IPC 2023 files and the gp2024
    ferry files, which come from the same generator); the IPC base cases carry none."""
    if not {"cars", "locations"} <= header.keys():
        return None
    return {name: int(header[name]) for name in ("cars", "locations")}
