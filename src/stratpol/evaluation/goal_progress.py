"""How far an unsolved run got towards the goal: the most goal literals it met and when, so that a
run stopped at a limit tells a policy still gaining goals (slow) from one that stopped gaining
(wandering)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stratpol.planning import GroundAction, Instance


@dataclass(frozen=True)
class GoalProgress:
    """`steps` taken; of the goal's `goals` fluent literals, the most that held in one state of the
    run (`most_met`) and the first step at which that many held (`most_met_at`, 0: the initial state)."""

    steps: int
    goals: int
    most_met: int
    most_met_at: int

    @property
    def stalled(self) -> bool:
        """Whether the run met no more goal literals in its second half than in its first: it was
        wandering, not slow, when a limit stopped it."""
        return self.steps > 0 and 2 * self.most_met_at <= self.steps


def goal_progress(instance: Instance, plan: Sequence[GroundAction]) -> GoalProgress:
    """The progress of `plan` from the initial state, replayed step by step."""
    state = instance.initial_state
    most_met, most_met_at = instance.fluent_goals_met(state), 0
    for step, action in enumerate(plan, start=1):
        state, _ = instance.apply(state, action)
        met = instance.fluent_goals_met(state)
        if met > most_met:
            most_met, most_met_at = met, step
    return GoalProgress(len(plan), instance.fluent_goal_count, most_met, most_met_at)
