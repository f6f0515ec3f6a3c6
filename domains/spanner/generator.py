"""Spanner instances as the IPC 2023 learning-track generator makes them.

`spanner.py -s S -n N -l L`: the man `bob` starts in the `shed`; one-way links form the chain
shed -> location1 -> ... -> locationL -> gate; every spanner lies at a uniform random location
among location1..locationL and is usable; every nut is loose at the gate; the goal is that every
nut is tightened. A spanner is used up by one nut, so N <= S keeps the task solvable.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

spanners, nuts, locations = Argument("spanners", 1), Argument("nuts", 1), Argument("locations", 1)
SIZE_MODEL = SizeModel(
    [spanners, nuts, locations],
    objects=spanners + nuts + locations + 3,  # bob, shed, gate
    constraints=[nuts <= spanners],
)


def generate(spanners: int, nuts: int, locations: int, seed: int = 42) -> str:
    """PDDL text of a random task: S >= 1 spanners, 1 <= N <= S nuts, L >= 1 locations."""
    if spanners < 1 or not 1 <= nuts <= spanners or locations < 1:
        raise ValueError(f"spanner needs spanners >= 1, 1 <= nuts <= spanners and locations >= 1, "
                         f"not {spanners=}, {nuts=}, {locations=}")
    rng = random.Random(seed)
    spanner = [f"spanner{i}" for i in range(1, spanners + 1)]
    nut = [f"nut{i}" for i in range(1, nuts + 1)]
    location = [f"location{i}" for i in range(1, locations + 1)]
    chain = ["shed", *location, "gate"]

    init = ["(at bob shed)"]
    for s in spanner:
        init += [f"(at {s} {rng.choice(location)})", f"(usable {s})"]
    for n in nut:
        init += [f"(at {n} gate)", f"(loose {n})"]
    init += [f"(link {a} {b})" for a, b in zip(chain, chain[1:])]
    goal = [f"(tightened {n})" for n in nut]
    nl = "\n    "
    return f""";; spanners={spanners}, nuts={nuts}, locations={locations}, seed={seed}
(define (problem spanner-{spanners}-{nuts}-{locations}-{seed})
  (:domain spanner)
  (:objects
    bob - man
    {" ".join(spanner)} - spanner
    {" ".join(nut)} - nut
    shed {" ".join(location)} gate - location)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""


BENCHMARKS = ("ipc2023/spanner",)


def header_arguments(header: dict[str, str]) -> dict[str, int] | None:
    """Sized arguments of an IPC 2023 file from its `;; spanners=.., nuts=.., locations=.., ...`
    header; the base cases carry none."""
    if not {"spanners", "nuts", "locations"} <= header.keys():
        return None
    return {name: int(header[name]) for name in ("spanners", "nuts", "locations")}
