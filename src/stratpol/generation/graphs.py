"""Random connected graphs for the generators (roads, waypoints)."""

from __future__ import annotations

import random


def random_connected_graph(nodes: int, rng: random.Random) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """A random connected undirected graph on 1..nodes as (spanning tree edges, other edges),
    each edge (i, j) with i < j: a random tree, then a uniform number of further distinct edges."""
    order = list(range(1, nodes + 1))
    rng.shuffle(order)
    tree = set()
    for k, node in enumerate(order[1:], start=1):
        other = rng.choice(order[:k])
        tree.add((min(node, other), max(node, other)))
    total = rng.randint(nodes - 1, nodes * (nodes - 1) // 2)
    rest = [(i, j) for i in range(1, nodes + 1) for j in range(i + 1, nodes + 1) if (i, j) not in tree]
    rng.shuffle(rest)
    return sorted(tree), sorted(rest[:total - (nodes - 1)])
