"""Depots instances with an exact object count (semantics of pddl-generators' `depots`).

Places are depots `depot0..` and distributors `distributor0..`; in the STRIPS domain the two kinds
behave alike, so the number of places is the sized argument and the split between them is free.
Pallets and hoists are sized arguments with at least one per place (the public generator silently
raises them to that): pallet i and hoist i stand at place i for the first `places` of each, the
others at uniform random places. Trucks stand at uniform random places. Each crate in turn goes on
top of a uniform random pallet's stack. Goal, as the public generator: 2 * crates draws of a
uniform random crate; a crate without a goal yet gets a uniform random goal pallet and is stacked
on that pallet's goal tower. Crates left without a goal are unconstrained.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, Free, SizeModel

places, trucks = Argument("places", low=2), Argument("trucks", low=1)
pallets, hoists, crates = Argument("pallets", low=2), Argument("hoists", low=2), Argument("crates", low=1)
SIZE_MODEL = SizeModel(
    [places, trucks, pallets, hoists, crates],
    objects=places + trucks + pallets + hoists + crates,
    constraints=[pallets >= places, hoists >= places],
    free=[Free("depots", 1, places - 1)],
)


def generate(places: int, trucks: int, pallets: int, hoists: int, crates: int, depots: int,
             seed: int = 0) -> str:
    """PDDL text of a depots task; `depots` of the `places` are depots, the rest distributors."""
    if not (places >= 2 and 1 <= depots < places and trucks >= 1 and crates >= 1
            and pallets >= places and hoists >= places):
        raise ValueError(f"depot needs places >= 2, 1 <= depots < places, trucks, crates >= 1 and "
                         f"pallets, hoists >= places, not {places=} {depots=} {trucks=} "
                         f"{pallets=} {hoists=} {crates=}")
    rng = random.Random(seed)
    place = [f"depot{i}" for i in range(depots)] + [f"distributor{i}" for i in range(places - depots)]
    truck_at = [rng.randrange(places) for _ in range(trucks)]
    hoist_at = [i if i < places else rng.randrange(places) for i in range(hoists)]
    pallet_at = [i if i < places else rng.randrange(places) for i in range(pallets)]
    top = [f"pallet{i}" for i in range(pallets)]  # the clear surface of each pallet's stack
    crate_on, crate_at = [], []
    for c in range(crates):
        p = rng.randrange(pallets)
        crate_on.append(top[p])
        crate_at.append(pallet_at[p])
        top[p] = f"crate{c}"
    goal_top = [f"pallet{i}" for i in range(pallets)]
    goal_on: dict[int, str] = {}
    for _ in range(2 * crates):
        c = rng.randrange(crates)
        if c in goal_on:
            continue
        p = rng.randrange(pallets)
        goal_on[c] = goal_top[p]
        goal_top[p] = f"crate{c}"

    init = []
    for i in range(pallets):
        init += [f"(at pallet{i} {place[pallet_at[i]]})", f"(clear {top[i]})"]
    init += [f"(at truck{i} {place[truck_at[i]]})" for i in range(trucks)]
    for i in range(hoists):
        init += [f"(at hoist{i} {place[hoist_at[i]]})", f"(available hoist{i})"]
    for c in range(crates):
        init += [f"(at crate{c} {place[crate_at[c]]})", f"(on crate{c} {crate_on[c]})"]
    goal = [f"(on crate{c} {goal_on[c]})" for c in sorted(goal_on)]

    def names(prefix: str, count: int) -> str:
        return " ".join(f"{prefix}{i}" for i in range(count))

    nl = "\n    "
    header = (f";; places={places}, depots={depots}, trucks={trucks}, pallets={pallets}, hoists={hoists}, "
              f"crates={crates}, seed={seed}")
    return f"""{header}
(define (problem depot-{depots}-{places - depots}-{trucks}-{pallets}-{hoists}-{crates}-{seed})
  (:domain depots)
  (:objects
    {names("depot", depots)} - depot
    {names("distributor", places - depots)} - distributor
    {names("truck", trucks)} - truck
    {names("pallet", pallets)} - pallet
    {names("crate", crates)} - crate
    {names("hoist", hoists)} - hoist)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""
