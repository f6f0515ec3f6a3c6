"""States (and their applicable actions) as flat relational batches for the R-GNN.

A batch concatenates the nodes of its states: first each state's objects, then one node per
applicable action. Every relation holds one flat tensor of node ids (atoms x arity); there is no
padding. Relations: the domain's predicates and types, a goal copy of every predicate split into
"goal true" and "goal false" atoms (the goal atom does or does not hold in the state), and for
Q-values one relation per action schema, action(o_a, args), of arity k + 1. Nullary atoms are read
as unary atoms that hold for every object, as in the Q-value paper.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import torch

from stratpol.planning import Domain, GroundAction, Instance, State


def relation_schema(domain: Domain, actions: bool) -> dict[str, int]:
    """Relation name -> arity for the states of `domain` (with action relations when `actions`)."""
    relations = {name: max(arity, 1) for name, arity in sorted(domain.predicates.items())}
    relations.update({name: 1 for name in sorted(domain.types) if name not in relations})
    for name, arity in sorted(domain.predicates.items()):
        relations[goal_relation(name, True)] = max(arity, 1)
        relations[goal_relation(name, False)] = max(arity, 1)
    if actions:
        for action in domain._mimir.get_actions():
            relations[action_relation(action.get_name())] = action.get_arity() + 1
    return relations


def goal_relation(predicate: str, holds: bool) -> str:
    return f"{predicate}:goal-{'true' if holds else 'false'}"


def action_relation(schema: str) -> str:
    return f"action:{schema}"


@dataclass
class RelationalBatch:
    """Several states as one graph: node ids per relation, and which nodes are objects and actions."""

    node_count: int
    relations: dict[str, torch.Tensor]  # flat node ids, arity per atom
    object_nodes: torch.Tensor  # node id of every object
    object_graph: torch.Tensor  # the state (0..graphs-1) each object belongs to
    action_nodes: torch.Tensor  # node id of every action, state by state in the given order
    action_graph: torch.Tensor
    action_counts: list[int]
    graphs: int

    def to(self, device: torch.device) -> RelationalBatch:
        move = lambda t: t.to(device, non_blocking=True)
        return RelationalBatch(self.node_count, {k: move(v) for k, v in self.relations.items()},
                               move(self.object_nodes), move(self.object_graph), move(self.action_nodes),
                               move(self.action_graph), self.action_counts, self.graphs)


@dataclass
class _InstanceTables:
    """What does not change between states of one instance: object ids, static and goal atoms, and
    the local node ids of each argument list met so far."""

    object_index: dict[str, int]
    static: dict[str, np.ndarray]  # relation -> local node ids
    goal: list[tuple[str, np.ndarray, tuple[str, tuple[str, ...]]]]  # predicate, local node ids, atom
    arguments: dict[tuple[str, ...], np.ndarray] = field(default_factory=dict)
    every_object: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.every_object = np.arange(len(self.object_index), dtype=np.int64)

    def argument_ids(self, args: tuple[str, ...]) -> np.ndarray:
        ids = self.arguments.get(args)
        if ids is None:
            ids = self.arguments[args] = np.fromiter((self.object_index[a] for a in args), np.int64, len(args))
        return ids

    def local_ids(self, atom: tuple[str, tuple[str, ...]]) -> np.ndarray:
        """The local node ids an atom joins: its arguments', or every object's for a nullary atom (read
        as holding for every object, as in the Q-value paper)."""
        return self.argument_ids(atom[1]) if atom[1] else self.every_object


class StateEncoder:
    """Turns (state, actions) pairs of one domain into RelationalBatches; caches per-instance tables."""

    def __init__(self, domain: Domain, actions: bool) -> None:
        self.domain = domain
        self.actions = actions
        self.relations = relation_schema(domain, actions)
        self._tables: weakref.WeakKeyDictionary[Instance, _InstanceTables] = weakref.WeakKeyDictionary()

    def __getstate__(self) -> dict:
        return {"domain": self.domain, "actions": self.actions, "relations": self.relations}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._tables = weakref.WeakKeyDictionary()

    def encode(self, items: Sequence[tuple[State, Sequence[GroundAction]]]) -> RelationalBatch:
        """One batch of `items`; the actions of a pair are ignored unless the encoder has action relations."""
        ids: dict[str, list[np.ndarray]] = {name: [] for name in self.relations}
        object_nodes, object_graph, action_nodes, action_graph, action_counts = [], [], [], [], []
        offset = 0
        for graph, (state, actions) in enumerate(items):
            tables = self._instance_tables(state.instance)
            objects = len(tables.object_index)
            every_object = tables.every_object + offset
            for name, local in tables.static.items():
                ids[name].append(local + offset)
            atoms = state.atoms
            local: dict[str, list[np.ndarray]] = {}  # relation -> the local ids of its atoms, in order
            for atom in sorted(atoms):  # sets iterate by string hash: sorted, runs repeat exactly
                local.setdefault(atom[0], []).append(tables.local_ids(atom))
            for predicate, goal_ids, atom in tables.goal:
                local.setdefault(goal_relation(predicate, atom in atoms), []).append(goal_ids)
            for name, parts in local.items():  # one array a relation and state: atoms are many, relations few
                ids[name].append(np.concatenate(parts) + offset)
            object_nodes.append(every_object)
            object_graph.append(np.full(objects, graph, np.int64))
            count = len(actions) if self.actions else 0
            schemas: dict[str, tuple[list[int], list[np.ndarray]]] = {}  # relation -> action numbers, arguments
            for number, action in enumerate(actions[:count]):
                numbers, arguments = schemas.setdefault(action_relation(action.name), ([], []))
                numbers.append(number)
                arguments.append(tables.argument_ids(action.args))
            for name, (numbers, arguments) in schemas.items():  # rows (action node, its arguments)
                rows = np.empty((len(numbers), 1 + len(arguments[0])), np.int64)
                rows[:, 0] = np.asarray(numbers, np.int64) + (offset + objects)
                rows[:, 1:] = np.stack(arguments) + offset
                ids[name].append(rows.ravel())
            action_nodes.append(np.arange(offset + objects, offset + objects + count, dtype=np.int64))
            action_graph.append(np.full(count, graph, np.int64))
            action_counts.append(count)
            offset += objects + count
        tensor = lambda parts: torch.from_numpy(np.concatenate(parts) if parts else np.zeros(0, np.int64))
        return RelationalBatch(offset, {name: tensor(parts) for name, parts in ids.items() if parts},
                               tensor(object_nodes), tensor(object_graph), tensor(action_nodes),
                               tensor(action_graph), action_counts, len(items))

    def _instance_tables(self, instance: Instance) -> _InstanceTables:
        tables = self._tables.get(instance)
        if tables is None:
            names = (*self.domain.constants, *instance.objects)
            index = {name: number for number, name in enumerate(dict.fromkeys(names))}
            static: dict[str, list[int]] = {}
            for predicate, args in sorted(instance.static_atoms):
                static.setdefault(predicate, []).extend([index[a] for a in args] if args else range(len(index)))
            tables = _InstanceTables(index, {k: np.asarray(v, np.int64) for k, v in static.items()}, [])
            tables.goal = [(lit.atom[0], tables.local_ids(lit.atom), lit.atom) for lit in instance.goal if lit.positive]
            self._tables[instance] = tables
        return tables
