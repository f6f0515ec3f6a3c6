"""Plans found before, on disk by content: the learner's teacher and the neural teachers share it.

An entry is keyed by a hash of the domain text, the problem text, the start state and the
planner, so a rerun (or a run after an interrupt) asks no planner what it asked before. It holds
the plan (IPC text), or that the start is a proven dead end, or that the planner found no plan
within its time limit.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.planning.plans import format_plan, parse_plan
from stratpol.planning.task import GroundAction, Instance, State
from stratpol.provenance import content_hash

class Outcome(enum.Enum):
    PLAN = "plan"
    DEAD_END = "dead end"  # proven: no plan from the start
    UNSOLVED = "unsolved"  # the planner found no plan within its limit


@dataclass(frozen=True)
class CachedPlan:
    outcome: Outcome
    plan: tuple[GroundAction, ...] = ()  # the plan's actions, parsed; ground them with instance.action


class PlanCache:
    """Plans by content under `folder`; with `folder` None nothing is kept."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = None if folder is None else Path(folder)

    def _path(self, instance: Instance, start: State, planner_name: str) -> Path | None:
        if self.folder is None:
            return None
        key = content_hash(instance.domain.text, instance.text, repr(sorted(start.atoms)), planner_name)
        return self.folder / f"plan-{key}.txt"

    def get(self, instance: Instance, start: State, planner_name: str) -> CachedPlan | None:
        path = self._path(instance, start, planner_name)
        if path is None or not path.is_file():
            return None
        text = path.read_text()
        for outcome in (Outcome.DEAD_END, Outcome.UNSOLVED):
            if text.startswith(f"; {outcome.value}"):
                return CachedPlan(outcome)
        return CachedPlan(Outcome.PLAN, parse_plan(text))

    def put(self, instance: Instance, start: State, planner_name: str, outcome: Outcome,
            plan: tuple[GroundAction, ...] = (), cost: float | None = None) -> None:
        path = self._path(instance, start, planner_name)
        if path is not None:
            write_text_atomically(path, format_plan(plan, cost) if outcome is Outcome.PLAN else f"; {outcome.value}\n")
