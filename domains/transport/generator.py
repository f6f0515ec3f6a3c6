"""Transport instances as the IPC 2023 learning-track generator makes them.

`transport.py -v V -p P -l L -m M --seed S`: vehicles v1..vV, packages p1..pP, locations l1..lL,
sizes c0..cM with (capacity-predecessor c<i> c<i+1>). Each vehicle gets a capacity drawn uniformly
from 1..M and a random location, each package a random origin and a random goal location other than
its origin. The roads form a random connected undirected graph: a random spanning tree (nodes in
random order, each joined to a random earlier node) plus extra edges drawn without replacement, the
total number of edges uniform in [L-1, L(L-1)/2]. Roads are written in both directions, sorted.
"""

from __future__ import annotations

import random

from stratpol.generation.graphs import random_connected_graph
from stratpol.generation.size_model import Argument, SizeModel

vehicles = Argument("vehicles", low=1)
packages = Argument("packages", low=1)
locations = Argument("locations", low=2)
max_capacity = Argument("max_capacity", low=1)
SIZE_MODEL = SizeModel(
    [vehicles, packages, locations, max_capacity],
    objects=vehicles + packages + locations + max_capacity + 1,  # sizes c0..cM
)


def generate(vehicles: int, packages: int, locations: int, max_capacity: int, seed: int = 42) -> str:
    """PDDL text of a random transport instance (see the module docstring)."""
    if vehicles < 1 or packages < 1 or locations < 2 or max_capacity < 1:
        raise ValueError("transport needs vehicles >= 1, packages >= 1, locations >= 2, max_capacity >= 1, "
                         f"not {vehicles}, {packages}, {locations}, {max_capacity}")
    rng = random.Random(seed)
    capacity = [rng.randint(1, max_capacity) for _ in range(vehicles)]
    origin = [rng.randint(1, locations) for _ in range(packages)]
    vehicle_at = [rng.randint(1, locations) for _ in range(vehicles)]
    roads = sorted(set().union(*random_connected_graph(locations, rng)))
    goal = [rng.choice([l for l in range(1, locations + 1) if l != o]) for o in origin]
    init = [f"(capacity v{i} c{c})" for i, c in enumerate(capacity, start=1)]
    init += [f"(capacity-predecessor c{i} c{i + 1})" for i in range(max_capacity)]
    init += [f"(at p{i} l{o})" for i, o in enumerate(origin, start=1)]
    init += [f"(at v{i} l{l})" for i, l in enumerate(vehicle_at, start=1)]
    init += [f"(road l{a} l{b})" for a, b in sorted(roads + [(b, a) for a, b in roads])]
    nl = "\n    "
    return f""";; vehicles={vehicles}, packages={packages}, locations={locations}, max_capacity={max_capacity}, seed={seed}
(define (problem transport-{vehicles}-{packages}-{locations}-{max_capacity}-{seed})
  (:domain transport)
  (:objects
    {" ".join(f"v{i}" for i in range(1, vehicles + 1))} - vehicle
    {" ".join(f"p{i}" for i in range(1, packages + 1))} - package
    {" ".join(f"l{i}" for i in range(1, locations + 1))} - location
    {" ".join(f"c{i}" for i in range(max_capacity + 1))} - size)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(f"(at p{i} l{g})" for i, g in enumerate(goal, start=1))})))
"""


BENCHMARKS = ("ipc2023/transport",)


def header_arguments(header: dict[str, str]) -> dict[str, int] | None:
    """Sized arguments of an IPC 2023 file from its `;; vehicles=..., max_capacity=...` header."""
    names = ("vehicles", "packages", "locations", "max_capacity")
    return {k: int(header[k]) for k in names} if all(k in header for k in names) else None
