"""Spanner instances with exactly one nut (the gp2024 spanner-1nut training variant).

The IPC 2023 `spanner.py -s S -n 1 -l L` semantics: the man `bob` starts in the `shed`; one-way
links form the chain shed -> location1 -> ... -> locationL -> gate; every spanner lies at a
uniform random location among location1..locationL and is `useable` (the gp2024 / pddl-generators
spelling of the IPC `usable`); the single nut `nut1` is loose at the gate and must be tightened.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

spanners, locations = Argument("spanners", 1), Argument("locations", 1)
SIZE_MODEL = SizeModel([spanners, locations], objects=spanners + locations + 4)  # bob, nut1, shed, gate


def generate(spanners: int, locations: int, seed: int = 42) -> str:
    """PDDL text of a random one-nut task: S >= 1 spanners, L >= 1 locations."""
    if spanners < 1 or locations < 1:
        raise ValueError(f"spanner-1nut needs spanners >= 1 and locations >= 1, not {spanners=}, {locations=}")
    rng = random.Random(seed)
    spanner = [f"spanner{i}" for i in range(1, spanners + 1)]
    location = [f"location{i}" for i in range(1, locations + 1)]
    chain = ["shed", *location, "gate"]

    init = ["(at bob shed)"]
    for s in spanner:
        init += [f"(at {s} {rng.choice(location)})", f"(useable {s})"]
    init += ["(at nut1 gate)", "(loose nut1)"]
    init += [f"(link {a} {b})" for a, b in zip(chain, chain[1:])]
    nl = "\n    "
    return f""";; spanners={spanners}, nuts=1, locations={locations}, seed={seed}
(define (problem spanner-1nut-{spanners}-{locations}-{seed})
  (:domain spanner)
  (:objects
    bob - man
    {" ".join(spanner)} - spanner
    nut1 - nut
    shed {" ".join(location)} gate - location)
  (:init
    {nl.join(init)})
  (:goal (and
    (tightened nut1))))
"""


BENCHMARKS = ("gp2024/spanner-1nut",)
