"""Miconic (STRIPS elevator) instances as the IPC 2023 learning-track generator makes them.

`miconic.py -p P -f F`: floors f1..fF with (above fi fj) for every i < j (fj is above fi); the
lift starts at a uniform random floor; every passenger gets a uniform random origin and a uniform
random destination other than the origin; the goal is that every passenger is served.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

passengers, floors = Argument("passengers", 1), Argument("floors", 2)
SIZE_MODEL = SizeModel([passengers, floors], objects=passengers + floors)


def generate(passengers: int, floors: int, seed: int = 42) -> str:
    """PDDL text of a random task: P >= 1 passengers, F >= 2 floors."""
    if passengers < 1 or floors < 2:
        raise ValueError(f"miconic needs passengers >= 1 and floors >= 2, not {passengers=}, {floors=}")
    rng = random.Random(seed)
    passenger = [f"p{i}" for i in range(1, passengers + 1)]
    floor = [f"f{i}" for i in range(1, floors + 1)]
    lift_at = rng.choice(floor)
    trips = []
    for _ in passenger:
        origin = rng.choice(floor)
        trips.append((origin, rng.choice([f for f in floor if f != origin])))

    init = [f"(lift-at {lift_at})"]
    for p, (origin, destination) in zip(passenger, trips):
        init += [f"(origin {p} {origin})", f"(destin {p} {destination})"]
    init += [f"(above {a} {b})" for i, a in enumerate(floor) for b in floor[i + 1:]]
    goal = [f"(served {p})" for p in passenger]
    nl = "\n    "
    return f""";; passengers={passengers}, floors={floors}, seed={seed}
(define (problem miconic-{passengers}-{floors}-{seed})
  (:domain miconic)
  (:objects
    {" ".join(passenger)} - passenger
    {" ".join(floor)} - floor)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""


BENCHMARKS = ("ipc2023/miconic", "gp2024/miconic")

def header_arguments(header: dict[str, str]) -> dict[str, int] | None:
    """Sized arguments of an IPC 2023 file from its `;; passengers=.., floors=.., ...` header; the
    IPC base cases and the gp2024 files carry none."""
    if not {"passengers", "floors"} <= header.keys():
        return None
    return {name: int(header[name]) for name in ("passengers", "floors")}
