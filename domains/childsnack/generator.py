"""Childsnack instances as the IPC 2023 learning-track generator makes them.

`childsnack.py -c C -a A -t T -s S`: C children, C bread portions, C content portions, T trays,
S sandwich names (all `notexist`) and 3 tables. A random A children are allergic to gluten, the
others are not; a random A breads and a random A contents are gluten-free. Every child waits at a
uniform random table, every tray starts in the kitchen (a domain constant), the goal is that
every child is served.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, Free, SizeModel

children, trays, sandwiches = Argument("children", 1), Argument("trays", 1), Argument("sandwiches", 1)
SIZE_MODEL = SizeModel(
    [children, trays, sandwiches],
    objects=3 * children + trays + sandwiches + 3,  # children, breads, contents, trays, sandwiches, 3 tables
    constraints=[sandwiches >= children],
    free=[Free("allergic", 0, children)],
)
TABLES = 3


def generate(children: int, trays: int, sandwiches: int, allergic: int, seed: int = 42) -> str:
    """PDDL text of a random task: C >= 1 children, T >= 1 trays, S >= C sandwiches, 0 <= A <= C allergic."""
    if children < 1 or trays < 1 or sandwiches < children or not 0 <= allergic <= children:
        raise ValueError(f"childsnack needs children >= 1, trays >= 1, sandwiches >= children and "
                         f"0 <= allergic <= children, not {children=}, {trays=}, {sandwiches=}, {allergic=}")
    rng = random.Random(seed)
    child = [f"child{i}" for i in range(1, children + 1)]
    tray = [f"tray{i}" for i in range(1, trays + 1)]
    sandw = [f"sandw{i}" for i in range(1, sandwiches + 1)]
    bread = [f"bread{i}" for i in range(1, children + 1)]
    content = [f"content{i}" for i in range(1, children + 1)]
    table = [f"table{i}" for i in range(1, TABLES + 1)]

    shuffled = rng.sample(child, len(child))
    allergic_children = sorted(shuffled[:allergic], key=child.index)
    other_children = sorted(shuffled[allergic:], key=child.index)
    gluten_free_bread = sorted(rng.sample(bread, allergic), key=bread.index)
    gluten_free_content = sorted(rng.sample(content, allergic), key=content.index)
    waiting = [(c, rng.choice(table)) for c in child]

    init = [f"(at {t} kitchen)" for t in tray]
    init += [f"(at_kitchen_bread {b})" for b in bread]
    init += [f"(at_kitchen_content {c})" for c in content]
    init += [f"(allergic_gluten {c})" for c in allergic_children]
    init += [f"(not_allergic_gluten {c})" for c in other_children]
    init += [f"(no_gluten_bread {b})" for b in gluten_free_bread]
    init += [f"(no_gluten_content {c})" for c in gluten_free_content]
    init += [f"(waiting {c} {p})" for c, p in waiting]
    init += [f"(notexist {s})" for s in sandw]
    goal = [f"(served {c})" for c in child]
    nl = "\n    "
    return f""";; children={children}, allergic={allergic}, trays={trays}, sandwiches={sandwiches}, seed={seed}
(define (problem childsnack-{children}-{allergic}-{trays}-{sandwiches}-{seed})
  (:domain childsnack)
  (:objects
    {" ".join(child)} - child
    {" ".join(tray)} - tray
    {" ".join(sandw)} - sandwich
    {" ".join(bread)} - bread-portion
    {" ".join(content)} - content-portion
    {" ".join(table)} - place)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""


# the gp2024 files name their domain child-snack; stratpol reads them with this domain file
BENCHMARKS = ("ipc2023/childsnack", "gp2024/childsnack")


def header_arguments(header: dict[str, str]) -> dict[str, int] | None:
    """Sized arguments of an IPC 2023 file from its `;; children=.., allergic_children=.., trays=..,
    sandwiches=.., ...` header; the base cases carry none."""
    if not {"children", "trays", "sandwiches"} <= header.keys():
        return None
    return {name: int(header[name]) for name in ("children", "trays", "sandwiches")}
