"""Interchangeable objects: renamings of an instance's objects that leave it the same task.

Two objects are interchangeable when swapping their names changes neither the static atoms nor
the goal (hiking's cars, tpp's trucks); two blocks of objects are when swapping them member by
member does (hiking's couples, each with its two persons: `partners couple guy girl`). Every
permutation of the blocks of such a class maps the instance onto itself, so a state and its
renamings behave alike: same goal test, same features (description-logic features read
predicates, never problem objects), renamed successors. Verification can then explore one state
per class of renamings (`canonical_key`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable

from stratpol.planning.task import Atom, Instance, State

Fact = tuple[str, tuple[str, ...], bool]  # static atom or goal literal: predicate, arguments, polarity
Block = tuple[str, ...]  # objects that swap, member by member, with the other blocks of their class


def _renamed(facts: Iterable[Fact], swap: dict[str, str]) -> frozenset[Fact]:
    return frozenset((p, tuple(swap.get(a, a) for a in args), positive) for p, args, positive in facts)


class _Facts:
    """An instance's static atoms and goal literals, by the objects they mention and by predicate."""

    def __init__(self, instance: Instance) -> None:
        self.all = frozenset((p, args, True) for p, args in instance.static_atoms) | frozenset(
            (lit.atom[0], lit.atom[1], lit.positive) for lit in instance.goal)
        self.mentions: dict[str, list[Fact]] = {o: [] for o in instance.objects}
        self.of_predicate: dict[tuple[str, bool], list[Fact]] = defaultdict(list)
        for fact in sorted(self.all):
            self.of_predicate[fact[0], fact[2]].append(fact)
            for name in dict.fromkeys(fact[1]):
                if name in self.mentions:
                    self.mentions[name].append(fact)
        # a necessary condition for a swap, cheap to compare: the predicates, polarities and
        # multiplicities an object occurs with
        self.shape = {o: sorted((p, args.count(o), positive) for p, args, positive in found)
                      for o, found in self.mentions.items()}

    def forced_swap(self, a: str, b: str) -> list[tuple[str, str]] | None:
        """The swap of `a` and `b` with the swaps the facts force, as pairs (a, b) first, each
        pair's first member on `a`'s side; None where it is no symmetry. A fact whose renaming is
        missing forces a swap where exactly one fact agrees with its renaming on every object
        swapped so far: the objects where the two differ swap."""
        swap, pairs, sides = {a: b, b: a}, [(a, b)], {a: 0, b: 1}
        queue = [a, b]
        while queue:
            x = queue.pop(0)
            for fact in self.mentions[x]:
                predicate, args, positive = fact
                image = (predicate, tuple(swap.get(o, o) for o in args), positive)
                if image in self.all:
                    continue
                matches = [g for g in self.of_predicate[predicate, positive]
                           if all(g[1][i] == image[1][i] for i, o in enumerate(args) if o in swap)]
                if len(matches) != 1:
                    return None
                for o, p in zip(args, matches[0][1]):
                    if o in swap or o == p:
                        continue
                    if p in swap:
                        return None
                    swap[o], swap[p] = p, o
                    sides[o], sides[p] = sides[x], 1 - sides[x]
                    pairs.append((o, p) if sides[x] == 0 else (p, o))
                    queue += [o, p]
        moved = {fact for o in swap for fact in self.mentions[o]}
        return pairs if _renamed(moved, swap) == moved else None


def interchangeable_blocks(instance: Instance) -> tuple[tuple[Block, ...], ...]:
    """The classes (of two or more blocks, sorted) of blocks of problem objects any two of which
    swap, member by member, without changing the static atoms or the goal. A block is a single
    object where a swap of two objects alone is a symmetry, and the objects a swap forces along
    otherwise (`_Facts.forced_swap`). Each object is compared with the first block of each class
    found so far: its swaps with two blocks give the swap of those two."""
    facts = _Facts(instance)
    classes: list[list[Block]] = []
    placed: set[str] = set()  # the objects of the classes' blocks
    for name in instance.objects:
        if name in placed:
            continue
        for members in classes:
            first = members[0]
            if facts.shape[first[0]] != facts.shape[name]:
                continue
            pairs = facts.forced_swap(first[0], name)
            if pairs is None:
                continue
            image = dict(pairs)
            if len(members) > 1 and set(image) != set(first):
                continue  # not the members the class swaps
            growing = len(members) == 1  # the first swap decides the first block
            lead = tuple(image) if growing else first
            block = tuple(image[o] for o in lead)
            taken = (set(lead[1:] if growing else ()) | set(block)) & placed
            # an object a block takes along may lead a class of its own still alone: it is dropped
            alone = [c for c in classes if c is not members and len(c) == 1 and c[0][0] in taken]
            if taken != {c[0][0] for c in alone}:
                continue
            for dropped in alone:
                classes.remove(dropped)
            members[0] = lead
            members.append(block)
            placed.update(lead, block)
            break
        else:
            classes.append([(name,)])
            placed.add(name)
    return tuple(tuple(sorted(members)) for members in classes if len(members) > 1)


def interchangeable_objects(instance: Instance) -> tuple[tuple[str, ...], ...]:
    """The classes (names sorted) of single objects any two of which swap names without changing
    the static atoms or the goal: the classes of `interchangeable_blocks` with one-object blocks."""
    return tuple(tuple(block[0] for block in members)
                 for members in interchangeable_blocks(instance) if len(members[0]) == 1)


def canonical_key(instance: Instance) -> Callable[[State], Hashable] | None:
    """A function giving isomorphic states (one a renaming of the other by a permutation of the
    blocks of each of the instance's classes) often the same key, and only isomorphic states the
    same key: the fluent atoms of the state renamed so that each class's blocks come in the order
    of their atoms. None where the instance has no interchangeable objects."""
    classes = interchangeable_blocks(instance)
    if not classes:
        return None
    # each member's class, block and role, and how a block's atoms see it: class and role, not block
    role = {o: (k, j, r) for k, blocks in enumerate(classes) for j, block in enumerate(blocks)
            for r, o in enumerate(block)}
    masks = {o: f"#{k}.{r}" for o, (k, _, r) in role.items()}
    # verification meets a state from many parents (hiking: 9 times on average): each state's key
    # is made once, and states of one class share one key object
    known: dict[int, Hashable] = {}
    keys: dict[Hashable, Hashable] = {}

    def key(state: State) -> Hashable:
        found = known.get(state.index)
        if found is None:
            made = renamed(state)
            found = known[state.index] = keys.setdefault(made, made)
        return found

    def renamed(state: State) -> Hashable:
        atoms = state.atoms
        signature: dict[tuple[int, int], list] = {(k, j): [] for k, blocks in enumerate(classes)
                                                  for j in range(len(blocks))}
        for predicate, args in atoms:
            masked = tuple(masks.get(a, a) for a in args)
            for position, name in enumerate(args):
                if name in role:
                    k, j, r = role[name]
                    signature[k, j].append((predicate, position, r, masked))
        renaming: dict[str, str] = {}
        for k, blocks in enumerate(classes):
            ranked = sorted(range(len(blocks)), key=lambda j: (sorted(signature[k, j]), j))
            for block, rank in zip(blocks, ranked):
                renaming.update(zip(blocks[rank], block))
        return frozenset(_rename(atom, renaming) for atom in atoms)

    return key


def _rename(atom: Atom, renaming: dict[str, str]) -> Atom:
    predicate, args = atom
    return predicate, tuple(renaming.get(a, a) for a in args)
