"""ZenoTravel instances with one person (the gp2024 zenotravel-1person variant, untyped).

As pddl-generators' `ztravel -u SEED CITIES PLANES 1` as the public files show it: every plane and
the person start in uniform random cities, each plane with fuel level fl0 (all 180 planes of the 90
public files start at fl0); fuel levels fl0..fl6 form a `next` chain. Goals: each plane gets a goal
city with probability 0.3, the person with probability 0.97; goal cities are uniform and may equal
the start (as in ztravel).
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

cities, planes = Argument("cities", low=2), Argument("planes", low=1)
SIZE_MODEL = SizeModel([cities, planes], objects=cities + planes + 8)  # person1, fl0..fl6

FUEL_LEVELS = 7
PLANE_GOAL = 0.3
PERSON_GOAL = 0.97


def generate(cities: int, planes: int, seed: int = 0) -> str:
    """PDDL text of a one-person task with `cities` cities (>= 2) and `planes` planes (>= 1)."""
    if cities < 2 or planes < 1:
        raise ValueError(f"zenotravel needs at least 2 cities and 1 plane, not {cities} and {planes}")
    rng = random.Random(seed)
    city = [f"city{i}" for i in range(cities)]
    plane = [f"plane{i}" for i in range(1, planes + 1)]
    levels = [f"fl{i}" for i in range(FUEL_LEVELS)]
    plane_at = [rng.choice(city) for _ in plane]
    person_at = rng.choice(city)
    plane_goal = [rng.choice(city) if rng.random() < PLANE_GOAL else None for _ in plane]
    person_goal = rng.choice(city) if rng.random() < PERSON_GOAL else None

    init = []
    for a, c in zip(plane, plane_at):
        init += [f"(at {a} {c})", f"(aircraft {a})", f"(fuel-level {a} fl0)"]
    init += [f"(at person1 {person_at})", "(person person1)"]
    init += [f"(city {c})" for c in city]
    init += [f"(next {a} {b})" for a, b in zip(levels, levels[1:])]
    init += [f"(flevel {level})" for level in levels]
    goal = [f"(at {a} {c})" for a, c in zip(plane, plane_goal) if c]
    goal += [f"(at person1 {person_goal})"] if person_goal else []
    nl = "\n    "
    return f""";; cities={cities}, planes={planes}, people=1, seed={seed}
(define (problem ztravel-{cities}-{planes}-1-{seed})
  (:domain zeno-travel)
  (:objects {" ".join(plane)} person1 {" ".join(city)} {" ".join(levels)})
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""


BENCHMARKS = ("gp2024/zenotravel-1person",)
