"""Instances that are the same task up to the names of their objects.

Public training sets hold many such copies (gp2024's barman-1cocktail: 270 files, 17 tasks; hiking:
810 files, 81 tasks), drawn by generators whose random choices often coincide on small sizes. A
policy of description-logic features reads predicates and the domain's constants, never problem
objects, so it does on a renamed copy what it does on the original: verifying one instance of a
class verifies all of them.

An instance is a labelled graph: a node per object (a domain constant keeps its name as label), a
node per static atom, initial atom and goal literal labelled by its kind and predicate, and an
edge from a fact to each of its arguments labelled by the argument's position. Two instances are
renamings of each other exactly when their graphs are isomorphic under the labels; a
Weisfeiler-Leman hash groups the candidates and VF2 (networkx) decides.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import networkx as nx

from stratpol.planning.task import Instance
from stratpol.progress import finish_status, report_status


def instance_graph(instance: Instance) -> nx.Graph:
    """The labelled graph of `instance` (see the module's docstring)."""
    constants = set(instance.domain.constants)
    graph = nx.Graph()
    for name in instance.objects:
        graph.add_node(("object", name), label="constant " + name if name in constants else "object")
    facts = [("static", atom) for atom in instance.static_atoms]
    facts += [("initial", atom) for atom in instance.initial_state.atoms]
    facts += [("goal" if literal.positive else "goal not", literal.atom) for literal in instance.goal]
    for number, (kind, (predicate, arguments)) in enumerate(facts):
        graph.add_node(("fact", number), label=f"{kind} {predicate}")
        positions: dict[str, list[str]] = {}  # an atom may name one object twice: one edge, both positions
        for position, name in enumerate(arguments):
            positions.setdefault(name, []).append(str(position))
        for name, at in positions.items():
            if ("object", name) not in graph:  # a domain constant that is not among the problem's objects
                graph.add_node(("object", name), label="constant " + name)
            graph.add_edge(("fact", number), ("object", name), label=",".join(at))
    return graph


def first_renamings(instances: Sequence[Instance],
                    progress: Callable[[str], None] = lambda message: None) -> list[int]:
    """For each instance, the index of the first instance of `instances` it is a renaming of
    (its own index where no earlier one is). `progress` hears how many are placed."""
    same_label = lambda a, b: a["label"] == b["label"]  # noqa: E731
    firsts: dict[str, list[int]] = {}  # WL hash -> the first instance of each class with that hash
    graphs, result = [], []
    stage = "renamed instances"
    try:
        for number, instance in enumerate(instances):
            graph = instance_graph(instance)
            graphs.append(graph)
            key = nx.weisfeiler_lehman_graph_hash(graph, node_attr="label", edge_attr="label", iterations=3)
            candidates = firsts.setdefault(key, [])
            # VF2 compares the node counts and degree sequences before it searches
            match = next((first for first in candidates
                          if nx.is_isomorphic(graphs[first], graph, node_match=same_label, edge_match=same_label)),
                         None)
            if match is None:
                candidates.append(number)
                match = number
            result.append(match)
            report_status(progress, stage, number + 1, len(instances))
    finally:
        finish_status(progress, stage)
    return result
