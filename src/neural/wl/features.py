"""WL features of states with wlplan on the instance learning graph (ILG).

The vocabulary (the colour table) is collected on training states and frozen; colours met later
that it lacks are dropped by wlplan's embedding, so they are counted here and reported.

wlplan's ILG builds nodes only from the atoms of the state it is given (the static atoms a
`wlplan.planning.Problem` holds are ignored in 2.1.0), so the static atoms of the instance, type
atoms included, are added to every state: without them Visitall has no grid and untyped
Logistics no object kinds. The goal is embedded as the state in which exactly the goal atoms
(and the static atoms) hold, as the transition-model paper's code does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import wlplan.data as wl_data
import wlplan.feature_generator as wl_features
import wlplan.planning as wl_planning

from stratpol.atomic import atomic_path
from stratpol.planning import Atom, Domain, Instance, State
from stratpol.planning.quiet import silenced_stdout

FEATURES_FILE = "wl-features.json"


@dataclass
class ColourCounts:
    """Node colours met while embedding, per WL iteration: in the vocabulary, or unseen (dropped)."""

    seen: list[int] = field(default_factory=list)
    unseen: list[int] = field(default_factory=list)

    def add(self, seen: Sequence[int], unseen: Sequence[int]) -> None:
        if not self.seen:
            self.seen, self.unseen = [0] * len(seen), [0] * len(unseen)
        self.seen = [a + b for a, b in zip(self.seen, seen)]
        self.unseen = [a + b for a, b in zip(self.unseen, unseen)]

    @property
    def total_unseen(self) -> int:
        return sum(self.unseen)

    def unseen_share(self, iteration: int = -1) -> float:
        """Share of the node colours of one iteration (default: the last) that were unseen."""
        if not self.seen:
            return 0.0
        total = self.seen[iteration] + self.unseen[iteration]
        return self.unseen[iteration] / total if total else 0.0


def wlplan_domain(domain: Domain) -> tuple[wl_planning.Domain, dict[str, wl_planning.Predicate]]:
    """The wlplan domain of our domain: its predicates, statics and types (as unary predicates) included.

    The predicates are sorted by their repr, the order wlplan writes them to its JSON: a feature
    generator reloaded from the JSON numbers predicates in that order, so any other order here
    makes a reloaded generator give different features.
    """
    arities = dict(domain.predicates)
    for name in domain.types:
        arities.setdefault(name, 1)
    predicates = {name: wl_planning.Predicate(name, arity) for name, arity in arities.items()}
    ordered = sorted(predicates.values(), key=repr)
    return wl_planning.Domain(domain.name, ordered, [], [], list(domain.constants)), predicates


class WLFeatures:
    """A frozen WL vocabulary for one domain, and the embedding of states, goals and successors."""

    def __init__(self, domain: Domain, generator: wl_features.Features, iterations: int) -> None:
        self.domain = domain
        self.iterations = iterations
        self._generator = generator
        self._wl_domain, self._predicates = wlplan_domain(domain)
        self._problem_of: dict[int, _BoundInstance] = {}
        self._current: int | None = None

    @classmethod
    def collect(cls, domain: Domain, states: Iterable[State], iterations: int = 2,
                goals: bool = False) -> WLFeatures:
        """Collect the vocabulary on `states` (training states, of any instances of `domain`).

        As in the paper's code, goals are not collected by default, so phi(g) loses colours even
        on a training instance; with `goals` the goal state of every training instance is added.
        """
        wl_domain, _ = wlplan_domain(domain)
        with silenced_stdout():
            generator = wl_features.init_feature_generator(
                "wl", wl_domain, graph_representation="ilg", iterations=iterations, pruning="none",
                multiset_hash=True)
        features = cls(domain, generator, iterations)
        by_instance: dict[int, tuple[Instance, list[State]]] = {}
        for state in states:
            by_instance.setdefault(id(state.instance), (state.instance, []))[1].append(state)
        datasets = []
        for instance, of_instance in by_instance.values():
            bound = features._bound(instance)
            wl_states = [bound.wl_state(s.atoms) for s in of_instance]
            if goals:
                wl_states.append(bound.wl_state(instance.goal_atoms))
            datasets.append(wl_data.ProblemDataset(bound.problem, wl_states))
        if not datasets:
            raise ValueError("no training states to collect WL colours from")
        with silenced_stdout():
            generator.collect(wl_data.DomainDataset(features._wl_domain, datasets))
        return features

    @classmethod
    def load(cls, folder: Path, domain: Domain) -> WLFeatures:
        """The features saved in `folder` by `save`, bound to `domain`."""
        path = Path(folder) / FEATURES_FILE
        with silenced_stdout():
            generator = wl_features.load_feature_generator(str(path), quiet=True)
        iterations = json.loads(path.read_text())["iterations"]
        return cls(domain, generator, iterations)

    def save(self, folder: Path) -> Path:
        path = Path(folder) / FEATURES_FILE
        with atomic_path(path) as temporary, silenced_stdout():
            self._generator.save(str(temporary))
        return path

    @property
    def dimension(self) -> int:
        return int(self._generator.get_n_features())

    def embed(self, states: Sequence[State], counts: ColourCounts | None = None) -> np.ndarray:
        """Embeddings [len(states), D] of states of one instance; unseen colours go into `counts`."""
        if not states:
            return np.zeros((0, self.dimension), dtype=np.float32)
        bound = self._activate(states[0].instance)
        return self._embed_atoms(bound, [s.atoms for s in states], counts)

    def embed_goal(self, instance: Instance, counts: ColourCounts | None = None) -> np.ndarray:
        """phi(g): the embedding of the state whose fluents are exactly the goal atoms."""
        bound = self._activate(instance)
        return self._embed_atoms(bound, [instance.goal_atoms], counts)[0]

    def _embed_atoms(self, bound: _BoundInstance, atom_sets: Sequence[Iterable[Atom]],
                     counts: ColourCounts | None) -> np.ndarray:
        generator = self._generator
        if counts is not None:
            seen, unseen = generator.get_seen_counts(), generator.get_unseen_counts()
        rows = [generator.embed(bound.wl_state(atoms)) for atoms in atom_sets]
        if counts is not None:
            counts.add([b - a for a, b in zip(seen, generator.get_seen_counts())],
                       [b - a for a, b in zip(unseen, generator.get_unseen_counts())])
        return np.asarray(rows, dtype=np.float32)

    def _bound(self, instance: Instance) -> _BoundInstance:
        key = id(instance)
        bound = self._problem_of.get(key)
        if bound is None or bound.instance is not instance:
            bound = _BoundInstance(instance, self._wl_domain, self._predicates)
            if len(self._problem_of) > 64:  # one run at a time: old instances are not coming back
                self._problem_of.clear()
                self._current = None
            self._problem_of[key] = bound
        return bound

    def _activate(self, instance: Instance) -> _BoundInstance:
        bound = self._bound(instance)
        if self._current != id(bound):
            self._generator.set_problem(bound.problem)
            self._current = id(bound)
        return bound


class _BoundInstance:
    """One instance in wlplan's terms: its problem, its static atoms, and a cache of its atoms."""

    def __init__(self, instance: Instance, wl_domain: wl_planning.Domain,
                 predicates: dict[str, wl_planning.Predicate]) -> None:
        self.instance = instance
        self._predicates = predicates
        self._atoms: dict[Atom, wl_planning.Atom] = {}
        objects = sorted({*instance.objects, *instance.domain.constants})
        goals = [self.atom(a) for a in sorted(instance.goal_atoms)]
        self.problem = wl_planning.Problem(wl_domain, objects, goals, [])
        self.statics = [self.atom(a) for a in sorted(instance.static_atoms) if a[0] in predicates]

    def atom(self, atom: Atom) -> wl_planning.Atom:
        known = self._atoms.get(atom)
        if known is None:
            known = self._atoms[atom] = wl_planning.Atom(self._predicates[atom[0]], list(atom[1]))
        return known

    def wl_state(self, atoms: Iterable[Atom]) -> wl_planning.State:
        # sorted: the order of the ILG's nodes decides the order in which `collect` numbers colours,
        # and a frozenset's order changes with Python's string hashing from one process to the next
        return wl_planning.State([*self.statics, *(self.atom(a) for a in sorted(atoms))])
