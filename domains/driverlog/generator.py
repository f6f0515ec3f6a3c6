"""DriverLog instances with an exact object count (semantics of pddl-generators' `dlog`).

Junctions s0..s{J-1} carry the road network (`link`, both directions) and all starts and goals.
Each walking connection between two junctions i < j passes through its own path location
`p<i>-<j>` (`path` facts in both directions on both halves). The public generator draws the walking
graph at random, so its number of path locations is random; here it is the sized argument `paths`:
a uniform random spanning tree plus `paths - (J - 1)` further distinct junction pairs, uniform.
Roads, as the public generator: 4 * J random junction pairs plus links that make the road graph
connected. Drivers, trucks (empty) and packages start at uniform random junctions; goals, as
dlog: each driver and each truck gets a uniform random goal junction with probability 0.7, each
package with probability 0.95 (a goal may equal the start).
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

junctions, paths = Argument("junctions", low=2), Argument("paths", low=1)
drivers, trucks, packages = Argument("drivers", low=1), Argument("trucks", low=1), Argument("packages", low=1)
SIZE_MODEL = SizeModel(
    [junctions, paths, drivers, trucks, packages],
    objects=junctions + paths + drivers + trucks + packages,
    constraints=[paths >= junctions - 1, 2 * paths <= junctions * junctions - junctions],
)

DRIVER_GOAL, TRUCK_GOAL, PACKAGE_GOAL = 0.7, 0.7, 0.95


def _spanning_tree(nodes: int, rng: random.Random) -> set[tuple[int, int]]:
    """Edges (i < j) of a random tree: each node in a random order joins a random earlier one."""
    order = list(range(nodes))
    rng.shuffle(order)
    return {tuple(sorted((order[k], order[rng.randrange(k)]))) for k in range(1, nodes)}


def generate(junctions: int, paths: int, drivers: int, trucks: int, packages: int, seed: int = 0) -> str:
    """PDDL text of a DriverLog task with `paths` walking connections (path locations)."""
    if not (junctions >= 2 and junctions - 1 <= paths <= junctions * (junctions - 1) // 2
            and drivers >= 1 and trucks >= 1 and packages >= 1):
        raise ValueError(f"driverlog needs junctions >= 2, junctions - 1 <= paths <= junctions * "
                         f"(junctions - 1) / 2 and at least one driver, truck and package, not "
                         f"{junctions=} {paths=} {drivers=} {trucks=} {packages=}")
    rng = random.Random(seed)
    walk = _spanning_tree(junctions, rng)
    others = [(i, j) for i in range(junctions) for j in range(i + 1, junctions) if (i, j) not in walk]
    walk |= set(rng.sample(others, paths - len(walk)))
    road = _spanning_tree(junctions, rng)
    for _ in range(4 * junctions):
        i, j = rng.randrange(junctions), rng.randrange(junctions)
        if i != j:
            road.add((min(i, j), max(i, j)))

    def locate(count: int, goal: float) -> list[tuple[int, int | None]]:
        return [(rng.randrange(junctions), rng.randrange(junctions) if rng.random() < goal else None)
                for _ in range(count)]

    driver, truck, package = locate(drivers, DRIVER_GOAL), locate(trucks, TRUCK_GOAL), locate(packages, PACKAGE_GOAL)
    init = []
    for name, things in (("driver", driver), ("truck", truck), ("package", package)):
        for k, (start, _) in enumerate(things, 1):
            init.append(f"(at {name}{k} s{start})")
            if name == "truck":
                init.append(f"(empty truck{k})")
    for i, j in sorted(walk):
        p = f"p{i}-{j}"
        init += [f"(path s{i} {p})", f"(path {p} s{i})", f"(path s{j} {p})", f"(path {p} s{j})"]
    for i, j in sorted(road):
        init += [f"(link s{i} s{j})", f"(link s{j} s{i})"]
    goal = [f"(at {name}{k} s{target})"
            for name, things in (("driver", driver), ("truck", truck), ("package", package))
            for k, (_, target) in enumerate(things, 1) if target is not None]

    def names(prefix: str, count: int) -> str:
        return " ".join(f"{prefix}{k}" for k in range(1, count + 1))

    locations = " ".join([f"s{i}" for i in range(junctions)] + [f"p{i}-{j}" for i, j in sorted(walk)])
    nl = "\n    "
    header = (f";; junctions={junctions}, paths={paths}, drivers={drivers}, trucks={trucks}, "
              f"packages={packages}, seed={seed}")
    return f"""{header}
(define (problem dlog-{junctions}-{paths}-{drivers}-{trucks}-{packages}-{seed})
  (:domain driverlog)
  (:objects
    {names("driver", drivers)} - driver
    {names("truck", trucks)} - truck
    {names("package", packages)} - obj
    {locations} - location)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""
