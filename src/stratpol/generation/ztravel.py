"""ZenoTravel tasks as pddl-generators' `ztravel -u SEED CITIES PLANES PEOPLE` draws them, shared
by the one-plane and one-person generators (the gp2024 variants differ only in which count is 1).

Every plane and person starts in a uniform random city, every plane with fuel level fl0 (as in
all public gp2024 files); fuel levels fl0..fl6 form a `next` chain. Goals: each plane gets a goal
city with probability 0.3, each person with probability 0.97; goal cities are uniform and may
equal the start (as in ztravel).
"""

from __future__ import annotations

import random

FUEL_LEVELS = 7
PLANE_GOAL = 0.3
PERSON_GOAL = 0.97


def ztravel_problem(cities: int, planes: int, people: int, seed: int) -> str:
    """PDDL text (untyped, types as unary predicates) with a `;; cities=.., planes=.., people=..,
    seed=..` header line."""
    rng = random.Random(seed)
    city = [f"city{i}" for i in range(cities)]
    plane = [f"plane{i}" for i in range(1, planes + 1)]
    person = [f"person{i}" for i in range(1, people + 1)]
    levels = [f"fl{i}" for i in range(FUEL_LEVELS)]
    plane_at = [rng.choice(city) for _ in plane]
    person_at = [rng.choice(city) for _ in person]
    plane_goal = [rng.choice(city) if rng.random() < PLANE_GOAL else None for _ in plane]
    person_goal = [rng.choice(city) if rng.random() < PERSON_GOAL else None for _ in person]

    init = []
    for a, c in zip(plane, plane_at):
        init += [f"(at {a} {c})", f"(aircraft {a})", f"(fuel-level {a} fl0)"]
    for p, c in zip(person, person_at):
        init += [f"(at {p} {c})", f"(person {p})"]
    init += [f"(city {c})" for c in city]
    init += [f"(next {a} {b})" for a, b in zip(levels, levels[1:])]
    init += [f"(flevel {level})" for level in levels]
    goal = [f"(at {a} {c})" for a, c in zip(plane, plane_goal) if c]
    goal += [f"(at {p} {c})" for p, c in zip(person, person_goal) if c]
    nl = "\n    "
    return f""";; cities={cities}, planes={planes}, people={people}, seed={seed}
(define (problem ztravel-{cities}-{planes}-{people}-{seed})
  (:domain zeno-travel)
  (:objects {" ".join(plane)} {" ".join(person)} {" ".join(city)} {" ".join(levels)})
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""
