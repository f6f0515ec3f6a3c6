"""Logistics with one city, one truck and one airplane (the gp2024 `logistics-1truck` test set).

pddl-generators' `logistics -a 1 -c 1 -s S -p P -r SEED`: city c0 has locations l0-0 .. l0-<S-1>
(l0-0 is the airport, where airplane a0 stands), truck t0 starts at a random location, every
package starts at a random location. The airplane is kept, as in every gp2024 file, though with one
airport it can only load and unload. The domain file is the one of `domains/logistics`.

Deliberate difference: every package's goal location differs from its origin (the public generator
may draw the same location, so small instances are often trivial); hence city_size >= 2.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

city_size = Argument("city_size", low=2)
packages = Argument("packages", low=1)
SIZE_MODEL = SizeModel([city_size, packages], objects=city_size + packages + 3)  # a0, c0, t0


def generate(city_size: int, packages: int, seed: int = 0) -> str:
    """PDDL text of a random one-city, one-truck logistics instance."""
    if city_size < 2 or packages < 1:
        raise ValueError(f"logistics-1truck needs city_size >= 2 and packages >= 1, not {city_size}, {packages}")
    rng = random.Random(seed)
    truck_at = rng.randrange(city_size)
    origin = [rng.randrange(city_size) for _ in range(packages)]
    destination = [rng.choice([j for j in range(city_size) if j != o]) for o in origin]
    locations = [f"l0-{j}" for j in range(city_size)]
    init = ["(airplane a0)", "(city c0)", "(truck t0)"]
    for name in locations:
        init += [f"(location {name})", f"(in-city {name} c0)"]
    init.append("(airport l0-0)")
    init += [f"(obj p{i})" for i in range(packages)]
    init.append(f"(at t0 l0-{truck_at})")
    init += [f"(at p{i} l0-{o})" for i, o in enumerate(origin)]
    init.append("(at a0 l0-0)")
    goal = [f"(at p{i} l0-{d})" for i, d in enumerate(destination)]
    nl = "\n    "
    return f""";; city_size={city_size}, packages={packages}, seed={seed}
(define (problem logistics-c1-s{city_size}-p{packages}-a1)
  (:domain logistics-strips)
  (:objects
    a0
    c0
    t0
    {" ".join(locations)}
    {" ".join(f"p{i}" for i in range(packages))})
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""


BENCHMARKS = ("gp2024/logistics-1truck",)
