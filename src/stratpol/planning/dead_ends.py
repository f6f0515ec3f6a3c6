"""Proven dead-end tests: a state is a dead end only when no plan from it can exist."""

from __future__ import annotations

import enum
import math

from stratpol.planning.search import SearchStatus, gbfs, heuristic_value
from stratpol.planning.task import Instance, State


class Solvability(enum.Enum):
    ALIVE = "alive"  # a plan from the state was found
    DEAD_END = "dead end"  # proven: FF is infinite or a complete search ran dry
    UNKNOWN = "unknown"  # a limit was reached before either was shown


def solvability(instance: Instance, state: State, time_limit: float | None = None,
                state_limit: int | None = None) -> Solvability:
    """Whether a goal is reachable from `state`, answered only with proof either way.

    FF is infinite exactly when the delete relaxation is unsolvable, which proves a dead end at
    once; otherwise complete lazy GBFS either finds a plan or exhausts the reachable states.
    """
    if instance.is_goal(state):
        return Solvability.ALIVE
    if math.isinf(heuristic_value(instance, state, "ff")):
        return Solvability.DEAD_END
    result = gbfs(instance, state, time_limit=time_limit, state_limit=state_limit)
    if result.status is SearchStatus.SOLVED:
        return Solvability.ALIVE
    if result.status is SearchStatus.UNSOLVABLE:
        return Solvability.DEAD_END
    return Solvability.UNKNOWN


def is_dead_end(instance: Instance, state: State, time_limit: float | None = None,
                state_limit: int | None = None) -> bool:
    """True only for proven dead ends; an unknown state is not called a dead end."""
    return solvability(instance, state, time_limit, state_limit) is Solvability.DEAD_END
