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
    share one row. Over a context, the features moving up are the union of those moving up on
    each of its transitions; the unions are read from tables of every subset of 8 transitions
    and combined on 64-bit words, so a row costs a few word operations per feature / 64.
    """
    count = changes.shape[1]
    if count == 0:
        return MonotoneGiven(np.zeros((0, 0), dtype=np.uint8), np.zeros(0, dtype=np.int64))
    chunks = max(1, -(-changes.shape[0] // _CHUNK))
    up, down = _subset_unions(changes > 0, chunks), _subset_unions(changes < 0, chunks)
    unchanged = changes == 0
    codes = np.concatenate([_chunk_codes(unchanged & ~valuations, chunks),
                            _chunk_codes(unchanged & valuations, chunks)], axis=1)
    contexts, row_of = np.unique(codes, axis=0, return_inverse=True)
    every = _packed_words(np.ones((1, count), dtype=bool))[0]
    rows = np.empty((len(contexts), len(every)), dtype=np.uint64)
    for start in range(0, len(contexts), _BATCH):
        batch = contexts[start:start + _BATCH].astype(np.intp)
        zero = _moves_one_way(up, down, batch[:, :chunks], every)
        positive = _moves_one_way(up, down, batch[:, chunks:], every)
        np.bitwise_and(zero, positive, out=rows[start:start + _BATCH])
    packed = rows.view(np.uint8)[:, :(count + 7) // 8]
    return MonotoneGiven(np.ascontiguousarray(packed), row_of.reshape(-1).astype(np.int64))


_CHUNK = 8  # transitions per lookup table: 256 unions each (up and down tables: 2 x 256 x features / 8 bytes
#            per 8 transitions, about 1 GB for 500 transitions over 260,000 features)
_BATCH = 64  # contexts per block of rows: a block stays in the cache


def _packed_words(mask: np.ndarray) -> np.ndarray:
    """(n, features) bool -> (n, words) uint64 holding np.packbits's bytes (bit f of byte f // 8,
    most significant first), zero-padded: bitwise operations on the words act on those bytes."""
    packed = np.packbits(mask, axis=1)
    words = np.zeros((len(mask), -(-packed.shape[1] // 8) * 8), dtype=np.uint8)
    words[:, :packed.shape[1]] = packed
    return words.view(np.uint64)


def _subset_unions(moves: np.ndarray, chunks: int) -> np.ndarray:
    """unions[k, s]: the features that move (per `moves`, transitions x features) on some
    transition 8k + i with bit i of s set, as packed words."""
    per_transition = _packed_words(moves)
    unions = np.zeros((chunks, 1 << _CHUNK, per_transition.shape[1]), dtype=np.uint64)
    for k in range(chunks):
        for subset in range(1, 1 << _CHUNK):
            lowest = subset & -subset
            transition = k * _CHUNK + lowest.bit_length() - 1
            unions[k, subset] = unions[k, subset ^ lowest]
            if transition < len(per_transition):
                unions[k, subset] |= per_transition[transition]
    return unions


def _chunk_codes(context: np.ndarray, chunks: int) -> np.ndarray:
    """(transitions, features) bool -> (features, chunks) uint8: per feature, the subset of
    each chunk of 8 transitions in its context (transition 8k + i is bit i of code k)."""
    padded = np.zeros((chunks * _CHUNK, context.shape[1]), dtype=bool)
    padded[:len(context)] = context
    return np.packbits(padded.T.reshape(-1, chunks, _CHUNK), axis=2, bitorder="little")[:, :, 0]


def _moves_one_way(up: np.ndarray, down: np.ndarray, codes: np.ndarray, every: np.ndarray) -> np.ndarray:
    """Per context of `codes` (contexts x chunks): the features that move over it in exactly one
    direction; every feature when the context is empty (it asks nothing)."""
    goes_up, goes_down = up[0][codes[:, 0]], down[0][codes[:, 0]]
    for k in range(1, codes.shape[1]):
        goes_up |= up[k][codes[:, k]]
        goes_down |= down[k][codes[:, k]]
    goes_up ^= goes_down
    goes_up[~codes.any(axis=1)] = every
    return goes_up


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

    def hits(self, bits: np.ndarray) -> np.ndarray:
        """Per feature f, the union of `bits` (one packed row per feature) over the members of
        C_f; rows of features no chain reaches are their own."""
        union = bits.copy()
        linked = (self.cost < INFINITE) & (self.predecessor >= 0)
        depth = np.zeros(len(self.cost), dtype=np.int64)
        while True:  # a member's depth is one more than its predecessor's; chains are short
            deeper = np.where(linked, depth[self.predecessor] + 1, 0)
            if np.array_equal(deeper, depth):
                break
            depth = deeper
        for level in range(1, int(depth.max(initial=0)) + 1):
            members = np.flatnonzero(depth == level)
            union[members] |= union[self.predecessor[members]]
        return union


def cheapest_chains(costs: np.ndarray, is_monotone: np.ndarray, given: MonotoneGiven,
                    frozen: Chains | None = None, selected: np.ndarray | None = None) -> Chains:
    """Chain costs by relaxation: cost(f) = c(f) for monotone f, else min over g with f given g
    of cost(g) + c(f). Selected features cost 0 and keep the chains they were chosen with.
    Each round relaxes f from the features whose cost just changed, taking the cheapest one
    (then the lowest index) as f's predecessor. `frozen` are the chains before the latest
    selection (`selected` holds the earlier ones too): a selection only lowers costs, so the
    rounds start from those chains and from the newly selected features."""
    count = len(costs)
    selected = np.zeros(count, dtype=bool) if selected is None else selected
    if (costs <= 0).any():
        raise ValueError("chain costs must be positive")
    if frozen is None:
        cost = np.where(is_monotone, costs, INFINITE).astype(np.int64)
        predecessor = np.full(count, -1, dtype=np.int64)
        cost[selected] = 0
        frontier = np.flatnonzero(cost < INFINITE)
    else:
        cost, predecessor = frozen.cost.copy(), frozen.predecessor.copy()
        frontier = np.flatnonzero(selected & (cost > 0))
        cost[selected] = 0
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
