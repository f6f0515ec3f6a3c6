"""TPP (propositional) instances with the semantics of pddl-generators' `gen-TPP`.

Markets form a complete graph from which up to a uniform random number of edges (1..M(M-1)/2, when
M > 2) are removed, one random pair per try, each removal undone if it disconnects the markets.
Each depot is connected (both ways) to one uniform random market; trucks start at uniform random
depots. Every good is on sale at some markets: one random market sells every good, every other
market with probability 1/2, each a uniform quantity in 1..ceil(L / (M div 2)) (1..L when M <= 2),
capped so that a good's total stays at most L. The goal stores a uniform quantity in 1..total of
each good.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

goods, trucks, markets = Argument("goods", low=1), Argument("trucks", low=1), Argument("markets", low=1)
depots, max_level = Argument("depots", low=1), Argument("max_level", low=1)
SIZE_MODEL = SizeModel([goods, trucks, markets, depots, max_level],
                       objects=goods + trucks + markets + depots + max_level + 1)  # level0..levelL


def _connected(nodes: int, edges: set[tuple[int, int]]) -> bool:
    seen, stack = {0}, [0]
    while stack:
        i = stack.pop()
        for j in range(nodes):
            if j not in seen and (min(i, j), max(i, j)) in edges:
                seen.add(j)
                stack.append(j)
    return len(seen) == nodes


def generate(goods: int, trucks: int, markets: int, depots: int, max_level: int, seed: int = 0) -> str:
    """PDDL text of a TPP task; quantities are levels level0..level<max_level>."""
    if min(goods, trucks, markets, depots, max_level) < 1:
        raise ValueError(f"tpp needs at least one good, truck, market, depot and level above 0, not "
                         f"{goods=} {trucks=} {markets=} {depots=} {max_level=}")
    rng = random.Random(seed)
    roads = {(i, j) for i in range(markets) for j in range(i + 1, markets)}
    if markets > 2:
        for _ in range(rng.randint(1, markets * (markets - 1) // 2)):
            edge = tuple(sorted(rng.sample(range(markets), 2)))
            if edge in roads:
                roads.discard(edge)
                if not _connected(markets, roads):
                    roads.add(edge)
    depot_market = [rng.randrange(markets) for _ in range(depots)]

    most = -(-max_level // (markets // 2)) if markets > 2 else max_level
    always = rng.randrange(markets)
    on_sale = [[0] * goods for _ in range(markets)]
    total = [0] * goods
    for g in range(goods):
        for m in range(markets):
            if total[g] >= max_level:
                break
            if rng.random() < 0.5 or m == always:
                amount = min(rng.randint(1, most), max_level - total[g])
                on_sale[m][g] = amount
                total[g] += amount
    truck_at = [rng.randrange(depots) for _ in range(trucks)]
    target = [rng.randint(1, total[g]) for g in range(goods)]

    init = [f"(next level{i} level{i - 1})" for i in range(1, max_level + 1)]
    for g in range(1, goods + 1):
        init += [f"(ready-to-load goods{g} market{m} level0)" for m in range(1, markets + 1)]
    init += [f"(stored goods{g} level0)" for g in range(1, goods + 1)]
    init += [f"(loaded goods{g} truck{t} level0)" for g in range(1, goods + 1) for t in range(1, trucks + 1)]
    for i, j in sorted(roads):
        init += [f"(connected market{i + 1} market{j + 1})", f"(connected market{j + 1} market{i + 1})"]
    for d, m in enumerate(depot_market, 1):
        init += [f"(connected depot{d} market{m + 1})", f"(connected market{m + 1} depot{d})"]
    init += [f"(on-sale goods{g + 1} market{m + 1} level{on_sale[m][g]})" for m in range(markets) for g in range(goods)]
    init += [f"(at truck{t} depot{d + 1})" for t, d in enumerate(truck_at, 1)]
    goal = [f"(stored goods{g} level{target[g - 1]})" for g in range(1, goods + 1)]

    def names(prefix: str, count: int, first: int = 1) -> str:
        return " ".join(f"{prefix}{i}" for i in range(first, first + count))

    nl = "\n    "
    return f""";; goods={goods}, trucks={trucks}, markets={markets}, depots={depots}, max_level={max_level}, seed={seed}
(define (problem tpp-{goods}-{trucks}-{markets}-{depots}-{max_level}-{seed})
  (:domain tpp-propositional)
  (:objects
    {names("goods", goods)} - goods
    {names("truck", trucks)} - truck
    {names("market", markets)} - market
    {names("depot", depots)} - depot
    {names("level", max_level + 1, 0)} - level)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""
