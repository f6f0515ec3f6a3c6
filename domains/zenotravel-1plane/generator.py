"""ZenoTravel instances with one plane (the gp2024 zenotravel-1plane variant, untyped).

As pddl-generators' `ztravel -u SEED CITIES 1 PEOPLE` as the public files show it: the plane and
every person start in uniform random cities, the plane with fuel level fl0 (all 260 public files
start at fl0); fuel levels fl0..fl6 form a `next` chain. Goals: the plane gets a goal city with
probability 0.3, each person with probability 0.97; goal cities are uniform and may equal the
start (as in ztravel).
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

cities, people = Argument("cities", low=2), Argument("people", low=1)
SIZE_MODEL = SizeModel([cities, people], objects=cities + people + 8)  # plane1, fl0..fl6

FUEL_LEVELS = 7
PLANE_GOAL = 0.3
PERSON_GOAL = 0.97


def generate(cities: int, people: int, seed: int = 0) -> str:
    """PDDL text of a one-plane task with `cities` cities (>= 2) and `people` people (>= 1)."""
    if cities < 2 or people < 1:
        raise ValueError(f"zenotravel needs at least 2 cities and 1 person, not {cities} and {people}")
    rng = random.Random(seed)
    city = [f"city{i}" for i in range(cities)]
    person = [f"person{i}" for i in range(1, people + 1)]
    levels = [f"fl{i}" for i in range(FUEL_LEVELS)]
    plane_at = rng.choice(city)
    person_at = [rng.choice(city) for _ in person]
    plane_goal = rng.choice(city) if rng.random() < PLANE_GOAL else None
    person_goal = [rng.choice(city) if rng.random() < PERSON_GOAL else None for _ in person]

    init = [f"(at plane1 {plane_at})", "(aircraft plane1)", "(fuel-level plane1 fl0)"]
    for p, c in zip(person, person_at):
        init += [f"(at {p} {c})", f"(person {p})"]
    init += [f"(city {c})" for c in city]
    init += [f"(next {a} {b})" for a, b in zip(levels, levels[1:])]
    init += [f"(flevel {level})" for level in levels]
    goal = [f"(at plane1 {plane_goal})"] if plane_goal else []
    goal += [f"(at {p} {c})" for p, c in zip(person, person_goal) if c]
    nl = "\n    "
    return f""";; cities={cities}, planes=1, people={people}, seed={seed}
(define (problem ztravel-{cities}-1-{people}-{seed})
  (:domain zeno-travel)
  (:objects plane1 {" ".join(person)} {" ".join(city)} {" ".join(levels)})
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""


BENCHMARKS = ("gp2024/zenotravel-1plane",)
