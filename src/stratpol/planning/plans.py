"""Plans: IPC plan files, and validation that trusts no search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.errors import InputError
from stratpol.planning import sexpr
from stratpol.planning.task import GroundAction, Instance, State, atom_text

Plan = tuple[GroundAction, ...]


@dataclass(frozen=True)
class PlanValidation:
    """Outcome of executing a plan from a state: valid or the first reason it is not."""

    valid: bool
    reason: str | None
    steps: int
    cost: float
    final_state: State

    def describe(self) -> str:
        if self.valid:
            return f"valid: {self.steps} steps, cost {self.cost:g}"
        return f"invalid: {self.reason}"


def validate_plan(instance: Instance, plan: Sequence[GroundAction], start: State | None = None) -> PlanValidation:
    """Apply each action after checking its precondition, then check the goal.

    Each action is re-grounded from its name and arguments and its precondition is evaluated
    in the current state, so a plan produced by a buggy search is still caught.
    """
    state = instance.initial_state if start is None else start
    cost = 0.0
    for step, named in enumerate(plan, start=1):
        try:
            action = instance.action(named.name, named.args)
        except InputError as error:
            return PlanValidation(False, f"step {step}: {error.message}", step - 1, cost, state)
        if not instance.is_applicable(state, action):
            return PlanValidation(False, f"step {step}: precondition of {action} does not hold", step - 1, cost, state)
        state, action_cost = instance.apply(state, action)
        cost += action_cost
    if not instance.is_goal(state):
        missing = sorted(
            ("" if lit.positive else "not ") + atom_text(lit.atom)
            for lit in instance.goal
            if (lit.atom in state.atoms or lit.atom in instance.static_atoms) != lit.positive
        )
        shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
        return PlanValidation(False, f"the goal does not hold at the end: {shown}", len(plan), cost, state)
    return PlanValidation(True, None, len(plan), cost, state)


def parse_plan(text: str, source: str | Path = "<plan>") -> Plan:
    """Read the actions of an IPC plan text: one `(name arg ...)` a line, `;` comments."""
    try:
        expressions = sexpr.parse(text)
    except ValueError as error:
        raise InputError(f"not an IPC plan: {error}", source) from None
    plan = []
    for number, expression in enumerate(expressions, start=1):
        if not isinstance(expression, list) or not expression or not all(isinstance(t, str) for t in expression):
            raise InputError(f"action {number} is not of the form (name arg ...)", source)
        plan.append(GroundAction(expression[0], tuple(expression[1:])))
    return tuple(plan)


def read_plan(path: str | Path) -> Plan:
    path = Path(path)
    if not path.is_file():
        raise InputError("plan file not found", path)
    return parse_plan(path.read_text(), path)


def format_plan(plan: Sequence[GroundAction], cost: float | None = None) -> str:
    """IPC plan text, with the cost comment planners write."""
    lines = [str(action) for action in plan]
    total = len(plan) if cost is None else cost
    unit = " (unit cost)" if cost is None or cost == len(plan) else " (general cost)"
    lines.append(f"; cost = {total:g}{unit}")
    return "\n".join(lines) + "\n"


def write_plan(path: str | Path, plan: Sequence[GroundAction], cost: float | None = None) -> None:
    """Write an IPC plan file atomically (a reader never sees half a plan)."""
    write_text_atomically(Path(path), format_plan(plan, cost))


def follow_plan_text(instance: Instance, text: str, start: State, planner: str) -> tuple[GroundAction, ...]:
    """Our ground actions for an external planner's IPC plan text.

    External planners lower-case every name while pymimir keeps the case of the PDDL, so each
    step is matched, ignoring case, against the actions applicable where the plan has got to. A
    step that matches none means the planner and pymimir disagree about the task: RuntimeError.
    """
    state, plan = start, []
    for number, step in enumerate(parse_plan(text, f"<{planner} plan>"), start=1):
        wanted = (step.name.lower(), tuple(a.lower() for a in step.args))
        for action in instance.applicable_actions(state):
            if (action.name.lower(), tuple(a.lower() for a in action.args)) == wanted:
                plan.append(action)
                state = instance.apply(state, action)[0]
                break
        else:
            raise RuntimeError(f"step {number} of {planner}'s plan, {step}, is not applicable in "
                               f"{instance.name} where the plan has got to: {planner} and pymimir disagree")
    return tuple(plan)
