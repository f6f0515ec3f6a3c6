"""Write a PDDL problem whose initial state is a given state (for external planners)."""

from __future__ import annotations

from stratpol.planning import sexpr
from stratpol.planning.task import Instance, State, atom_text


def problem_with_initial_state(instance: Instance, state: State) -> str:
    """The instance's PDDL text with its `(:init ...)` replaced by `state`.

    Everything else (typed objects, goal, metric) is kept byte for byte. Of the original
    init, static atoms and numeric assignments such as `(= (total-cost) 0)` stay.
    """
    text = instance.text
    block = sexpr.keyword_block(text, ":init")
    static = instance.domain.static_predicates
    kept = []
    for span in sexpr.top_level_spans(text, block.start + 1, block.end - 1):
        (expression,) = sexpr.parse(text[span.start:span.end])
        if expression and (expression[0] == "=" or expression[0] in static):
            kept.append(text[span.start:span.end])
    fluent = sorted(atom_text(atom) for atom in state.atoms)
    body = "\n    ".join(kept + fluent)
    return text[:block.start] + f"(:init\n    {body})" + text[block.end:]
