"""In-process planners on pymimir: SIW(k), IW(k), lazy GBFS with FF, A* with hmax or blind, BrFS.

Each starts from any state of an instance, honours a time and a state limit, and returns one
`SearchResult`. A planner reports "unsolvable" only when that is proven: a complete search ran
out of states, or a safe heuristic (FF, hmax) is infinite. An incomplete planner (IW, SIW) that
gives up says "failed", which means unknown.
"""

from __future__ import annotations

import enum
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass

import pymimir
import pymimir.advanced.search as mimir_search

from stratpol.errors import InputError
from stratpol.planning.plans import Plan
from stratpol.planning.quiet import silenced_stdout
from stratpol.planning.task import Instance, State


class SearchStatus(enum.Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"  # proven: no plan exists from the start state
    LIMIT = "limit reached"  # time or state limit hit first
    FAILED = "failed"  # an incomplete planner gave up; says nothing about solvability


@dataclass(frozen=True)
class SearchResult:
    """What a planner did: status, plan and its cost when solved, expanded states, seconds."""

    planner: str
    status: SearchStatus
    plan: Plan | None
    cost: float | None
    expanded: int | None
    time: float

    @property
    def solved(self) -> bool:
        return self.status is SearchStatus.SOLVED

    def to_json(self) -> dict:
        """The result as JSON values (the plan as IPC action strings)."""
        return {"planner": self.planner, "status": self.status.value,
                "plan": None if self.plan is None else [str(action) for action in self.plan],
                "cost": self.cost, "expanded": self.expanded, "seconds": self.time}


Planner = Callable[..., SearchResult]

# -- limits for the width-based searches, which have no limit options of their own -------------


class _LimitReached(Exception):
    pass


class _BrFSLimits(mimir_search.IBrFSEventHandler):
    """Counts expansions of the breadth-first searches inside IW/SIW and stops them at a limit."""

    def __init__(self, deadline: float | None, state_limit: int | None) -> None:
        super().__init__()
        self.deadline = deadline
        self.state_limit = state_limit
        self.expanded = 0
        self._statistics = mimir_search.BrFSStatistics()

    def get_statistics(self) -> object:
        return self._statistics

    def on_expand_state(self, state: object) -> None:
        self.expanded += 1
        if self.state_limit is not None and self.expanded > self.state_limit:
            raise _LimitReached
        if self.deadline is not None and self.expanded % 128 == 0 and time.perf_counter() > self.deadline:
            raise _LimitReached

    def on_expand_goal_state(self, state: object) -> None: ...
    def on_generate_state(self, *args: object) -> None: ...
    def on_generate_state_in_search_tree(self, *args: object) -> None: ...
    def on_generate_state_not_in_search_tree(self, *args: object) -> None: ...
    def on_finish_g_layer(self, g_value: int) -> None: ...
    def on_start_search(self, state: object) -> None: ...
    def on_end_search(self, *args: object) -> None: ...
    def on_solved(self, plan: object) -> None: ...
    def on_unsolvable(self) -> None: ...
    def on_exhausted(self) -> None: ...


# -- heuristics are built once per instance ------------------------------------------------------

_heuristics: weakref.WeakKeyDictionary[Instance, dict[str, object]] = weakref.WeakKeyDictionary()

_HEURISTIC_TYPES = {"ff": pymimir.FFHeuristic, "hmax": pymimir.MaxHeuristic, "blind": pymimir.BlindHeuristic}


def _heuristic(instance: Instance, name: str) -> object:
    built = _heuristics.setdefault(instance, {})
    if name not in built:
        with silenced_stdout():  # building a delete relaxation prints the ground atoms
            built[name] = _HEURISTIC_TYPES[name](instance._problem)._advanced_heuristic
    return built[name]


def heuristic_value(instance: Instance, state: State, name: str = "ff") -> float:
    """Value of pymimir's heuristic `name` (ff, hmax, blind) in `state`; inf for proven dead ends."""
    return float(_heuristic(instance, name).compute_heuristic(state._mimir))


# -- the planners -------------------------------------------------------------------------------


def _status(raw: object, complete: bool) -> SearchStatus:
    name = raw.name
    if name == "SOLVED":
        return SearchStatus.SOLVED
    if name == "UNSOLVABLE" or (name == "EXHAUSTED" and complete):
        return SearchStatus.UNSOLVABLE
    if name in ("OUT_OF_TIME", "OUT_OF_STATES", "OUT_OF_MEMORY"):
        return SearchStatus.LIMIT
    return SearchStatus.FAILED


def _result(instance: Instance, planner: str, raw: object, complete: bool, expanded: int, started: float) -> SearchResult:
    status = _status(raw.status, complete)
    plan = cost = None
    if status is SearchStatus.SOLVED:
        plan = tuple(instance._action(a) for a in raw.plan.get_actions())
        cost = float(raw.plan.get_cost())
    return SearchResult(planner, status, plan, cost, expanded, time.perf_counter() - started)


def _limited(options: object, time_limit: float | None, state_limit: int | None) -> object:
    if time_limit is not None:
        options.max_time_in_ms = max(1, int(time_limit * 1000))
    if state_limit is not None:
        options.max_num_states = state_limit
    return options


def _start(instance: Instance, start: State | None) -> object:
    state = instance.initial_state if start is None else start
    if state.instance is not instance:
        raise ValueError("the start state belongs to another instance")
    return state._mimir


def gbfs(instance: Instance, start: State | None = None, time_limit: float | None = None,
         state_limit: int | None = None) -> SearchResult:
    """Lazy greedy best-first search with the FF heuristic (complete; FF-infinite states pruned)."""
    started = time.perf_counter()
    options = _limited(mimir_search.GBFSLazyOptions(), time_limit, state_limit)
    options.start_state = _start(instance, start)
    handler = mimir_search.DefaultGBFSLazyEventHandler(instance._problem._advanced_problem, True)
    options.event_handler = handler
    heuristic = _heuristic(instance, "ff")
    raw = mimir_search.find_solution_gbfs_lazy(instance._problem._search_context, heuristic, options)
    return _result(instance, "gbfs", raw, True, handler.get_statistics().get_num_expanded(), started)


def astar(instance: Instance, start: State | None = None, time_limit: float | None = None,
          state_limit: int | None = None, heuristic: str = "hmax") -> SearchResult:
    """Eager A* with an admissible heuristic (hmax or blind): optimal plans."""
    if heuristic not in ("hmax", "blind"):
        raise InputError(f"A* takes heuristic hmax or blind, not {heuristic!r}")
    started = time.perf_counter()
    options = _limited(mimir_search.AStarEagerOptions(), time_limit, state_limit)
    options.start_state = _start(instance, start)
    handler = mimir_search.DefaultAStarEagerEventHandler(instance._problem._advanced_problem, True)
    options.event_handler = handler
    raw = mimir_search.find_solution_astar_eager(instance._problem._search_context, _heuristic(instance, heuristic), options)
    return _result(instance, f"astar-{heuristic}", raw, True, handler.get_statistics().get_num_expanded(), started)


def breadth_first(instance: Instance, start: State | None = None, time_limit: float | None = None,
                  state_limit: int | None = None) -> SearchResult:
    """Breadth-first search: shortest plans in steps, and a proof of unsolvability when it runs dry."""
    started = time.perf_counter()
    options = _limited(mimir_search.BrFSOptions(), time_limit, state_limit)
    options.start_state = _start(instance, start)
    handler = mimir_search.DefaultBrFSEventHandler(instance._problem._advanced_problem, True)
    options.event_handler = handler
    raw = mimir_search.find_solution_brfs(instance._problem._search_context, options)
    return _result(instance, "bfs", raw, True, handler.get_statistics().get_num_expanded(), started)


class _TargetGoal(mimir_search.IGoalStrategy):
    """A search goal given by a Python test on states instead of the instance's goal."""

    def __init__(self, instance: Instance, is_target: Callable[[State], bool]) -> None:
        super().__init__()
        self.instance, self.is_target = instance, is_target

    def test_static_goal(self) -> bool:
        return True

    def test_dynamic_goal(self, mimir_state: object) -> bool:
        return self.is_target(State(self.instance, mimir_state))


def _width_search(kind: str, instance: Instance, start: State | None, width: int,
                  time_limit: float | None, state_limit: int | None,
                  is_target: Callable[[State], bool] | None = None) -> SearchResult:
    if width < 1:
        raise InputError(f"the width of {kind.upper()} must be at least 1, not {width}")
    started = time.perf_counter()
    options = mimir_search.SIWOptions() if kind == "siw" else mimir_search.IWOptions()
    options.start_state = _start(instance, start)
    options.max_arity = width
    deadline = None if time_limit is None else started + time_limit
    limits = _BrFSLimits(deadline, state_limit)
    options.brfs_event_handler = limits
    if is_target is not None:
        options.goal_strategy = _TargetGoal(instance, is_target)
    find = mimir_search.find_solution_siw if kind == "siw" else mimir_search.find_solution_iw
    try:
        raw = find(instance._problem._search_context, options)
    except _LimitReached:
        return SearchResult(f"{kind}{width}", SearchStatus.LIMIT, None, None, limits.expanded, time.perf_counter() - started)
    return _result(instance, f"{kind}{width}", raw, False, limits.expanded, started)


def siw(instance: Instance, start: State | None = None, time_limit: float | None = None,
        state_limit: int | None = None, width: int = 2) -> SearchResult:
    """Serialized IW(k): IW runs from each reached subgoal (incomplete: failure means unknown)."""
    return _width_search("siw", instance, start, width, time_limit, state_limit)


def iw(instance: Instance, start: State | None = None, time_limit: float | None = None,
       state_limit: int | None = None, width: int = 1) -> SearchResult:
    """IW(k): breadth-first search pruning states that make no tuple of size k new (incomplete)."""
    return _width_search("iw", instance, start, width, time_limit, state_limit)


def iw_to_target(instance: Instance, start: State, width: int, is_target: Callable[[State], bool],
                 time_limit: float | None = None, state_limit: int | None = None) -> SearchResult:
    """IW(k) from `start` until a state passing `is_target` (a subgoal, e.g. of a sketch)."""
    return _width_search("iw", instance, start, width, time_limit, state_limit, is_target)
