"""Planners by name: the in-process pymimir searches and the Fast Downward configurations."""

from __future__ import annotations

from functools import partial

from stratpol.errors import InputError
from stratpol.planning import fast_downward, lapkt, search
from stratpol.planning.search import Planner

PLANNERS: dict[str, Planner] = {
    "siw": search.siw,  # SIW(2)
    "siw1": partial(search.siw, width=1),
    "iw1": partial(search.iw, width=1),
    "iw2": partial(search.iw, width=2),
    "gbfs": search.gbfs,  # lazy GBFS with FF
    "astar": search.astar,  # A* with hmax
    "astar-blind": partial(search.astar, heuristic="blind"),
    "bfs": search.breadth_first,
    "lapkt-siw": lapkt.lapkt_siw,  # LAPKT's SIW(2), the GENEX paper's teacher
    "bfws": lapkt.lapkt_bfws,  # LAPKT's DUAL-BFWS
    "lama-first": fast_downward.lama_first,
    "astar-lmcut": fast_downward.astar_lmcut,
    "fd-opt": fast_downward.merge_and_shrink,
}
"""Every planner takes (instance, start=None, time_limit=None, state_limit=None)."""


def planner(name: str) -> Planner:
    """The planner called `name`; an unknown name is the user's mistake."""
    try:
        return PLANNERS[name]
    except KeyError:
        raise InputError(f"unknown planner {name!r} (known: {', '.join(PLANNERS)})") from None


def planner_chain(names: str) -> list[Planner]:
    """The planners of a chain "a+b" (b is asked where a finds no plan), each by `planner`."""
    return [planner(name) for name in names.split("+")]
