"""Monotonicity of features over the good transitions, and GENEX's chains C_f.

Over a set of transitions, f is monotone if it is not both increased and decreased (Def. 3 on
the rules the transitions project to). f is monotone given g if, over the transitions that leave g
unchanged with g = 0 at the source, f moves and only in one direction, and likewise over those
that leave g unchanged with g > 0; an empty set of such transitions asks nothing (Def. 4, with
the published learner's reading in its m_pairs.py: a context where f never moves does not count
as one where f makes progress). A chain C_f = (f_0, ..., f) has f_0 monotone and each next
feature monotone given the one before; its cost is the sum of the members' costs, and GENEX
wants the cheapest one per feature (a shortest path in the "given" graph).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

INFINITE = np.iinfo(np.int64).max // 4


def _moves(changes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per feature, the bitsets (over transitions) where it goes up and where it goes down."""
    return np.packbits(changes.T > 0, axis=1), np.packbits(changes.T < 0, axis=1)


def monotone(changes: np.ndarray) -> np.ndarray:
    """Per feature: not both increased and decreased across the transitions (rows of `changes`)."""
    return ~((changes > 0).any(axis=0) & (changes < 0).any(axis=0))


@dataclass(frozen=True)
class MonotoneGiven:
    """The relation "f is monotone given g" over a pool, row g holding the features monotone
    given g. Features g that leave the same transitions unchanged with the same truth value
    share one row, so memory grows with the distinct contexts, not with the pool squared (a
    dense matrix of the published 262,509-feature pools would take 69 GB)."""

    rows: np.ndarray  # (contexts, ceil(features / 8)) uint8: bit f of row r packed by np.packbits
    row_of: np.ndarray  # (features,) index into rows

    def __len__(self) -> int:
        return len(self.row_of)

    def __getitem__(self, features: np.ndarray) -> np.ndarray:
        """given[features]: one bool row per feature g in `features` (f is never given itself)."""
        features = np.asarray(features)
        block = np.unpackbits(self.rows[self.row_of[features]], axis=1, count=len(self)).view(bool)
        block[np.arange(len(features)), features] = False
        return block

    def pairs(self) -> np.ndarray:
        """Every (g, f) with f monotone given g, as an (n, 2) array."""
        return np.argwhere(self[np.arange(len(self))])


def monotone_given(changes: np.ndarray, valuations: np.ndarray) -> MonotoneGiven:
    """given[g, f]: f is monotone given g over the transitions (f != g): in each non-empty
    context of g (g unchanged and 0, g unchanged and positive) f moves, in one direction only.

    `changes` is (transitions, features) in {-1, 0, 1}; `valuations` is the features'
    valuation at each transition's source. Features g whose two transition subsets coincide
    share one computation and one row.
    """
    count = changes.shape[1]
    up, down = _moves(changes)
    unchanged = changes == 0
    contexts: dict[tuple[bytes, bytes], int] = {}
    rows: list[np.ndarray] = []
    row_of = np.empty(count, dtype=np.int64)
    for g in range(count):
        zero = np.packbits(unchanged[:, g] & ~valuations[:, g])
        positive = np.packbits(unchanged[:, g] & valuations[:, g])
        key = (zero.tobytes(), positive.tobytes())
        if key not in contexts:
            ok = np.ones(count, dtype=bool)
            for context in (zero, positive):
                if not context.any():
                    continue
                goes_up = np.bitwise_and(up, context).any(axis=1)
                goes_down = np.bitwise_and(down, context).any(axis=1)
                ok &= goes_up ^ goes_down
            contexts[key] = len(rows)
            rows.append(np.packbits(ok))
        row_of[g] = contexts[key]
    return MonotoneGiven(np.array(rows, dtype=np.uint8).reshape(len(rows), (count + 7) // 8), row_of)


@dataclass
class Chains:
    """Cheapest chains: `cost[f]` (INFINITE when no chain reaches f) and the predecessor of f
    on its chain (-1 for a chain head)."""

    cost: np.ndarray
    predecessor: np.ndarray

    def chain(self, feature: int) -> list[int]:
        """C_f from its head to f."""
        members = [feature]
        while self.predecessor[members[-1]] >= 0:
            members.append(int(self.predecessor[members[-1]]))
        return members[::-1]


def cheapest_chains(costs: np.ndarray, is_monotone: np.ndarray, given: MonotoneGiven,
                    frozen: Chains | None = None, selected: np.ndarray | None = None) -> Chains:
    """Chain costs by relaxation: cost(f) = c(f) for monotone f, else min over g with f given g
    of cost(g) + c(f). Selected features cost 0 and keep the chains they were chosen with.
    Each round relaxes f from the features whose cost just changed, taking the cheapest one
    (then the lowest index) as f's predecessor."""
    count = len(costs)
    selected = np.zeros(count, dtype=bool) if selected is None else selected
    if (costs <= 0).any():
        raise ValueError("chain costs must be positive")
    cost = np.where(is_monotone, costs, INFINITE).astype(np.int64)
    predecessor = np.full(count, -1, dtype=np.int64)
    if frozen is not None:
        predecessor[selected] = frozen.predecessor[selected]
    cost[selected] = 0
    frontier = np.flatnonzero(cost < INFINITE)
    while len(frontier):
        best_cost, best_from = _cheapest_given(given, frontier, cost)
        candidate = np.where(best_cost < INFINITE, best_cost + costs, INFINITE)
        better = (candidate < cost) & ~selected
        cost[better] = candidate[better]
        predecessor[better] = best_from[better]
        frontier = np.flatnonzero(better)
    return Chains(cost, predecessor)


def _cheapest_given(given: MonotoneGiven, frontier: np.ndarray, cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per feature f, the cheapest g of `frontier` (then the lowest index) with f monotone given
    g: its cost (INFINITE if none) and g (-1). Features g of one context share a row of the
    relation, so only the cheapest g of each context is tried, cheapest first, and each f is
    taken by the first row that holds it (packed bitsets throughout). That row may hold g itself
    (when g changes on every transition), which the caller never takes: g through g costs more
    than g with positive costs."""
    count = len(given)
    order = np.lexsort((frontier, cost[frontier], given.row_of[frontier]))
    by_context = frontier[order]
    contexts = given.row_of[by_context]
    heads = by_context[np.flatnonzero(np.r_[True, contexts[1:] != contexts[:-1]])]
    heads = heads[np.lexsort((heads, cost[heads]))]
    best_cost = np.full(count, INFINITE, dtype=np.int64)
    best_from = np.full(count, -1, dtype=np.int64)
    open_features = np.packbits(np.ones(count, dtype=bool))
    for g in heads.tolist():
        taken = given.rows[given.row_of[g]] & open_features
        hit = np.flatnonzero(taken)  # bytes with a newly taken feature: unpack only those
        if not len(hit):
            continue
        bits = np.unpackbits(taken[hit]).reshape(-1, 8).view(bool)
        features = (hit[:, None] * 8 + np.arange(8))[bits]
        best_cost[features], best_from[features] = cost[g], g
        open_features ^= taken
        if not open_features.any():
            break
    return best_cost, best_from
