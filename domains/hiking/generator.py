"""Hiking (IPC 2014) instances as the gp2024 hiking files: couples walk a line of places.

Every person, car and tent starts at place0, each couple with its own tent, up or down with
probability 1/2; the goal is every couple having walked to the last place. One couple with one car
cannot get past the second place (the car that brings the tent's driver back to the partner stays
behind), so those inputs are not admitted.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

couples, cars, places = Argument("couples", low=1), Argument("cars", low=1), Argument("places", low=2)
SIZE_MODEL = SizeModel(
    [couples, cars, places], objects=4 * couples + cars + places,  # a tent and two persons per couple
    # one couple with one car reaches at most the second place: couples + cars >= 3 or places = 2
    constraints=[(couples + cars - 2) * places >= places - 2],
)
BENCHMARKS = ("gp2024/hiking",)


def generate(couples: int, cars: int, places: int, seed: int = 0) -> str:
    """PDDL text of a task with `couples` couples, `cars` cars and `places` places (at least 2)."""
    if couples < 1 or cars < 1 or places < 2 or (couples == 1 and cars == 1 and places > 2):
        raise ValueError(f"hiking needs a couple, a car and 2 places, and one couple with one car reaches only "
                         f"2 places, not {couples=} {cars=} {places=}")
    rng = random.Random(seed)
    init = []
    for i in range(couples):
        init += [f"(partners couple{i} guy{i} girl{i})", f"(at_person guy{i} place0)", f"(at_person girl{i} place0)",
                 f"(walked couple{i} place0)", f"(at_tent tent{i} place0)", f"({rng.choice(('up', 'down'))} tent{i})"]
    init += [f"(at_car car{j} place0)" for j in range(cars)]
    init += [f"(next place{k} place{k + 1})" for k in range(places - 1)]
    objects = {"car": [f"car{j}" for j in range(cars)], "tent": [f"tent{i}" for i in range(couples)],
               "couple": [f"couple{i}" for i in range(couples)], "place": [f"place{k}" for k in range(places)],
               "person": [f"{who}{i}" for i in range(couples) for who in ("guy", "girl")]}
    lines = "\n".join(f" {' '.join(names)} - {kind}" for kind, names in objects.items())
    goal = "\n".join(f"(walked couple{i} place{places - 1})" for i in range(couples))
    return (f";; couples={couples}, cars={cars}, places={places}, seed={seed}\n"
            f"(define (problem Hiking-{couples}-{cars}-{places})\n(:domain hiking)\n(:objects\n{lines}\n)\n"
            f"(:init\n" + "\n".join(init) + f"\n)\n(:goal\n(and\n{goal}\n)\n)\n)\n")
