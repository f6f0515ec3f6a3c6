"""Interchangeable objects: renamings of an instance's objects that leave it the same task.

Two objects are interchangeable when swapping their names changes neither the static atoms nor
the goal (hiking's cars, tpp's trucks). Every permutation within such classes maps the
instance onto itself, so a state and its renamings behave alike: same goal test, same features
(description-logic features read predicates, never problem objects), renamed successors.
Verification can then explore one state per class of renamings (`canonical_key`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

from stratpol.planning.task import Atom, Instance, State

Fact = tuple[str, tuple[str, ...], bool]  # static atom or goal literal: predicate, arguments, polarity


def _renamed(facts: Iterable[Fact], swap: dict[str, str]) -> frozenset[Fact]:
    return frozenset((p, tuple(swap.get(a, a) for a in args), positive) for p, args, positive in facts)


def interchangeable_objects(instance: Instance) -> tuple[tuple[str, ...], ...]:
    """The classes (of two or more objects, names sorted) of problem objects any two of which
    swap names without changing the static atoms or the goal. Swapping is an equivalence, so
    each object is compared with one member of each class found so far."""
    facts = frozenset((p, args, True) for p, args in instance.static_atoms) | frozenset(
        (lit.atom[0], lit.atom[1], lit.positive) for lit in instance.goal)
    mentions: dict[str, list[Fact]] = {o: [] for o in instance.objects}
    for fact in facts:
        for name in set(fact[1]):
            if name in mentions:
                mentions[name].append(fact)
    # a necessary condition, cheap to compare: the predicates, polarities and multiplicities it occurs with
    shape = {o: sorted((p, args.count(o), positive) for p, args, positive in found) for o, found in mentions.items()}
    classes: list[list[str]] = []
    for name in instance.objects:
        for members in classes:
            other = members[0]
            if shape[other] != shape[name]:
                continue
            swap = {name: other, other: name}
            if _renamed(mentions[name] + mentions[other], swap) == frozenset(mentions[name] + mentions[other]):
                members.append(name)
                break
        else:
            classes.append([name])
    return tuple(tuple(sorted(members)) for members in classes if len(members) > 1)


def canonical_key(instance: Instance) -> Callable[[State], Hashable] | None:
    """A function giving isomorphic states (one a renaming of the other within the instance's
    interchangeable classes) often the same key, and only isomorphic states the same key: the
    fluent atoms of the state renamed so that each class's members come in the order of their
    atoms. None where the instance has no interchangeable objects."""
    classes = interchangeable_objects(instance)
    if not classes:
        return None
    member_class = {o: i for i, members in enumerate(classes) for o in members}
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
        signature: dict[str, list] = {o: [] for o in member_class}
        for predicate, args in atoms:
            masked = tuple(f"#{member_class[a]}" if a in member_class else a for a in args)
            for position, name in enumerate(args):
                if name in signature:
                    signature[name].append((predicate, position, masked))
        renaming: dict[str, str] = {}
        for members in classes:
            ranked = sorted(members, key=lambda o: (sorted(signature[o]), o))
            renaming.update(zip(ranked, members))
        return frozenset(_rename(atom, renaming) for atom in atoms)

    return key


def _rename(atom: Atom, renaming: dict[str, str]) -> Atom:
    predicate, args = atom
    return predicate, tuple(renaming.get(a, a) for a in args)
