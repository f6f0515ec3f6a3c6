"""Logistics instances with the semantics of pddl-generators' `logistics -a A -c C -s S -p P -t T -r SEED`.

Every city has `city_size` locations l<c>-0 .. l<c>-<S-1>, of which l<c>-0 is its airport. Truck
t<c> (c < cities) starts in city c, every further truck in a random city, each at a random location
of its city; every airplane starts at a random airport; every package starts at a random location
of any city. Objects, facts and names are those the public generator prints.

Deliberate differences: every package's goal location differs from its origin (the public generator
may draw the same location, so small instances are often trivial), and at least one airplane is
always present (the public default of none makes multi-city instances unsolvable).
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

airplanes = Argument("airplanes", low=1)
cities = Argument("cities", low=1)
city_size = Argument("city_size", low=1)
packages = Argument("packages", low=1)
trucks = Argument("trucks", low=1)
SIZE_MODEL = SizeModel(
    [airplanes, cities, city_size, packages, trucks],
    objects=airplanes + cities + trucks + cities * city_size + packages,
    constraints=[
        trucks >= cities,  # at least one truck per city
        cities * city_size >= 2,  # a package's goal differs from its origin
    ],
)


def generate(airplanes: int, cities: int, city_size: int, packages: int, trucks: int, seed: int = 0) -> str:
    """PDDL text of a random logistics instance (see the module docstring)."""
    if airplanes < 1 or cities < 1 or city_size < 1 or packages < 1 or trucks < cities or cities * city_size < 2:
        raise ValueError(f"logistics needs airplanes, cities, city_size, packages >= 1, trucks >= cities and "
                         f"at least two locations, not a={airplanes} c={cities} s={city_size} p={packages} t={trucks}")
    rng = random.Random(seed)
    locations = [(c, j) for c in range(cities) for j in range(city_size)]
    truck_at = [(c, rng.randrange(city_size)) for c in range(cities)]
    for _ in range(cities, trucks):
        truck_at.append((rng.randrange(cities), rng.randrange(city_size)))
    origin = [rng.choice(locations) for _ in range(packages)]
    destination = [rng.choice([loc for loc in locations if loc != o]) for o in origin]
    plane_at = [rng.randrange(cities) for _ in range(airplanes)]

    def loc(where: tuple[int, int]) -> str:
        return f"l{where[0]}-{where[1]}"

    init = [f"(airplane a{i})" for i in range(airplanes)]
    init += [f"(city c{c})" for c in range(cities)]
    init += [f"(truck t{i})" for i in range(trucks)]
    for c, j in locations:
        init += [f"(location {loc((c, j))})", f"(in-city {loc((c, j))} c{c})"]
    init += [f"(airport l{c}-0)" for c in range(cities)]
    init += [f"(obj p{i})" for i in range(packages)]
    init += [f"(at t{i} {loc(w)})" for i, w in enumerate(truck_at)]
    init += [f"(at p{i} {loc(w)})" for i, w in enumerate(origin)]
    init += [f"(at a{i} l{c}-0)" for i, c in enumerate(plane_at)]
    goal = [f"(at p{i} {loc(w)})" for i, w in enumerate(destination)]
    nl = "\n    "
    objects = nl.join([
        " ".join(f"a{i}" for i in range(airplanes)),
        " ".join(f"c{c}" for c in range(cities)),
        " ".join(f"t{i}" for i in range(trucks)),
        " ".join(loc(w) for w in locations),
        " ".join(f"p{i}" for i in range(packages)),
    ])
    return f""";; airplanes={airplanes}, cities={cities}, city_size={city_size}, packages={packages}, trucks={trucks}, seed={seed}
(define (problem logistics-c{cities}-s{city_size}-p{packages}-a{airplanes})
  (:domain logistics-strips)
  (:objects
    {objects})
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""
